"""The fast path of `yamlsafe.parse`: libyaml's C composer, then one walk over its node tree.

Parsing a manifest event by event spends most of its time in Python, one call per event; letting
libyaml's C composer build the node tree and walking that tree is about twice as fast.  The
composer is only trusted where the result is bound to equal the event reader's: `compose` returns
None ("declined") whenever it cannot be sure, and `yamlsafe.parse` then reads the text event by
event as before, which also gives every error message.  So this module never reports an error.

It declines, before composing anything:
- anchors, aliases, tags and merge keys anywhere (`&`/`*` where a token can start, `!`, `<<`):
  the composer shares an aliased node (the event reader copies it and counts alias bombs), and
  the event reader refuses tags and merge keys with a message of its own;
- text that could nest deeper than the composer may safely recurse (it recurses in C): see
  `_nesting_bound`;
and, after composing: any YAMLError (several documents, syntax, a control character...), a root
that is not a mapping, a key that is not a scalar, a duplicate key, a value longer than the
limit, nesting deeper than the event reader allows, more values than it allows, and a number the
event reader refuses (`plain` returns `DECLINE`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Final

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

try:  # libyaml's parser and composer, as PyYAML exports it (its base loader)
    from yaml import CBaseLoader

    _HAVE_LIBYAML = True
except ImportError:  # pragma: no cover - PyYAML built without libyaml: the event reader only
    CBaseLoader = object  # type: ignore[misc, assignment]
    _HAVE_LIBYAML = False

Path_ = tuple[str | int, ...]
Positions = dict[Path_, tuple[int, int]]

DECLINE: Final = object()  # what `plain` returns for a scalar the event reader would refuse

# `&`/`*` where a token can start: an anchor or an alias (`mit/*` in a plain scalar is neither).
# Over-matching only costs a decline.
_ANCHOR_OR_ALIAS: Final = re.compile("(?<![^\\s\\[\\]{},:?\\-\"'\ufeff])[&*]")
# What precedes the first node on a line: indentation and the indicators `-`, `?`, `:`.
_PREFIX_CHARS: Final = " \t?:-\ufeff"
_LINE_PREFIX: Final = re.compile("\n[ \t?:\\-\ufeff]*")  # one `\n` too many: a bound all the same
# libyaml's other line breaks (Python's `^` knows only `\n`): the slower, general pattern.
_OTHER_BREAKS: Final = re.compile("[\r\x85\u2028\u2029]")
_ANY_LINE_PREFIX: Final = re.compile("[\n\r\x85\u2028\u2029][ \t?:\\-\ufeff]*")
# The deepest tree the composer is given: far below what its C recursion could not survive.
# The event reader's own limit (`max_depth`, lower) is checked exactly on the tree.
MAX_COMPOSE_DEPTH: Final = 256


class _Composer(CBaseLoader):
    """libyaml's composer with resolution switched off: licheck types scalars itself (nothing
    is constructed: only the node tree is built)."""

    def resolve(self, kind: type, value: Any, implicit: Any) -> str:
        return ""

    def descend_resolver(self, current_node: Any, current_index: Any) -> None:
        pass

    def ascend_resolver(self) -> None:
        pass


def _nesting_bound(text: str) -> int:
    """An upper bound on how deeply `text`'s collections nest.

    Proof.  Along any chain of nested collections the block collections come first (a flow
    collection holds only flow collections), so depth = block depth B + flow depth F.
    F <= the number of `[` and `{` in the text: each flow collection opens with one of them.
    For B: libyaml opens a block collection only at a column greater than the indentation of
    the block collection around it, except a block sequence that is a mapping's value, which may
    sit at the mapping's own column ("indentless"); an indentless sequence's entries are not
    collections at that column, so at most two block levels share a column: B <= 2 * (c + 1),
    c the deepest block collection's column.  That collection's first entry starts its line
    after nothing but indentation and the indicators `-`, `?`, `:` (a block collection cannot
    start after other content on a line; a BOM may lead), so c <= the longest such line
    prefix, P.  Hence depth <= 2 * (P + 1) + F.  (tests/files/test_yamlfast.py checks it on random
    texts against libyaml's events.)
    """
    first = len(text) - len(text.lstrip(_PREFIX_CHARS))
    lines = _ANY_LINE_PREFIX if _OTHER_BREAKS.search(text) else _LINE_PREFIX
    prefix = max(first, max(map(len, lines.findall(text)), default=0))
    return 2 * (prefix + 1) + text.count("[") + text.count("{")


class _Declined(Exception):
    """The tree holds something only the event reader may judge."""


def compose(
    text: str,
    plain: Callable[[str], Any],
    *,
    max_depth: int,
    max_scalar_chars: int,
    max_nodes: int,
) -> tuple[dict[str, Any], Positions, Positions] | None:
    """(data, positions, key_positions) exactly as the event reader builds them, or None."""
    if not _HAVE_LIBYAML or "!" in text or "<<" in text:  # tags, merge keys
        return None
    if ("&" in text or "*" in text) and _ANCHOR_OR_ALIAS.search(text):
        return None
    if _nesting_bound(text) > MAX_COMPOSE_DEPTH:
        return None
    parser = _Composer(text)
    try:
        root = parser.get_single_node()
    except yaml.YAMLError:
        return None  # the event reader locates and words the error
    finally:
        parser.dispose()
    if type(root) is not MappingNode:
        return None
    walk = _Walk(plain, max_depth, max_scalar_chars)
    walk.positions[()] = _pos(root)
    try:
        data = walk.mapping(root, (), 1)
    except _Declined:
        return None
    # The event reader counts each value once for itself and once more within each collection
    # around it as that collection ends: a value at path p counts len(p) + 1 times.
    if sum(map(len, walk.positions)) + len(walk.positions) > max_nodes:
        return None
    return data, walk.positions, walk.key_positions


def _pos(node: Node) -> tuple[int, int]:
    mark = node.start_mark
    return mark.line + 1, mark.column + 1


class _Walk:
    """Builds data and positions from the tree in the order the event reader would."""

    __slots__ = ("key_positions", "max_depth", "max_scalar_chars", "plain", "positions")

    def __init__(self, plain: Callable[[str], Any], max_depth: int, max_scalar_chars: int) -> None:
        self.plain = plain
        self.max_depth = max_depth
        self.max_scalar_chars = max_scalar_chars
        self.positions: Positions = {}
        self.key_positions: Positions = {}

    # Scalars and positions are inlined in the loops below: this walk is the fast path's cost.

    def mapping(self, node: MappingNode, path: Path_, depth: int) -> dict[str, Any]:
        if depth > self.max_depth:
            raise _Declined
        data: dict[str, Any] = {}
        positions, key_positions = self.positions, self.key_positions
        for key_node, value_node in node.value:
            if type(key_node) is not ScalarNode:
                raise _Declined
            key: str = key_node.value
            if key in data or len(key) > self.max_scalar_chars:
                raise _Declined
            child = (*path, key)
            mark = key_node.start_mark
            positions[child] = key_positions[child] = (mark.line + 1, mark.column + 1)
            if type(value_node) is ScalarNode:
                mark = value_node.start_mark
                positions[child] = (mark.line + 1, mark.column + 1)
                data[key] = self.scalar(value_node)
            else:  # a collection under a key is located at the key
                data[key] = self.collection(value_node, child, depth)
        return data

    def sequence(self, node: SequenceNode, path: Path_, depth: int) -> list[Any]:
        if depth > self.max_depth:
            raise _Declined
        items: list[Any] = []
        positions = self.positions
        for index, item in enumerate(node.value):
            child = (*path, index)
            mark = item.start_mark
            positions[child] = (mark.line + 1, mark.column + 1)
            if type(item) is ScalarNode:
                items.append(self.scalar(item))
            else:
                items.append(self.collection(item, child, depth))
        return items

    def collection(self, node: Node, path: Path_, depth: int) -> Any:
        if type(node) is MappingNode:
            return self.mapping(node, path, depth + 1)
        if type(node) is SequenceNode:
            return self.sequence(node, path, depth + 1)
        raise _Declined  # pragma: no cover - a composer without aliases builds only these

    def scalar(self, node: ScalarNode) -> Any:
        value: str = node.value
        if len(value) > self.max_scalar_chars:
            raise _Declined
        if node.style:  # quoted or block: a string
            return value
        typed = self.plain(value)
        if typed is DECLINE:
            raise _Declined
        return typed
