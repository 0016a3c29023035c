"""Where each key and value of a TOML document is written, to locate an error in it.

The standard library's `tomllib` decides what a document means and keeps no positions; this
scan only finds the (line, column) of every key path, however TOML writes it: a table header
(`[tool.licheck]`, `[tool]`), a dotted key (`tool.licheck.fail-on = ...`), an inline table
(`tool = {licheck = {...}}`), quoted and escaped keys (`[tool."lich\\u0065ck"]`, whose quoted
parts `tomllib` itself decodes).  It runs on text `tomllib` has accepted, so it need not word
any error; a position it cannot find makes the caller point at an enclosing one instead.
"""

from __future__ import annotations

import bisect
import tomllib
from dataclasses import dataclass, field

Key = tuple[str | int, ...]
Position = tuple[int, int]

_BARE = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_SPACE = " \t"
_SCALAR_END = ",]}#\n\r"


@dataclass(slots=True)
class Positions:
    """The 1-based (line, column) of each key path's key, and of its value."""

    keys: dict[Key, Position] = field(default_factory=dict)
    values: dict[Key, Position] = field(default_factory=dict)


def positions(text: str) -> Positions:
    """Every key path of `text` (valid TOML), where its key and its value begin (a table's
    header counts as both); the first place wins where TOML lets a table be written twice."""
    scan = _Scan(text)
    try:
        return scan.document()
    except (ValueError, IndexError, RecursionError):  # the positions found so far
        return scan.found


class _Scan:
    def __init__(self, text: str) -> None:
        self.text = text
        self.at = 0
        self.starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
        self.found = Positions()
        self.arrays: dict[Key, int] = {}  # `[[x]]` tables seen: the index of the next one

    def position(self, offset: int) -> Position:
        line = bisect.bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1] + 1

    def note(self, key: Key, offset: int, *, value: bool = True) -> None:
        where = self.position(offset)
        self.found.keys.setdefault(key, where)
        if value:
            self.found.values.setdefault(key, where)

    def peek(self, width: int = 1) -> str:
        return self.text[self.at : self.at + width]

    def skip_space(self, *, lines: bool = False) -> None:
        """Blanks, and with `lines` line breaks and comments too."""
        text, n = self.text, len(self.text)
        while self.at < n:
            char = text[self.at]
            if char in _SPACE or (lines and char in "\r\n"):
                self.at += 1
            elif lines and char == "#":
                end = text.find("\n", self.at)
                self.at = n if end < 0 else end
            else:
                return

    def document(self) -> Positions:
        table: Key = ()
        while True:
            self.skip_space(lines=True)
            if self.at >= len(self.text):
                return self.found
            if self.peek() == "[":
                table = self.header()
            else:
                self.key_value(table)

    def header(self) -> Key:
        """`[a.b]` or `[[a.b]]`: the path the keys below it extend."""
        start, array = self.at, self.peek(2) == "[["
        self.at += 2 if array else 1
        key: Key = tuple(part for part, _ in self.key())
        self.at += 2 if array else 1  # the closing bracket(s): the text is valid TOML
        if array:
            index = self.arrays.get(key, 0)
            self.arrays[key] = index + 1
            self.note(key, start)
            key = (*key, index)
        self.note(key, start)
        return key

    def key_value(self, table: Key) -> Key:
        parts = self.key()
        path = table
        for part, offset in parts:
            path = (*path, part)
            self.note(path, offset, value=False)
        self.skip_space()
        self.at += 1  # "="
        self.skip_space()
        self.value(path)
        return path

    def key(self) -> list[tuple[str, int]]:
        """A dotted key's parts, each with the offset it begins at."""
        parts: list[tuple[str, int]] = []
        while True:
            self.skip_space()
            start = self.at
            if self.peek() in ('"', "'"):
                self.string()
                raw = self.text[start : self.at]
                parts.append((next(iter(tomllib.loads(f"{raw} = 0"))), start))
            else:
                while self.at < len(self.text) and self.text[self.at] in _BARE:
                    self.at += 1
                if self.at == start:
                    raise ValueError("not a key")  # not TOML tomllib accepted: stop looking
                parts.append((self.text[start : self.at], start))
            self.skip_space()
            if self.peek() != ".":
                return parts
            self.at += 1

    def value(self, path: Key) -> None:
        self.found.values.setdefault(path, self.position(self.at))
        char = self.peek()
        if char in ('"', "'"):
            self.string()
        elif char == "{":
            self.inline_table(path)
        elif char == "[":
            self.array(path)
        else:
            while self.at < len(self.text) and self.text[self.at] not in _SCALAR_END:
                self.at += 1

    def inline_table(self, path: Key) -> None:
        self.at += 1
        while True:
            self.skip_space(lines=True)
            if self.peek() == "}":
                self.at += 1
                return
            if self.peek() == ",":
                self.at += 1
                continue
            self.key_value(path)

    def array(self, path: Key) -> None:
        self.at += 1
        index = 0
        while True:
            self.skip_space(lines=True)
            if self.peek() == "]":
                self.at += 1
                return
            if self.peek() == ",":
                self.at += 1
                continue
            self.value((*path, index))
            index += 1

    def string(self) -> None:
        """Past one string: basic or literal, on one line or several."""
        quote = self.peek()
        text = self.text
        if self.peek(3) == quote * 3:
            end = text.find(quote * 3, self.at + 3)
            while quote == '"' and end > 0 and _escaped(text, end):
                end = text.find(quote * 3, end + 1)
            end += 3
            for _ in range(2):  # up to two quotes of the content may stand before the last three
                if end < len(text) and text[end] == quote:
                    end += 1
            self.at = end
            return
        end = self.at + 1
        while text[end] != quote:
            end += 2 if quote == '"' and text[end] == "\\" else 1
        self.at = end + 1


def _escaped(text: str, offset: int) -> bool:
    """Whether the character at `offset` follows an odd number of backslashes."""
    count = 0
    while offset - count - 1 >= 0 and text[offset - count - 1] == "\\":
        count += 1
    return count % 2 == 1
