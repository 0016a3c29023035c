"""CycloneDX 1.6 / 1.7 ML-BOM → manifest skeleton.

Read as plain JSON (no cyclonedx library: it drops `modelCard`).  Each top-level component of
type `machine-learning-model` becomes a manifest component.  Its lineage base is its first
`pedigree.ancestors` entry (several ancestors are recorded as a merge, so every one's license
binds); without ancestors the model itself is the base.  A model resolves to a catalog id through
a `licheck:model` property, its Hugging Face purl (`pkg:huggingface/org/name`), or `group/name` —
never through its bare name or its license.  Properties `licheck:fact:<name>` become facts (on
`metadata.properties`: product facts; on a component or its model card: component facts).
Licenses (`license.id`, `license.name`, `expression`) are recorded in notes only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from licheck.core.diagnostics import Diagnostic, InputError, fail
from licheck.core.units import UnitError
from licheck.facts.periods import FactError
from licheck.facts.resolution import claim_domain
from licheck.files import jsonread
from licheck.files.yamlsafe import parse, read_text
from licheck.importers.skeleton import ModelIdentity, dump, slug, unique, unknown_facts
from licheck.inputs.manifest import FactSpec
from licheck.library.compiled import Library
from licheck.loading.factchecks import may_state
from licheck.vocabulary.factdefs import FactType
from licheck.vocabulary.names import FACTS

ML_MODEL = "machine-learning-model"
FACT_PREFIX = "licheck:fact:"
MODEL_PROPERTY = "licheck:model"
SPEC_VERSIONS = ("1.6", "1.7")


@dataclass(frozen=True, slots=True)
class Bom:
    """A BOM as JSON data, with its text to locate problems in."""

    data: dict[str, Any]
    text: str
    display: str


def read(path: Path, display: str) -> Bom:
    """The BOM; located errors for what is not a CycloneDX JSON document."""
    text = read_text(path, display)  # size limit, UTF-8, not empty
    if text.lstrip("\ufeff \t\r\n").startswith("<"):
        raise fail(
            display,
            1,
            1,
            "a CycloneDX XML BOM: licheck reads CycloneDX JSON",
            "convert it to JSON (the CycloneDX CLI's `convert` command does)",
        )
    try:
        data = jsonread.loads(text)
    except jsonread.DuplicateKey as exc:
        message = (
            f"the key {exc.args[0]!r} twice in one object: JSON readers keep either one, so "
            "which one the BOM states is a guess"
        )
        raise fail(display, 0, 0, message) from None
    except json.JSONDecodeError as exc:
        raise fail(display, exc.lineno, exc.colno, f"invalid JSON: {exc.msg}") from None
    except jsonread.Unreadable as exc:  # a lone surrogate, an integer too long, too deep
        raise fail(display, exc.line, exc.column, f"invalid JSON: {exc.reason}") from None
    except ValueError as exc:  # what else the JSON reader refuses without a position
        raise fail(display, 0, 0, f"invalid JSON: {exc}") from None
    if not isinstance(data, dict) or data.get("bomFormat") != "CycloneDX":
        raise fail(
            display,
            1,
            1,
            'not a CycloneDX BOM (expected "bomFormat": "CycloneDX")',
            "export the BOM as CycloneDX JSON",
        )
    version = data.get("specVersion")
    if version not in SPEC_VERSIONS:
        raise fail(
            display,
            1,
            1,
            f"CycloneDX specVersion {version!r} is not supported; "
            f"licheck reads {' and '.join(SPEC_VERSIONS)} (ML-BOMs)",
        )
    return Bom(data, text, display)


_STEP = re.compile(r"\.([^.\[]+)|\[(\d+)\]")


def _positions(text: str, display: str) -> dict[tuple[str | int, ...], tuple[int, int]]:
    """Line and column of each JSON path, read through the YAML parser (JSON is YAML); empty
    where that parser refuses the text (e.g. escaped surrogate pairs), leaving paths alone."""
    try:
        return parse(text, display).positions
    except InputError:
        return {}


class _Reader:
    """Walks the BOM, collecting located (by JSON path) problems."""

    def __init__(self, bom: Bom) -> None:
        self.bom = bom
        self.problems: list[Diagnostic] = []
        self._index: dict[tuple[str | int, ...], tuple[int, int]] | None = None

    def error(self, where: str, message: str) -> None:
        """A problem at a JSON path (`$.components[0].name`), located where possible."""
        if self._index is None:
            self._index = _positions(self.bom.text, self.bom.display)
        path: tuple[str | int, ...] = tuple(
            key if key else int(index) for key, index in _STEP.findall(where)
        )
        line, column = 0, 0
        while self._index:
            if path in self._index:
                line, column = self._index[path]
                break
            if not path:
                break
            path = path[:-1]
        self.problems.append(Diagnostic(self.bom.display, line, column, f"{where}: {message}"))

    def items(self, value: Any, where: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.error(where, "expected a list")
            return []
        return value

    def mapping(self, value: Any, where: str) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.error(where, "expected an object")
            return {}
        return value

    def string(self, value: Any, where: str) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str):
            self.error(where, "expected a string")
            return None
        return value


def _licenses(reader: _Reader, component: dict[str, Any], where: str) -> list[str]:
    shown = []
    for i, entry in enumerate(reader.items(component.get("licenses"), f"{where}.licenses")):
        at = f"{where}.licenses[{i}]"
        entry = reader.mapping(entry, at)
        ack = entry.get("acknowledgement")
        suffix = f" ({ack})" if isinstance(ack, str) else ""
        if "expression" in entry:
            shown.append(f"expression {reader.string(entry['expression'], at)!s}{suffix}")
            continue
        lic = reader.mapping(entry.get("license"), f"{at}.license")
        ack = lic.get("acknowledgement", ack)
        suffix = f" ({ack})" if isinstance(ack, str) else ""
        url = reader.string(lic.get("url"), f"{at}.license.url")
        if "id" in lic:
            shown.append(f"license id {reader.string(lic['id'], at)}{suffix}")
        elif "name" in lic:
            text = f"license name {reader.string(lic['name'], at)!r}"
            shown.append(text + (f" <{url}>" if url else "") + suffix)
    return shown


def _identity(reader: _Reader, component: dict[str, Any], where: str) -> ModelIdentity:
    names: list[str] = []
    for i, prop in enumerate(reader.items(component.get("properties"), f"{where}.properties")):
        prop = reader.mapping(prop, f"{where}.properties[{i}]")
        if prop.get("name") == MODEL_PROPERTY and isinstance(prop.get("value"), str):
            names.append(prop["value"])
    purl = reader.string(component.get("purl"), f"{where}.purl")
    if purl and purl.startswith("pkg:huggingface/"):
        names.append(purl.removeprefix("pkg:huggingface/").split("@")[0].split("?")[0])
    group = reader.string(component.get("group"), f"{where}.group")
    name = reader.string(component.get("name"), f"{where}.name") or "an unnamed component"
    if group:
        names.append(f"{group}/{name}")
    version = component.get("version")
    shown = (f"{group}/{name}" if group else name) + (
        f" {version}" if isinstance(version, str) else ""
    )
    return ModelIdentity(
        list(dict.fromkeys(names)), repr(shown), _licenses(reader, component, where)
    )


def _fact_value(name: str, raw: str) -> Any:
    kind = FACTS[name].type
    if raw.strip().lower() == "unknown":
        return "unknown"
    if kind is FactType.BOOLEAN:
        lowered = raw.strip().lower()
        if lowered not in ("true", "false"):
            raise FactError(f"{name} is true or false, got {raw!r}")
        return lowered == "true"
    if kind is FactType.SET:
        return [part.strip() for part in raw.split(",") if part.strip()]
    return raw.strip()


def _facts(
    reader: _Reader,
    properties: Any,
    where: str,
    source: dict[str, Any],
    facts: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The facts `properties` state, added to `facts` (those stated elsewhere for the same
    scope): a fact stated twice with two values is an error, since either one picked would be
    a guess (CycloneDX allows a property name twice)."""
    facts = {} if facts is None else facts
    for i, prop in enumerate(reader.items(properties, where)):
        at = f"{where}[{i}]"
        prop = reader.mapping(prop, at)
        key = reader.string(prop.get("name"), f"{at}.name") or ""
        if not key.startswith(FACT_PREFIX):
            continue
        name = key.removeprefix(FACT_PREFIX)
        raw = reader.string(prop.get("value"), f"{at}.value")
        if not may_state(name):
            reader.error(at, f"{key}: {name!r} is not a fact a manifest states")
            continue
        if raw is None:
            continue
        try:
            value = _fact_value(name, raw)
            claim_domain(FACTS[name], FactSpec(value=value), {})
        except (FactError, UnitError) as exc:
            reader.error(at, f"{key}: {exc}")
            continue
        if name in facts and facts[name]["value"] != value:
            reader.error(
                at,
                f"{key} is stated twice, as {json.dumps(facts[name]['value'])} and as "
                f"{json.dumps(value)}: "
                "keep the one that is true",
            )
            continue
        facts[name] = {"value": value, "evidence": [source]}
    return facts


def to_manifest(source: Bom, library: Library) -> str:
    """The manifest skeleton for a BOM, as YAML text."""
    reader = _Reader(source)
    bom, display = source.data, source.display
    serial = bom.get("serialNumber")
    label = f"CycloneDX {bom['specVersion']} BOM {display}" + (
        f" ({serial})" if isinstance(serial, str) else ""
    )
    evidence = {"source": label, "kind": "declared"}
    metadata = reader.mapping(bom.get("metadata"), "$.metadata")
    app = reader.mapping(metadata.get("component"), "$.metadata.component")
    product = reader.string(app.get("name"), "$.metadata.component.name")
    owner = None
    for key in ("manufacturer", "supplier"):
        who = reader.mapping(app.get(key) or metadata.get(key), f"$.metadata.{key}")
        owner = owner or reader.string(who.get("name"), f"$.metadata.{key}.name")
    product_facts = _facts(reader, metadata.get("properties"), "$.metadata.properties", evidence)
    components = []
    taken: dict[str, int] = {}
    for i, component in enumerate(reader.items(bom.get("components"), "$.components")):
        where = f"$.components[{i}]"
        component = reader.mapping(component, where)
        if component.get("type") != ML_MODEL:
            continue
        components.append(_component(reader, component, where, library, evidence, taken))
    if reader.problems:
        raise InputError(reader.problems)
    if not components:
        raise fail(
            display,
            0,
            0,
            "the BOM has no component of type machine-learning-model",
            "licheck imports ML-BOMs: models are components of that type",
        )
    manifest: dict[str, Any] = {
        "product": product or "unknown",
        "owner": owner or "unknown",
    }
    if not product or not owner:
        manifest["description"] = (
            "Imported from a CycloneDX BOM that names no "
            + " and no ".join(
                w
                for w, v in (
                    ("product (metadata.component.name)", product),
                    ("owner (manufacturer or supplier)", owner),
                )
                if not v
            )
            + "; fill them in."
        )
    # a BOM says what the product contains, not a license of its own it offers a model under:
    # declared_license is left to licheck's default ([]), as in a manifest written by hand
    manifest["facts"] = unknown_facts(product_facts, "BOM", frozenset({"declared_license"}))
    manifest["components"] = components
    header = [
        f"Manifest skeleton imported by `licheck import cyclonedx` from {label}.",
        "It states only what the BOM says (as declared evidence); everything else is",
        "`unknown`. Review every note, add sources with dates, and run `licheck validate`.",
    ]
    return dump(manifest, header)


def _component(
    reader: _Reader,
    component: dict[str, Any],
    where: str,
    library: Library,
    evidence: dict[str, Any],
    taken: dict[str, int],
) -> dict[str, Any]:
    identity = _identity(reader, component, where).resolve(library)
    name = reader.string(component.get("name"), f"{where}.name") or "unnamed model"
    ref = reader.string(component.get("bom-ref"), f"{where}.bom-ref")
    pedigree = reader.mapping(component.get("pedigree"), f"{where}.pedigree")
    ancestors = [
        _identity(
            reader,
            reader.mapping(a, f"{where}.pedigree.ancestors[{j}]"),
            f"{where}.pedigree.ancestors[{j}]",
        ).resolve(library)
        for j, a in enumerate(
            reader.items(pedigree.get("ancestors"), f"{where}.pedigree.ancestors")
        )
    ]
    notes = []
    if ancestors:
        lineage: dict[str, Any] = {"base": ancestors[0].ref(evidence, "base model")}
        if len(ancestors) > 1:
            lineage["steps"] = [
                {
                    "kind": "merge",
                    "parents": [a.ref(evidence, "ancestor") for a in ancestors[1:]],
                    "note": "the BOM lists several ancestors without saying how they combine; "
                    "recorded as a merge so that each one's license binds: correct the "
                    "steps if you know them",
                }
            ]
        notes.append(
            f"the component itself is {identity.shown}, declaring "
            f"{'; '.join(identity.licenses) or 'no license'}"
        )
    else:
        lineage = {
            "base": identity.ref(evidence, "the model itself (the BOM lists no pedigree ancestors)")
        }
    approach = reader.mapping(
        reader.mapping(
            reader.mapping(component.get("modelCard"), f"{where}.modelCard").get("modelParameters"),
            f"{where}.modelCard.modelParameters",
        ).get("approach"),
        f"{where}.modelCard.modelParameters.approach",
    ).get("type")
    if isinstance(approach, str):
        notes.append(
            f"the model card gives the training approach {approach!r}; add the "
            "training steps to the lineage if you know them"
        )
    if isinstance(pedigree.get("notes"), str):
        notes.append(f"pedigree notes: {pedigree['notes']}")
    notes.append("delivery is not in the BOM: add hosted_service, api and/or weights")
    facts = _facts(reader, component.get("properties"), f"{where}.properties", evidence)
    card = reader.mapping(component.get("modelCard"), f"{where}.modelCard")
    _facts(reader, card.get("properties"), f"{where}.modelCard.properties", evidence, facts)
    result: dict[str, Any] = {
        "id": unique(slug(ref or name), taken),
        "name": name,
        "lineage": lineage,
    }
    if facts:
        result["facts"] = facts
    result["note"] = "; ".join(notes)
    return result


def model_identities(source: Bom) -> list[ModelIdentity]:
    """How the BOM identifies each machine-learning-model component and its pedigree
    ancestors (unresolved); `InputError` for a BOM that is not well formed there."""
    reader = _Reader(source)
    found = []
    for i, component in enumerate(reader.items(source.data.get("components"), "$.components")):
        where = f"$.components[{i}]"
        component = reader.mapping(component, where)
        if component.get("type") != ML_MODEL:
            continue
        found.append(_identity(reader, component, where))
        pedigree = reader.mapping(component.get("pedigree"), f"{where}.pedigree")
        for j, ancestor in enumerate(
            reader.items(pedigree.get("ancestors"), f"{where}.pedigree.ancestors")
        ):
            at = f"{where}.pedigree.ancestors[{j}]"
            found.append(_identity(reader, reader.mapping(ancestor, at), at))
    if reader.problems:
        raise InputError(reader.problems)
    return found
