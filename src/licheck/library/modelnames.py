"""Did-you-mean for model names, made safe: a suggestion never passes for the model meant.

Models with near names are often under different licenses (Qwen2.5-7B is Apache-2.0, Qwen2.5-72B
is not; Kimi K2 and Kimi K2.5 have different display duties), so a misspelt model is never
resolved to another one.  The suggestions name each candidate's license, say so when candidates
differ in license, and prefer names that are the same once normalised (case, an organisation
prefix such as `moonshotai/`, a variant suffix such as `-Instruct`) over names merely spelt alike.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from licheck.inputs.rules import CatalogModel, model_key
from licheck.vocabulary.factdefs import (
    SPELT_ALIKE,  # one threshold for every did-you-mean
)

LIMIT = 3  # candidates shown at most
VARIANT_SUFFIXES = ("-instruct", "-base", "-chat", "-it")
# How a candidate is near the name asked for, in the words the message uses.
PREFIX = "the same name with another organisation prefix or none: check that it is this model"
VARIANT = "the name without its variant suffix: check that the variant you use is this model"
SPELLING = "spelt alike but may be another model: name the exact model"
MIXED_LICENSES = "these are under different licenses: pick the exact model, do not pick the nearest"


@dataclass(frozen=True, slots=True)
class Candidate:
    """A catalog name offered for an unknown one, and how close it is."""

    name: str  # the catalog id or alias to write
    model: CatalogModel
    why: str  # how it is near: PREFIX, VARIANT or SPELLING

    @property
    def licenses(self) -> str:
        return license_words(self.model)

    def __str__(self) -> str:
        model = "" if self.name == self.model.id else f"model {self.model.id}, "
        return f"{self.name!r} ({model}{self.licenses})"


def license_words(model: CatalogModel) -> str:
    """The model's license(s) in words, always with the license ids (and the models it is built
    on whose licenses bind it too: `upstream`)."""
    also = (
        f"; and those of {', '.join(model.upstream)}, which it is built on"
        if model.upstream
        else ""
    )
    if model.license_history:
        spans = ", ".join(f"{d.license} ({_span(d.from_, d.until)})" for d in model.license_history)
        return f"licenses by the date a copy was obtained: {spans}{also}"
    if model.license:
        likely = "" if model.license_claim.established else " (secondary sources only: likely)"
        return f"license {model.license}{likely}{also}"
    return "license unknown: not in the library"


def _span(start: object, end: object) -> str:
    if start and end:
        return f"copies obtained {start} to {end}"
    if start:
        return f"copies obtained on or after {start}"
    return f"copies obtained on or before {end}" if end else "any date"


def bare(name: str) -> str:
    """The name without an organisation prefix (`moonshotai/Kimi-K2.5` → `kimi-k2.5`)."""
    return model_key(name).rpartition("/")[2]


def stem(name: str) -> str:
    """The bare name without a trailing variant suffix (`kimi-k2.5-instruct` → `kimi-k2.5`)."""
    word = bare(name)
    for suffix in VARIANT_SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix):
            return word[: -len(suffix)]
    return word


def candidates(name: str, models: Iterable[CatalogModel], limit: int = LIMIT) -> list[Candidate]:
    """Catalog names for an unknown `name`, best first, one per model: names equal without an
    organisation prefix, then without a variant suffix; only when there are none, names spelt
    alike."""
    names = [(n, m) for m in models for n in (m.id, *m.aliases)]
    for normal, why in ((bare, PREFIX), (stem, VARIANT)):
        wanted = normal(name)
        found = [Candidate(n, m, why) for n, m in names if normal(n) == wanted]
        if found:
            return _one_per_model(found)[:limit]
    if extends(bare(name), [bare(n) for n, _ in names]):
        # A listed model's name extended (a later checkpoint, a variant) is no misspelling: its
        # license may differ, so no nearest id is offered (audit m30).
        return []
    import difflib  # only when a name is misspelt: not on a run's path

    by_bare: dict[str, list[tuple[str, CatalogModel]]] = {}
    for n, m in names:
        by_bare.setdefault(bare(n), []).append((n, m))
    close = difflib.get_close_matches(bare(name), list(by_bare), n=limit * 2, cutoff=SPELT_ALIKE)
    found = [Candidate(n, m, SPELLING) for word in close for n, m in by_bare[word]]
    return _one_per_model(found)[:limit]


def _one_per_model(found: Sequence[Candidate]) -> list[Candidate]:
    seen: set[str] = set()
    kept = []
    for candidate in found:
        if candidate.model.id not in seen:
            seen.add(candidate.model.id)
            kept.append(candidate)
    return kept


def extends(name: str, known: Iterable[str]) -> bool:
    """Whether `name` is the longest `known` name it starts with plus a version or variant
    suffix ("-0324", ".1", "-coder"), not a letter run on ("glm-4.7x", a likely slip of the
    keyboard, though it also starts with "glm-4")."""
    prefix = max(
        (k for k in known if name.startswith(k) and len(name) > len(k)), key=len, default=""
    )
    return bool(prefix) and not name[len(prefix)].isalpha()


def hint(name: str, models: Iterable[CatalogModel]) -> str:
    """' (did you mean …?)' for an unknown model name, each candidate with its license, or ''."""
    return describe(candidates(name, models))


def describe(found: Sequence[Candidate]) -> str:
    """The suggestion for `found` (see `hint`)."""
    if not found:
        return ""
    why = found[0].why  # the same for all: they come from one tier
    if len(found) == 1:
        return f" (did you mean {found[0]}? {why})"
    if why is SPELLING:
        why = "each spelt alike, but each may be another model"
    listed = ", ".join(str(c) for c in found)
    mixed = len({c.licenses for c in found}) > 1
    return f" (did you mean one of {listed}? {why}" + (f"; {MIXED_LICENSES})" if mixed else ")")
