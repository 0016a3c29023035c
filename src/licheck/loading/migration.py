"""Manifests written before `format:` existed (issue 24, deliverable 5): which readings changed
for one of them, and the manifest rewritten as format 2.

A manifest without `format:` is read as format 2 (docs/manifests.md, "Manifest format 2: what
changed"), but some constructs a format-1 manifest used now read differently.  `changes` names
those this manifest uses, each at its line: the warning `evaluate`, `check`, `validate`,
`whatif` and `timeline` print once per file, and the notes `licheck migrate` writes.
`migrated` is the text with `format: 2` at the top and each changed construct rewritten where
the new form says the same (`agreement: []` is `agreements: none`), else a comment above it
saying what changed; every other line, comment and key order is kept as written.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from licheck.files.yamlsafe import Document, Path_
from licheck.inputs.manifest import FORMAT, FORMAT_DOC, FORMAT_SECTION, Delivery, Manifest, StepKind

# A top-level `format:` key, as a block mapping writes it: the quick test before any parsing.
_FORMAT_KEY = re.compile(r"^[\"']?format[\"']?[ \t]*:", re.MULTILINE)
# The facts the termination, trademark and NOTICE terms added (new duties, asked until stated).
NEW_DUTY_FACTS = ("ip_claims", "licensor_marks_used", "licensor_endorsement_implied")
MARK = "# licheck migrate:"


class Change(NamedTuple):
    """A reading of format 1 that changed for this manifest, where the manifest uses it."""

    line: int
    topic: str  # in a word or two, for the warning: "distillation parents"
    what: str  # what it means now, for the comment `migrate` writes


def may_lack_format(text: str) -> bool:
    """No top-level `format:` key is written in block style (then `has_format` decides)."""
    return _FORMAT_KEY.search(text) is None


def has_format(document: Document) -> bool:
    return isinstance(document.data, dict) and "format" in document.data


def changes(manifest: Manifest, document: Document) -> list[Change]:
    """Every changed reading this manifest uses, in line order (one per construct)."""
    found = [
        *_lineage_changes(manifest, document),
        *_fact_changes(manifest, document),
        *_owner_changes(manifest, document),
    ]
    return sorted(found, key=lambda change: change.line)


def _at(document: Document, path: Path_) -> int:
    return document.locate(path)[0]


def _lineage_changes(manifest: Manifest, document: Document) -> list[Change]:
    found: list[Change] = []
    for c, component in enumerate(manifest.components):
        at: Path_ = ("components", c)
        for s, step in enumerate(component.lineage.steps):
            if step.kind is StepKind.DISTILLATION and step.parents:
                found.append(
                    Change(
                        _at(document, (*at, "lineage", "steps", s)),
                        "distillation parents",
                        "a distillation step's parent is a teacher: the clauses reaching its "
                        "outputs bind, and improves_other_models is implied",
                    )
                )
        if component.lineage.trained_on_outputs_of:
            found.append(
                Change(
                    _at(document, (*at, "lineage", "trained_on_outputs_of")),
                    "training on outputs",
                    "training on a model's outputs binds: Gemma, DeepSeek v1.0, Hunyuan and Yi "
                    "count it as a derivative, and Kimi's display duties reach it",
                )
            )
        if {Delivery.API, Delivery.HOSTED_SERVICE} & set(component.delivery):
            found.append(
                Change(
                    _at(document, (*at, "delivery")),
                    "serving a model",
                    "serving a model makes it available: the Llama and DeepSeek copy duties "
                    "bind a hosted product or an API too",
                )
            )
    return found


def _fact_changes(manifest: Manifest, document: Document) -> list[Change]:
    found: list[Change] = []
    scopes: list[tuple[Path_, dict[str, object]]] = [(("facts",), dict(manifest.facts))]
    scopes += [
        (("components", c, "facts"), dict(component.facts))
        for c, component in enumerate(manifest.components)
    ]
    for at, facts in scopes:
        for name, topic, what in _FACT_READINGS:
            if name in facts and _reads(name, facts[name]):
                found.append(Change(_at(document, (*at, name)), topic, what))
    stated = set(manifest.facts).union(*(component.facts for component in manifest.components))
    if not set(NEW_DUTY_FACTS) <= stated:
        missing = ", ".join(sorted(set(NEW_DUTY_FACTS) - stated))
        found.append(
            Change(
                _at(document, ("facts",)) if manifest.facts else 1,
                "new duties",
                "termination, trademark and NOTICE terms ask new facts, governance risks "
                f"until stated ({missing}, ...: `licheck facts NAME`)",
            )
        )
    return found


def _reads(name: str, spec: object) -> bool:
    """The fact, as stated, uses the reading that changed."""
    value = getattr(spec, "value", None)
    if name == "agreement":
        return value == []
    if name == "commercial":
        return value is False
    if name == "monthly_revenue":
        pieces = [value, *(getattr(p, "value", None) for p in getattr(spec, "evidence", []))]
        return any(isinstance(v, str) and "/year" in v.replace(" ", "") for v in pieces)
    return True


_FACT_READINGS = (
    (
        "monthly_revenue",
        "yearly figures",
        "a year's total gives only the average month (likely, never decisive); write ARR as "
        "'... USD ARR', or state the month",
    ),
    (
        "agreement",
        "agreement: []",
        "agreement: [] means no agreement at all: nothing waived, nothing granted",
    ),
    (
        "commercial",
        "commercial: false",
        "commercial: false no longer settles the purpose-bound grants: they read use_purpose",
    ),
    (
        "restricted_uses",
        "restricted uses",
        "more Llama AUP uses are mapped, and no unmapped use is met by a review",
    ),
    (
        "ui_attribution",
        "near-matches",
        "a name that differs only in case, spacing or typography is a governance risk",
    ),
)


def _owner_changes(manifest: Manifest, document: Document) -> list[Change]:
    data = document.data
    if isinstance(data, dict) and isinstance(data.get("owner"), str):
        return [
            Change(
                _at(document, ("owner",)),
                "owners",
                "the owner is a name only: a licensor's own product is judged as the "
                "licensor's only with owner: {name: ..., id: LICENSOR-ID}",
            )
        ]
    return []


def warning(file: str, found: list[Change]) -> str:
    """The warning for a manifest without `format:` (one line, then the readings)."""
    head = (
        f"{file}:1:1: warning: no `format:`, read as manifest format {FORMAT}, whose readings "
        "changed for this manifest"
    )
    lines = [head, *(f"  line {c.line}: {c.topic}: {c.what}" for c in found)]
    lines.append(
        f"  hint: `licheck migrate {file}` writes format: {FORMAT} and notes each change "
        f'(--dry-run shows the diff); {FORMAT_DOC}, "{FORMAT_SECTION}"'
    )
    return "\n".join(lines)


# -- rewriting -------------------------------------------------------------------------------

_FLAT_NONE = re.compile(r"^(?P<indent>[ \t]*)agreement[ \t]*:[ \t]*\[[ \t]*\][ \t]*(?P<rest>#.*)?$")
_TOP_KEY = re.compile(r"^[A-Za-z_\"']")


def migrated(text: str, manifest: Manifest, document: Document) -> str:
    """The manifest as format 2: `format: 2` before its first key, `agreement: []` among the
    product's facts as `agreements: none` (where nothing else states the agreement facts), and
    a comment above each other changed construct; every other line as written."""
    lines = text.splitlines(keepends=True)
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    notes: dict[int, list[str]] = {}
    for change in changes(manifest, document):
        if change.topic == "agreement: []" and _flat_none_line(manifest, document, lines):
            continue  # rewritten below
        notes.setdefault(change.line, []).append(f"{MARK} {change.topic}: {change.what}")
    flat = _flat_none_line(manifest, document, lines)
    out: list[str] = []
    first_key = next((i for i, ln in enumerate(lines) if _TOP_KEY.match(ln)), len(lines))
    for index, current in enumerate(lines):
        if index == first_key:
            out.append(f"format: {FORMAT}{newline}")
            if flat is not None:
                out.append(f"agreements: none  {MARK} was agreement: [] under facts{newline}")
        if index == flat:
            continue
        indent = current[: len(current) - len(current.lstrip(" \t"))]
        out += [f"{indent}{note}{newline}" for note in notes.get(index + 1, [])]
        out.append(current)
    if first_key == len(lines):
        out.append(f"format: {FORMAT}{newline}")
    return "".join(out)


def _flat_none_line(manifest: Manifest, document: Document, lines: list[str]) -> int | None:
    """The 0-based line of a product-level `agreement: []` written on one line, where it may be
    `agreements: none` (no agreements:, agreement_waives or license_granted beside it)."""
    facts = manifest.facts
    spec = facts.get("agreement")
    if spec is None or spec.value != [] or spec.evidence or manifest.agreements is not None:
        return None
    if {"agreement_waives", "license_granted"} & set(facts):
        return None
    if any(
        name in component.facts
        for component in manifest.components
        for name in ("agreement", "agreement_waives", "license_granted")
    ):
        return None
    index = _at(document, ("facts", "agreement")) - 1
    if 0 <= index < len(lines) and _FLAT_NONE.match(lines[index].rstrip("\r\n")):
        return index
    return None
