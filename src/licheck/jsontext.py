"""One JSON encoder for licheck's machine formats: `json.dumps(value, indent=2,
ensure_ascii=False)`'s bytes, from plain data (dicts, lists, strings, ints, booleans, None),
starting at any indent — so a report can be written in parts that join to the whole.

Two additions the standard encoder lacks:
- a `Hole` in the data stands for text known only later (a SARIF rule's index, a report's
  products): the encoder leaves it out of the text and says where it goes;
- the text of an object that is a list item is memoised by identity: within one call (the
  data is alive, so ids are unique), and across calls for objects a `Lasting` keeps alive — the
  report repeats its shared parts (a component's facts in each of its findings).

The standard library writes indented JSON in pure Python anyway; this does the same work once.
"""

from __future__ import annotations

from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import Any


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
    encode_into(value, newline, parts, {}, lasting)
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


def encode_into(
    value: Any,
    newline: str,
    parts: list[str | Hole],
    seen: dict[tuple[int, str], str],
    lasting: Lasting | None = None,
) -> None:
    """Append `value`'s text to `parts`.  `seen`: text of list items by identity and indent,
    for this call's data only."""
    append = parts.append
    if isinstance(value, str):  # also string enums, as their value
        append(encode_basestring(value))
    elif value is None:
        append("null")
    elif value is True:
        append("true")
    elif value is False:
        append("false")
    elif type(value) is int:
        append(int.__repr__(value))
    elif type(value) is dict:
        if not value:
            append("{}")
            return
        inner = newline + "  "
        opening = "{" + inner
        for key, item in value.items():
            append(opening + encode_basestring(key) + ": ")
            opening = "," + inner
            encode_into(item, inner, parts, seen, lasting)
        append(newline + "}")
    elif type(value) is list:
        _list(value, newline, parts, seen, lasting)
    elif type(value) is Hole:
        append(value)
    else:  # pragma: no cover - licheck's formats encode nothing else
        raise TypeError(f"cannot encode {type(value).__name__}")


def _list(
    values: list[Any],
    newline: str,
    parts: list[str | Hole],
    seen: dict[tuple[int, str], str],
    lasting: Lasting | None,
) -> None:
    if not values:
        parts.append("[]")
        return
    inner = newline + "  "
    opening = "[" + inner
    for value in values:
        parts.append(opening)
        opening = "," + inner
        if type(value) is not dict:
            encode_into(value, inner, parts, seen, lasting)
            continue
        # An object item is encoded on its own, so that its text can be reused where the same
        # object occurs again (a component's facts recur in each of its findings).
        key = (id(value), inner)
        text = seen.get(key)
        kept = lasting is not None and key[0] in lasting.objects
        if text is None and kept:
            text = lasting.texts.get(key)  # type: ignore[union-attr]
        if text is None:
            piece: list[str | Hole] = []
            encode_into(value, inner, piece, seen, lasting)
            if any(type(p) is Hole for p in piece):
                parts.extend(piece)
                continue
            text = seen[key] = "".join(piece)  # type: ignore[arg-type]
            if kept:
                lasting.texts[key] = text  # type: ignore[union-attr]
        parts.append(text)
    parts.append(newline + "]")
