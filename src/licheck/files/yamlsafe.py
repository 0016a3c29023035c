"""Hardened YAML reading: plain data only, with the line and column of every value.

The document is built from the parser's events (libyaml's C parser where available), so no tag
ever constructs an object, and the resolution of plain scalars is ours, not YAML 1.1's: `no`, `on`,
`yes`, `010`, `0x1F`, `1:30` and dates stay the strings the user wrote; only `true`/`false`,
`null`/`~` and decimal numbers without a leading zero are typed.  Where a string then meets a field
that wants a number or a boolean, the field refuses it with a hint (`units`, `loading`), so a YAML
1.1 surprise is never silently read one way or the other.  Duplicate keys, merge keys, explicit
tags, several documents, alias bombs, deep nesting, huge files, long scalars and numbers out of
range are refused with a located message.

`parse` first tries `yamlfast` (libyaml's C composer and one tree walk, about twice as fast),
which gives exactly the Document built here or declines; the event reader below (`parse_events`)
reads whatever it declines and words every refusal.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, Final, NoReturn

import yaml

from licheck.core.diagnostics import Diagnostic, InputError, fail, path_text
from licheck.files import yamlfast
from licheck.files.safeio import STDIN, STDIN_NAME, read_bytes

try:  # the C parser is ~10x faster; fall back to the pure-Python one where it is missing
    from yaml import CSafeLoader as _Loader
except ImportError:  # pragma: no cover - depends on how PyYAML was built
    from yaml import SafeLoader as _Loader  # type: ignore[assignment]

MAX_FILE_BYTES: Final = 4 * 1024 * 1024
MAX_DEPTH: Final = 64
MAX_SCALAR_CHARS: Final = 100_000
MAX_NODES: Final = 200_000  # after expanding aliases: refuses "billion laughs"
MAX_NUMBER_CHARS: Final = 100  # no count or amount needs more; int() refuses > 4300 digits

Path_ = tuple[str | int, ...]

_INT_RE: Final = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)$")
_FLOAT_RE: Final = re.compile(r"^[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)(?:[eE][-+]?[0-9]+)?$")
# Integers with a leading zero: octal in YAML 1.1 (010 is 8), decimal in YAML 1.2 (010 is 10).
_LEADING_ZERO_RE: Final = re.compile(r"^[-+]?0[0-9_]+$")
_STR_TAG: Final = "tag:yaml.org,2002:str"
_UTF16_32_BOMS: Final = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")


@dataclass(frozen=True, slots=True)
class Document:
    """A YAML file read as plain data, with a 1-based (line, column) for each key path."""

    file: str
    data: Any
    positions: dict[Path_, tuple[int, int]]  # of each value (a container under a key: the key)
    key_positions: dict[Path_, tuple[int, int]] = field(default_factory=dict)  # of each key

    def locate(self, path: Path_) -> tuple[int, int]:
        """The position of `path`, or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            if path in self.positions:
                return self.positions[path]
            path = path[:-1]
        return self.positions.get((), (1, 1))

    def error(
        self, path: Path_, message: str, hint: str = "", *, at_key: bool = False
    ) -> Diagnostic:
        """A diagnostic at `path`'s value, or at its key (`at_key`, e.g. for an unknown key)."""
        key = self.key_positions.get(tuple(path)) if at_key else None
        line, column = key or self.locate(path)
        return Diagnostic(self.file, line, column, message, hint)


def read_text(path: Path, display: str) -> str:
    """The file's text, refusing what is not a readable, non-empty UTF-8 text file."""
    folder_hint = "name a YAML file, or use `licheck check DIR` for folders"
    return decode(read_bytes(path, display, MAX_FILE_BYTES, hint=folder_hint), display)


def decode(raw: bytes, display: str) -> str:
    """UTF-8 text from `raw` (a leading BOM dropped); `InputError` for anything else or nothing."""
    if raw.startswith(_UTF16_32_BOMS):
        raise fail(
            display,
            1,
            1,
            "the file is UTF-16 or UTF-32 text: expected UTF-8",
            "save the file as UTF-8",
        )
    if b"\x00" in raw:
        line, column = _position_of(raw, raw.index(b"\x00"))
        raise fail(display, line, column, "binary data (a NUL byte): expected a YAML text file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _position_of(raw, exc.start)
        raise fail(
            display, line, column, "not valid UTF-8 text", "save the file as UTF-8"
        ) from None
    text = text.removeprefix("\ufeff")
    if not text.strip() or all(
        not ln.strip() or ln.lstrip().startswith("#") for ln in text.splitlines()
    ):
        raise fail(display, 1, 1, "the file is empty: expected a YAML mapping")
    return text


def _position_of(raw: bytes, offset: int) -> tuple[int, int]:
    before = raw[:offset]
    line = before.count(b"\n") + 1
    column = offset - (before.rfind(b"\n") + 1) + 1
    return line, column


def load(path: Path, display: str | None = None) -> Document:
    """Read one YAML file into a `Document`; raise `InputError` with a location on bad input."""
    shown = path_text(display if display is not None else str(path))
    shown = STDIN_NAME if path == STDIN else shown  # `-`: standard input
    return parse(read_text(path, shown), shown)


def parse(text: str, display: str) -> Document:
    """Parse YAML text (one document) into plain data with positions."""
    # The same Document as `parse_events`, or None where the fast path cannot be sure of that.
    fast = yamlfast.compose(
        text,
        _plain_or_decline,
        max_depth=MAX_DEPTH,
        max_scalar_chars=MAX_SCALAR_CHARS,
        max_nodes=MAX_NODES,
    )
    if fast is not None:
        return Document(display, *fast)
    return parse_events(text, display)


def events(text: str) -> Iterator[yaml.Event]:
    """libyaml's events for `text`, as `parse_events` reads them (`yaml.YAMLError` on bad YAML):
    manifest discovery decides on the same reading."""
    return yaml.parse(text, Loader=_Loader)


def parse_events(text: str, display: str) -> Document:
    """`parse` event by event: the reference reader, and the one that words every refusal."""
    builder = _Builder(display)
    try:
        for event in events(text):
            builder.feed(event)
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow
        line, column = _text_position(text, exc.position)
        character = exc.character if isinstance(exc.character, int) else ord(exc.character)
        raise fail(
            display,
            line,
            column,
            f"invalid YAML: the control character U+{character:04X} is not allowed in YAML text",
        ) from None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        problem = exc.problem or exc.context or "invalid YAML"
        raise fail(display, line, column, f"invalid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise fail(display, 0, 0, f"invalid YAML: {exc}") from None
    except RecursionError:  # pragma: no cover - depth is checked before Python recursion
        raise fail(display, 0, 0, "the YAML is nested too deeply") from None
    return builder.document()


def _text_position(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset]
    return before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1


class _Builder:
    """Turns parser events into plain data, checking every limit as it goes."""

    def __init__(self, display: str) -> None:
        self.file = display
        self.stack: list[_Frame] = []
        self.positions: dict[Path_, tuple[int, int]] = {}
        self.key_positions: dict[Path_, tuple[int, int]] = {}
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.nodes = 0
        self.aliased = False  # an alias was expanded: a refusal for size names alias bombs
        self.documents = 0
        self.root: Any = None

    def feed(self, event: yaml.Event) -> None:
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self._fail(
                    event,
                    "several YAML documents in one file (a second '---')",
                    "put each manifest or license in a file of its own",
                )
        elif isinstance(event, yaml.ScalarEvent):
            self._check_tag(event, allow_str=True)
            if len(event.value) > MAX_SCALAR_CHARS:
                self._fail(
                    event,
                    f"a value of {len(event.value):,} characters is longer than "
                    f"the limit of {MAX_SCALAR_CHARS:,}",
                )
            self._add(event, self._resolve(event), size=1)
        elif isinstance(event, yaml.AliasEvent):
            target = self.anchors.get(event.anchor or "")
            if target is None:  # an alias to an anchor not (yet) defined, or on a key
                self._fail(event, f"unknown alias *{event.anchor}")
            value, size = target
            self.aliased = True
            self._add(event, value, size=size, alias=True)
        elif isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            self._check_tag(event, allow_str=False)
            if len(self.stack) >= MAX_DEPTH:
                self._fail(event, f"nested more than {MAX_DEPTH} levels deep")
            container: Any = {} if isinstance(event, yaml.MappingStartEvent) else []
            path = self._child_path(event)
            # A block mapping or list starts on the line after its key: point at the key.
            self.positions.setdefault(path, _pos(event))
            self.stack.append(_Frame(container, path, event.anchor))
        elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            frame = self.stack.pop()
            if frame.pending_key is not None:  # pragma: no cover - the parser prevents this
                self._fail(event, "a key without a value")
            self._attach(frame.container, frame.size, frame.anchor, event)

    def document(self) -> Document:
        return Document(self.file, self.root, self.positions, self.key_positions)

    # -- helpers ---------------------------------------------------------------------------

    def _add(self, event: yaml.NodeEvent, value: Any, *, size: int, alias: bool = False) -> None:
        frame = self.stack[-1] if self.stack else None
        if frame is not None and isinstance(frame.container, dict) and frame.pending_key is None:
            if alias or not isinstance(event, yaml.ScalarEvent):  # e.g. `*anchor : value`
                self._fail(
                    event, "a mapping key must be a plain value, not a list, a mapping or an alias"
                )
            key = event.value
            if key == "<<" and not event.style:
                self._fail(
                    event, "merge keys ('<<') are not supported", "write the keys out in full"
                )
            if key in frame.seen_keys:
                first = self.key_positions.get((*frame.path, key), (0, 0))
                self._fail(
                    event,
                    f"duplicate key {key!r} (first defined at line {first[0]})",
                    "each key may appear once in a mapping",
                )
            frame.pending_key = key
            frame.seen_keys.add(key)
            self.positions[(*frame.path, key)] = self.key_positions[(*frame.path, key)] = _pos(
                event
            )
            return
        if not alias and event.anchor is not None and isinstance(event, yaml.ScalarEvent):
            self.anchors[event.anchor] = (value, size)
        if not isinstance(event, yaml.ScalarEvent | yaml.AliasEvent):  # pragma: no cover
            return
        self.positions[self._child_path(event)] = _pos(event)
        self._attach(value, size, None, event)

    def _attach(self, value: Any, size: int, anchor: str | None, event: yaml.Event) -> None:
        self.nodes += size
        if self.nodes > MAX_NODES and self.aliased:
            self._fail(
                event,
                f"the document expands to more than {MAX_NODES:,} values (an alias bomb?)",
                "avoid anchors and aliases that repeat large parts",
            )
        if self.nodes > MAX_NODES:
            self._fail(
                event,
                f"the document is too large: more than {MAX_NODES:,} values (each counted "
                "once more within every list or mapping around it)",
                "split the product into several manifests (licheck check reads a folder of them)",
            )
        if anchor is not None:
            self.anchors[anchor] = (value, size)
        if not self.stack:
            self.root = value
            return
        frame = self.stack[-1]
        frame.size += size
        if isinstance(frame.container, list):
            frame.container.append(value)
        else:
            key = frame.pending_key
            if key is None:
                self._fail(event, "a mapping key must be a plain value, not a list or mapping")
            frame.container[key] = value
            frame.pending_key = None

    def _child_path(self, event: yaml.Event) -> Path_:
        if not self.stack:
            return ()
        frame = self.stack[-1]
        if isinstance(frame.container, list):
            return (*frame.path, len(frame.container))
        if frame.pending_key is None:
            self._fail(event, "a mapping key must be a plain value, not a list or mapping")
        return (*frame.path, frame.pending_key)

    def _check_tag(self, event: yaml.NodeEvent, *, allow_str: bool) -> None:
        tag = getattr(event, "tag", None)
        if tag is None or tag == "!" or (allow_str and tag == _STR_TAG):
            return
        self._fail(
            event,
            f"explicit tag {tag!r} is not allowed: licheck reads plain data only",
            "remove the tag" + (" (quote the value to make it a string)" if allow_str else ""),
        )

    def _resolve(self, event: yaml.ScalarEvent) -> Any:
        value = _resolve(event)
        if isinstance(value, int | float) and not isinstance(value, bool):
            if len(event.value) > MAX_NUMBER_CHARS:
                self._fail(
                    event,
                    f"a number of {len(event.value):,} characters is out of range",
                    "quote it if it is meant as text",
                )
            if isinstance(value, float) and not math.isfinite(value):
                self._fail(
                    event,
                    f"the number {event.value} is out of range",
                    "quote it if it is meant as text",
                )
        return exact_number(event.value, value)

    def _fail(self, event: yaml.Event, message: str, hint: str = "") -> NoReturn:
        line, column = _pos(event)
        raise InputError([Diagnostic(self.file, line, column, message, hint)])


class _Frame:
    __slots__ = ("anchor", "container", "path", "pending_key", "seen_keys", "size")

    def __init__(self, container: Any, path: Path_, anchor: str | None) -> None:
        self.container = container
        self.path = path
        self.anchor = anchor
        self.pending_key: str | None = None
        self.seen_keys: set[str] = set()
        self.size = 1


def _pos(event: yaml.Event) -> tuple[int, int]:
    mark = event.start_mark
    return (mark.line + 1, mark.column + 1) if mark is not None else (0, 0)


def _resolve(event: yaml.ScalarEvent) -> Any:
    """Type a scalar the way a person reading the file would, never YAML 1.1's way."""
    if event.style or event.tag in (_STR_TAG, "!"):  # quoted, block or tagged: a string
        return event.value
    return _plain(event.value)


def _plain_or_decline(value: str) -> Any:
    """A plain scalar for the fast path: typed, or `yamlfast.DECLINE` where `_Builder` refuses."""
    typed = _plain(value)
    kind = type(typed)  # not isinstance: a bool is an int
    if (kind is int or kind is float) and (
        len(value) > MAX_NUMBER_CHARS or not math.isfinite(typed)
    ):
        return yamlfast.DECLINE
    return exact_number(value, typed)


def exact_number(text: str, typed: Any) -> Any:
    """A decimal that a float would round (`20000000.000000001`), or one in scientific notation
    (`2e7`), as its text: the field that reads it reads the digits as written (exactly, with
    `Fraction`) or refuses the notation with a hint, as it does a quoted value or `--set`."""
    if type(typed) is not float or not math.isfinite(typed):
        return typed
    if "e" in text.lower() or Fraction(Decimal(text)) != Fraction(repr(typed)):
        return text
    return typed


def _plain(value: str) -> Any:
    """An untagged plain scalar's value: null, a boolean, a decimal number or the text."""
    if value in ("", "~", "null", "Null", "NULL"):
        return None
    if value in ("true", "True", "TRUE"):
        return True
    if value in ("false", "False", "FALSE"):
        return False
    if len(value) > MAX_NUMBER_CHARS and _FLOAT_RE.match(value):
        return 0  # the builder refuses it by its length: int() of it could raise or be slow
    if _LEADING_ZERO_RE.match(value):
        return value  # octal or decimal? the field that wants a number refuses it with a hint
    if _INT_RE.match(value):
        return int(value)
    if _FLOAT_RE.match(value):
        return float(value)
    return value
