"""The set-aside list of `licenses coverage`: its entries, and the located errors of a malformed
one (a set-aside list that cannot be read never accounts for a text)."""

from __future__ import annotations

from pathlib import Path

import pytest

from licheck.core.diagnostics import InputError
from licheck.library import setaside
from tests.clirun import run
from tests.conftest import LICENSES


def _write(folder: Path, text: str) -> Path:
    path = folder / setaside.SET_ASIDE_FILE
    path.write_text(text, encoding="utf-8")
    return path


def test_the_shipped_list_sets_aside_only_files_that_are_not_license_terms() -> None:
    entries = setaside.load([LICENSES])
    assert [e.text for e in entries] == ["kimi-dev-license-note.txt"]
    assert all(e.reason and e.line > 0 for e in entries)


def test_entries_of_each_folder_in_order_and_a_folder_without_a_list(tmp_path: Path) -> None:
    first, second, empty = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    for folder in (first, second, empty):
        folder.mkdir()
    _write(first, "texts:\n  - file: a.txt\n    reason: notes\n")
    _write(second, "texts:\n  - {file: b.txt, reason: a pointer}\n  - {file: c.txt, reason: x}\n")
    entries = setaside.load([first, empty, second])
    assert [(e.text, e.reason, e.line) for e in entries] == [
        ("a.txt", "notes", 2),
        ("b.txt", "a pointer", 2),
        ("c.txt", "x", 3),
    ]


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("texts: {}\n", (1, 1), "one key, texts"),
        ("files: []\n", (1, 1), "one key, texts"),
        ("texts:\n  - file: a.txt\n", (2, 5), "exactly file and reason"),
        ("texts:\n  - {file: a.txt, reason: ''}\n", (2, 27), "may not be empty"),
        ("texts:\n  - {file: ../a.txt, reason: r}\n", (2, 12), "inside the texts folder"),
        ("texts:\n  - {file: sub/a.txt, reason: r}\n", (2, 12), "inside the texts folder"),
        ("texts:\n  - {file: 3, reason: r}\n", (2, 12), "inside the texts folder"),
    ],
)
def test_a_malformed_list_is_an_error_at_its_line_and_column(
    tmp_path: Path, text: str, where: tuple[int, int], words: str
) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(InputError) as caught:
        setaside.load([tmp_path])
    [problem] = caught.value.diagnostics
    assert (problem.file, problem.line, problem.column) == (str(path), *where)
    assert words in problem.message


def test_validate_knows_a_set_aside_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, "validate", str(LICENSES / setaside.SET_ASIDE_FILE))
    assert (code, err) == (0, "") and "(set-aside)" in out
    bad = _write(tmp_path, "texts:\n  - {file: a.txt}\n")
    code, out, err = run(capsys, "validate", str(bad))
    assert code == 2 and f"{bad}:2:5" in err and "exactly file and reason" in err
