"""A configuration file never weakens a gate unseen: the report says which settings came from
it and where (`fail-on: never` in a parent folder's file shows in the gate line and in the JSON
and SARIF reports); a `.licheck.yaml` that is a folder or a link to nothing is an error, not a
file to skip on the way up; an empty list of paths is a located error."""

from __future__ import annotations

import html
import json
from pathlib import Path

import jsonschema
import pytest

from licheck.schemas import shipped
from tests.clirun import report_json, run
from tests.config.test_settings import project
from tests.outputs.test_ci_platforms import _valid_sarif

__all__ = ["project"]  # the fixture, shared with test_config


def test_a_gate_weakened_by_a_parent_folders_file_says_where(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / ".licheck.yaml").write_text("# team\nfail-on: never\n", encoding="utf-8")
    manifest = "../products/composer2.yaml"  # a governance risk
    code, out, err = run(capsys, "check", manifest)
    assert code == 0, err
    assert "Gate (--fail-on never, set at ../.licheck.yaml:2:1): passes" in out
    code, out, err = run(capsys, "check", manifest, "-f", "json")
    assert code == 0, err
    assert report_json(out)["config"] == {
        "file": "../.licheck.yaml",
        "settings": [{"key": "fail-on", "value": "never", "at": "../.licheck.yaml:2:1"}],
    }
    code, out, err = run(capsys, "evaluate", manifest, "-f", "sarif")
    assert code == 0, err
    config = report_json(out)["runs"][0]["properties"]["config"]
    assert config["settings"][0]["key"] == "fail-on"


def test_an_option_on_the_command_line_is_not_reported_as_the_files(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / ".licheck.yaml").write_text("fail-on: never\n", encoding="utf-8")
    code, out, err = run(
        capsys, "check", "../products/composer2.yaml", "--fail-on", "risk", "-f", "json"
    )
    assert code == 1, err
    assert report_json(out)["config"] == {"file": "../.licheck.yaml", "settings": []}


def test_without_a_file_the_report_has_no_config_section(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "check", "../products/composer2.yaml", "-f", "json")
    assert code == 0, err
    assert "config" not in report_json(out)


@pytest.mark.parametrize("kind", ["folder", "dangling link"])
def test_a_licheck_yaml_that_is_not_a_file_is_an_error(
    project: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """Skipping it would read the settings of a file further up (or none) unseen."""
    (project / ".licheck.yaml").write_text("fail-on: risk\n", encoding="utf-8")
    here = project / "sub" / ".licheck.yaml"
    if kind == "folder":
        here.mkdir()
    else:
        here.symlink_to(project / "sub" / "missing.yaml")
    code, _, err = run(capsys, "check", "../products/composer2.yaml")
    assert code == 2
    assert err.startswith(".licheck.yaml: error:"), err


def test_an_empty_list_of_paths_is_a_located_error(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / ".licheck.yaml").write_text("fail-on: risk\npaths: []\n", encoding="utf-8")
    code, _, err = run(capsys, "check")
    assert code == 2
    assert "../.licheck.yaml:2:1: error: an empty list: name at least one path" in err


VIOLATING = """\
product: M
owner: O
facts:
  commercial: true
  notice_included: false
components:
  - id: c
    name: C
    delivery: [weights]
    lineage: {base: glm-4.6}
"""


@pytest.mark.parametrize("command", ["evaluate", "check"])
def test_a_pass_owed_to_the_files_fail_on_is_said_on_stderr(
    project: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """`evaluate`'s text has no gate line: a violation passing because of a `fail-on: never`
    the user did not type is said on stderr, in every format."""
    (project / ".licheck.yaml").write_text("fail-on: never\n", encoding="utf-8")
    (project / "sub" / "m.yaml").write_text(VIOLATING, encoding="utf-8")
    for fmt in ("text", "json"):
        code, _, err = run(capsys, command, "m.yaml", "-f", fmt)
        assert code == 0, err
        assert (
            "licheck: note: the gate passes because of fail-on: never, set at "
            "../.licheck.yaml:1:1 (worst finding not waived: violation" in err
        ), fmt
    code, _, err = run(capsys, command, "m.yaml", "--fail-on", "never")  # typed: no note
    assert code == 0 and "note: the gate passes" not in err


WEAKENED = (
    "--evidence community_inference,declared (../.licheck.yaml:1:1; weaker than the default: "
    "community_inference can establish a fact"
)


@pytest.mark.parametrize(
    ("command", "fmt", "extra"),
    [
        ("check", "text", ()),  # brief: a line a finding and the summary
        ("check", "text", ("-v",)),
        ("evaluate", "text", ()),  # no gate line: the settings line still
        ("check", "compact", ()),
        ("check", "github", ()),
        ("check", "markdown", ()),
        ("check", "html", ()),
    ],
)
def test_an_evidence_policy_from_the_file_is_named_in_every_format(
    project: Path, capsys: pytest.CaptureFixture[str], command: str, fmt: str, extra: tuple[str]
) -> None:
    """A rumour-grade source settling a fact is named beside the gate line, with its file."""
    (project / ".licheck.yaml").write_text(
        "evidence: community_inference,declared\n", encoding="utf-8"
    )
    code, out, err = run(capsys, command, "../products/composer2.yaml", "-f", fmt, *extra)
    assert code in (0, 1), err
    shown = html.unescape(out.replace("\\_", "_"))  # as a reader sees Markdown and HTML
    assert WEAKENED in " ".join(shown.split()), out


def test_the_machine_formats_list_every_gate_setting(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / ".licheck.yaml").write_text(
        "evidence: community_inference,declared\n", encoding="utf-8"
    )
    argv = ("check", "../products/composer2.yaml", "--as-of", "2026-03-19")
    _, out, _ = run(capsys, *argv, "-f", "json")
    report = json.loads(out)
    schema = json.loads(shipped("report"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(report)) == []
    listed = report["gate_settings"]
    assert [s["key"] for s in listed] == [
        *("fail-on", "evidence", "as-of", "licenses", "builtin-licenses"),
        *("policy", "waivers", "attestations", "baseline", "today"),
    ]
    by_key = {s["key"]: s for s in listed}
    assert by_key["evidence"]["source"] == "../.licheck.yaml:1:1"
    assert by_key["as-of"] == {
        "key": "as-of",
        "value": "2026-03-19",
        "source": "command line",
        "default": False,
        "effect": None,
    }
    assert by_key["fail-on"]["default"] and by_key["fail-on"]["source"] == "default"
    _, out, _ = run(capsys, *argv, "-f", "sarif")
    log = report_json(out)
    assert log["runs"][0]["properties"]["gateSettings"] == listed
    _valid_sarif(log)
    _, out, _ = run(capsys, *argv, "-f", "junit")
    import xml.etree.ElementTree as ET

    suite = ET.fromstring(out).find("./testsuite[@name='settings in force']")
    assert suite is not None
    properties = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert properties == {
        "fail-on": "violation",
        "fail-on.source": "default",
        "evidence": "community_inference,declared",
        "evidence.source": "../.licheck.yaml:1:1",
        "as-of": "2026-03-19",
        "as-of.source": "command line",
    }
