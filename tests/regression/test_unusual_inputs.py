"""Unusual inputs that once gave false comfort or an internal error, and the answer they get
now: file names that are not UTF-8, FIFOs, library layers and waivers that would not be read,
scenarios that say less than they seem, a policy the timeline must judge as evaluate does.
These need code (a fixture's file system, symlinks, a second file written between runs); the
inputs that are a file and a command are data, in tests/data/located_errors/inputs.yaml and
tests/data/accepted/inputs.yaml."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from licheck.cli import cli
from licheck.cli.common import run_guarded
from tests.clirun import run
from tests.conftest import ROOT

COMPOSER = ROOT / "products" / "composer2.yaml"


def _bom(metadata_props: list[Any], component: dict[str, Any]) -> str:
    return json.dumps(
        {
            "bomFormat": "CycloneDX",
            "specVersion": "1.6",
            "metadata": {
                "component": {"type": "application", "name": "App"},
                "properties": metadata_props,
            },
            "components": [
                {"type": "machine-learning-model", "name": "Kimi-K2.5", "group": "moonshotai"}
                | component
            ],
        },
        indent=1,
    )


def _prop(name: str, value: str) -> dict[str, str]:
    return {"name": f"licheck:fact:{name}", "value": value}


NO_KIMI = """\
policy: acme
name: Acme
clauses:
  - id: no-kimi
    kind: restriction
    title: No Kimi
    text: No Kimi models.
    requirement: {not: {fact: model_family, equals: kimi}}
"""


@pytest.mark.parametrize("how", ["option", "configuration"])
def test_the_timeline_judges_the_policy_evaluate_judges(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    how: str,
) -> None:
    """A `policy:` in the configuration made `evaluate` fail on a violation while `timeline`
    (which had no --policy) showed the same days as a governance risk, without a word."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "policy.yaml").write_text(NO_KIMI, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LICHECK_CONFIG", raising=False)
    if how == "configuration":
        (tmp_path / ".licheck.yaml").write_text("policy: policy.yaml\n", encoding="utf-8")
        extra: tuple[str, ...] = ()
    else:
        extra = ("--policy", "policy.yaml")
    code, out, err = run(capsys, "evaluate", str(COMPOSER), "--format", "json", *extra)
    assert code == 1, err
    assert json.loads(out)["verdict"] == "violation"
    code, out, err = run(capsys, "timeline", str(COMPOSER), "--format", "json", *extra)
    assert code == 0, err
    timeline = json.loads(out)
    assert timeline["verdict"] == "violation"
    assert {entry["verdict"] for entry in timeline["entries"]} == {"violation"}


STRICTER_KIMI = """\
models:
  - id: kimi-k2.5
    name: Kimi K2.5
    aliases: [moonshotai/Kimi-K2.5]
    family: kimi
    licensor: moonshot
    license: mit
    source: an internal review
"""


@pytest.mark.parametrize("how", ["catalog.yml", "rule.yml", "dangling catalog.yaml"])
@pytest.mark.parametrize("builtin", [True, False])
def test_a_layer_file_that_would_not_be_read_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, how: str, builtin: bool
) -> None:
    """A layer's `catalog.yml` or `*.yml` rule file, or a catalog.yaml linking to nothing, was
    skipped in silence beside the layer's other files: its models and licenses did nothing."""
    layer = tmp_path / "layer"
    layer.mkdir()
    mit = ROOT / "licenses" / "mit.yaml"
    (layer / "mit.yaml").write_text(mit.read_text(encoding="utf-8"), encoding="utf-8")
    if how == "catalog.yml":
        (layer / "catalog.yml").write_text(STRICTER_KIMI, encoding="utf-8")
    elif how == "rule.yml":
        (layer / "rule.yml").write_text(mit.read_text(encoding="utf-8"), encoding="utf-8")
    else:
        (layer / "catalog.yaml").symlink_to(tmp_path / "nowhere.yaml")
    options = () if builtin else ("--no-builtin-licenses",)
    code, out, err = run(
        capsys, "--no-config", "licenses", "list", "--licenses", str(layer), *options
    )
    assert (code, out) == (2, ""), err
    assert f"{layer}/" in err and "error:" in err


def _odd(name: str) -> str:
    """`name` with a Latin-1 byte in it: a file name that is not UTF-8 (as Python sees it)."""
    return os.fsdecode(name.encode("ascii").replace(b"@", b"\xe9"))


@pytest.fixture
def odd_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose every input has a file name that is not UTF-8."""
    try:
        (tmp_path / _odd("probe@")).write_text("", encoding="utf-8")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system refuses file names that are not UTF-8")
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("LICHECK_CONFIG", raising=False)
    products = tmp_path / _odd("product@")
    products.mkdir()
    (products / _odd("caf@.yaml")).write_text(COMPOSER.read_text("utf-8"), encoding="utf-8")
    layer = tmp_path / _odd("layer@")
    layer.mkdir()
    mit = (ROOT / "licenses" / "mit.yaml").read_text(encoding="utf-8")
    (layer / _odd("mit@.yaml")).write_text(mit, encoding="utf-8")
    (tmp_path / _odd("policy@.yaml")).write_text(NO_KIMI, encoding="utf-8")
    (tmp_path / _odd("config@.yaml")).write_text("fail-on: risk\n", encoding="utf-8")
    code = run_guarded(cli, ["--no-config", "check", str(products), "-f", "json", "-o", "b.json"])
    assert code == 0
    os.rename("b.json", _odd("baseline@.json"))
    return tmp_path


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "junit", "markdown", "github", "compact"])
def test_inputs_whose_names_are_not_utf8_are_reported_not_an_internal_error(
    capsys: pytest.CaptureFixture[str], odd_names: Path, fmt: str
) -> None:
    """Every report with such a name in it (a manifest, a layer, a policy, the configuration,
    the baseline) was exit 3, 'surrogates not allowed'; the name is shown with \\xNN now."""
    argv = ["--config", _odd("config@.yaml"), "check", _odd("product@")]
    argv += ["--licenses", _odd("layer@"), "--policy", _odd("policy@.yaml")]
    code, out, err = run(capsys, *argv, "--baseline", _odd("baseline@.json"), "-f", fmt)
    assert code == 1, err  # the policy's violation
    assert "caf" in out and "xe9" in out  # shown as \xe9 (SARIF: in a URI, as /xe9)
    code, _, err = run(capsys, *argv, "-f", fmt, "-o", _odd("report@.out"))
    assert code == 1, err
    (odd_names / _odd("report@.out")).read_text(encoding="utf-8")  # UTF-8 throughout


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_discover_lists_a_source_file_whose_name_is_not_utf8(
    capsys: pytest.CaptureFixture[str], odd_names: Path, fmt: str
) -> None:
    source = odd_names / "src"
    source.mkdir()
    (source / _odd("app@.py")).write_text('load("moonshotai/Kimi-K2.5")\n', encoding="utf-8")
    argv = ["--no-config", "discover", "src", "--manifests", _odd("product@"), "-f", fmt]
    code, _, err = run(capsys, *argv, "-o", "found.out")
    assert code == 0, err
    text = (odd_names / "found.out").read_text(encoding="utf-8")
    assert "app\\xe9.py" in text.replace("\\\\", "\\")
    assert "caf\\xe9.yaml" in text.replace("\\\\", "\\")


def test_discover_lists_a_fifo_named_like_source(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A FIFO named app.py was skipped without a word; it is listed as not read now."""
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    os.mkfifo(tmp_path / "app.py")
    code, out, err = run(capsys, "--no-config", "discover", str(tmp_path), "-f", "json")
    assert code == 0, err
    assert json.loads(out)["unread"] == [
        {"file": str(tmp_path / "app.py"), "why": "is a FIFO (named pipe), not a regular file"}
    ]


def test_import_from_a_file_whose_name_is_not_utf8(
    capsys: pytest.CaptureFixture[str], odd_names: Path
) -> None:
    """The skeleton names its source file: exit 3 ('surrogates not allowed') before."""
    card = odd_names / _odd("README@.md")
    card.write_text("---\nbase_model: moonshotai/Kimi-K2.5\n---\n", encoding="utf-8")
    code, out, err = run(capsys, "--no-config", "import", "hf", str(card))
    assert code == 0, err
    assert "README\\xe9.md" in out
    bom = odd_names / _odd("bom@.json")
    bom.write_text(_bom([_prop("commercial", "true")], {}), encoding="utf-8")
    code, out, err = run(capsys, "--no-config", "import", "cyclonedx", str(bom))
    assert code == 0, err
    assert "bom\\xe9.json" in out


WAIVER = """\
waivers:
  - id: a
    product: Composer 2
    license: kimi-k2.5-modified-mit
    clause: ui-attribution
    reason: facts_pending
    comment: Asking Moonshot.
    owner: legal@example.com
    expires: 2026-12-31
"""


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # a year was read as its last day: the waiver ran to December, where a month is refused
        ("expires: 2026-12-31", "expires: 2026", "got the year '2026'"),
        ("expires: 2026-12-31", "expires: '2026'", "got the year '2026'"),
        # a waiver on the record of nobody, for no stated reason
        ("owner: legal@example.com", "owner: ' '", "got only spaces at waivers.0.owner"),
        ("comment: Asking Moonshot.", 'comment: "\\t"', "got only spaces at waivers.0.comment"),
    ],
)
def test_a_waiver_that_records_too_little_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, old: str, new: str, message: str
) -> None:
    path = tmp_path / "waivers.yaml"
    path.write_text(WAIVER.replace(old, new), encoding="utf-8")
    argv = ["--no-config", "evaluate", str(COMPOSER), "--fail-on", "risk", "--today", "2026-05-01"]
    code, out, err = run(capsys, *argv, "--waivers", str(path))
    assert (code, out) == (2, ""), err
    assert message in err and f"{path}:" in err
    path.write_text(WAIVER, encoding="utf-8")
    code, out, err = run(capsys, *argv, "--waivers", str(path))
    assert code == 0, err  # the waiver as written applies


@pytest.mark.parametrize(
    ("scenario", "problem"),
    [
        # `fact:` was skipped: the scenario ran with no facts, and may pass for another reason
        ("  - name: s\n    fact: {notice_included: false}\n    expect: {a: violation}\n", "'fact'"),
        ("  - name: s\n    expect: {}\n", "non-empty expect"),
        (
            "  - name: s\n    component: {id: x}\n    delivery: [weights]\n    expect: {a: x}\n",
            "'delivery' beside component",
        ),
    ],
)
def test_a_scenario_that_says_less_than_it_seems_is_refused(
    tmp_path: Path, scenario: str, problem: str
) -> None:
    from tests.scenarios import load_scenarios

    (tmp_path / "mit.yaml").write_text(
        f"license: mit\nmodel: glm-4.6\nscenarios:\n{scenario}", encoding="utf-8"
    )
    with pytest.raises(ValueError, match=problem):
        load_scenarios(tmp_path)
    (tmp_path / "mit.yaml").write_text(
        "license: mit\nmodel: glm-4.6\nevidence: strict\nscenarios:\n"
        "  - name: s\n    expect: {copyright-notice: not_applicable}\n",
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="unknown key 'evidence'"):  # read per scenario only
        load_scenarios(tmp_path)


def test_a_model_card_merge_of_one_base_model_keeps_an_unknown_parent(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`base_model_relation: merge` with one base_model was imported as that base alone: the
    merge, and the licenses of the parents the card leaves out, were dropped in silence."""
    card = tmp_path / "README.md"
    card.write_text(
        "---\nbase_model: moonshotai/Kimi-K2.5\nbase_model_relation: merge\n---\n", "utf-8"
    )
    skeleton = tmp_path / "skeleton.yaml"
    argv = ["--no-config", "import", "hf", str(card), "--model-id", "acme/x", "-o", str(skeleton)]
    assert run(capsys, *argv)[0] == 0
    code, out, err = run(capsys, "--no-config", "evaluate", str(skeleton), "-f", "json")
    assert code == 0, err
    findings = json.loads(out)["products"][0]["findings"]
    assert any(
        f["clause"] == "base-undisclosed" and f["verdict"] == "governance_risk" for f in findings
    )


def test_discover_never_overwrites_a_source_file_it_scans(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """`discover src -o src/app.py` replaced the code it had just read with the list (exit 0):
    only YAML files inside an input folder were protected."""
    source = tmp_path / "src"
    source.mkdir()
    app = source / "app.py"
    app.write_text('load("moonshotai/Kimi-K2.5")\n', encoding="utf-8")
    code, out, err = run(capsys, "--no-config", "discover", str(source), "-o", str(app))
    assert (code, out) == (2, "")
    # stderr wraps at its width, and the temporary path's length moves the break: read it unwrapped
    assert "is a file inside the scanned folder" in " ".join(err.split())
    assert app.read_text(encoding="utf-8") == 'load("moonshotai/Kimi-K2.5")\n'
    code, _, err = run(capsys, "--no-config", "discover", str(source), "-o", str(tmp_path / "a"))
    assert code == 0, err
