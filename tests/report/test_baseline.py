"""`--baseline REPORT.json`: a real baseline written by licheck, then manifests changed so that
one finding is worse, one new and one fixed; only new and worse findings fail the gate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from licheck.core.diagnostics import InputError
from licheck.core.verdicts import Verdict
from licheck.report import baseline
from licheck.report.baseline import MAX_BASELINE_BYTES, Entry, status_of
from licheck.report.digest import product_digest, report_digest
from tests.clirun import run

HEAD = """format: 2
product: {product}
owner: Example Corp
sources:
  own: {{title: Our own figures, kind: observed, date: 2026-01-10}}
"""
KIMI = """facts:
  commercial: {{value: true, evidence: [{{source: own}}]}}
  mau: {mau}
  monthly_revenue: {{value: unknown}}
  ui_attribution: {{excludes: [Kimi K2.5], evidence: [{{source: own}}]}}
agreements: none
components:
  - id: chat
    name: Chat
    delivery: [hosted_service]
    lineage:
      base: {{model: kimi-k2.5, evidence: [{{source: own}}]}}
      steps: [{{kind: fine_tuning, evidence: [{{source: own}}]}}]
"""
UNDISCLOSED = """facts:
  commercial: {value: true, evidence: [{source: own}]}
components:
  - id: coder
    name: Coder
    delivery: [hosted_service]
    lineage:
      base: {model: unknown, evidence: [{source: own}]}
"""
# GLM-4.6: MIT by its own README (GLM-5's MIT rests on secondary sources: a risk of its own)
DISCLOSED = UNDISCLOSED.replace("model: unknown", "model: glm-4.6")
MAU_UNKNOWN = "{value: unknown}"
MAU_HIGH = "{value: 200M, evidence: [{source: own}]}"


def _write(folder: Path, name: str, product: str, body: str) -> None:
    (folder / name).write_text(HEAD.format(product=product) + body, encoding="utf-8")


@pytest.fixture
def portfolio(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """Two products and their baseline report (written by licheck), then changed: Alpha's
    display duty from a risk to a violation (worse), Beta's undisclosed base disclosed (its risk
    fixed), and a new product Gamma with a risk (new)."""
    folder = tmp_path / "products"
    folder.mkdir()
    _write(folder, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_UNKNOWN))
    _write(folder, "beta.yaml", "Beta", UNDISCLOSED)
    code, _, err = run(
        capsys, "check", str(folder), "-f", "json", "-o", str(tmp_path / "base.json"),
        "--fail-on", "never", "--no-waivers",
    )  # fmt: skip
    assert code == 0, err
    _write(folder, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_HIGH))
    _write(folder, "beta.yaml", "Beta", DISCLOSED)
    _write(folder, "gamma.yaml", "Gamma", KIMI.format(mau=MAU_UNKNOWN))
    return tmp_path


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object]]:
    code, out, err = run(capsys, *argv, "-f", "json", "--no-waivers")
    assert code in (0, 1), err
    return code, json.loads(out)


def _statuses(report: dict[str, object]) -> dict[tuple[str, str], str]:
    products = report["products"]
    assert isinstance(products, list)
    return {
        (p["product"], f["clause"]): f["baseline"]["status"]
        for p in products
        for f in p["findings"]
        if f["verdict"] in ("violation", "governance_risk")
    }


def test_worse_new_and_fixed_are_told_apart(
    portfolio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = str(portfolio / "base.json")
    code, report = _json(capsys, "check", str(portfolio / "products"), "--baseline", base)
    assert _statuses(report) == {
        ("Alpha", "ui-attribution"): "worse",
        ("Gamma", "ui-attribution"): "new",
    }
    compared = report["baseline"]
    assert isinstance(compared, dict)
    assert compared["counts"] == {"new": 1, "worse": 1, "unchanged": 0, "improved": 0, "fixed": 1}
    assert [(g["product"], g["clause"], g["verdict"]) for g in compared["gone"]] == [
        ("Beta", "base-undisclosed", "governance_risk")
    ]
    assert code == 1  # Alpha's violation is worse than the baseline's risk


def test_exit_codes_under_fail_on(portfolio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = portfolio / "products"
    base = str(portfolio / "base.json")
    # Alpha back to its baseline state: only Gamma's new risk is left to fail
    _write(folder, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_UNKNOWN))
    assert run(capsys, "check", str(folder), "--baseline", base, "--no-waivers")[0] == 0
    code, out, _ = run(
        capsys, "check", str(folder), "--baseline", base, "--fail-on", "risk", "--no-waivers"
    )
    assert code == 1
    assert "Gate (--fail-on risk): FAILS (worst new or worse finding not waived" in out
    # Gamma removed: the remaining risk (Alpha's) is unchanged and fails nothing...
    (folder / "gamma.yaml").unlink()
    args = ("check", str(folder), "--fail-on", "risk", "--no-waivers")
    assert run(capsys, *args, "--baseline", base)[0] == 0
    # ...while without the baseline it fails the same gate
    assert run(capsys, *args)[0] == 1


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
def test_evaluate_takes_a_baseline(portfolio: Path, capsys: pytest.CaptureFixture[str]) -> None:
    alpha = str(portfolio / "products" / "alpha.yaml")
    base = str(portfolio / "base.json")
    code, out, err = run(capsys, "evaluate", alpha, "--baseline", base, "--no-waivers")
    assert code == 1
    assert "[worse, was governance risk]" in out
    # Beta is not evaluated: its risk is not compared, so not "fixed" (nor gone)
    assert "Baseline " in out and "0 fixed" in out and "gone" not in out
    assert "1 of the baseline's products with violations or risks are not in this run" in err


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("sarif", '"baselineState": "updated"'),
        ("sarif", '"baselineState": "new"'),
        ("compact", "violation [worse, was governance risk]"),
        ("markdown", "governance risk (new)"),
        ("junit", "[worse, was governance risk]"),
        ("github", "[new]"),
        ("text", "fixed, gone: Beta / coder: unknown/base-undisclosed"),
    ],
)
def test_every_format_shows_the_comparison(
    portfolio: Path, capsys: pytest.CaptureFixture[str], fmt: str, expected: str
) -> None:
    base = str(portfolio / "base.json")
    argv = ("check", str(portfolio / "products"), "--baseline", base, "-f", fmt, "--no-waivers")
    code, out, err = run(capsys, *argv)
    assert code == 1, err
    assert expected in out


def test_junit_skips_what_the_baseline_accepts(
    portfolio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = portfolio / "products"
    _write(folder, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_UNKNOWN))
    argv = ("check", str(folder), "--baseline", str(portfolio / "base.json"), "-f", "junit")
    _, out, _ = run(capsys, *argv, "--fail-on", "risk", "--no-waivers")
    assert '<skipped message="governance risk (unchanged): ' in out


def test_an_unchanged_baseline_passes_every_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_HIGH))  # a violation
    manifest, base = str(tmp_path / "alpha.yaml"), str(tmp_path / "base.json")
    run(capsys, "evaluate", manifest, "-f", "json", "-o", base, "--no-waivers")
    code, report = _json(capsys, "evaluate", manifest, "--baseline", base, "--fail-on", "risk")
    assert code == 0
    assert _statuses(report) == {("Alpha", "ui-attribution"): "unchanged"}


def test_a_waived_baseline_finding_is_not_accepted() -> None:
    """A waiver accepted it in the baseline, not the baseline: when the waiver stops applying,
    it counts as new."""
    entry = Entry("P", "p.yaml", "c", "m", "l", "x", Verdict.VIOLATION, waived=True)
    assert status_of(Verdict.VIOLATION, entry) == "new"
    assert status_of(Verdict.SATISFIED, entry) == "fixed"


@pytest.mark.parametrize(
    ("before", "now", "status"),
    [
        (Verdict.GOVERNANCE_RISK, Verdict.VIOLATION, "worse"),
        (Verdict.SATISFIED, Verdict.GOVERNANCE_RISK, "worse"),
        (Verdict.NOT_APPLICABLE, Verdict.SATISFIED, "worse"),
        (Verdict.VIOLATION, Verdict.GOVERNANCE_RISK, "improved"),
        (Verdict.SATISFIED, Verdict.NOT_APPLICABLE, "improved"),
        (Verdict.VIOLATION, Verdict.SATISFIED, "fixed"),
        (Verdict.GOVERNANCE_RISK, Verdict.NOT_APPLICABLE, "fixed"),
        (Verdict.VIOLATION, Verdict.VIOLATION, "unchanged"),
    ],
)
def test_the_verdict_order(before: Verdict, now: Verdict, status: str) -> None:
    entry = Entry("P", "p.yaml", "c", "m", "l", "x", before, waived=False)
    assert status_of(now, entry) == status


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
def test_products_match_by_name_not_by_path(
    portfolio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same products checked through another path still match the baseline."""
    folder = portfolio / "products"
    _write(folder, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_UNKNOWN))
    _, _, err = run(
        capsys, "check", f"{folder}/.", "--baseline", str(portfolio / "base.json"), "--no-waivers"
    )
    assert "another manifest path" not in err  # the same paths, written otherwise
    moved = portfolio / "moved"
    folder.rename(moved)
    _, report = _json(capsys, "check", str(moved), "--baseline", str(portfolio / "base.json"))
    assert _statuses(report)[("Alpha", "ui-attribution")] == "unchanged"
    # said, since a product of the same name elsewhere (another team's) would match too
    _, _, err = run(
        capsys, "check", str(moved), "--baseline", str(portfolio / "base.json"), "--no-waivers"
    )
    assert "at another manifest path than in the baseline: 'Alpha', 'Beta'" in err


BAD_BASELINES = [
    ("", "the file is empty"),
    ('{"tool": "licheck", "schema_version": "1.0", "products": [', "not valid JSON"),
    ("[1, 2]", "expected a JSON object"),
    ('{"version": "2.1.0", "runs": []}', "a SARIF log"),
    ('{"tool": "other", "products": []}', "not a licheck JSON report"),
    ('{"tool": "licheck", "schema_version": "3.0", "tool_version": "9"}', "schema version '3.0'"),
    (
        '{"tool": "licheck", "schema_version": "1.0", "tool_version": "0.1.0", '
        '"evidence_policy": "default", "as_of": null, "products": [{"product": "A", "file": '
        '"a.yaml", "findings": [{"component": "c", "model": "m", "license": "l", "clause": "x", '
        '"verdict": "bad"}]}]}',
        "products[0].findings[0].verdict",
    ),
    ("\xff\xfe", "not UTF-8"),
    ('{"tool": "licheck", "n": ' + "9" * 5000 + "}", "not valid JSON"),
    ("[" * 100_000, "levels deep: too deep to read"),
]


@pytest.mark.parametrize(("content", "message"), BAD_BASELINES)
def test_a_bad_baseline_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    _write(tmp_path, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_UNKNOWN))
    base = tmp_path / "base.json"
    base.write_bytes(content.encode("latin-1") if content.startswith("\xff") else content.encode())
    for command in ("check", "evaluate"):
        code, out, err = run(capsys, command, str(tmp_path / "alpha.yaml"), "--baseline", str(base))
        assert code == 2
        assert out == ""
        assert f"{base}" in err and message in err
        assert "Traceback" not in err


def test_a_missing_baseline_or_a_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_UNKNOWN))
    manifest = str(tmp_path / "alpha.yaml")
    code, _, err = run(capsys, "check", manifest, "--baseline", str(tmp_path / "none.json"))
    assert code == 2 and "no such file" in err
    code, _, err = run(capsys, "check", manifest, "--baseline", str(tmp_path))
    assert code == 2


def test_the_baseline_is_never_overwritten(
    portfolio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = portfolio / "base.json"
    before = base.read_bytes()
    argv = ("check", str(portfolio / "products"), "--baseline", str(base), "-o", str(base))
    code, _, err = run(capsys, *argv)
    assert code == 2 and "base.json" in err
    assert base.read_bytes() == before


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
def test_a_baseline_of_other_products_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _write(tmp_path, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_UNKNOWN))
    _write(tmp_path, "other.yaml", "Other", KIMI.format(mau=MAU_UNKNOWN))
    base = str(tmp_path / "base.json")
    run(capsys, "evaluate", str(tmp_path / "other.yaml"), "-f", "json", "-o", base)
    _, _, err = run(capsys, "evaluate", str(tmp_path / "alpha.yaml"), "--baseline", base)
    assert "no finding of this run matches one of the baseline" in err
    _, _, err = run(
        capsys, "evaluate", str(tmp_path / "other.yaml"), "--baseline", base, "--evidence",
        "estimates",
    )  # fmt: skip
    assert "evidence policy 'default', this run with 'estimates'" in err


@pytest.mark.parametrize("command", ["check", "evaluate"])
def test_a_manifest_broken_since_the_baseline_is_not_counted_fixed(
    portfolio: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """Beta's manifest broken after the baseline: its risk was not re-evaluated, so it is
    neither gone nor fixed; the run exits 2 and says why on stderr.  `evaluate` is given the
    three manifests, the broken one in the middle."""
    folder = portfolio / "products"
    (folder / "beta.yaml").write_text("format: 2\nproduct: [Beta\n", encoding="utf-8")
    names = ("alpha.yaml", "beta.yaml", "gamma.yaml")
    paths = [str(folder)] if command == "check" else [str(folder / name) for name in names]
    code, out, err = run(
        capsys, command, *paths, "-f", "json", "--no-waivers",
        "--baseline", str(portfolio / "base.json"),
    )  # fmt: skip
    assert code == 2, err
    report = json.loads(out)
    assert [e["file"].endswith("beta.yaml") for e in report["errors"]] == [True]
    assert _statuses(report) == {
        ("Alpha", "ui-attribution"): "worse",
        ("Gamma", "ui-attribution"): "new",
    }
    gone = report["baseline"]["gone"]
    assert not [g for g in gone if g["file"].endswith("beta.yaml")], gone
    assert "could not read" in err


def _edit(path: Path, change: object, *, stamp: bool = False) -> None:
    """`change` the report at `path`; `stamp`: with its digest recomputed, as a licheck that
    found what the change says would have written it."""
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)  # type: ignore[operator]
    if stamp:
        data["digest"] = report_digest(data, (product_digest(p) for p in data["products"]))
    path.write_text(json.dumps(data), encoding="utf-8")


def test_a_hand_written_baseline_accepts_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A violation the baseline never had, added to it by hand (or a whole baseline typed in),
    is refused, not passed as "unchanged"."""
    _write(tmp_path, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_HIGH))
    alpha = str(tmp_path / "alpha.yaml")
    base = tmp_path / "base.json"
    run(capsys, "evaluate", alpha, "-f", "json", "-o", str(base), "--fail-on", "never")

    def regrade(data: dict[str, Any]) -> None:  # the violation marked as the baseline's
        for f in data["products"][0]["findings"]:
            f["verdict"] = "violation"

    ok = tmp_path / "ok.json"
    run(capsys, "evaluate", alpha, "-f", "json", "-o", str(ok), "--fail-on", "never")
    _edit(base, regrade)
    code, _, err = run(capsys, "evaluate", alpha, "--baseline", str(base), "--no-waivers")
    assert code == 2 and "do not add up to the report's counts" in err, err
    typed = tmp_path / "typed.json"
    finding = {"component": "chat", "model": "kimi-k2.5", "license": "kimi-k2.5-modified-mit",
               "clause": "ui-attribution", "verdict": "violation"}  # fmt: skip
    typed.write_text(json.dumps({
        "tool": "licheck", "schema_version": "1.0", "tool_version": "0.1.0",
        "evidence_policy": "default", "as_of": None,
        "products": [{"product": "Alpha", "file": "x", "findings": [finding]}],
    }), encoding="utf-8")  # fmt: skip
    code, _, err = run(capsys, "evaluate", alpha, "--baseline", str(typed), "--no-waivers")
    assert code == 2, err
    code, _, err = run(capsys, "evaluate", alpha, "--baseline", str(ok), "--no-waivers")
    assert code == 0, err  # the report licheck wrote is read, with a byte-order mark too
    ok.write_bytes(b"\xef\xbb\xbf" + ok.read_bytes())
    code, _, err = run(capsys, "evaluate", alpha, "--baseline", str(ok), "--no-waivers")
    assert code == 0, err


def test_a_clause_whose_text_changed_is_new(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The baseline accepted another text of the clause (another rule library): new, said."""
    _write(tmp_path, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_HIGH))
    alpha = str(tmp_path / "alpha.yaml")
    base = tmp_path / "base.json"
    # 1.0: the quote in the finding, where `_edit` stamps it (2.0's table: tests/report/test_leaner)
    run(capsys, "evaluate", alpha, "-f", "json", "-o", str(base), "--fail-on", "never",
        "--json-schema", "1.0")  # fmt: skip

    def reword(data: dict[str, Any]) -> None:
        for f in data["products"][0]["findings"]:
            if f["clause"] == "ui-attribution":
                f["quote"] = f["quote"].replace("100 million", "500 million")

    _edit(base, reword, stamp=True)  # as a licheck with another rule library wrote it
    code, out, err = run(
        capsys, "evaluate", alpha, "--baseline", str(base), "--no-waivers", "-f", "compact"
    )
    assert code == 1 and "violation [new]" in out, out
    assert "the clause text of 1 finding(s) differs from the baseline's" in err


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
def test_products_not_in_the_run_are_not_fixed(
    portfolio: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Checking one manifest against a portfolio's baseline: the others are not "fixed"."""
    gamma = str(portfolio / "products" / "gamma.yaml")
    base = str(portfolio / "base.json")
    _, out, err = run(capsys, "check", gamma, "--baseline", base, "-f", "json", "--no-waivers")
    compared = json.loads(out)["baseline"]
    assert compared["counts"]["fixed"] == 0 and compared["gone"] == []
    assert "2 of the baseline's products with violations or risks are not in this run" in err


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ('{"tool": "licheck", "tool": "other"}', "the key 'tool' twice"),
        ('{"tool": "licheck", "n": NaN}', "NaN is not JSON"),
    ],
)
def test_duplicate_keys_and_nan_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, said: str
) -> None:
    _write(tmp_path, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_HIGH))
    base = tmp_path / "base.json"
    base.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "evaluate", str(tmp_path / "alpha.yaml"), "--baseline", str(base))
    assert code == 2 and said in err, err


def test_a_baseline_of_another_rule_library_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A baseline evaluated over a layered library, compared with a run over the built-in one
    (or the other way round): verdicts may differ for that alone, and the run says so."""
    _write(tmp_path, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_HIGH))
    alpha = str(tmp_path / "alpha.yaml")
    layer = tmp_path / "layer"
    layer.mkdir()
    (layer / "catalog.yaml").write_text(
        "models:\n  - id: acme-coder\n    name: Acme Coder\n    license: mit\n"
        "    source: model card\n",
        encoding="utf-8",
    )
    base = str(tmp_path / "base.json")
    code, _, err = run(
        capsys, "evaluate", alpha, "--licenses", str(layer), "-f", "json", "-o", base,
        "--fail-on", "never",
    )  # fmt: skip
    assert code == 0, err
    _, _, err = run(capsys, "evaluate", alpha, "--baseline", base, "--no-waivers")
    assert "another rule library" in err
    _, _, err = run(
        capsys, "evaluate", alpha, "--baseline", base, "--no-waivers", "--licenses", str(layer)
    )
    assert "another rule library" not in err


@pytest.mark.parametrize("size", [MAX_BASELINE_BYTES + 1, 500 * 1000 * 1000])
def test_a_baseline_over_the_size_limit_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], size: int
) -> None:
    """The issue's 500 MB baseline (a sparse file: no disk used) ends in a located error, not
    in MemoryError (exit 3); the limit is the one docs/baselines.md states."""
    _write(tmp_path, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_HIGH))
    base = tmp_path / "base.json"
    with base.open("wb") as stream:
        stream.truncate(size)
    code, out, err = run(capsys, "check", str(tmp_path / "alpha.yaml"), "--baseline", str(base))
    assert code == 2 and out == ""
    assert f"{base}: error: file is too large ({size:,} bytes; the limit is 134,217,728)" in err
    assert "128 MiB" in (Path(__file__).parents[2] / "docs" / "baselines.md").read_text()


def test_a_baseline_memory_cannot_hold_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path, "alpha.yaml", "Alpha", KIMI.format(mau=MAU_HIGH))
    alpha = str(tmp_path / "alpha.yaml")
    base = tmp_path / "base.json"
    run(capsys, "evaluate", alpha, "-f", "json", "-o", str(base), "--fail-on", "never")

    def exhausted(*args: object, **kwargs: object) -> object:
        raise MemoryError

    monkeypatch.setattr(json, "loads", exhausted)  # the reader's json is this module
    code, _, err = run(capsys, "evaluate", alpha, "--baseline", str(base))
    assert code == 2 and "too large to read in memory" in err and "Traceback" not in err


def test_reading_keeps_only_what_a_comparison_reads(tmp_path: Path) -> None:
    """The parts a comparison never reads are dropped as they are parsed (the memory bound),
    and a key named twice inside them is still refused."""
    report = {"tool": "licheck", "products": [{"findings": [{"facts": [1], "clause": "x"}]}]}
    kept = baseline._parse(json.dumps(report), "r.json")
    assert kept == {"tool": "licheck", "products": [{"findings": [{"clause": "x"}]}]}
    with pytest.raises(InputError, match="the key 'a' twice"):
        baseline._parse('{"facts": {"a": 1, "a": 2}}', "r.json")


# the 1.0 report (its findings carry their quotes); a 2.0 baseline: tests/report/test_leaner.py
GOLDEN_REPORT = Path(__file__).parents[1] / "golden" / "portfolio.v1.json"
FIELDS = ("component", "model", "license", "clause", "quote", "verdict", "waived", "product")


@pytest.mark.slow
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_any_edit_of_what_a_comparison_reads_is_refused(
    tmp_path: Path, data: st.DataObject
) -> None:
    """One value of a finding changed, or two findings' values swapped: refused (the counts or
    the digest), whatever the field; the same report reformatted is read."""
    report = json.loads(GOLDEN_REPORT.read_text(encoding="utf-8"))
    findings = [(p, f) for p in report["products"] for f in p["findings"]]
    field = data.draw(st.sampled_from(FIELDS))
    (p1, f1), (p2, f2) = data.draw(st.permutations(findings))[:2]

    def value(product: dict[str, Any], finding: dict[str, Any]) -> Any:
        return product[field] if field == "product" else finding.get(field)

    target = p1 if field == "product" else f1
    if data.draw(st.booleans()) and value(p1, f1) != value(p2, f2):  # swapped
        other = p2 if field == "product" else f2
        target[field], other[field] = value(p2, f2), value(p1, f1)
    else:
        values: st.SearchStrategy[Any] = {
            "verdict": st.sampled_from([v.value for v in Verdict]),
            "waived": st.booleans(),
        }.get(field, st.text(max_size=8))
        before = value(p1, f1)
        target[field] = data.draw(values.filter(lambda v: v != before))
    path = tmp_path / "edited.json"
    indent = data.draw(st.sampled_from([None, 1, 2, 4]))
    path.write_text(json.dumps(report, indent=indent, sort_keys=data.draw(st.booleans())))
    with pytest.raises(InputError, match=r"digest does not match|do not add up"):
        baseline.load(path)
    original = json.loads(GOLDEN_REPORT.read_text(encoding="utf-8"))
    path.write_text(json.dumps(original, indent=indent, ensure_ascii=data.draw(st.booleans())))
    assert len(baseline.load(path).entries) == sum(len(p["findings"]) for p in original["products"])


def test_json_denser_than_a_report_is_refused_unread(tmp_path: Path) -> None:
    """Millions of tiny values take twenty times their text once parsed: a file far denser than
    any licheck report is refused before parsing; a real report minified (the densest a report
    gets) is read."""
    dense = tmp_path / "dense.json"
    dense.write_text('{"tool": "licheck", "x": [' + ",".join(["{}"] * 600_000) + "]}")
    with pytest.raises(InputError, match="denser than any licheck report"):
        baseline.load(dense)
    report = json.loads(GOLDEN_REPORT.read_text(encoding="utf-8"))
    products = report["products"]
    report["products"] = [
        {**p, "product": f"{p['product']} {n}"} for n in range(120) for p in products
    ]
    summary = report["summary"]
    summary["products"] = len(report["products"])
    summary["findings"] = sum(len(p["findings"]) for p in report["products"])
    summary["counts"] = {key: value * 120 for key, value in summary["counts"].items()}
    report["digest"] = report_digest(report, (product_digest(p) for p in report["products"]))
    minified = tmp_path / "minified.json"
    minified.write_text(json.dumps(report, separators=(",", ":"), ensure_ascii=False))
    assert minified.stat().st_size > baseline.DENSE_FLOOR
    assert len(baseline.load(minified).entries) == summary["findings"]
