"""Reading a Hugging Face model card (README.md): its YAML front matter and its Markdown body.

A card is read as the Hub writes and shows it: a byte-order mark, CRLF or CR line ends (even
doubled ones) and prose or blank lines before the front matter do not hide it.  Only the keys
`licheck import hf` uses are parsed with licheck's hardened YAML reader (their duplicates, types
and sizes refused at their line); every other key (a huge `model-index` of evaluation results,
widgets, gated prompts) is skipped before that reader sees it, so a field no clause reads never
refuses a card.  `model-index` is skipped too, but each entry's `name` is kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from licheck.core.diagnostics import fail
from licheck.files import yamlsafe
from licheck.files.safeio import read_bytes

# The keys the importer reads (everything else in the front matter is skipped unread).
READ = frozenset(
    {
        "license",
        "license_name",
        "license_link",
        "base_model",
        "base_model_relation",
        "model_name",
        "tags",
        "library_name",
        "quantized_by",
    }
)
# Keys only a model card's front matter has: a block between two '---' lines after some prose
# is the front matter only when it has one of these (a Markdown rule pair would not).
CARD_KEYS = READ | {"language", "pipeline_tag", "datasets", "metrics", "model-index", "widget"}
_FENCE = re.compile(r"^---[ \t]*$")


@dataclass
class Card:
    """What a model card says, as read: the front matter's read keys (located), the names its
    `model-index` gives, its body text, and notes on how it was read."""

    document: yamlsafe.Document
    index_names: list[tuple[str, int, int]]  # each model-index entry's name, line, column
    body: str
    notes: list[str] = field(default_factory=list)


def read(path: Path, display: str) -> Card:
    """The card at `path`; `InputError`, located, when it has no readable front matter."""
    return parse(_read(path, display), display)


def _read(path: Path, display: str) -> str:
    """The card's text (Markdown, so not yamlsafe's YAML-only emptiness check)."""
    # no folder, FIFO or device, no endless read
    hint = "name the model card's README.md"
    raw = read_bytes(path, display, yamlsafe.MAX_FILE_BYTES, hint=hint)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise fail(display, 0, 0, "not valid UTF-8 text", "save the file as UTF-8") from None


def parse(text: str, display: str) -> Card:
    # CRLF, CR and LF are each one line end, as YAML counts them: line numbers stay the YAML's
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    fences = [i for i, line in enumerate(lines) if _FENCE.match(line)]
    if len(fences) == 1 and not any(line.strip() for line in lines[: fences[0]]):
        raise fail(
            display,
            fences[0] + 1,
            1,
            "the front matter has no closing '---' line",
            "end the metadata with a line of three dashes",
        )
    if len(fences) < 2:
        raise _no_front_matter(display)
    start, end = fences[0], fences[1]
    leading = any(line.strip() for line in lines[:start])
    front = "\n".join([""] * (start + 1) + lines[start + 1 : end]) + "\n"
    if not "".join(lines[start + 1 : end]).strip():
        if leading:
            raise _no_front_matter(display)
        raise fail(display, start + 2, 1, "the front matter is empty")
    pruned, names, keys = _prune(front)
    if leading and keys is not None and not keys & CARD_KEYS:
        # a block between two Markdown rules, not metadata
        raise _no_front_matter(display)
    document = yamlsafe.parse(pruned, display)
    if document.data is None and keys:  # every key skipped: none the importer reads
        document = yamlsafe.Document(display, {}, {}, {})
    if not isinstance(document.data, dict):
        raise fail(display, start + 2, 1, "the front matter is not a mapping of keys")
    notes = []
    if leading:
        notes.append(
            f"the front matter starts at line {start + 1}, after text the Hub does not read as "
            "metadata: check that the Hub shows this card's metadata"
        )
    body = "\n".join(lines[:start] + lines[end + 1 :])
    return Card(document, names, body, notes)


def _no_front_matter(display: str) -> Exception:
    return fail(
        display,
        1,
        1,
        "no YAML front matter: a model card has metadata between two '---' lines",
        "this should be the model repository's README.md",
    )


def _prune(front: str) -> tuple[str, list[tuple[str, int, int]], set[str] | None]:
    """`front` with every top-level key the importer does not read turned into comment lines
    (lines kept, so positions stay), the `name` of each `model-index` entry with its line and
    column, and the top-level keys (None where the events could not be followed: the reader
    words why)."""
    lines = front.split("\n")
    names: list[tuple[str, int, int]] = []
    try:
        walk = _Walk(names)
        for event in yaml.parse(front, Loader=yaml.CSafeLoader):
            walk.feed(event)
    except (yaml.YAMLError, _Unprunable):
        return front, [], None
    for first, last in walk.skipped:
        for number in range(first, last + 1):
            # a comment, not an empty line: a keep-chomped block scalar (`|+`) of a key read
            # before it would take empty lines as its own
            lines[number] = "#"
    return "\n".join(lines), names, walk.keys


class _Unprunable(Exception):
    """The front matter is read whole (the hardened reader words its problem)."""


def _where(mark: Any) -> tuple[int, int]:
    """A mark's line and column (from 0); every event libyaml gives has both marks."""
    if mark is None:  # pragma: no cover - libyaml marks every event
        raise _Unprunable
    return mark.line, mark.column


class _Frame:
    __slots__ = ("flow", "index", "key", "key_next", "mapping")

    def __init__(self, mapping: bool, flow: bool) -> None:
        self.mapping = mapping
        self.flow = flow
        self.key_next = mapping  # in a mapping: is the next node a key?
        self.key: str = ""
        self.index = 0  # in a sequence: the current item


class _Walk:
    """Follows the parser's events: the line span of each top-level block key not read, and
    the names of `model-index` entries."""

    def __init__(self, names: list[tuple[str, int, int]]) -> None:
        self.names = names
        self.frames: list[_Frame] = []
        self.skipped: list[tuple[int, int]] = []
        self.block = True  # the root mapping is in block style (each key on its own line)
        self.top: tuple[str, int, int] | None = None  # the top-level key being read
        self.last = 0  # the last line its value reaches
        self.keys: set[str] = set()

    def feed(self, event: yaml.Event) -> None:
        frame = self.frames[-1] if self.frames else None
        (line, column), (end, end_column) = _where(event.start_mark), _where(event.end_mark)
        if isinstance(event, yaml.AliasEvent):
            raise _Unprunable  # its anchor may be in a key skipped: read the whole front matter
        if frame is not None and frame.key_next and isinstance(event, yaml.NodeEvent):
            if not isinstance(event, yaml.ScalarEvent):
                raise _Unprunable  # a key that is not a plain value: the reader refuses it
            frame.key_next, frame.key = False, event.value
            if len(self.frames) == 1:
                self.keys.add(frame.key)
                self.top, self.last = (frame.key, line, column), line
            return
        if isinstance(event, yaml.CollectionStartEvent):
            flow = bool(event.flow_style)
            if not self.frames:
                self.block = not flow
            self.frames.append(_Frame(isinstance(event, yaml.MappingStartEvent), flow))
        elif isinstance(event, yaml.CollectionEndEvent):
            closed = self.frames.pop()
            if closed.flow:  # a block collection ends where the next token starts
                self.last = max(self.last, end)
            self._done()
        elif isinstance(event, yaml.ScalarEvent | yaml.AliasEvent):
            if isinstance(event, yaml.ScalarEvent) and self._at_index_name():
                self.names.append((event.value, line + 1, column + 1))
            # a block scalar ends at the start of the line after it
            self.last = max(self.last, end - (end_column == 0 and end > line))
            self._done()

    def _done(self) -> None:
        """A value is complete: its parent moves on; at the top level, its key is settled."""
        if not self.frames:
            return
        parent = self.frames[-1]
        if not parent.mapping:
            parent.index += 1
            return
        parent.key_next = True
        if len(self.frames) == 1 and self.top is not None:
            name, line, column = self.top
            if name not in READ and self.block and column == 0:
                self.skipped.append((line, self.last))
            self.top = None

    def _at_index_name(self) -> bool:
        place = [f.key if f.mapping else f.index for f in self.frames]
        return (
            len(place) == 3 and place[0] == "model-index" and place[2] == "name"
        ) and not self.frames[1].mapping


def string(document: yamlsafe.Document, key: str) -> str | None:
    """A key that holds one value (`model_name`, `license_name`), as text; None when absent."""
    value = document.data.get(key)
    if value is None:
        return None
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise document_error(document, key, f"{key} should be a string")
    return str(value)


def strings(document: yamlsafe.Document, key: str) -> list[str]:
    """A key that may be one string or a list of them (`license`, `tags`)."""
    raw = document.data.get(key)
    if raw is None:
        return []
    items = raw if isinstance(raw, list) else [raw]
    if not all(isinstance(i, str | int | float) and not isinstance(i, bool) for i in items):
        raise document_error(document, key, f"{key} should be a string or a list of strings")
    return [str(i).strip() for i in items if str(i).strip()]


def document_error(document: yamlsafe.Document, key: str, message: str) -> Exception:
    diagnostic = document.error((key,), message)
    return fail(diagnostic.file, diagnostic.line, diagnostic.column, diagnostic.message)
