"""Hugging Face model card (README.md front matter) → manifest skeleton.

The front matter is split off with a regular expression and read with licheck's hardened YAML
reader (no huggingface_hub), with line numbers kept relative to the card file.  `base_model` (a Hub
id or a list) is the lineage: a Hub id resolves to a catalog model only when the catalog lists it
as an id or alias.  `base_model_relation` gives the step (`merge` records the other bases as
merged parents; several bases without it are recorded as a merge too, so each one's license
binds).  `license`, `license_name` and `license_link` are recorded in a note and never mapped to a
rule: `license: other` with `license_name: modified-mit` is used by different licensors for
different licenses (Kimi's and MiniMax's modified MIT), so the name alone identifies nothing.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from licheck import yamlsafe
from licheck.diagnostics import fail
from licheck.importers.skeleton import ModelIdentity, dump, slug, unknown_facts
from licheck.library import Library
from licheck.safeio import read_bytes

_FRONT = re.compile(r"\A\ufeff?\s*---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
STEPS = {"finetune": "fine_tuning", "adapter": "fine_tuning", "quantized": "quantization"}
RELATIONS = ("adapter", "merge", "quantized", "finetune")


def front_matter(path: Path, display: str) -> yamlsafe.Document:
    """The card's front matter as a located document (lines as in the card file)."""
    text = _read(path, display)
    match = _FRONT.match(text)
    if match is None:
        raise fail(
            display,
            1,
            1,
            "no YAML front matter: a model card starts with metadata between two '---' lines",
            "this should be the model repository's README.md",
        )
    offset = text.count("\n", 0, match.start(1))
    if not match.group(1).strip():
        raise fail(display, offset + 1, 1, "the front matter is empty")
    document = yamlsafe.parse("\n" * offset + match.group(1) + "\n", display)
    if not isinstance(document.data, dict):
        raise fail(display, offset + 1, 1, "the front matter is not a mapping of keys")
    return document


def _read(path: Path, display: str) -> str:
    """The card's text (Markdown, so not yamlsafe's YAML-only emptiness check)."""
    # no folder, FIFO or device, no endless read
    hint = "name the model card's README.md"
    raw = read_bytes(path, display, yamlsafe.MAX_FILE_BYTES, hint=hint)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise fail(display, 0, 0, "not valid UTF-8 text", "save the file as UTF-8") from None


def _string(document: yamlsafe.Document, key: str) -> str | None:
    value = document.data.get(key)
    if value is None:
        return None
    if not isinstance(value, str | int | float) or isinstance(value, bool):
        raise document_error(document, key, f"{key} should be a string")
    return str(value)


def document_error(document: yamlsafe.Document, key: str, message: str) -> Exception:
    diagnostic = document.error((key,), message)
    return fail(diagnostic.file, diagnostic.line, diagnostic.column, diagnostic.message)


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
    return list(dict.fromkeys(i.strip() for i in items))


def _license_statement(document: yamlsafe.Document) -> str:
    parts = []
    for key in ("license", "license_name", "license_link"):
        value = _string(document, key)
        if value is not None:
            parts.append(f"{key}: {value}")
    if not parts:
        return "the card states no license"
    text = "the card declares " + ", ".join(parts)
    if _string(document, "license") == "other":
        text += (
            " (license: other with a free license_name identifies no license by itself: "
            "the same name is used for different licenses)"
        )
    return text


def to_manifest(
    document: yamlsafe.Document, library: Library, display: str, model_id: str | None = None
) -> str:
    """The manifest skeleton for a model card, as YAML text."""
    bases = base_models(document)
    relation = _string(document, "base_model_relation")
    if relation is not None and relation not in RELATIONS:
        raise document_error(
            document,
            "base_model_relation",
            f"base_model_relation {relation!r} is not one of {', '.join(RELATIONS)}",
        )
    label = f"Hugging Face model card {display}"
    evidence = {"source": label, "kind": "declared"}
    statement = _license_statement(document)
    own = ModelIdentity([model_id] if model_id else [], repr(model_id or "this card's model"))
    notes = [
        statement + "; licheck takes the license of each model in the lineage from its catalog"
    ]
    lineage: dict[str, Any]
    if own.resolve(library).model is not None:
        # The card's own model is in the catalog: the product uses it, and its catalog entry
        # says which license binds; the card's base_model is recorded, not re-derived.
        lineage = {"base": own.ref(evidence, "the card's own model (--model-id)")}
        if bases:
            notes.append(
                f"the card lists base_model {', '.join(bases)}; licheck's catalog "
                f"entry for {model_id} decides the license, add a base model's own "
                "license by hand only if it binds as well"
            )
    elif bases:
        identities = [ModelIdentity([b], repr(b)).resolve(library) for b in bases]
        lineage = {"base": identities[0].ref(evidence, "base_model")}
        steps = _steps(identities, relation, evidence)
        if relation is None:
            notes.append(
                "base_model_relation is not stated (the Hub infers it); add the "
                "training steps if you know them"
            )
        if steps:
            lineage["steps"] = steps
        if model_id:
            notes.append(
                f"this model ({model_id}) has a license of its own, which may bind a "
                "product that uses it; it is not in licheck's catalog"
            )
    else:
        lineage = {
            "base": own.ref(
                evidence,
                "the card names no base_model, so its own model is the base"
                + ("" if model_id else " (pass --model-id ORG/NAME to name it)"),
            )
        }
    notes.append("delivery is not in the card: add hosted_service, api and/or weights")
    product = model_id or "unknown"
    manifest: dict[str, Any] = {"product": product, "owner": "unknown"}
    manifest["description"] = (
        "Imported from a model card, which names no product owner"
        + ("" if model_id else " and no product (pass --model-id, or fill them in)")
        + "."
    )
    manifest["facts"] = unknown_facts({}, "model card")
    manifest["components"] = [
        {
            "id": slug(model_id.split("/")[-1]) if model_id else "model",
            "name": model_id or "unknown",
            "lineage": lineage,
            "note": "; ".join(notes),
        }
    ]
    header = [
        f"Manifest skeleton imported by `licheck import hf` from {label}.",
        "It states only what the card says (as declared evidence); everything else is",
        "`unknown`. Review every note, add sources with dates, and run `licheck validate`.",
    ]
    return dump(manifest, header)


def _steps(
    identities: list[ModelIdentity], relation: str | None, evidence: dict[str, Any]
) -> list[dict[str, Any]]:
    """The lineage steps after the base that the card states: a merge of its other base models
    (or of parents it leaves out), then the training step `base_model_relation` names."""
    steps: list[dict[str, Any]] = []
    if len(identities) > 1:
        note = (
            "base_model_relation: merge"
            if relation == "merge"
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
    elif relation == "merge":
        # a merge of one model: the card leaves its other parents out, and their licenses
        # may bind as well
        steps.append(
            {
                "kind": "merge",
                "parents": [
                    {
                        "model": "unknown",
                        "note": "base_model_relation: merge, but the card lists one "
                        "base model: name the other parents if you know them",
                    }
                ],
            }
        )
    if relation in STEPS:
        steps.append(
            {
                "kind": STEPS[relation],
                "evidence": [evidence],
                "note": f"base_model_relation: {relation}",
            }
        )
    return steps
