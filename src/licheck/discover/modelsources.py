"""The models a CycloneDX BOM or a Hugging Face model card names, as `licheck discover`
mentions: read as `licheck import` reads them."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from licheck.core.diagnostics import path_text
from licheck.inputs.rules import CatalogModel
from licheck.library.compiled import Library


@dataclass(frozen=True, slots=True)
class Mention:
    """One place that names a model."""

    id: str  # as written there
    file: str
    line: int
    how: str  # "hub id", "loading call", "model key", "CycloneDX BOM", "model card base_model"
    model: CatalogModel | None  # the catalog's model, when it lists the id

    def __post_init__(self) -> None:
        object.__setattr__(self, "file", path_text(self.file))  # a name that is not UTF-8


def bom_models(file: Path, text: str, library: Library) -> list[Mention]:
    """Each ML model (and pedigree ancestor) of a CycloneDX JSON BOM: by its Hub id, purl or
    `licheck:model` property, else by its plain name (a model is never dropped for lacking an
    id); located at the first line naming it."""
    from licheck.importers.cyclonedx import model_identities, read

    lines = text.splitlines()
    found = []
    for identity in model_identities(read(file, str(file))):
        how = "CycloneDX BOM"
        if identity.names:
            name = identity.names[0]
        else:  # no Hub id, purl or group: its name as the BOM writes it
            name, how = identity.shown.strip("'\""), "CycloneDX BOM, no Hub id"
        number = next((n for n, line in enumerate(lines, 1) if name in line), 1)
        model = identity.resolve(library).model
        found.append(Mention(name, str(file), number, how, model))
    return found


def card_bases(file: Path, library: Library) -> list[Mention]:
    """A model card's `base_model` ids, located at the key."""
    from licheck.importers.hf import base_models, front_matter

    document = front_matter(file, str(file))
    if "base_model" not in document.data:
        return []
    line, _ = document.locate(("base_model",))
    return [
        Mention(base, str(file), line, "model card base_model", library.model(base))
        for base in base_models(document)
    ]
