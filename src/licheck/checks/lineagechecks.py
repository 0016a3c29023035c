"""A lineage that names one catalog model twice: by an id and an alias among one entry's
candidates, or again as a merge parent of a lineage that already has it.  Its findings would be
given twice, alike, counted twice and matched twice by waivers and baselines."""

from __future__ import annotations

from collections.abc import Iterator

from licheck.core.diagnostics import Diagnostic
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import CandidateBases, Manifest
from licheck.library.compiled import Library


def models_named_twice(
    manifest: Manifest, document: Document, library: Library
) -> list[Diagnostic]:
    """Each repetition, located at the second naming."""
    return [
        *_candidates_alike(manifest, document, library),
        *_entries_alike(manifest, document, library),
    ]


def _candidates_alike(
    manifest: Manifest, document: Document, library: Library
) -> Iterator[Diagnostic]:
    """Candidates naming one catalog model twice (an id and an alias of it): none may repeat."""
    for c, component in enumerate(manifest.components):
        for entry, path in component.lineage.entries():
            if not isinstance(entry, CandidateBases):
                continue
            seen: set[str] = set()
            for i, ref in enumerate(entry.candidates):
                model = library.model(ref.model)
                if model is not None and model.id in seen:
                    yield document.error(
                        ("components", c, "lineage", *path, "candidates", i),
                        f"candidate {ref.model!r} is {model.id} again (an alias of it)",
                        "name each candidate model once",
                    )
                elif model is not None:
                    seen.add(model.id)


def _entries_alike(
    manifest: Manifest, document: Document, library: Library
) -> Iterator[Diagnostic]:
    """A catalog model named twice in one lineage (the base again as a merge parent, by its id
    or an alias): its findings would be given twice, alike, counted twice and matched twice by
    waivers and baselines.  A merge's parents are the *other* models merged in."""
    for c, component in enumerate(manifest.components):
        seen: dict[str, str] = {}
        for entry, path in component.lineage.entries():
            if isinstance(entry, CandidateBases):
                continue
            model = library.model(entry.model)
            if model is None:
                continue
            where = (
                "as its base" if path == ("base",) else f"as a parent of step {int(path[1]) + 1}"
            )
            if model.id in seen:
                named = model.id if entry.model == model.id else f"{entry.model!r} ({model.id})"
                yield document.error(
                    ("components", c, "lineage", *path),
                    f"{named} is already in this lineage, {seen[model.id]}",
                    "name each model of a lineage once: a merge lists the other models merged "
                    "in, not one the lineage already has",
                )
            else:
                seen[model.id] = where
