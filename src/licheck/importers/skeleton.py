"""Building and writing a manifest skeleton: shared by the importers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from licheck.inputs.manifest import FORMAT
from licheck.inputs.rules import CatalogModel
from licheck.library.compiled import Library
from licheck.text.escape import commands, yaml_comment
from licheck.vocabulary.names import FACTS

# Facts an importer leaves out on purpose: `derivative` keeps licheck's documented default (a
# trained model is a derivative unless the manifest says otherwise), and `distributes_weights`
# follows from the component's delivery, `modified` from its lineage's steps.
DERIVED = frozenset({"derivative", "distributes_weights", "modified"})
_SLUG = re.compile(r"[^a-z0-9._-]+")


def slug(text: str, fallback: str = "model") -> str:
    """A manifest identifier from free text."""
    value = _SLUG.sub("-", text.strip().lower()).strip("-._")
    return value[:120] or fallback


def unique(ident: str, taken: dict[str, int]) -> str:
    """`ident`, or `ident-2`, `ident-3`, ... when taken; `taken` maps each name given out to the
    next number to try after it, so 40,000 models of one name cost linear time, not quadratic."""
    if ident not in taken:
        taken[ident] = 2
        return ident
    number = taken[ident]
    while f"{ident}-{number}" in taken:
        number += 1
    taken[ident] = number + 1
    candidate = f"{ident}-{number}"
    taken[candidate] = 2
    return candidate


def stateable(derived: frozenset[str] = frozenset()) -> list[str]:
    left_out = DERIVED | derived
    return [name for name, d in FACTS.items() if not d.implicit and name not in left_out]


def unknown_facts(
    known: dict[str, Any], source: str, derived: frozenset[str] = frozenset()
) -> dict[str, Any]:
    """Every stateable fact: what the source said, the rest `unknown` (but those in `derived`,
    which the skeleton's delivery and lineage settle)."""
    return {
        name: known.get(name, {"value": "unknown", "note": f"not in the {source}"})
        for name in stateable(derived)
    }


@dataclass
class ModelIdentity:
    """How a source identifies one model, and the catalog model it resolves to (if any)."""

    names: list[str]  # explicit identifiers, most specific first (Hub id, purl id, ...)
    shown: str  # how the source calls it, for notes
    licenses: list[str] = field(default_factory=list)  # the source's license statements
    model: CatalogModel | None = None

    def resolve(self, library: Library) -> ModelIdentity:
        for name in self.names:
            found = library.model(name)
            if found is not None:
                self.model = found
                break
        return self

    def ref(self, evidence: dict[str, Any], role: str) -> dict[str, Any]:
        """A lineage entry: the catalog id with the source as evidence, or `unknown`."""
        declared = f" and declares {'; '.join(self.licenses)}" if self.licenses else ""
        if self.model is not None:
            note = (
                f"{role}: the source names {self.shown}{declared}; licheck's catalog gives "
                f"the license ({self.model.license or 'not in the library'})"
            )
            return {"model": self.model.id, "evidence": [dict(evidence)], "note": note}
        if self.names:
            why = (
                f" ({', '.join(self.names)}){declared}: named, but not in licheck's catalog, "
                "so its license is unknown (the base is not undisclosed)"
            )
        else:
            why = (
                f"{declared}, but identifies it by no Hub id, purl or licheck:model property, "
                "and licheck does not look models up by bare name, so it is left unknown"
            )
        note = (
            f"{role}: the source names {self.shown}{why}: name a catalog model (licheck "
            "licenses models) or add it to the catalog"
        )
        return {"model": "unknown", "note": note}


# libyaml's emitter when PyYAML has it: the pure-Python one takes about half a millisecond a
# component (twenty seconds for a 40,000-model BOM); the output is the same.
try:
    from yaml import CSafeDumper as _SafeDumper
except ImportError:  # PyYAML built without libyaml
    from yaml import SafeDumper as _SafeDumper  # type: ignore[assignment]


class _Dumper(_SafeDumper):
    """Writes repeated values out in full: a skeleton is for people to edit, without anchors."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


# what a CI runner could read as a workflow command, or a log viewer as a line break
# (`licheck.text.escape`): a string holding one is written double-quoted, where it can be escaped
_UNSAFE = re.compile("::|##\\[|[\x85\u2028\u2029]")


def _string(dumper: _Dumper, value: str) -> yaml.ScalarNode:
    style = '"' if _UNSAFE.search(value) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _string)


def dump(manifest: dict[str, Any], header: list[str], written: Written | None = None) -> str:
    """The skeleton as YAML, with a header comment; deterministic for the same input.  It
    states `format: 2` first (the format this licheck reads, and the one the skeleton is
    written in: licheck warns about no manifest it wrote itself).  No workflow command: every
    `::` and `##[` stands in a double-quoted string (`_string`), where `\\x3a` and `\\x23` are
    the same characters to a YAML reader.  `written`: the run's memo of entries written
    (audit-cards writes hundreds of skeletons whose facts are mostly the same)."""
    data = {"format": FORMAT, **manifest}
    body = commands(written.text(data) if written else yaml_text(data), "\\x3a", "\\x23")
    return "".join(f"# {yaml_comment(line)}\n" if line else "#\n" for line in header) + body


_OPTIONS: dict[str, Any] = {"allow_unicode": True, "width": 96}  # the emitter's, as dump sets them
_STR, _MAP, _SEQ = (f"tag:yaml.org,2002:{name}" for name in ("str", "map", "seq"))


def yaml_text(data: Any) -> str:
    """`data` as a skeleton writes it: the text `represented_text` gives, built about twice as
    fast.  PyYAML's representer (Python) dispatches on each value's type to build the node
    tree its emitter (libyaml's) writes; for the plain data a skeleton holds, `_node` builds
    the same nodes directly; any other value goes through the representer (which refuses it as
    before).  tests/importers/test_skeleton_text.py holds the two texts equal."""
    try:
        node = _node(data)
    except TypeError:
        return represented_text(data)
    text: str = yaml.serialize(node, Dumper=_Dumper, **_OPTIONS)
    return text


def represented_text(data: Any) -> str:
    """`data` through PyYAML's representer (`yaml.dump`), as skeletons were first written."""
    text: str = yaml.dump(
        data, Dumper=_Dumper, sort_keys=False, default_flow_style=False, **_OPTIONS
    )
    return text


def _node(value: Any) -> yaml.Node:
    """The node `_Dumper`'s representer makes of `value` (block style, keys in order, no
    anchors); `TypeError` for a value that is not plain data (exact types: a subclass goes to
    the representer, as before)."""
    kind = type(value)
    if kind is str:
        return yaml.ScalarNode(_STR, value, style='"' if _UNSAFE.search(value) else None)
    if kind is dict:
        return yaml.MappingNode(
            _MAP, [(_node(k), _node(v)) for k, v in value.items()], flow_style=False
        )
    if kind is list:
        return yaml.SequenceNode(_SEQ, [_node(item) for item in value], flow_style=False)
    if kind is bool:
        return yaml.ScalarNode("tag:yaml.org,2002:bool", "true" if value else "false")
    if kind is int:
        return yaml.ScalarNode("tag:yaml.org,2002:int", str(value))
    if value is None:
        return yaml.ScalarNode("tag:yaml.org,2002:null", "null")
    raise TypeError(kind.__name__)


class Written:
    """One run's memo of skeleton text: each entry of a top-level mapping (a fact and its
    statement) as `yaml_text` writes it, keyed by the entry's whole value (its `repr`: types
    and key order count), so a fact stated alike in many skeletons is written once.

    A block mapping's entries are written one after another, each as it would be alone, so a
    document's text is its top-level entries' texts in order, and an entry of a nested mapping
    is its text alone indented by the nesting (two spaces a level), provided that each scalar
    of it stays on one line: no line of it comes near the width (where libyaml folds a long
    scalar at a column the indentation moves) and no string holds a line break.  A mapping
    with an entry that may not be moved is written whole, as `yaml_text` writes it.
    tests/importers/test_skeleton_text.py holds the texts equal to `yaml_text`'s.  At most
    `LIMIT` entries are kept (a run's memory stays bounded)."""

    WIDTH = _OPTIONS["width"]
    LIMIT = 4096

    def __init__(self) -> None:
        self._entries: dict[str, str | None] = {}  # None: near the width, not to be moved

    def text(self, data: dict[str, Any]) -> str:
        """`yaml_text(data)`, for a mapping of plain data: the entries memoised taken from the
        memo, the others between them written together (one emitter run each)."""
        if not data:  # `{}`: no entries to write one by one
            return yaml_text(data)
        out: list[str] = []
        rest: dict[Any, Any] = {}
        for key, value in data.items():
            moved = self._mapping(key, value)
            if moved is None:
                rest[key] = value
                continue
            if rest:
                out.append(yaml_text(rest))
                rest = {}
            out.append(moved)
        if rest:
            out.append(yaml_text(rest))
        return "".join(out)

    def _mapping(self, key: Any, value: Any) -> str | None:
        """A top-level mapping's text from its entries' (memoised), or None."""
        if type(value) is not dict or not value:
            return None
        head = self._head(key)
        entries = [self._entry(k, v) for k, v in value.items()]
        if head is None or None in entries:
            return None
        return head + "".join(entries)  # type: ignore[arg-type]

    def _head(self, key: Any) -> str | None:
        """`KEY:` as the key of a mapping is written, or None (not on one line)."""
        memo = repr(("head", key))
        if memo not in self._entries:
            line = yaml_text({key: None})
            fits = line.endswith(": null\n") and line.count("\n") == 1 and _no_break(key)
            head = line.removesuffix(" null\n") + "\n" if fits else None
            if len(self._entries) >= self.LIMIT:
                return head
            self._entries[memo] = head
        return self._entries[memo]

    def _entry(self, key: Any, value: Any) -> str | None:
        """The entry's text indented one level, or None where it may not be moved."""
        memo = repr(("entry", key, value))
        if memo in self._entries:
            return self._entries[memo]
        lines = yaml_text({key: value}).splitlines(keepends=True)
        fits = _no_break(key) and _no_break(value) and all(len(ln) < self.WIDTH for ln in lines)
        moved = _indented(lines) if fits else None
        if len(self._entries) < self.LIMIT:
            self._entries[memo] = moved
        return moved


_BREAK = re.compile("[\n\r\x85\u2028\u2029]")


def _no_break(value: Any) -> bool:
    """No string in `value` holds a line break (which a quoted scalar writes over lines whose
    indentation, and blank lines, do not move with the entry)."""
    if isinstance(value, str):
        return _BREAK.search(value) is None
    if isinstance(value, dict):
        return all(_no_break(k) and _no_break(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_no_break(item) for item in value)
    return True


def _indented(lines: list[str]) -> str:
    return "".join("  " + line for line in lines)
