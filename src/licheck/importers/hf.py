"""Hugging Face model card (README.md) → manifest skeleton.

The card is read by `licheck.importers.hfcard` (only the keys used here are parsed).  What it
states becomes the manifest, each with the card as `declared` evidence (the card is its
publisher's own statement, but undated; `official_statement` needs a date), and nothing else:

- the lineage: `base_model` (a Hub id or a list), resolved to a catalog model only when the
  catalog lists it as an id or alias (case-insensitively); a named base the catalog lacks is
  `unknown` with a note that names it, never called undisclosed.  The steps: a `merge` of the
  other bases (several bases without a relation are recorded as a merge too, so each one's
  license binds), the training step `base_model_relation` names (`finetune`, `adapter`), and
  a quantization from `base_model_relation: quantized` or a quantization tag (GGUF, AWQ, GPTQ,
  EXL2, 4-bit, 8-bit, bitsandbytes).  Without a relation, training tags (`trl`, `sft`,
  `generated_from_trainer`, `peft`, `lora`, ...) give the fine-tuning step; with none of these,
  whether the model was changed at all is left unknown (`modified`, `model_made_available`).
- delivery: the weights are distributed (the card is a model repository's on the Hub).
- `model_name`: the repository's name when `--model-id ORG/NAME` is given (the name the Hub
  makes the model available under); else the card's `model_name`, else its first
  `model-index` name, unless that is a path (a training folder such as `outputs/out`) or the
  name of its base (a repack that kept its base's card).  The other names are noted.
- `attribution_elsewhere`: each attribution text a clause in the library asks for ("Built with
  Llama", "Built with Qwen", ...) that the card's body contains (the card is the model's
  documentation), as the card writes it.
- the card's own license (`licheck.importers.cardlicense`): `declared_license` on the
  component, as the card writes it, judged by its bases' licenses' `relicensed-derivative`
  clauses; never mapped to the model's own license, which the catalog gives (`license: other`
  with `license_name: modified-mit` is used by different licensors for different licenses:
  Kimi's and MiniMax's modified MIT).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from licheck.files import yamlsafe
from licheck.importers.cardlicense import declared_license, declared_terms, license_statement
from licheck.importers.hfcard import Card, _read, document_error, read, string, strings
from licheck.importers.skeleton import ModelIdentity, Written, dump, slug, unknown_facts
from licheck.inputs.rules import model_key
from licheck.library.compiled import Library

__all__ = ["_read", "base_models", "front_matter", "read", "to_manifest"]

RELATIONS = ("adapter", "merge", "quantized", "finetune")
TRAINING = {"finetune": "fine_tuning", "adapter": "fine_tuning"}
# Tags that say the card's weights are quantized, and tags (or library names) that say the
# model was trained from its base; compared case-insensitively.
QUANTIZATION_TAGS = frozenset(
    {"gguf", "awq", "gptq", "exl2", "4-bit", "8-bit", "4bit", "8bit", "bitsandbytes", "quantized"}
)
TRAINING_TAGS = frozenset(
    {
        "trl",
        "sft",
        "dpo",
        "orpo",
        "kto",
        "grpo",
        "generated_from_trainer",
        "axolotl",
        "peft",
        "lora",
        "qlora",
        "finetune",
        "fine-tune",
        "fine-tuned",
        "finetuned",
    }
)
MERGE_TAGS = frozenset({"merge", "mergekit"})
# The facts the weights delivery and the lineage settle: a skeleton leaves them to licheck.
DELIVERY_DERIVED = frozenset({"made_available", "model_offered", "model_made_available"})
_SPACE = re.compile(r"\s+")
# a base named by its page's address rather than its id
_HUB_URL = re.compile(r"\Ahttps?://(?:www\.)?(?:huggingface\.co|hf\.co)/", re.I)


def front_matter(path: Path, display: str) -> yamlsafe.Document:
    """The card's front matter (the keys the importer reads) as a located document."""
    return read(path, display).document


def base_models(document: yamlsafe.Document) -> list[str]:
    """The card's `base_model` Hub ids; `InputError`, located, when it is not one or a list."""
    raw = document.data.get("base_model")
    if raw is None:
        return []
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not all(isinstance(i, str) and i.strip() for i in items):
        raise document_error(
            document, "base_model", "base_model should be a Hub id or a list of Hub ids"
        )
    return list(dict.fromkeys(_HUB_URL.sub("", i.strip()).strip("/") for i in items))


def to_manifest(
    card: Card | yamlsafe.Document,
    library: Library,
    display: str,
    model_id: str | None = None,
    written: Written | None = None,
) -> str:
    """The manifest skeleton for a model card, as YAML text (`written`: the run's memo of the
    text written, for many cards: `skeleton.Written`; the text is the same without it)."""
    if isinstance(card, yamlsafe.Document):
        card = Card(card, [], "")
    document = card.document
    bases = base_models(document)
    relation = string(document, "base_model_relation")
    if relation is not None and relation not in RELATIONS:
        raise document_error(
            document,
            "base_model_relation",
            f"base_model_relation {relation!r} is not one of {', '.join(RELATIONS)}",
        )
    label = f"Hugging Face model card {model_id or display}"
    evidence: dict[str, Any] = {"source": label, "kind": "declared"}
    if model_id:
        evidence["url"] = f"https://huggingface.co/{model_id}"
    own = ModelIdentity([model_id] if model_id else [], repr(model_id or "this card's model"))
    license_note = (
        license_statement(document)
        + "; licheck takes the license of each model in the lineage from its catalog"
    )
    made = _lineage(card, own, bases, relation, library, evidence, model_id)
    notes = [
        *card.notes,
        license_note,
        *made.notes,
        "delivery: the card is a Hugging Face model repository's, which distributes its "
        "weights; add hosted_service or api if the model is also served",
    ]
    known = _model_name(card, bases, model_id, evidence) | _attribution(card, library, evidence)
    known |= made.declared
    product = model_id or "unknown"
    manifest: dict[str, Any] = {"product": product, "owner": "unknown"}
    manifest["description"] = (
        "Imported from a model card, which names no product owner"
        + ("" if model_id else " and no product (pass --model-id, or fill them in)")
        + "."
    )
    # the card's own license is the component's (declared_license), not the product's
    manifest["facts"] = unknown_facts(known, "model card", DELIVERY_DERIVED | {"declared_license"})
    component: dict[str, Any] = {
        "id": slug(model_id.split("/")[-1]) if model_id else "model",
        "name": model_id or "unknown",
        "delivery": ["weights"],
        "lineage": made.lineage,
    }
    # the card's own model too, where the catalog has it (a distill under its base's license)
    named = [model_id, *bases] if model_id else bases
    offered = declared_license(card, _base_licenses(named, library), library, evidence)
    component["facts"] = {**made.facts, "declared_license": offered}
    component["note"] = "; ".join(notes)
    manifest["components"] = [component]
    header = [
        f"Manifest skeleton imported by `licheck import hf` from {label}.",
        "It states only what the card says (as declared evidence); everything else is",
        "`unknown`. Review every note, add sources with dates, and run `licheck validate`.",
    ]
    return dump(manifest, header, written)


@dataclass(frozen=True, slots=True)
class _Made:
    """How the card says its model was made: the component's lineage, the component facts it
    leaves open, the product facts its license declares, and the notes on how it was read."""

    lineage: dict[str, Any]
    facts: dict[str, Any] = field(default_factory=dict)
    declared: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def _lineage(
    card: Card,
    own: ModelIdentity,
    bases: list[str],
    relation: str | None,
    library: Library,
    evidence: dict[str, Any],
    model_id: str | None,
) -> _Made:
    """The lineage: the card's own model where the catalog has it, else its base models and
    the steps from them, else its own model as the base."""
    if own.resolve(library).model is not None:
        # The card's own model is in the catalog: the product uses it, and its catalog entry
        # says which license binds; the card's base_model is recorded, not re-derived.
        lineage = {"base": own.ref(evidence, "the card's own model (--model-id)")}
        if not bases:
            return _Made(lineage)
        note = (
            f"the card lists base_model {', '.join(bases)}; licheck's catalog "
            f"entry for {model_id} decides the license, add a base model's own "
            "license by hand only if it binds as well"
        )
        return _Made(lineage, notes=[note])
    if bases:
        return _from_bases(card.document, bases, relation, library, evidence, model_id)
    role = "the card names no base_model, so its own model is the base" + (
        "" if model_id else " (pass --model-id ORG/NAME to name it)"
    )
    return _Made({"base": own.ref(evidence, role)})


def _from_bases(
    document: yamlsafe.Document,
    bases: list[str],
    relation: str | None,
    library: Library,
    evidence: dict[str, Any],
    model_id: str | None,
) -> _Made:
    """The lineage from the card's base models: the first as the base, the steps after it."""
    identities = [ModelIdentity([b], repr(b)).resolve(library) for b in bases]
    lineage: dict[str, Any] = {"base": identities[0].ref(evidence, "base_model")}
    declared, notes = declared_terms(document, identities, library, evidence)
    tags = {t.lower() for t in strings(document, "tags")}
    library_name = (string(document, "library_name") or "").lower()
    quantizer = string(document, "quantized_by")
    steps, how = _steps(identities, relation, tags, library_name, evidence, quantizer)
    notes.append(how)
    facts: dict[str, Any] = {}
    if steps:
        lineage["steps"] = steps
    else:
        why = (
            "the card names its base model but not how this model was made from it "
            "(no base_model_relation, no training or quantization tag): state it"
        )
        facts = {
            "modified": {"value": "unknown", "note": why},
            "model_made_available": {"value": "unknown", "note": why},
        }
    if model_id:
        notes.append(
            f"this model ({model_id}) has a license of its own, which may bind a "
            "product that uses it; it is not in licheck's catalog"
        )
    return _Made(lineage, facts, declared, notes)


def _steps(
    identities: list[ModelIdentity],
    relation: str | None,
    tags: set[str],
    library_name: str,
    evidence: dict[str, Any],
    quantizer: str | None,
) -> tuple[list[dict[str, Any]], str]:
    """The lineage steps after the base that the card states: a merge of its other base models
    (or of parents it leaves out), the training step, a quantization; and how they were read."""
    steps: list[dict[str, Any]] = []
    merge_tags = sorted(tags & MERGE_TAGS)
    merged = relation == "merge" or (relation is None and bool(merge_tags))
    if len(identities) > 1:
        note = (
            "base_model_relation: merge"
            if merged
            else "the card lists several base models without base_model_relation: merge "
            "(often a parent and a grandparent); recorded as a merge so that each "
            "one's license binds: correct the steps if you know them"
        )
        steps.append(
            {
                "kind": "merge",
                "parents": [i.ref(evidence, "base_model") for i in identities[1:]],
                "note": note,
            }
        )
    elif merged:
        # a merge of one model: the card leaves its other parents out, and their licenses
        # may bind as well
        said = "base_model_relation: merge" if relation == "merge" else f"tags: {merge_tags[0]}"
        steps.append(
            {
                "kind": "merge",
                "parents": [
                    {
                        "model": "unknown",
                        "note": f"{said}, but the card lists one base model: name the other "
                        "parents if you know them",
                    }
                ],
            }
        )
    quant_tags = sorted(tags & QUANTIZATION_TAGS)
    quantized = [f"tags: {', '.join(quant_tags)}"] if quant_tags else []
    quantized += [f"quantized_by: {quantizer}"] if quantizer else []
    # a quantizer's card copies its original's tags: training tags then describe the original
    trained = sorted(tags & TRAINING_TAGS) + (["peft"] if library_name == "peft" else [])
    if relation in TRAINING:
        steps.append(_step("fine_tuning", f"base_model_relation: {relation}", evidence))
    elif relation is None and trained and not merged and not quantized:
        said = f"tags: {', '.join(dict.fromkeys(trained))}"
        steps.append(_step("fine_tuning", said, evidence))
    if relation == "quantized":
        steps.append(_step("quantization", "base_model_relation: quantized", evidence))
    elif quantized:
        steps.append(_step("quantization", "; ".join(quantized), evidence))
    if relation is not None:
        how = f"the steps follow the card's base_model_relation ({relation})"
    elif steps:
        how = "base_model_relation is not stated: the steps follow the card's tags"
    else:
        how = "base_model_relation is not stated and no tag says how the model was made"
    return steps, how + "; correct them if you know more"


def _step(kind: str, said: str, evidence: dict[str, Any]) -> dict[str, Any]:
    return {"kind": kind, "evidence": [dict(evidence)], "note": said}


def _model_name(
    card: Card, bases: list[str], model_id: str | None, evidence: dict[str, Any]
) -> dict[str, Any]:
    """`model_name` by the documented rule, with the other names the card gives noted."""
    document = card.document
    stated = string(document, "model_name")
    named = [(stated, "model_name")] if stated else []
    named += [(name, "model-index") for name, _, _ in card.index_names[:1] if name.strip()]
    base_names = {_folded(b.split("/")[-1]) for b in bases} | {_folded(b) for b in bases}
    chosen: tuple[str, str] | None = None
    if model_id:
        chosen = (model_id.split("/")[-1], "the repository's name (--model-id)")
    others = []
    for name, key in named:
        name = name.strip()
        if "/" in name or "\\" in name:
            others.append(f"the card's {key} {name!r} is a path, not a published name")
        elif _folded(name) in base_names:
            others.append(f"the card's {key} {name!r} is its base model's name (a repack)")
        elif chosen is None:
            chosen = (name, f"the card's {key}")
        elif model_key(name) != model_key(chosen[0]):
            others.append(
                f"the card's {key} calls it {name!r}: a name rule reads every name the model "
                "is made available under, so check that one too"
            )
    if chosen is None:
        if not others:
            return {}
        note = "; ".join(others) + ": pass --model-id ORG/NAME to name the model"
        return {"model_name": {"value": "unknown", "note": note}}
    note = f"{chosen[1]}" + "".join(f"; {o}" for o in others)
    return {"model_name": {"value": chosen[0], "evidence": [dict(evidence)], "note": note}}


def _folded(name: str) -> str:
    """A name as a repack's card may rewrite it: case, spaces, dashes and dots do not count."""
    return re.sub(r"[\W_]+", "", name.casefold())


def _attribution(card: Card, library: Library, evidence: dict[str, Any]) -> dict[str, Any]:
    """The attribution texts the library's clauses ask for that the card's body contains."""
    found: list[str] = []
    for text in sorted(library.operands.get("attribution_elsewhere", frozenset())):
        words = [re.escape(word) for word in text.split()]
        match = re.search(r"\s+".join(words), card.body, re.IGNORECASE)
        if match:
            found.append(_SPACE.sub(" ", match.group()))
    if not found:
        return {}
    note = (
        "the card's body shows this text (the card is the model's documentation on its "
        "Hugging Face page); whether it is displayed prominently is for you to judge"
    )
    return {
        "attribution_elsewhere": {
            "includes": list(dict.fromkeys(found)),
            "evidence": [dict(evidence)],
            "note": note,
        }
    }


def _base_licenses(bases: list[str], library: Library) -> list[str]:
    """The licenses of the catalogued models named (every dated one too)."""
    found: list[str] = []
    for base in bases:
        model = library.model(base)
        if model is not None:
            found += [model.license] if model.license else []
            found += [dated.license for dated in model.license_history]
    return list(dict.fromkeys(found))
