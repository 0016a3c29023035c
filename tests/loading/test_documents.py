"""The invalid-input corpus (tests/data/invalid/): each file gets exactly the located problems
`expected.yaml` lists for it, exit code 2, and no traceback — through `validate`, through
`evaluate` (manifests) and through a rule library (rule files)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from licheck.cli import cli
from licheck.cli.common import run_guarded
from licheck.files import yamlsafe
from tests.clirun import report_json
from tests.conftest import LICENSES, REFERENCE_TEXTS, ROOT, needs_reference

INVALID = Path(__file__).resolve().parents[1] / "data" / "invalid"
EXPECTED: dict[str, list[dict[str, Any]]] = yamlsafe.load(INVALID / "expected.yaml").data
FILES = sorted(p.name for p in INVALID.glob("*.yaml") if p.name != "expected.yaml")
DIAGNOSTIC = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): error: (?P<message>.*)$")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run_guarded(cli, list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def diagnostics(err: str, file: str) -> list[tuple[int, str]]:
    """(line, message) of each diagnostic for `file`; every one must carry line and column."""
    found = []
    for line in err.splitlines():
        if line.startswith("  hint: ") or line.startswith("licheck: "):
            continue
        match = DIAGNOSTIC.match(line)
        if match is None:  # only a problem with a whole file (missing, a folder) has no line
            assert re.match(r"^.+: error: ", line), f"not a diagnostic: {line!r}"
            assert not line.startswith(file + ": "), f"no location: {line!r}"
            continue
        if match["file"] == file:
            assert int(match["column"]) >= 1
            found.append((int(match["line"]), match["message"]))
    return found


def assert_expected(name: str, err: str, file: str) -> None:
    assert "Traceback" not in err
    found = diagnostics(err, file)
    expected = EXPECTED[name]
    assert len(found) == len(expected), f"{name}: expected {len(expected)} problems, got {found}"
    unmatched = list(found)
    for problem in expected:
        hit = next(
            (
                f
                for f in unmatched
                if f[0] == problem["line"] and all(word in f[1] for word in problem["has"])
            ),
            None,
        )
        assert hit is not None, (
            f"{name}: no problem at line {problem['line']} with {problem['has']}; got {found}"
        )
        unmatched.remove(hit)


def test_every_corpus_file_has_expectations() -> None:
    assert sorted(EXPECTED) == FILES


@pytest.mark.usefixtures("unwrapped")  # parses each hint as one line
@pytest.mark.parametrize("name", FILES)
def test_validate(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(INVALID / name)
    code, out, err = run(capsys, "validate", path)
    assert code == 2, err
    assert out == ""
    assert_expected(name, err, path)


@pytest.mark.usefixtures("unwrapped")  # parses each hint as one line
@pytest.mark.parametrize("name", [n for n in FILES if n.startswith("m-")])
def test_evaluate(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(INVALID / name)
    code, out, err = run(capsys, "evaluate", path)
    assert (code, out) == (2, "")
    assert_expected(name, err, path)
    assert "nothing was evaluated" in err


@pytest.mark.parametrize("name", [n for n in FILES if n.startswith("l-")])
def test_rule_file_in_a_library(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    library = tmp_path / "licenses"
    shutil.copytree(LICENSES, library)
    shutil.copy(INVALID / name, library / "mit.yaml")
    code, out, err = run(
        capsys, "evaluate", "--licenses", str(library), str(ROOT / "products" / "composer2.yaml")
    )
    assert (code, out) == (2, "")
    assert_expected(name, err, str(library / "mit.yaml"))


@pytest.mark.usefixtures("unwrapped")  # parses each hint as one line
def test_all_problems_in_all_files_in_one_run(capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(INVALID / name) for name in FILES]
    code, _, err = run(capsys, "validate", *paths)
    assert code == 2
    for name, path in zip(FILES, paths, strict=True):
        assert_expected(name, err, path)
    total = sum(len(problems) for problems in EXPECTED.values())
    assert f"licheck: {total} problems in the input" in err


@pytest.mark.usefixtures("unwrapped")  # parses each line of stderr whole
def test_bad_files_among_good_ones_still_list_every_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = str(ROOT / "products" / "composer2.yaml")
    missing, folder = str(tmp_path / "absent.yaml"), str(tmp_path)
    bad = str(INVALID / "m-octal-count.yaml")
    code, out, err = run(capsys, "evaluate", good, missing, folder, bad, "-f", "json")
    assert code == 2
    # the good manifest is evaluated and the three others listed as not read, as `check` does
    # (evaluate stopped before any report while one of several manifests was broken)
    report = report_json(out)
    assert [p["file"] for p in report["products"]] == [good]
    assert {e["file"] for e in report["errors"]} == {missing, folder, bad}
    assert f"{missing}: error: no such file" in err
    assert f"{folder}: error: is a directory" in err
    assert_expected("m-octal-count.yaml", err, bad)
    assert good not in err


def test_valid_files_pass(capsys: pytest.CaptureFixture[str]) -> None:
    paths = [
        str(ROOT / "products" / "composer2.yaml"),
        *(str(p) for p in sorted(LICENSES.glob("*.yaml"))),
    ]
    code, out, err = run(capsys, "validate", *paths)
    assert (code, err) == (0, "")
    assert out.count("ok: ") == len(paths)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (
            ["evaluate", "--as-of", "2026-02-30", "products/composer2.yaml"],
            ["--as-of", "2026-02-30"],
        ),
        (["evaluate", "--evidence", "gossip", "products/composer2.yaml"], ["--evidence", "gossip"]),
        (["evaluate", "--format", "yaml", "products/composer2.yaml"], ["--format", "yaml"]),
        (["licenses", "show", "kimi-k2.5-modifed-mit"], ["did you mean", "kimi-k2.5-modified-mit"]),
        (
            ["evaluate", "--licenses", "/nonexistent-folder", "products/composer2.yaml"],
            ["/nonexistent-folder"],
        ),
        (["nonsense"], ["No such command"]),
    ],
)
def test_bad_options_exit_2_with_a_message(
    argv: list[str],
    words: list[str],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(ROOT)
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert "Traceback" not in err
    for word in words:
        assert word in err


@needs_reference()
def test_rules_drifted_from_their_text_are_named_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A quote not in the canonical text and a hash mismatch: `licenses verify` exits 1 (the
    rules drifted, as documented), naming the rule file, the line and the clause."""
    library = tmp_path / "licenses"
    shutil.copytree(LICENSES, library)
    rule = library / "mit.yaml"
    text = rule.read_text("utf-8")
    rule.write_text(
        text.replace("shall be included in all", "shall be included in most").replace(
            "sha256: 002c", "sha256: 112c"
        ),
        "utf-8",
    )
    code, _, err = run(
        capsys, "licenses", "verify", "--licenses", str(library), "--texts", str(REFERENCE_TEXTS)
    )
    assert code == 1
    quote_line = next(n for n, line in enumerate(text.splitlines(), 1) if "- id: " in line)
    assert f"{rule}:1: mit: mit-standard.txt has changed" in err
    assert f"{rule}:{quote_line}: mit/copyright-notice: the quote" in err
    assert "does not occur" in err and "Traceback" not in err


def test_evidence_after_as_of_is_ignored_not_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    """Evidence dated after --as-of did not exist then: it is set aside, and said so."""

    code, out, err = run(
        capsys,
        "evaluate",
        str(ROOT / "products" / "composer2.yaml"),
        "--as-of",
        "2026-03-19",
        "--format",
        "json",
    )
    assert code in (0, 1) and err == ""
    counted = {
        e["counted"]
        for p in report_json(out)["products"]
        for f in p["findings"]
        for fact in f["facts"]
        for e in fact["evidence"]
    }
    assert "ignored: dated after --as-of 2026-03-19" in counted
