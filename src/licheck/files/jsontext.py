"""One JSON encoder for licheck's machine formats: `json.dumps(value, indent=2,
ensure_ascii=False)`'s bytes, from plain data (dicts, lists, strings, ints, booleans, None),
starting at any indent — so a report can be written in parts that join to the whole.

Every string is written as `licheck.text.escape.json_text` says (no `::`, `##[` or raw U+2028 a CI
runner could read as a workflow command), the same string to any JSON reader.

Two additions the standard encoder lacks:
- a `Hole` in the data stands for text known only later (a SARIF rule's index, a report's
  products): the encoder leaves it out of the text and says where it goes;
- the text of an object that is a list item is memoised by identity, and the memo holds the
  object, so its id is never another's: within one encoder, and across calls for objects a
  `Lasting` keeps alive — the report repeats its shared parts (a component's facts in each of
  its findings).  Data is never changed once encoded.

The standard library writes indented JSON in pure Python anyway; this does the same work once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from json.encoder import encode_basestring as _encode_basestring
from typing import Any

_UNSAFE = re.compile("::|##\\[|[\x85\u2028\u2029]")  # what `json_text` changes


def encode_basestring(value: str) -> str:
    """A JSON string: the standard encoder's, made safe for a CI log when it needs to be."""
    text = _encode_basestring(value)
    if _UNSAFE.search(text) is None:
        return text
    from licheck.text.escape import json_text  # only then: a run with nothing to escape loads none

    return json_text(text)


@dataclass(frozen=True, slots=True)
class Hole:
    """A place in the data whose text is filled in later, by name."""

    name: str


@dataclass(frozen=True, slots=True)
class Text:
    """Encoded text and its holes, as (character offset, name), in order."""

    text: str
    holes: tuple[tuple[int, str], ...] = ()

    def split(self) -> tuple[str, str]:
        """The text before and after its one hole."""
        ((offset, _),) = self.holes
        return self.text[:offset], self.text[offset:]


class Lasting:
    """Objects that outlive one encoding, kept alive here so that their ids stay unique, and
    their text by indent.  Owned by the caller (one per run or per worker), bounded."""

    def __init__(self, limit: int = 4096) -> None:
        self.limit = limit
        self.objects: dict[int, object] = {}
        self.texts: dict[tuple[int, str], str] = {}
        self.keys: dict[tuple[str, str], str] = {}  # a key's text with what precedes it

    def keep(self, value: Any) -> Any:
        if len(self.objects) >= self.limit:
            self.objects.clear()
            self.texts.clear()
        self.objects[id(value)] = value
        return value


def dumps(value: Any, newline: str = "\n", lasting: Lasting | None = None) -> Text:
    """`value` encoded, its nested lines starting with `newline` (a line break and the indent
    of `value`'s own level)."""
    parts: list[str | Hole] = []
    Encoder(parts, lasting).value(value, newline)
    return join(parts)


def join(parts: list[str | Hole]) -> Text:
    if not any(type(part) is Hole for part in parts):
        return Text("".join(parts))  # type: ignore[arg-type]
    texts: list[str] = []
    holes: list[tuple[int, str]] = []
    offset = 0
    for part in parts:
        if isinstance(part, Hole):
            holes.append((offset, part.name))
        else:
            texts.append(part)
            offset += len(part)
    return Text("".join(texts), tuple(holes))


_SCALARS = frozenset({type(None), bool, int, str})  # the types written in place


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value) is int:
        return int.__repr__(value)
    return encode_basestring(value)


class Encoder:
    """Appends the text of values to `parts`.  The text of an object that is a list item is
    kept by identity and indent, beside the object itself (`seen`): an encoder may be given
    values one after another (SARIF's results, each built and dropped in turn), and an id
    outlives its object only as long as nothing holds it."""

    def __init__(self, parts: list[str | Hole], lasting: Lasting | None = None) -> None:
        self.parts = parts
        self.lasting = lasting
        self.seen: dict[tuple[int, str], tuple[object, str]] = {}  # (the object, its text)
        self.holes = 0  # holes appended so far
        self.keys = lasting.keys if lasting is not None else {}

    def value(self, value: Any, newline: str) -> None:
        kind = type(value)
        if kind is dict:
            self._dict(value, newline)
        elif kind is list:
            self._list(value, newline)
        elif kind is Hole:
            self.parts.append(value)
            self.holes += 1
        elif isinstance(value, str):  # also string enums, as their value
            self.parts.append(encode_basestring(value))
        elif kind in _SCALARS:
            self.parts.append(_scalar(value))
        else:  # pragma: no cover - licheck's formats encode nothing else
            raise TypeError(f"cannot encode {kind.__name__}")

    def _dict(self, value: dict[str, Any], newline: str) -> None:
        append = self.parts.append
        if not value:
            append("{}")
            return
        inner = newline + "  "
        opening = "{" + inner
        keys = self.keys
        for key, item in value.items():
            prefix = keys.get((key, opening))
            if prefix is None:
                prefix = keys[(key, opening)] = opening + encode_basestring(key) + ": "
            kind = type(item)
            if kind is str:  # the common case, written in place
                append(prefix + encode_basestring(item))
            elif kind in _SCALARS:
                append(prefix + _scalar(item))
            else:
                append(prefix)
                self.value(item, inner)
            opening = "," + inner
        append(newline + "}")

    def _list(self, values: list[Any], newline: str) -> None:
        parts = self.parts
        if not values:
            parts.append("[]")
            return
        inner = newline + "  "
        opening = "[" + inner
        lasting = self.lasting
        for value in values:
            if type(value) is not dict:
                parts.append(opening)
                self.value(value, inner)
                opening = "," + inner
                continue
            # An object item is encoded on its own, so that its text can be reused where the
            # same object occurs again (a component's facts recur in each of its findings).
            key = (id(value), inner)
            seen = self.seen.get(key)
            text = seen[1] if seen is not None else None
            kept = lasting is not None and key[0] in lasting.objects
            if text is None and kept:
                text = lasting.texts.get(key)  # type: ignore[union-attr]
            if text is None:
                start, holes = len(parts), self.holes
                self._dict(value, inner)
                if self.holes != holes:  # text known only later: not kept
                    parts.insert(start, opening)
                    opening = "," + inner
                    continue
                text = "".join(parts[start:])  # type: ignore[arg-type]
                self.seen[key] = (value, text)
                del parts[start:]
                if kept:
                    lasting.texts[key] = text  # type: ignore[union-attr]
            parts.append(opening + text)
            opening = "," + inner
        parts.append(newline + "]")


def document(value: Any) -> str:
    """`json.dumps(value, indent=2, ensure_ascii=False)` with its strings written as
    `encode_basestring` writes them: for the formats that are small enough to encode whole."""
    import json

    from licheck.text.escape import json_text

    return json_text(json.dumps(value, indent=2, ensure_ascii=False))
