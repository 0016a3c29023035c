"""JSON read strictly: an object that names a key twice is refused, never read as its last value
(JSON readers disagree on which of the two counts: `"purl"` twice would name two models, a
baseline's `"verdict"` twice two verdicts).  `loads` also refuses, each at its line and column,
what `json.loads` takes or refuses without saying where: a lone UTF-16 surrogate escape
(`"\\ud800"`: no character at all, which no output can write) and an integer longer than Python
converts (its limit, 4,300 digits, raises an error without a position)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

# An integer longer than this is refused (Python's default limit, whatever the interpreter's).
MAX_DIGITS = 4300


class DuplicateKey(ValueError):
    """The key an object names twice (`args[0]`)."""


class Unreadable(ValueError):
    """What `loads` refuses where `json.loads` would take it or say nothing of where: the
    reason, and its line and column (1-based)."""

    def __init__(self, reason: str, line: int, column: int) -> None:
        super().__init__(reason)
        self.reason, self.line, self.column = reason, line, column


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """`json.loads`'s `object_pairs_hook`: the object, or `DuplicateKey`."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        if key in data:
            raise DuplicateKey(key)
        data[key] = value
    return data


class _TooLong(ValueError):
    pass


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _TooLong(digits)
    return int(digits)


def loads(
    text: str,
    parse_constant: Callable[[str], Any] | None = None,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] = unique_keys,
) -> Any:
    """`json.loads` with `unique_keys` (or a hook that calls it, e.g. to drop what is never
    read as it is parsed); `DuplicateKey`, `json.JSONDecodeError` (located),
    `Unreadable` (located: a lone surrogate, an integer too long, nesting deeper than the
    parser can follow) as the text deserves."""
    keywords: dict[str, Any] = {} if parse_constant is None else {"parse_constant": parse_constant}
    try:
        # the integer hook decides the length first: the interpreter's limit never applies
        data = json.loads(text, object_pairs_hook=object_pairs_hook, parse_int=_integer, **keywords)
    except _TooLong as exc:
        line, column = _where(text, _integer_at(text, len(exc.args[0].lstrip("-"))))
        digits = f"{len(exc.args[0].lstrip('-')):,}"
        raise Unreadable(
            f"an integer of {digits} digits (at most {MAX_DIGITS:,})", line, column
        ) from None
    except RecursionError:  # the parser recurses once per level: say where the text goes deepest
        depth, offset = _deepest(text)
        line, column = _where(text, offset)
        raise Unreadable(f"nested {depth:,} levels deep: too deep to read", line, column) from None
    if _SURROGATE.search(text) and _surrogate_in(data):
        line, column = _where(text, _lone_surrogate(text))
        escape = text[_lone_surrogate(text) :][:6]
        raise Unreadable(
            f"{escape} is half of a UTF-16 surrogate pair, not a character: write the "
            "character itself (or both halves of its pair)",
            line,
            column,
        )
    return data


def _where(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


# A string (its escapes inside), or a number outside any string.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?')
_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|.)")


_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def _deepest(text: str) -> tuple[int, int]:
    """How deep the arrays and objects of `text` go (strings skipped), and the offset of the
    first bracket that opens the deepest level."""
    depth = deepest = offset = 0
    for token in _BRACKET.finditer(text):
        mark = token.group()
        if mark in "[{":
            depth += 1
            if depth > deepest:
                deepest, offset = depth, token.start()
        elif mark in "]}":
            depth -= 1
    return deepest, offset


def _integer_at(text: str, digits: int) -> int:
    """The offset of the first integer of `digits` digits outside a string (the one the
    parser refused: it reads in order)."""
    for token in _TOKEN.finditer(text):
        number = token.group().lstrip("-")
        if number.isdigit() and len(number) == digits:
            return token.start()
    return 0  # pragma: no cover - the parser found it


_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _surrogate_in(data: Any) -> bool:
    """Whether a key or a string of the parsed data holds a surrogate code point (a pair's
    escapes give one character: any left is a lone half)."""
    if isinstance(data, str):
        return any("\ud800" <= c <= "\udfff" for c in data)
    if isinstance(data, dict):
        return any(_surrogate_in(k) or _surrogate_in(v) for k, v in data.items())
    if isinstance(data, list):
        return any(_surrogate_in(item) for item in data)
    return False


def _lone_surrogate(text: str) -> int:
    """The offset of the first `\\uD800`-`\\uDFFF` escape that is not one half of a pair."""
    for token in _TOKEN.finditer(text):
        if token.group()[0] != '"' or "\\" not in token.group():
            continue
        escapes = list(_ESCAPE.finditer(token.group()))
        for index, escape in enumerate(escapes):
            unit = _unit(escape)
            if unit is None or not 0xD800 <= unit <= 0xDFFF:
                continue
            before = escapes[index - 1] if index else None
            after = escapes[index + 1] if index + 1 < len(escapes) else None
            if unit <= 0xDBFF and _pairs(escape, after, 0xDC00):
                continue
            if unit >= 0xDC00 and before is not None and _pairs(before, escape, 0xDC00):
                prior = _unit(before)
                if prior is not None and 0xD800 <= prior <= 0xDBFF:
                    continue
            return token.start() + escape.start()
    return 0  # pragma: no cover - `_surrogate_in` found one


def _pairs(high: re.Match[str], low: re.Match[str] | None, first: int) -> bool:
    """Whether `low` is the escape right after `high` and a low half (from `first`)."""
    unit = _unit(low) if low is not None else None
    return (
        low is not None
        and low.start() == high.end()
        and unit is not None
        and first <= unit <= 0xDFFF
    )


def _unit(escape: re.Match[str]) -> int | None:
    code = escape.group(1)
    return int(code, 16) if code is not None else None
