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

    def __iter__(self) -> Iterator[Key]:  # noqa: C901
        open_: list[bool] = []  # the collections open: True for a mapping
        anchors: dict[str, str] = {}  # anchor -> the scalar it names (an alias may be a key)
        children = 0  # nodes completed in the top-level mapping: a key at each even count
        for event in events(self.text):
            if isinstance(event, yaml.DocumentStartEvent):
                open_, children = [], 0
            elif isinstance(event, yaml.ScalarEvent | yaml.AliasEvent):
                text: str | None
                if isinstance(event, yaml.ScalarEvent):
                    text = event.value
                    if event.anchor is not None:
                        anchors[event.anchor] = text
                    if open_ or event.style or text not in _NULLS:
                        self.has_data = True
                else:
                    text = anchors.get(event.anchor or "")
                    self.has_data = self.has_data or bool(open_)
                if open_ == [True]:
                    if children % 2 == 0:
                        plain = isinstance(event, yaml.ScalarEvent) and not event.style
                        yield Key(text, *_position(event), plain)
                    children += 1
            elif isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
                if event.anchor is not None:
                    anchors.pop(event.anchor, None)
                if open_ == [True] and children % 2 == 0:
                    yield Key(None, *_position(event), False)  # a list or mapping as a key
                if open_ or isinstance(event, yaml.SequenceStartEvent):
                    self.has_data = True  # (an empty list is still a list)
                open_.append(isinstance(event, yaml.MappingStartEvent))
            elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
                open_.pop()
                if len(open_) == 1:
                    children += 1
                elif not open_ and children:
                    self.has_data = True


def _position(event: yaml.Event) -> tuple[int, int]:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)
