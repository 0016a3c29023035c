"""The models a CycloneDX BOM or a Hugging Face model card names, as `licheck discover`
mentions: read as `licheck import` reads them."""

from __future__ import annotations

from pathlib import Path

from licheck.discover.modelscan import Mention
from licheck.library.compiled import Library


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
