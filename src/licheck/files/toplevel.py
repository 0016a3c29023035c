"""The keys of a YAML text's top-level mappings, as the loader's parser reads them, without
building the document: how manifest discovery (`licheck.files.discovery`) and a layer's subfolders
(`licheck.library.layers`) tell what a YAML file is before reading it as one.

The events are libyaml's, exactly those `yamlsafe` builds its documents from (`yamlsafe.events`),
so every way YAML allows a key to be written (indentation, quoting, escapes, flow style, any line
break, a BOM) is read as the loader reads it.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import yaml

from licheck.files.yamlsafe import events

_NULLS = frozenset({"", "~", "null", "Null", "NULL"})


@dataclass(frozen=True, slots=True)
class Key:
    """A key of a document's top-level mapping: its text (an alias: the text of the scalar it
    names; None for a list or a mapping used as a key), where it starts (1-based), and whether
    it is a plain scalar (a merge key `<<` is one)."""

    text: str | None
    line: int
    column: int
    plain: bool


class TopLevel:
    """Iterating gives each top-level key of each document, in order (`yaml.YAMLError` on text
    YAML cannot read); once it is exhausted, `has_data` says whether some document holds
    anything but a null or an empty mapping (a file of comments, `---` or `{}` holds none)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.has_data = False
        self._open: list[bool] = []  # the collections open: True for a mapping
        self._anchors: dict[str, str] = {}  # anchor -> the scalar it names (an alias may be a key)
        self._children = 0  # nodes completed in the top-level mapping: a key at each even count

    def __iter__(self) -> Iterator[Key]:
        self._open, self._anchors, self._children = [], {}, 0
        for event in events(self.text):
            key = self._read(event)
            if key is not None:
                yield key

    def _read(self, event: yaml.Event) -> Key | None:
        """One event of the parser's: the top-level key it starts, if it starts one."""
        if isinstance(event, yaml.DocumentStartEvent):
            self._open, self._children = [], 0
        elif isinstance(event, yaml.ScalarEvent | yaml.AliasEvent):
            return self._scalar(event)
        elif isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            return self._collection_start(event)
        elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            self._collection_end()
        return None

    def _scalar(self, event: yaml.ScalarEvent | yaml.AliasEvent) -> Key | None:
        """A scalar or an alias (the text of the scalar its anchor names)."""
        text: str | None
        if isinstance(event, yaml.ScalarEvent):
            text = event.value
            if event.anchor is not None:
                self._anchors[event.anchor] = text
            if self._open or event.style or text not in _NULLS:
                self.has_data = True
        else:
            text = self._anchors.get(event.anchor or "")
            self.has_data = self.has_data or bool(self._open)
        if self._open != [True]:
            return None
        self._children += 1
        if self._children % 2 == 0:
            return None  # a value
        plain = isinstance(event, yaml.ScalarEvent) and not event.style
        return Key(text, *_position(event), plain)

    def _collection_start(
        self, event: yaml.MappingStartEvent | yaml.SequenceStartEvent
    ) -> Key | None:
        """A list or a mapping begins: a key itself where the top-level mapping expects one."""
        if event.anchor is not None:
            self._anchors.pop(event.anchor, None)
        key = None
        if self._open == [True] and self._children % 2 == 0:
            key = Key(None, *_position(event), False)  # a list or mapping as a key
        if self._open or isinstance(event, yaml.SequenceStartEvent):
            self.has_data = True  # (an empty list is still a list)
        self._open.append(isinstance(event, yaml.MappingStartEvent))
        return key

    def _collection_end(self) -> None:
        self._open.pop()
        if len(self._open) == 1:
            self._children += 1
        elif not self._open and self._children:
            self.has_data = True


def _position(event: yaml.Event) -> tuple[int, int]:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
