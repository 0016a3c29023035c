"""`licheck whatif` end to end: the done-when runs, golden terminal / JSON / SVG output of one
sweep, CSV, the published schema, and bad input (exit 2, a clear message, no traceback)."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.clirun import run
from tests.conftest import GOLDEN, ROOT

SWEEP = (
    "whatif",
    "products/composer2.yaml",
    "--set",
    "mau=50M",
    "--sweep",
    "monthly_revenue=1M..100M",
)
ATTRIBUTION = "composer-2/kimi-k2.5/kimi-k2.5-modified-mit/ui-attribution"


@pytest.fixture(autouse=True)
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # paths in the output are as typed: keep them relative


def whatif_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    code, out, err = run(capsys, *args, "--format", "json")
    assert code == 0, err
    return json.loads(out)  # type: ignore[no-any-return]


def check_golden(name: str, text: str, update: bool) -> None:
    path = GOLDEN / name
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: run pytest --update-golden"
    assert text == path.read_text(encoding="utf-8"), f"{name} differs from its golden file"


def test_revenue_boundary_at_20m(capsys: pytest.CaptureFixture[str]) -> None:
    report = whatif_json(capsys, *SWEEP)
    sweep = report["sweep"]
    (boundary,) = sweep["boundaries"]
    assert boundary["value"] == 20_000_000 and boundary["side"] == "below"
    assert (boundary["below"], boundary["above"]) == ("not_applicable", "governance_risk")
    assert boundary["changes"] == [
        {"finding": ATTRIBUTION, "below": "not_applicable", "above": "governance_risk"}
    ]
    low, high = sweep["intervals"]
    assert (low["upper"]["value"], low["upper"]["included"]) == (20_000_000, True)
    assert (high["lower"]["value"], high["lower"]["included"]) == (20_000_000, False)
    attribution = [
        {f["finding"]: f["verdict"] for f in i["findings"]}[ATTRIBUTION] for i in (low, high)
    ]
    assert attribution == ["not_applicable", "governance_risk"]


def test_mau_boundary_at_100m(capsys: pytest.CaptureFixture[str]) -> None:
    report = whatif_json(
        capsys,
        "whatif",
        "products/composer2.yaml",
        "--set",
        "monthly_revenue=5M",
        "--sweep",
        "mau=1M..1000M",
    )
    (boundary,) = report["sweep"]["boundaries"]
    assert boundary["value"] == 100_000_000
    assert (boundary["below"], boundary["above"]) == ("not_applicable", "governance_risk")
    assert report["sweep"]["axes"][0]["thresholds"][0]["tests"] == ["mau > 100M"]


def test_swap_base_shows_the_attribution_obligation_gone(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = whatif_json(
        capsys, "whatif", "products/composer2.yaml", "--swap-base", "kimi-k2.5=glm-5"
    )
    changes = {c["finding"]: c for c in report["changes"]}
    assert changes[ATTRIBUTION]["kind"] == "gone"
    assert changes[ATTRIBUTION]["baseline"] == "governance_risk"
    assert changes[ATTRIBUTION]["scenario"] is None
    assert not any(f["clause"] == "ui-attribution" for f in report["result"]["findings"])
    assert report["scenario"]["swaps"] == [{"old": "kimi-k2.5", "new": "glm-5"}]
    code, out, _ = run(
        capsys,
        "whatif",
        "products/composer2.yaml",
        "--swap-base",
        "moonshotai/Kimi-K2.5=zai-org/GLM-5",
    )  # aliases work too
    assert code == 0 and "gone" in out and "GLM-5" in out


def test_scenario_as_of_explains_the_licensors_statement(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report = whatif_json(
        capsys,
        "whatif",
        "products/composer2.yaml",
        "--as-of",
        "2026-03-19",
        "--scenario-as-of",
        "2026-03-20",
    )
    assert report["as_of"] == "2026-03-19" and report["scenario"]["as_of"] == "2026-03-20"
    change = {c["finding"]: c for c in report["changes"]}[ATTRIBUTION]
    facts = {f["fact"]: f for f in change["facts"]}
    assert (facts["agreement_waives"]["baseline"], facts["agreement_waives"]["scenario"]) == (
        "[]",
        "unknown",
    )  # Moonshot's terms are open again (as the Kimi clause reads it: MiniMax's are not shown)
    assert any("retracted on 2026-03-20" in e for e in facts["agreement_waives"]["evidence"])
    assert change["opened"] == ["agreement_waives"]
    code, out, _ = run(
        capsys,
        "whatif",
        "products/composer2.yaml",
        "--as-of",
        "2026-03-19",
        "--scenario-as-of",
        "2026-03-20",
    )
    assert code == 0 and "now missing: agreement_waives" in out


def test_evaluate_as_of_says_which_evidence_was_not_counted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, before, _ = run(capsys, "evaluate", "products/composer2.yaml", "--as-of", "2026-03-19")
    assert code == 0
    code, after, _ = run(capsys, "evaluate", "products/composer2.yaml", "--as-of", "2026-03-20")
    assert before != after
    flat = " ".join(before.split())
    assert "[ignored: dated after --as-of 2026-03-19]" in flat
    assert "[ignored: retracted on 2026-03-20]" in " ".join(after.split())


def test_json_output_follows_the_published_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, schema_text, _ = run(capsys, "schema", "whatif")
    assert code == 0
    schema = json.loads(schema_text)
    validator = jsonschema.Draft202012Validator(schema)
    for args in (
        SWEEP,
        (
            "whatif",
            "products/composer2.yaml",
            "--sweep",
            "mau=1M..1000M",
            "--sweep",
            "monthly_revenue=1M..100M",
        ),
        ("whatif", "products/composer2.yaml", "--swap-base", "kimi-k2.5=glm-5"),
    ):
        validator.validate(whatif_json(capsys, *args))
    with pytest.raises(jsonschema.ValidationError):
        validator.validate({"schema_version": "1.0"})


def test_shipped_schema_matches_the_model() -> None:
    from licheck.schemas import dumps, generate, shipped

    assert shipped("whatif") == dumps(generate("whatif")), "run python -m licheck.schemas"


def test_two_fact_map_in_json_and_csv(capsys: pytest.CaptureFixture[str]) -> None:
    args = (
        "whatif",
        "products/composer2.yaml",
        "--set",
        "derivative=true",
        "--set",
        "agreement_waives=[]",
        "--sweep",
        "mau=1M..1000M",
        "--sweep",
        "monthly_revenue=1M..100M",
    )
    report = whatif_json(capsys, *args)
    regions = [(r["x"]["label"], r["y"]["label"], r["verdict"]) for r in report["sweep"]["regions"]]
    assert regions == [
        ("[1M, 100M]", "[1M USD/month, 20M USD/month]", "not_applicable"),
        ("(100M, 1B]", "[1M USD/month, 20M USD/month]", "violation"),
        ("[1M, 100M]", "(20M USD/month, 100M USD/month]", "violation"),
        ("(100M, 1B]", "(20M USD/month, 100M USD/month]", "violation"),
    ]
    code, out, _ = run(capsys, *args, "--format", "csv")
    assert code == 0
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0][:9] == [
        "mau_lower",
        "mau_lower_included",
        "mau_upper",
        "mau_upper_included",
        "monthly_revenue_lower",
        "monthly_revenue_lower_included",
        "monthly_revenue_upper",
        "monthly_revenue_upper_included",
        "verdict",
    ]
    assert rows[1][:9] == [
        "1000000",
        "true",
        "100000000",
        "true",
        "1000000",
        "true",
        "20000000",
        "true",
        "not_applicable",
    ]
    assert len(rows) == 5


def test_csv_of_a_sweep_and_without_one(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, *SWEEP, "--format", "csv")
    rows = list(csv.reader(io.StringIO(out)))
    assert code == 0 and rows[0][-1] == ATTRIBUTION
    assert [r[4] for r in rows[1:]] == ["not_applicable", "governance_risk"]
    code, out, _ = run(
        capsys, "whatif", "products/composer2.yaml", "--set", "mau=150M", "--format", "csv"
    )
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["finding", "baseline", "scenario", "change"]
    assert [ATTRIBUTION, "governance_risk", "governance_risk", "changed"] in rows


def test_golden_terminal_output(capsys: pytest.CaptureFixture[str], update_golden: bool) -> None:
    code, out, err = run(capsys, *SWEEP)
    assert code == 0, err
    check_golden("whatif_sweep.txt", out, update_golden)


def test_golden_json_output(capsys: pytest.CaptureFixture[str], update_golden: bool) -> None:
    code, out, err = run(capsys, *SWEEP, "--format", "json")
    assert code == 0, err
    check_golden("whatif_sweep.json", out, update_golden)


def test_golden_svg_output(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, update_golden: bool
) -> None:
    plot = tmp_path / "sweep.svg"
    code, _, err = run(capsys, *SWEEP, "--plot", str(plot))
    assert code == 0, err
    text = plot.read_text(encoding="utf-8")
    assert text.startswith("<svg") and "20M USD/month" in text
    check_golden("whatif_sweep.svg", text, update_golden)


def test_map_svg_draws_both_thresholds(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    plot = tmp_path / "map.svg"
    code, out, _ = run(
        capsys,
        "whatif",
        "products/composer2.yaml",
        "--sweep",
        "mau=1M..1000M",
        "--sweep",
        "monthly_revenue=1M..100M",
        "--plot",
        str(plot),
    )
    svg = plot.read_text(encoding="utf-8")
    assert code == 0 and "Region map" in out
    assert "mau &gt; 100M" in svg and "monthly_revenue &gt; 20M USD/month" in svg
    assert svg.count("stroke-dasharray") == 2


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("--set", "mao=5M"), "did you mean 'mau'"),
        (("--set", "mau=lots"), "expected a count"),
        (("--set", "monthly_revenue=5M EUR"), "no exchange rate for EUR"),
        (("--sweep", "commercial=true..false"), "only quantities"),
        (("--sweep", "mau=1M..2M", "--sweep", "mau=3M..4M"), "given twice"),
        (
            (
                "--sweep",
                "mau=1M..2M",
                "--sweep",
                "monthly_revenue=1M..2M",
                "--sweep",
                "licensee_mau=1..2",
            ),
            "one or two facts",
        ),
        (("--swap-base", "llama=glm-5"), "unknown model 'llama'"),
        (("--sweep", "mau=1M..2M", "--sweep", "licensee_mau=1M..2M"), "bound each other"),
        (("--plot", "x.svg"), "--plot draws a sweep"),
        (("--sweep", "mau=1M..2M", "--plot", "/nonexistent/x.svg"), "Invalid value for --plot"),
        (("--scenario-as-of", "2026-13-01"), "out of range"),
    ],
)
def test_bad_input_exits_2_with_a_reason(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], words: str
) -> None:
    code, out, err = run(capsys, "whatif", "products/composer2.yaml", *args)
    assert code == 2
    assert words in err
    assert "Traceback" not in err and out == ""


def test_bad_manifest_is_located(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("product: x\nowner: y\ncomponents: []\n", encoding="utf-8")
    code, _, err = run(capsys, "whatif", str(path), "--set", "mau=5M")
    assert code == 2 and f"{path}:" in err


def test_a_wrapped_next_fact_continues_under_the_fact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, *SWEEP)
    assert code == 0, err
    section = out.partition("What to find out next")[2].splitlines()[1:]
    headings = [i for i, line in enumerate(section) if re.match(r"\d+\. ", line)]
    assert headings
    heading_or_finding = re.compile(r"\d+\. |     ")
    wrapped = [section[i + 1] for i in headings if not heading_or_finding.match(section[i + 1])]
    assert wrapped  # the golden run wraps the second heading at 100 columns
    for line in wrapped:
        assert line.startswith("   ") and not line.startswith("    "), line
