"""The hardened YAML reader: what it types, what it refuses, and where it says the problem is."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from licheck.core.diagnostics import Diagnostic, InputError
from licheck.files import yamlsafe


def parse(text: str) -> object:
    return yamlsafe.parse(text, "f.yaml").data


def refusal(text: str) -> Diagnostic:
    with pytest.raises(InputError) as caught:
        yamlsafe.parse(text, "f.yaml")
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.file == "f.yaml"
    return diagnostic


def file_refusal(path: Path) -> Diagnostic:
    with pytest.raises(InputError) as caught:
        yamlsafe.load(path, "shown.yaml")
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.file == "shown.yaml"
    return diagnostic


# -- typing of plain scalars -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("true", True),
        ("True", True),
        ("TRUE", True),
        ("false", False),
        ("FALSE", False),
        ("null", None),
        ("~", None),
        ("", None),
        ("Null", None),
        ("0", 0),
        ("-0", 0),
        ("42", 42),
        ("+42", 42),
        ("-7", -7),
        ("0.5", 0.5),
        (".5", 0.5),
        ("1.", 1.0),
        # scientific notation stays text: the field that wants a number refuses it with a hint,
        # as `--set` does (issue 12)
        ("1e3", "1e3"),
        ("-2.5E-1", "-2.5E-1"),
        # a decimal that a float would round stays text, read exactly by the field
        ("20000000.000000001", "20000000.000000001"),
        ("0.1", 0.1),
        ("010.5", 10.5),
    ],
)
def test_typed_scalars(text: str, expected: object) -> None:
    value = parse(f"a: {text}")
    assert value == {"a": expected}
    assert isinstance(value, dict) and type(value["a"]) is type(expected)


@pytest.mark.parametrize(
    "text",
    [
        # YAML 1.1 booleans, octal/hex/binary/base-60 numbers, dates, specials: all stay text
        "no",
        "No",
        "NO",
        "yes",
        "on",
        "off",
        "y",
        "n",
        "Off",
        "010",
        "-010",
        "0_10",
        "0x1F",
        "0o17",
        "0b101",
        "1:30",
        "190:20:30",
        "1_000",
        "2026-03-20",
        "2026-03-20T10:00:00Z",
        ".inf",
        "-.inf",
        ".nan",
        ".NaN",
        "=",
        "<<x",
    ],
)
def test_yaml_11_surprises_stay_strings(text: str) -> None:
    assert parse(f"a: {text}") == {"a": text}


@pytest.mark.parametrize("text", ["'true'", '"10"', "!!str 10", "! 10", "|\n  10", ">\n  no"])
def test_quoted_tagged_and_block_scalars_are_strings(text: str) -> None:
    value = parse(f"a: {text}")
    assert isinstance(value["a"], str)  # type: ignore[index]


def test_keys_are_always_the_text_written() -> None:
    assert parse("1: a\ntrue: b\nno: c\n010: d") == {"1": "a", "true": "b", "no": "c", "010": "d"}


def test_nested_structures_and_positions() -> None:
    document = yamlsafe.parse("a:\n  b: [1, {c: x}]\n  d: |\n    text\n", "f.yaml")
    assert document.data == {"a": {"b": [1, {"c": "x"}], "d": "text\n"}}
    assert document.locate(("a",)) == (1, 1)  # a block mapping: at its key
    assert document.locate(("a", "b")) == (2, 3)  # any container under a key: at the key
    assert document.locate(("a", "b", 1, "c")) == (2, 14)  # a scalar: the value itself
    assert document.key_positions[("a", "b", 1, "c")] == (2, 11)
    assert document.error(("a", "b", 1, "c"), "unknown", at_key=True).column == 11
    assert document.locate(("a", "b", 1, "c", "deeper", 3)) == (2, 14)  # nearest ancestor
    assert document.locate(()) == (1, 1)
    error = document.error(("a", "d"), "bad", "fix it")
    assert (error.line, error.column, error.hint) == (3, 6, "fix it")  # the block scalar


def test_anchors_and_aliases_within_limits_are_expanded() -> None:
    assert parse("a: &x [1, 2]\nb: *x\nc: &s word\nd: *s") == {
        "a": [1, 2],
        "b": [1, 2],
        "c": "word",
        "d": "word",
    }


def test_document_end_marker_and_bom_are_fine() -> None:
    assert yamlsafe.decode(b"\xef\xbb\xbfa: 1\n", "f") == "a: 1\n"
    assert parse("---\na: 1\n...\n") == {"a": 1}


# -- refusals inside the text ----------------------------------------------------------------


def test_duplicate_keys_are_refused_at_the_second() -> None:
    problem = refusal("a: 1\nb: 2\na: 3\n")
    assert (problem.line, problem.column) == (3, 1)
    assert "duplicate key 'a'" in problem.message and "line 1" in problem.message


def test_duplicate_block_mapping_says_where_the_first_key_is() -> None:
    problem = refusal("a:\n  x: 1\nb: 2\na:\n  y: 2\n")
    assert problem.line == 4 and "first defined at line 1" in problem.message


def test_duplicate_keys_quoted_and_plain_are_the_same_key() -> None:
    assert "duplicate key" in refusal('a: 1\n"a": 2\n').message


def test_duplicate_keys_in_nested_flow_mapping() -> None:
    problem = refusal("x:\n  - {k: 1, k: 2}\n")
    assert (problem.line, "duplicate key 'k'" in problem.message) == (2, True)


def test_merge_keys_are_refused() -> None:
    problem = refusal("base: &b {x: 1}\nc:\n  <<: *b\n")
    assert (problem.line, problem.column) == (3, 3)
    assert "merge keys" in problem.message
    assert parse("'<<': literal") == {"<<": "literal"}  # a quoted '<<' is an ordinary key


@pytest.mark.parametrize(
    ("text", "what"),
    [
        ("a: !!python/object/apply:os.system ['true']", "python/object"),
        ("a: !!binary aGk=", "binary"),
        ("a: !!int 5", "int"),
        ("a: !custom x", "!custom"),
        ("a: !!map {b: 1}", "map"),
        ("a: !!set {b}", "set"),
        ("a: !!omap [b: 1]", "omap"),
    ],
)
def test_explicit_tags_are_refused(text: str, what: str) -> None:
    problem = refusal(text)
    assert "tag" in problem.message and what in problem.message
    assert (problem.line, problem.column) == (1, 4)


def test_several_documents_are_refused_at_the_second() -> None:
    problem = refusal("a: 1\n---\nb: 2\n")
    assert problem.line == 2 and "several YAML documents" in problem.message


def test_alias_bomb_is_refused() -> None:
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for n, name in enumerate("bcdefg"):
        previous = "abcdefg"[n]
        levels.append(f"{name}: &{name} [{', '.join([f'*{previous}'] * 10)}]")
    problem = refusal("\n".join(levels))
    assert "alias bomb" in problem.message and problem.line > 1


def test_a_large_document_without_aliases_is_not_called_an_alias_bomb() -> None:
    """10,000 components written out in full pass the value limit: the refusal says the file is
    too large, and suggests splitting it, not avoiding aliases it does not have."""
    components = "".join(
        f"  - id: c{i}\n    name: C{i}\n    lineage: {{base: llama-3.1-8b}}\n"
        for i in range(10_000)
    )
    problem = refusal(f"product: P\nowner: O\ncomponents:\n{components}")
    assert "alias" not in problem.message + problem.hint
    assert "values" in problem.message and "split" in problem.hint


def test_alias_to_an_unknown_anchor_and_alias_as_key_are_refused() -> None:
    assert "unknown alias" in refusal("a: *nowhere\n").message
    assert "unknown alias" in refusal("a: &x [*x]\n").message  # self-reference
    assert "plain value" in refusal("a: &k key\n*k : 2\n").message


def test_complex_keys_are_refused() -> None:
    assert "plain value" in refusal("? [a, b]\n: 1\n").message
    assert "plain value" in refusal("? {a: 1}\n: 1\n").message


def test_depth_limit() -> None:
    ok = "a: " + "[" * (yamlsafe.MAX_DEPTH - 1) + "]" * (yamlsafe.MAX_DEPTH - 1)
    assert parse(ok)
    problem = refusal("a: " + "[" * 500 + "]" * 500)
    assert "nested more than" in problem.message and problem.line == 1


def test_scalar_length_limit() -> None:
    assert parse("a: " + "x" * yamlsafe.MAX_SCALAR_CHARS)
    problem = refusal("a: " + "x" * (yamlsafe.MAX_SCALAR_CHARS + 1))
    assert "longer than the limit" in problem.message and (problem.line, problem.column) == (1, 4)


@pytest.mark.parametrize("number", ["9" * 5000, "1" * 101, "1e999", "-1e999", "1.5e400"])
def test_numbers_out_of_range_are_refused(number: str) -> None:
    problem = refusal(f"a: {number}")
    assert "out of range" in problem.message and "quote" in problem.hint
    assert parse(f"a: '{number}'") == {"a": number}


def test_syntax_errors_are_located() -> None:
    problem = refusal("a: [1, 2\nb: 3\n")
    assert problem.message.startswith("invalid YAML") and problem.line >= 1
    tab = refusal("a:\n\t- b\n")
    assert tab.line == 2 and "invalid YAML" in tab.message


def test_control_characters_are_refused_by_the_parser() -> None:
    problem = refusal("a: 1\nb: b\x07c\n")
    assert "invalid YAML" in problem.message and "U+0007 is not allowed" in problem.message
    assert (problem.line, problem.column) == (2, 5)


def test_unsupported_yaml_version_is_refused() -> None:
    assert "invalid YAML" in refusal("%YAML 2.0\n---\na: 1\n").message


# -- refusals of the file itself -------------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    assert "no such file" in file_refusal(tmp_path / "absent.yaml").message


def test_directory(tmp_path: Path) -> None:
    problem = file_refusal(tmp_path)
    assert "directory" in problem.message and "licheck check" in problem.hint


def test_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)  # reading it would block forever
    assert "not a regular file" in file_refusal(fifo).message


def test_too_large(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" + b"#" * yamlsafe.MAX_FILE_BYTES)
    assert "too large" in file_refusal(big).message


def test_unreadable(tmp_path: Path) -> None:
    locked = tmp_path / "locked.yaml"
    locked.write_text("a: 1\n")
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip(
                "running as a user who can read any file (root): chmod 000 blocks nothing here"
            )
        problem = file_refusal(locked)
        assert "permission denied" in problem.message
    finally:
        locked.chmod(0o600)


def test_unreadable_as_the_os_reports_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same branch, independent of who runs the tests: the OS says no."""
    target = tmp_path / "x.yaml"
    target.write_text("a: 1\n")

    def deny(*_args: object, **_kwargs: object) -> object:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", deny)  # licheck.files.safeio opens with os.open
    assert "permission denied" in file_refusal(target).message


def test_other_os_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "x.yaml"
    target.write_text("a: 1\n")

    def broken(*_args: object, **_kwargs: object) -> object:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(os, "open", broken)
    assert "Input/output error" in file_refusal(target).message


def test_symlink_loop(tmp_path: Path) -> None:
    loop = tmp_path / "loop.yaml"
    loop.symlink_to(loop)
    assert "cannot read" in file_refusal(loop).message


@pytest.mark.parametrize(
    ("raw", "message", "line"),
    [
        (b"", "empty", 1),
        (b"   \n\n", "empty", 1),
        (b"# just a comment\n  # another\n", "empty", 1),
        (b"a: 1\nb: \xe9t\xe9\n", "not valid UTF-8", 2),
        (b"a: 1\n\x00\x01\x02", "binary data", 2),
        ("a: 1\n".encode("utf-16"), "UTF-16", 1),
        ("a: 1\n".encode("utf-32"), "UTF-16 or UTF-32", 1),
    ],
)
def test_bytes_that_are_not_yaml_text(tmp_path: Path, raw: bytes, message: str, line: int) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(raw)
    problem = file_refusal(path)
    assert message in problem.message and problem.line == line


def test_invalid_utf8_column_is_the_offending_byte() -> None:
    with pytest.raises(InputError) as caught:
        yamlsafe.decode(b"name: caf\xe9\n", "f")
    assert (caught.value.diagnostics[0].line, caught.value.diagnostics[0].column) == (1, 10)


def test_a_good_file_loads(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text("product: X\ncount: 3\n", encoding="utf-8")
    document = yamlsafe.load(path)
    assert document.file == str(path) and document.data == {"product": "X", "count": 3}


def test_diagnostic_text() -> None:
    assert str(Diagnostic("f", 3, 4, "bad", "fix")) == "f:3:4: error: bad\n  hint: fix"
    assert str(Diagnostic("f", 0, 0, "gone")) == "f: error: gone"
    error = InputError(
        [Diagnostic("b", 2, 1, "y"), Diagnostic("a", 9, 1, "x"), Diagnostic("b", 2, 1, "y")]
    )
    assert [d.file for d in error.diagnostics] == ["a", "b"]  # sorted, duplicates dropped
