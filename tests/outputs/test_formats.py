"""The CI formats: SARIF against the official schema, JUnit parses and follows the gate rule,
GitHub annotations escape, Markdown cells are safe, every format is byte-for-byte deterministic
(also across hash seeds, in fresh processes)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from licheck.outputs import FORMATS, Format, RenderOptions, render
from licheck.outputs.github import command, escape_data, escape_property
from licheck.outputs.markdown import cell
from tests.clirun import report_json, run
from tests.conftest import PRODUCTS, REFERENCE, ROOT

SARIF_SCHEMA = REFERENCE / "schemas" / "sarif-schema-2.1.0.json"
WAIVERS = "tests/data/waivers/composer2.yaml"


@pytest.fixture(autouse=True)
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def output(capsys: pytest.CaptureFixture[str], fmt: str, *extra: str) -> str:
    waivers = () if "--waivers" in extra else ("--no-waivers",)
    code, out, err = run(capsys, "check", "products/composer2.yaml", "-f", fmt, *waivers, *extra)
    assert code in (0, 1), err
    return out


def test_format_choices_match_the_registry() -> None:
    from licheck.cli.request import FORMAT_CHOICES

    assert FORMAT_CHOICES == FORMATS


def test_every_format_renders() -> None:
    from licheck.api import check

    report = check(PRODUCTS)
    for fmt in Format:
        assert render(report, fmt, RenderOptions()).endswith("\n"), fmt


@pytest.mark.skipif(not SARIF_SCHEMA.is_file(), reason="../shared/reference/schemas is absent")
@pytest.mark.parametrize("extra", [(), ("--waivers", WAIVERS, "--today", "2026-07-01")])
def test_sarif_is_valid_and_has_located_results(
    capsys: pytest.CaptureFixture[str], extra: tuple[str, ...]
) -> None:
    from jsonschema import Draft4Validator

    sarif = report_json(output(capsys, "sarif", *extra))
    errors = sorted(
        Draft4Validator(json.loads(SARIF_SCHEMA.read_text("utf-8"))).iter_errors(sarif), key=str
    )
    assert errors == []
    report = report_json(output(capsys, "json", *extra))
    problems = [
        (p, f)
        for p in report["products"]
        for f in p["findings"]
        if f["verdict"] in ("violation", "governance_risk")
    ]
    (run_,) = sarif["runs"]
    assert len(run_["results"]) == len(problems) > 0
    rules = run_["tool"]["driver"]["rules"]
    for rule in rules:
        for key in ("shortDescription", "fullDescription", "help"):
            assert rule[key]["text"].strip()
    for result, (product, finding) in zip(run_["results"], problems, strict=True):
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] == finding["location"]["line"]
        assert (
            result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == product["file"]
        )
        if finding["quote"]:
            assert finding["quote"] in rules[result["ruleIndex"]]["help"]["text"]
        assert (
            result["level"]
            == {"violation": "error", "governance_risk": "warning"}[finding["verdict"]]
        )


def test_sarif_result_points_at_the_deciding_fact(capsys: pytest.CaptureFixture[str]) -> None:
    sarif = report_json(output(capsys, "sarif"))
    result = next(
        r
        for r in sarif["runs"][0]["results"]
        if r["ruleId"] == "kimi-k2.5-modified-mit/ui-attribution"
    )
    line = result["locations"][0]["physicalLocation"]["region"]["startLine"]
    lines = (PRODUCTS / "composer2.yaml").read_text("utf-8").splitlines()[:line]
    # the region is inside the block of a fact the verdict hangs on (the agreement facts are
    # stated by agreements:)
    key = next(ln for ln in reversed(lines) if ln[:1].isalpha() or ln[:3].lstrip().isalpha())
    name = key.strip().rstrip(":")
    if name == "agreements":
        name = "agreement_waives"
    assert name in result["properties"]["missingFacts"]


def test_fingerprints_survive_line_moves(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = tmp_path / "m.yaml"
    original = (PRODUCTS / "composer2.yaml").read_text("utf-8")

    def results() -> list[tuple[str, int]]:
        code, out, _ = run(capsys, "check", str(manifest), "-f", "sarif", "--no-waivers")
        assert code == 0  # a governance risk passes the default --fail-on violation
        return [
            (
                r["partialFingerprints"]["licheck/v1"],
                r["locations"][0]["physicalLocation"]["region"]["startLine"],
            )
            for r in report_json(out)["runs"][0]["results"]
        ]

    manifest.write_text(original, "utf-8")
    before = results()
    manifest.write_text("# moved\n# down\n# three lines\n" + original, "utf-8")
    after = results()
    assert [f for f, _ in before] == [f for f, _ in after]
    assert [line + 3 for _, line in before] == [line for _, line in after]
    assert len({f for f, _ in before}) == len(before)


@pytest.mark.parametrize(
    ("fail_on", "element"), [("risk", "failure"), ("violation", "skipped"), ("never", "skipped")]
)
def test_junit_parses_and_follows_the_gate(
    capsys: pytest.CaptureFixture[str], fail_on: str, element: str
) -> None:
    root = ET.fromstring(output(capsys, "junit", "--fail-on", fail_on))
    report = report_json(output(capsys, "json"))
    cases = root.findall("./testsuite/testcase")
    assert len(cases) == report["summary"]["findings"]
    assert {s.get("name") for s in root.findall("./testsuite")} == {
        *(p["file"] for p in report["products"]),
        "settings in force",  # no tests: the gate's settings as its properties
    }
    settings = root.find("./testsuite[@name='settings in force']/properties")
    assert settings is not None
    assert {p.get("name"): p.get("value") for p in settings}["fail-on"] == fail_on
    risk = next(
        c for c in cases if c.get("name") == "composer-2: kimi-k2.5-modified-mit/ui-attribution"
    )
    assert [child.tag for child in risk] == [element]
    tally = "failures" if element == "failure" else "skipped"
    suites = root.findall("./testsuite")  # <testsuites> has no `skipped` (Jenkins' xUnit schema)
    assert sum(int(s.get(tally, "0")) for s in suites) == sum(
        1 for c in cases if c.find(element) is not None
    )
    passed = next(c for c in cases if c.get("name", "").endswith("/copyright-notice"))
    assert list(passed) == []


def test_sarif_uris() -> None:
    from licheck.outputs.sarif import _uri

    assert _uri("./products/my product.yaml") == {
        "uri": "products/my%20product.yaml",
        "uriBaseId": "%SRCROOT%",
    }
    assert _uri("/abs/a#b.yaml") == {"uri": "file:///abs/a%23b.yaml"}
    assert _uri("dir\\win.yaml")["uri"] == "dir/win.yaml"
    # repository-relative: the working folder's place in the repository is prefixed
    assert _uri("p/a.yaml", "/repo", "/repo/sub")["uri"] == "sub/p/a.yaml"
    assert _uri("../x/a.yaml", "/repo", "/repo/sub")["uri"] == "x/a.yaml"
    assert _uri("/repo/q/a.yaml", "/repo", "/elsewhere")["uri"] == "q/a.yaml"
    assert _uri("/other/a.yaml", "/repo", "/repo") == {"uri": "file:///other/a.yaml"}


def test_github_escaping() -> None:
    assert escape_data("100% done\r\nnext") == "100%25 done%0D%0Anext"
    assert escape_property("a:b,c%") == "a%3Ab%2Cc%25"
    assert (
        command("error", "x\ny", file="dir,1/f:2.yaml", line=3)
        == "::error file=dir%2C1/f%3A2.yaml,line=3::x%0Ay"
    )


def test_github_annotations_follow_the_gate(capsys: pytest.CaptureFixture[str]) -> None:
    risk = output(capsys, "github", "--fail-on", "risk").splitlines()
    lenient = output(capsys, "github").splitlines()
    assert risk[0].startswith("::error file=products/composer2.yaml,line=79,col=1,title=")
    assert lenient[0].startswith("::warning file=products/composer2.yaml,line=79,col=1,")
    assert all("\n" not in line for line in risk)
    assert risk[-1].startswith("licheck: Gate (--fail-on risk): FAILS")


def test_markdown_cells_are_safe() -> None:
    assert cell("a|b\nc <script>") == "a\\|b c &lt;script&gt;"


def test_markdown_is_one_screen(capsys: pytest.CaptureFixture[str]) -> None:
    text = output(capsys, "markdown", "--fail-on", "risk")
    head = text.split("<details>")[0]
    assert head.startswith("### licheck: ⚠️ governance risk — gate fails")
    assert len(head.splitlines()) <= 40
    assert "`kimi-k2.5-modified-mit/ui-attribution`" in head


def _fresh(fmt: str, seed: str) -> bytes:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "src"),
        "PYTHONHASHSEED": seed,
        "NO_COLOR": "1",
        "COLUMNS": "100",
    }
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "licheck",
            "check",
            "products/",
            "-f",
            fmt,
            "--fail-on",
            "risk",
            "--waivers",
            WAIVERS,
            "--today",
            "2026-04-01",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_byte_identical_across_runs_and_hash_seeds(fmt: str) -> None:
    assert _fresh(fmt, "1") == _fresh(fmt, "2")


def test_same_process_twice(capsys: pytest.CaptureFixture[str]) -> None:
    for fmt in FORMATS:
        assert output(capsys, fmt) == output(capsys, fmt), fmt


def test_junit_names_stay_unique_when_two_models_share_a_license(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = tmp_path / "merged.yaml"
    manifest.write_text(
        "product: Merged\nowner: Acme\ncomponents:\n  - id: m\n    name: M\n"
        "    delivery: [weights]\n    lineage:\n      base: zai-org/GLM-4.6\n      steps:\n"
        "        - kind: merge\n          parents: [microsoft/Phi-3-mini-4k-instruct]\n",
        encoding="utf-8",
    )
    code, out, _ = run(capsys, "check", str(manifest), "-f", "junit", "--no-waivers")
    assert code == 0
    names = [c.get("name") for c in ET.fromstring(out).iter("testcase")]
    assert names == [
        "m: mit/copyright-notice (via glm-4.6)",
        "m: mit/copyright-notice (via phi-3-mini)",
    ]


def test_formats_import_neither_the_engine_nor_the_evaluation() -> None:
    """Layers point down: the formats render a report and know nothing of how it was made."""
    code = (
        "import sys\n"
        "import licheck.outputs.github, licheck.outputs.jsonreport, licheck.outputs.junit\n"
        "import licheck.outputs.markdown, licheck.outputs.sarif, licheck.outputs.summary\n"
        "import licheck.outputs.text\n"
        "core = ('licheck.engine.exact', 'licheck.evaluation.evaluate', 'licheck.report.explain',\n"
        "        'licheck.facts.resolution', 'licheck.library.compiled',\n"
        "        'licheck.report.building', 'licheck.portfolio.streaming',\n"
        "        'licheck.report.waivers')\n"
        "print(sorted(m for m in sys.modules if m in core))\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert (out.returncode, out.stdout.strip()) == (0, "[]"), out.stderr
