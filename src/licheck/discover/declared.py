"""Which of the models a code base names the product manifests declare (`licheck discover`).

A manifest declares every model of its components' lineages: bases, candidates, merged and
distilled parents, and models whose outputs it was trained on.  A mention is covered when a
manifest names the same catalog model (by id or any alias), or, for a model the catalog does not
list, the same name (case aside).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from licheck.core.diagnostics import Diagnostic, InputError, path_text
from licheck.discover.modelsources import Mention
from licheck.inputs.manifest import Manifest, entry_models
from licheck.inputs.rules import model_key
from licheck.library.compiled import Library
from licheck.loading.documents import load_manifest


@dataclass(frozen=True, slots=True)
class Found:
    """A model named by the code base, with every place that names it."""

    id: str  # as first written
    model: str | None  # the catalog id, when the catalog lists it
    model_name: str | None
    license: str | None  # the catalog's license id (None: not in the library, or not listed)
    confidence: str  # "catalog" (a Hub id the catalog lists) or "low" (uncatalogued)
    covered_by: tuple[str, ...]  # the manifests that declare it
    mentions: tuple[Mention, ...]


def declared_models(manifest: Manifest) -> set[str]:
    """Every model name the manifest's lineages give, lowercased."""
    names = set()
    for component in manifest.components:
        lineage = component.lineage
        refs = [m for entry, _ in lineage.entries() for m in entry_models(entry)]
        refs += list(lineage.trained_on_outputs_of)
        names |= {model_key(ref.model) for ref in refs}
    return names


def read_declarations(
    paths: Sequence[Path], library: Library
) -> tuple[dict[str, set[str]], list[Diagnostic]]:
    """The declarations of the manifests that can be read, and the problems of the others (a
    model listed as undeclared may be declared in one of those)."""
    declared: dict[str, set[str]] = {}
    problems: list[Diagnostic] = []
    for path in paths:
        try:
            manifest, _ = load_manifest(path, str(path))
        except InputError as exc:
            problems.extend(exc.diagnostics)
            continue
        names = declared_models(manifest)
        declared[path_text(str(path))] = {_identity(name, library) for name in names}
    return declared, problems


def _identity(name: str, library: Library) -> str:
    model = library.model(name)
    return model.id if model is not None else name  # already lowercased


def found_models(
    mentions: Sequence[Mention], declared: dict[str, set[str]], library: Library
) -> list[Found]:
    """The mentions grouped by model (catalog ones first, then by id), each with the manifests
    that declare it."""
    groups: dict[str, list[Mention]] = {}
    for mention in mentions:
        key = mention.model.id if mention.model is not None else mention.id.lower()
        groups.setdefault(key, []).append(mention)
    found = []
    for key, group in groups.items():
        model = group[0].model
        covered = tuple(sorted(file for file, names in declared.items() if key in names))
        license_id = model.license if model is not None else None
        found.append(
            Found(
                id=group[0].id,
                model=model.id if model is not None else None,
                model_name=model.name if model is not None else None,
                license=license_id if license_id in library.licenses else None,
                confidence="catalog" if model is not None else "low",
                covered_by=covered,
                mentions=tuple(group),
            )
        )
    return sorted(found, key=lambda f: (f.confidence != "catalog", f.id.lower()))
