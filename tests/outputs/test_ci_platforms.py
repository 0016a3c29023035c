"""CI platforms as they really are: GitHub code scanning (repository-relative SARIF URIs,
primaryLocationLineHash, no waived alerts, 25,000 results a run), GitHub annotations (10 of a
kind per step, the step summary), one evaluation for several formats, JUnit that Jenkins' xUnit
schema accepts, and the pre-commit hook's behaviour."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from tests.clirun import run
from tests.conftest import REFERENCE, ROOT

SARIF_SCHEMA = REFERENCE / "schemas" / "sarif-schema-2.1.0.json"
WAIVERS = ROOT / "tests" / "data" / "waivers" / "composer2.yaml"
ACME = """\
format: 2
product: Acme Local
owner: Acme
components:
  - id: local
    name: Acme Local Model
    delivery: [weights]
    lineage:
      base: zai-org/GLM-4.6
      steps: [quantization]
    facts:
      notice_included: false
  - id: mystery
    name: Mystery
    lineage:
      base: unknown
"""


def _valid_sarif(log: dict[str, Any]) -> None:
    if not SARIF_SCHEMA.is_file():
        return
    from jsonschema import Draft4Validator

    errors = list(Draft4Validator(json.loads(SARIF_SCHEMA.read_text("utf-8"))).iter_errors(log))
    assert errors == []


def _repo(tmp_path: Path, *, git: bool = True) -> Path:
    """A repository with its manifests two folders down: repo/apps/products/*.yaml."""
    repo = tmp_path / "repo"
    products = repo / "apps" / "products"
    products.mkdir(parents=True)
    if git:
        (repo / ".git").mkdir()
    shutil.copy(ROOT / "products" / "composer2.yaml", products)
    (products / "acme.yaml").write_text(ACME, encoding="utf-8")
    return repo


def _uris(log: dict[str, Any]) -> set[str]:
    return {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        for r in log["runs"][0]["results"]
    }


def test_sarif_uris_are_relative_to_the_repository_root(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    monkeypatch.chdir(repo / "apps")
    code, out, _ = run(capsys, "check", "products", "-f", "sarif", "--no-waivers")
    assert code == 1
    log = json.loads(out)
    _valid_sarif(log)
    assert _uris(log) == {"apps/products/acme.yaml", "apps/products/composer2.yaml"}
    for result in log["runs"][0]["results"]:
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        assert location["uriBaseId"] == "%SRCROOT%"
    # --root overrides the .git walk; a file outside the root keeps an absolute file URI
    code, out, _ = run(capsys, "check", "products", "-f", "sarif", "--root", ".", "--no-waivers")
    assert _uris(json.loads(out)) == {"products/acme.yaml", "products/composer2.yaml"}
    (repo / "other").mkdir()
    code, out, _ = run(
        capsys, "check", "products", "-f", "sarif", "--root", "../other", "--no-waivers"
    )
    assert all(uri.startswith("file:///") for uri in _uris(json.loads(out)))


def test_sarif_without_a_repository_is_relative_to_the_working_folder(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    repo = _repo(tmp_path, git=False)
    monkeypatch.chdir(repo / "apps")
    _, out, _ = run(capsys, "check", "products", "-f", "sarif", "--no-waivers")
    if not any((parent / ".git").exists() for parent in tmp_path.parents):
        assert _uris(json.loads(out)) == {"products/acme.yaml", "products/composer2.yaml"}


def test_primary_location_line_hash_survives_line_moves_and_runs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    monkeypatch.chdir(repo)

    def fingerprints() -> dict[str, tuple[str, int]]:
        _, out, _ = run(capsys, "check", "apps", "-f", "sarif", "--no-waivers")
        return {
            r["ruleId"] + r["properties"]["component"]: (
                r["partialFingerprints"]["primaryLocationLineHash"],
                r["locations"][0]["physicalLocation"]["region"]["startLine"],
            )
            for r in json.loads(out)["runs"][0]["results"]
        }

    before = fingerprints()
    assert before == fingerprints()  # stable across runs
    manifest = repo / "apps" / "products" / "acme.yaml"
    manifest.write_text("# moved down\n# by two lines\n" + ACME, encoding="utf-8")
    after = fingerprints()
    assert {k: h for k, (h, _) in after.items()} == {k: h for k, (h, _) in before.items()}
    moved = [k for k in after if after[k][1] != before[k][1]]
    assert moved  # the lines did move
    hashes = [h for h, _ in after.values()]
    assert len(set(hashes)) == len(hashes)  # one alert per finding


def test_waived_findings_are_suppressed_sarif_results(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A waived finding stays a result, with its waiver as an accepted external suppression:
    code scanning shows the alert dismissed, not fixed (it closed as fixed on d2468c0)."""
    monkeypatch.chdir(ROOT)
    args = ("check", "products/composer2.yaml", "-f", "sarif", "--waivers", str(WAIVERS))
    _, out, _ = run(capsys, *args, "--today", "2026-04-01")
    log = json.loads(out)
    _valid_sarif(log)
    (sarif_run,) = log["runs"]
    (result,) = sarif_run["results"]
    assert sarif_run["properties"]["waivedResults"] == 1
    (suppression,) = result["suppressions"]
    assert suppression["kind"] == "external" and suppression["status"] == "accepted"
    assert suppression["justification"] == (
        "facts_pending (owner: legal@example.com, until 2026-06-30)"
    )
    assert suppression["properties"]["comment"].startswith("Asking Moonshot")
    waiver = suppression["location"]["physicalLocation"]
    assert waiver["artifactLocation"]["uri"] == "tests/data/waivers/composer2.yaml"
    expired = json.loads(run(capsys, *args, "--today", "2026-07-01")[1])
    (result,) = expired["runs"][0]["results"]  # expired: an open alert again, the same alert
    assert "suppressions" not in result
    fingerprints = result["partialFingerprints"]
    assert fingerprints == sarif_run["results"][0]["partialFingerprints"]


def test_sarif_is_capped_at_the_code_scanning_limit(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import licheck.outputs.sarif as sarif

    repo = _repo(tmp_path)
    monkeypatch.chdir(repo)
    _, out, _ = run(capsys, "check", "apps", "-f", "sarif", "--no-waivers")
    total = len(json.loads(out)["runs"][0]["results"])
    assert total >= 3
    monkeypatch.setattr(sarif, "MAX_RESULTS", total - 1)
    for args in (("-f", "sarif"), ("-f", "json", "--also", "sarif=out.sarif")):
        code, out, err = run(capsys, "check", "apps", *args, "--no-waivers")
        assert code == 1
        text = out if args[1] == "sarif" else (repo / "out.sarif").read_text("utf-8")
        log = json.loads(text)
        _valid_sarif(log)
        (sarif_run,) = log["runs"]
        kept = len(sarif_run["results"])
        assert kept <= total - 1
        assert sarif_run["properties"]["resultsOmitted"] == total - kept
        (note,) = sarif_run["invocations"][0]["toolExecutionNotifications"]
        assert note["descriptor"]["id"] == "results-capped"
        assert f"{total} SARIF results, over GitHub code scanning's {total - 1}" in err


def test_waived_results_count_toward_the_cap(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A suppressed result is a result: GitHub counts it toward its 25,000 per run too."""
    import licheck.outputs.sarif as sarif

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sarif, "MAX_RESULTS", 0)
    args = ("check", "products/composer2.yaml", "-f", "sarif", "--waivers", str(WAIVERS))
    code, out, err = run(capsys, *args, "--today", "2026-04-01")
    assert code == 0
    (sarif_run,) = json.loads(out)["runs"]
    assert sarif_run["results"] == [] and sarif_run["properties"]["resultsOmitted"] == 1
    assert "1 SARIF results, over GitHub code scanning's 0 per run" in err


def test_over_the_stored_results_the_log_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Code scanning stores only the top 5,000 results of a run: suppressed (waived) results
    count toward them, so a log over that says so, in the log and on stderr."""
    import licheck.outputs.sarif as sarif

    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sarif, "SHOWN_RESULTS", 0)
    args = ("check", "products/composer2.yaml", "-f", "sarif", "--waivers", str(WAIVERS))
    code, out, err = run(capsys, *args, "--today", "2026-04-01")
    assert code == 0
    log = json.loads(out)
    _valid_sarif(log)
    (note,) = log["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert note["descriptor"]["id"] == "results-over-display-limit"
    assert "1 of them are waived findings" in note["message"]["text"]
    assert "stores only the top 0 of a run" in " ".join(err.split())


def _commands(out: str) -> dict[str, int]:
    kinds = {"error": 0, "warning": 0, "notice": 0}
    for line in out.splitlines():
        for kind in kinds:
            if line.startswith(f"::{kind} "):
                kinds[kind] += 1
    return kinds


def test_github_annotations_are_capped_per_kind(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    for n in range(12):  # 12 more products, each with its violation
        (repo / "apps" / "products" / f"acme{n:02}.yaml").write_text(
            ACME.replace("Acme Local", f"Acme Local {n}"), encoding="utf-8"
        )
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "check", "apps", "-f", "github", "--fail-on", "risk")
    assert (code, err) == (1, "")
    counts = _commands(out)
    assert counts["error"] == 10 and counts["warning"] <= 10
    assert "more findings not annotated" in out
    listed = [line for line in out.splitlines() if line.startswith("licheck: apps/")]
    _, full, _ = run(capsys, "check", "apps", "-f", "github", "--annotations", "1000")
    assert sum(_commands(full).values()) == sum(counts.values()) + len(listed)
    assert "not annotated" not in full
    _, none, _ = run(capsys, "check", "apps", "-f", "github", "--annotations", "0")
    assert sum(_commands(none).values()) == 0
    # nothing from the input can start a workflow command: every listed line is prefixed
    assert all(not line.startswith("::") for line in none.splitlines())


def test_github_step_summary_and_one_evaluation_for_several_formats(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    monkeypatch.chdir(repo)
    summary = tmp_path / "step-summary.md"
    summary.write_text("earlier step output\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    code, out, err = run(
        capsys, "check", "apps", "-f", "github", "--also", "sarif=licheck.sarif",
        "--also", "junit=licheck.xml", "--no-waivers",
    )  # fmt: skip
    assert (code, err) == (1, "")
    text = summary.read_text("utf-8")
    assert text.startswith("earlier step output\n") and "Acme Local" in text
    monkeypatch.delenv("GITHUB_STEP_SUMMARY")
    _, alone, _ = run(capsys, "check", "apps", "-f", "github", "--no-waivers")
    assert out == alone
    _, sarif_alone, _ = run(capsys, "check", "apps", "-f", "sarif", "--no-waivers")
    assert (repo / "licheck.sarif").read_text("utf-8") == sarif_alone
    _, junit_alone, _ = run(capsys, "check", "apps", "-f", "junit", "--no-waivers")
    assert (repo / "licheck.xml").read_text("utf-8") == junit_alone


def test_also_refuses_bad_values_and_inputs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    monkeypatch.chdir(repo)
    code, _, err = run(capsys, "check", "apps", "--also", "pdf=x.pdf")
    assert code == 2 and "FORMAT=FILE" in err
    manifest = "apps/products/acme.yaml"
    code, _, err = run(capsys, "check", "apps", "--also", f"sarif={manifest}")
    assert code == 2
    assert (repo / manifest).read_text("utf-8") == ACME


# Jenkins' xUnit plugin JUnit schema (jenkinsci/xunit-plugin, junit-10.xsd): the attributes
# each element may carry (required ones marked) and the children it may hold.
XUNIT_ATTRIBUTES = {
    "testsuites": ({"name", "time", "tests", "failures", "errors"}, set()),
    "testsuite": (
        {
            "name",
            "tests",
            "failures",
            "errors",
            "group",
            "time",
            "skipped",
            "timestamp",
            "hostname",
            "id",
            "package",
            "file",
            "log",
            "url",
        },
        {"name", "tests", "failures", "errors"},
    ),
    "properties": (set(), set()),
    "property": ({"name", "value"}, {"name", "value"}),
    "testcase": ({"name", "time", "classname", "group"}, {"name"}),
    "failure": ({"type", "message"}, set()),
    "error": ({"type", "message"}, set()),
    "skipped": ({"type", "message"}, set()),
    "system-out": (set(), set()),
    "system-err": (set(), set()),
}
XUNIT_CHILDREN = {
    "testsuites": {"testsuite"},
    "testsuite": {"testsuite", "properties", "testcase", "system-out", "system-err"},
    "properties": {"property"},
    "testcase": {"skipped", "error", "failure", "system-out", "system-err"},
}


def _xunit_problems(element: ET.Element) -> list[str]:
    allowed, required = XUNIT_ATTRIBUTES[element.tag]
    problems = [f"{element.tag}@{a}" for a in set(element.attrib) - allowed]
    problems += [f"{element.tag} lacks @{a}" for a in required - set(element.attrib)]
    for child in element:
        if child.tag not in XUNIT_CHILDREN.get(element.tag, set()):
            problems.append(f"{child.tag} in {element.tag}")
        else:
            problems += _xunit_problems(child)
    return problems


@pytest.mark.parametrize("fail_on", ["violation", "risk"])
def test_junit_fits_jenkins_xunit_and_gitlab(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    fail_on: str,
) -> None:
    repo = _repo(tmp_path)
    shutil.copy(WAIVERS, repo / ".licheck-waivers.yaml")
    monkeypatch.chdir(repo)
    for today in ("2026-04-01", "2026-07-01"):
        _, out, _ = run(
            capsys, "check", "apps", "-f", "junit", "--fail-on", fail_on, "--today", today
        )
        root = ET.fromstring(out)
        assert root.tag == "testsuites"
        assert _xunit_problems(root) == []
        for case in root.iter("testcase"):
            assert case.get("classname")  # GitLab's "Suite" column; unique names within it
            for outcome in case:
                assert outcome.text and outcome.text.startswith("apps/products/")  # located


def test_compact_format_is_one_line_per_finding(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    repo = _repo(tmp_path)
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "check", "apps", "-f", "compact", "--no-waivers")
    assert (code, err) == (1, "")
    lines = out.splitlines()
    assert lines[-1].startswith("Gate (--fail-on violation): FAILS")
    findings = lines[:-2]
    assert findings and all(line.startswith("apps/products/") for line in findings)
    assert any(": error: violation: " in line for line in findings)


def test_no_manifest_passes_the_hook_only_when_there_is_none(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "config.yaml").write_text("name: not a manifest\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    hook = ("check", "--format", "compact", "--allow-no-manifests", ".")
    code, out, err = run(capsys, *hook)
    assert (code, out) == (0, "")
    assert "no manifests found" in err and "nothing to check" in err
    code, _, err = run(capsys, "check", "--format", "compact", ".")
    assert code == 2 and "no manifests found" in err
    (tmp_path / "broken.yaml").write_text("product: [unclosed\n", encoding="utf-8")
    code, out, err = run(capsys, *hook)
    assert code == 2 and "broken.yaml:2:1: error:" in out and "broken.yaml:2:1: error:" in err
    code, _, err = run(capsys, "check", "--allow-no-manifests", "missing-folder")
    assert code == 2


def test_action_and_hook_definitions() -> None:
    import yaml

    action = yaml.safe_load((ROOT / "action.yml").read_text("utf-8"))
    steps = action["runs"]["steps"]
    uses = [s["uses"] for s in steps if "uses" in s]
    named = {use.partition("@")[0] for use in uses}
    assert named == {
        "actions/setup-python",
        "actions/cache",
        "actions/upload-artifact",
        "github/codeql-action/upload-sarif",
    }
    # every sub-action pinned to a full commit id (a tag can be moved), its version beside it
    text = (ROOT / "action.yml").read_text("utf-8")
    for use in uses:
        assert re.fullmatch(r"[\w./-]+@[0-9a-f]{40}", use), use
        assert re.search(re.escape(use) + r"  # v\d+\.\d+\.\d+\n", text), use
    setup = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["update-environment"] is False  # the job's Python stays
    scripts = "\n".join(s.get("run", "") for s in steps)
    assert scripts.count("licheck check") == 1  # one evaluation a run
    assert "pip install" in scripts and "PIP_CACHE_DIR" in str(steps)
    assert "${{" not in scripts  # inputs only through env
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    assert "--format compact" in hook["entry"] and "--allow-no-manifests" in hook["entry"]


def _action_gate(tmp_path: Path, **inputs: str) -> tuple[list[str], dict[str, str]]:
    """The arguments the action's gate step passes to licheck for INPUTS (the others at their
    defaults), and the step's outputs: run with bash, a stand-in for licheck recording them."""
    import subprocess
    import sys

    import yaml

    action = yaml.safe_load((ROOT / "action.yml").read_text("utf-8"))
    gate = next(s for s in action["runs"]["steps"] if s.get("id") == "gate")
    recorder = tmp_path / "record.sh"
    # `python -c` (the digest) runs the real Python; `python -m licheck ...` is recorded
    recorder.write_text(
        f'#!/bin/sh\nif [ "$1" = -c ]; then exec "{sys.executable}" "$@"; fi\n'
        'printf "%s\\n" "$@" > "$RECORD"\n',
        encoding="utf-8",
    )
    recorder.chmod(0o755)
    defaults = {
        name.upper().replace("-", "_"): str(spec.get("default", ""))
        for name, spec in action["inputs"].items()
    }
    env: dict[str, str] = dict.fromkeys(gate["env"], "")
    env.update(
        PATHS=defaults["PATHS"],
        SARIF=defaults["SARIF"],
        ARTIFACT=defaults["REPORT_ARTIFACT"],
        ANNOTATIONS=defaults["ANNOTATIONS"],
        MATRIX="null",
    )
    env.update(inputs)
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir(exist_ok=True)
    env.update(
        LICHECK_PYTHON=str(recorder),
        RECORD=str(tmp_path / "argv"),
        GITHUB_OUTPUT=str(tmp_path / "output"),
        GITHUB_JOB="licenses",
        RUNNER_TEMP=str(runner_temp),
        PATH="/usr/bin:/bin",
    )
    (tmp_path / "output").write_text("", encoding="utf-8")
    checkout = tmp_path / "checkout"
    checkout.mkdir(exist_ok=True)
    subprocess.run(["bash", "-c", gate["run"]], env=env, check=True, cwd=checkout)
    outputs = dict(
        line.split("=", 1) for line in (tmp_path / "output").read_text("utf-8").splitlines()
    )
    return (tmp_path / "argv").read_text("utf-8").splitlines(), outputs


def _action_gate_argv(tmp_path: Path, **inputs: str) -> list[str]:
    return _action_gate(tmp_path, **inputs)[0]


@pytest.mark.skipif(shutil.which("bash") is None, reason="the action's steps are bash scripts")
def test_the_action_leaves_the_repository_configuration_in_force(tmp_path: Path) -> None:
    # an empty fail-on or evidence input passes no option, so `fail-on: risk` in the
    # repository's .licheck.yaml is not silently weakened to the action's own default
    argv = _action_gate_argv(tmp_path, PATHS="products/", ANNOTATIONS="10")
    assert "--fail-on" not in argv and "--evidence" not in argv
    assert argv[-2:] == ["--", "products/"]
    argv = _action_gate_argv(tmp_path, PATHS=".", FAIL_ON="risk", EVIDENCE="strict")
    assert argv[argv.index("--fail-on") + 1] == "risk"
    assert argv[argv.index("--evidence") + 1] == "strict"


@pytest.mark.skipif(shutil.which("bash") is None, reason="the action's steps are bash scripts")
def test_the_action_passes_baseline_and_extra_arguments_and_writes_nothing_in_the_checkout(
    tmp_path: Path,
) -> None:
    argv, outputs = _action_gate(
        tmp_path,
        PATHS="products/ more/",
        BASELINE="main-report.json",
        ARGS="--licenses org-rules/  --attestations 'att.yaml'",
    )
    assert argv[argv.index("--baseline") + 1] == "main-report.json"
    # extra arguments are words, never evaluated: the quotes stay in the word
    tail = argv[argv.index("--", argv.index("--baseline")) :]
    assert argv[argv.index("--licenses") + 1] == "org-rules/"
    assert argv[argv.index("--attestations") + 1] == "'att.yaml'"
    assert tail == ["--", "products/", "more/"]
    # every file goes to the runner's temporary folder: nothing is left in the checkout
    written = [argv[i + 1] for i, word in enumerate(argv) if word == "--also"]
    assert {w.partition("=")[0] for w in written} == {"sarif", "json", "html"}
    temp = str(tmp_path / "runner-temp")
    assert all(w.partition("=")[2].startswith(temp) for w in written)
    assert list((tmp_path / "checkout").iterdir()) == []
    # the stand-in wrote no report: no output names a file that is not there
    assert outputs["sarif"] == outputs["report"] == outputs["artifact"] == ""


@pytest.mark.skipif(shutil.which("bash") is None, reason="the action's steps are bash scripts")
def test_the_default_sarif_category_is_stable_and_apart_per_use_and_matrix_leg(
    tmp_path: Path,
) -> None:
    def category(name: str, **inputs: str) -> str:
        folder = tmp_path / name
        folder.mkdir()
        return _action_gate(folder, **inputs)[1]["sarif-category"]

    first = category("a", PATHS="products/")
    assert first == category("b", PATHS="products/")  # the same on every run
    assert first.startswith("licheck/licenses/")
    others = {
        category("c", PATHS="other/"),
        category("d", PATHS="products/", ARGS="--evidence strict"),
        category("e", PATHS="products/", MATRIX='{"os": "ubuntu-latest"}'),
        category("f", PATHS="products/", MATRIX='{"os": "windows-latest"}'),
    }
    assert len(others) == 4 and first not in others
    assert category("g", PATHS="products/", CATEGORY="mine") == "mine"  # as given
    # the upload uses the category the gate computed, and the SARIF a user uploads names it
    import yaml

    action = yaml.safe_load((ROOT / "action.yml").read_text("utf-8"))
    upload = next(s for s in action["runs"]["steps"] if "upload-sarif" in s.get("uses", ""))
    assert upload["with"]["category"] == "${{ steps.gate.outputs.sarif-category }}"
    assert "sarif-category" in action["outputs"]


def test_the_action_keeps_the_full_report_and_links_it_from_the_summary() -> None:
    import yaml

    action = yaml.safe_load((ROOT / "action.yml").read_text("utf-8"))
    steps = action["runs"]["steps"]
    keep = next(s for s in steps if "upload-artifact" in s.get("uses", ""))
    assert keep["with"]["path"] == "${{ steps.gate.outputs.report }}"
    link = steps[steps.index(keep) + 1]
    assert "GITHUB_STEP_SUMMARY" in link["run"] and "$URL" in link["run"]
    assert link["env"]["URL"] == "${{ steps.artifact.outputs.artifact-url }}"


def test_the_documented_workflows_use_only_what_the_action_declares() -> None:
    """docs/ci.md's workflow names only inputs the action has, and pins every other action to a
    full commit id; its table lists every input."""
    import yaml

    action = yaml.safe_load((ROOT / "action.yml").read_text("utf-8"))
    page = (ROOT / "docs" / "ci.md").read_text("utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", page, re.S)
    workflows = [yaml.safe_load(b) for b in blocks if "jobs:" in b]
    assert workflows
    for workflow in workflows:
        for job in workflow["jobs"].values():
            for step in job["steps"]:
                use = step.get("uses", "")
                if "/licheck@" in use:
                    assert set(step.get("with", {})) <= set(action["inputs"]), step
                elif use:
                    assert re.fullmatch(r"[\w./-]+@[0-9a-f]{40}", use), use
    for name in action["inputs"]:
        if name != "matrix":  # read from the job, never set
            assert f"| `{name}` |" in page, name
    gitlab = [yaml.safe_load(b) for b in blocks if "reports:" in b]
    (job,) = gitlab[0].values()
    assert set(job["artifacts"]["reports"]) == {"codequality", "junit"}
    assert any("--format codequality" in line for line in job["script"])
