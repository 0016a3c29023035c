"""`files.tomlpositions` finds where every key and value of a TOML document is written, however
TOML writes it: generated documents (tables as headers, dotted keys or inline tables; keys bare,
quoted, literal or escaped; values of every kind, multi-line strings with decoys) are written
with the position of each key and value recorded as they are written, and `tomllib` checks that
the document means what was generated."""

from __future__ import annotations

import datetime as dt
import tomllib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from licheck.files.tomlpositions import positions

Key = tuple[str | int, ...]

MOMENT = dt.datetime(1979, 5, 27, 7, 32, tzinfo=dt.UTC)
names = st.text(alphabet="ab-_.é\" '\\[]=#", min_size=1, max_size=6)
scalars = st.one_of(
    st.integers(-100, 100),
    st.booleans(),
    st.text(alphabet="ab\"'\\\n[]#= ", max_size=8),
    st.just(MOMENT),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(names, inner, min_size=1, max_size=3)
    ),
    max_leaves=8,
)
documents = st.dictionaries(names, values, min_size=1, max_size=5)


class Writer:
    """Writes a document, recording where each key and value begins."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw
        self.parts: list[str] = []
        self.line, self.column = 1, 1
        self.keys: dict[Key, tuple[int, int]] = {}
        self.values: dict[Key, tuple[int, int]] = {}

    def emit(self, text: str) -> None:
        self.parts.append(text)
        for char in text:
            self.line, self.column = (
                (self.line + 1, 1) if char == "\n" else (self.line, self.column + 1)
            )

    def here(self) -> tuple[int, int]:
        return self.line, self.column

    def key(self, name: str) -> str:
        bare = all(c.isascii() and (c.isalnum() or c in "-_") for c in name)
        style = self.draw(st.sampled_from(["bare", "basic", "escaped", "literal"]))
        if bare and style == "bare":
            return name
        if style == "literal" and "'" not in name and "\n" not in name:
            return f"'{name}'"
        escaped = style == "escaped"
        return '"' + "".join(_basic(c, escaped) for c in name) + '"'

    def string(self, text: str) -> str:
        if "\n" in text and self.draw(st.booleans()):
            body = "".join(_basic(c, False, multiline=True) for c in text)
            return '"""\n' + body + '"""'  # the line break after the quotes is not content
        return '"' + "".join(_basic(c, False) for c in text) + '"'

    def scalar(self, value: Any) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return str(value)
        if isinstance(value, dt.datetime):  # with a space: a scalar that is not one word
            return self.draw(st.sampled_from(["1979-05-27T07:32:00Z", "1979-05-27 07:32:00Z"]))
        return self.string(value)

    def value(self, path: Key, value: Any) -> None:
        self.values.setdefault(path, self.here())
        if isinstance(value, dict):
            self.emit("{")
            for i, (name, item) in enumerate(value.items()):
                self.emit(", " if i else " ")
                self.pair((*path, name), [name], item)
            self.emit(" }")
        elif isinstance(value, list):
            self.emit("[")
            for i, item in enumerate(value):
                self.emit(",\n  " if i and self.draw(st.booleans()) else ", " if i else "")
                self.value((*path, i), item)
            self.emit("]")
        else:
            self.emit(self.scalar(value))

    def pair(self, path: Key, names: list[str], value: Any) -> None:
        """`a.b.c = value` (the names after the table's path), each key's place recorded."""
        start = path[: len(path) - len(names)]
        for i, name in enumerate(names):
            if i:
                self.emit(self.draw(st.sampled_from([".", " . "])))
            self.keys.setdefault((*start, *names[: i + 1]), self.here())
            self.emit(self.key(name))
        self.emit(" = ")
        self.value(path, value)

    def leaves(self, path: Key, names: list[str], value: Any) -> None:
        """A table written as dotted keys, one line a leaf."""
        if isinstance(value, dict) and value and self.draw(st.booleans()):
            for name, item in value.items():
                self.leaves((*path, name), [*names, name], item)
            return
        self.pair(path, names, value)
        self.emit(self.draw(st.sampled_from(["\n", "  # c\n", "\r\n"])))

    def table(self, path: Key, table: dict[str, Any]) -> None:
        """The table's pairs, then its sub-tables written as headers."""
        headed = []
        for name, value in table.items():
            if isinstance(value, dict) and value and self.draw(st.booleans()):
                headed.append((name, value))
            else:
                self.leaves((*path, name), [name], value)
        for name, value in headed:
            self.keys.setdefault((*path, name), self.here())
            self.values.setdefault((*path, name), self.here())
            self.emit("[" + ".".join(self.key(str(p)) for p in (*path, name)) + "]\n")
            self.table((*path, name), value)


def _basic(char: str, escaped: bool, *, multiline: bool = False) -> str:
    if char == "\n":
        return "\n" if multiline else "\\n"
    if char in '"\\':
        return "\\" + char
    return f"\\u{ord(char):04X}" if escaped else char


@st.composite
def written(draw: st.DrawFn) -> tuple[str, dict[str, Any], Writer]:
    data = {k: v for k, v in draw(documents).items() if k != "decoy"}
    writer = Writer(draw)
    if draw(st.booleans()):  # a decoy: a table header inside a multi-line string
        writer.keys[("decoy",)], writer.values[("decoy",)] = (1, 1), (1, 9)
        writer.emit('decoy = """\n[tool.licheck]\nfail-on = "never"\n"""\n')
        data = {"decoy": '[tool.licheck]\nfail-on = "never"\n', **data}
    writer.table((), {k: v for k, v in data.items() if k != "decoy"})
    return "".join(writer.parts), data, writer


@settings(max_examples=150, deadline=None)
@given(written())
@pytest.mark.slow
def test_every_key_and_value_is_found_where_it_was_written(
    document: tuple[str, dict[str, Any], Writer],
) -> None:
    text, data, writer = document
    assert tomllib.loads(text) == data  # the generator writes what it means
    found = positions(text)
    for path, where in writer.keys.items():
        assert found.keys.get(path) == where, (path, text)
    for path, where in writer.values.items():
        assert found.values.get(path) == where, (path, text)
