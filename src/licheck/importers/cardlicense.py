"""A model card's own license: what it declares, and how that meets its bases' licenses.

The card's `license` (one Hub license id or a list), `license_name` and `license_link` become
three things in the manifest, each with the card as its evidence:

- `declared_license` on the component: the licenses the card offers its model under, as the
  Hub ids it writes (`apache-2.0`, `mit`, `llama3.1`, `gemma`, ...), lower-cased.  `license:
  other` counts its `license_name` only where that names a license licheck knows (a Hub id of
  the library's, or a library license id); any other name leaves the set known in part
  (`includes: [other, NAME]`), so a clause that asks for its base's license is a governance
  risk, never satisfied on a name licheck cannot read.  A card without `license` declares none
  (`[]`).  The clause that reads it is each base license's `relicensed-derivative` (Llama 2 to
  4, Gemma): a derivative relicensed under terms that license does not permit.
- `added_terms_conflict` on the product, where the card offers the model under an open grant
  alone and a base's license forbids added terms that conflict with it (Gemma, DBRX, FLUX.1
  [dev]).
- notes: the keys as written, and a Hub id that names another license of the library's than a
  base's (`llama3.1` on a Llama 3.3 model).
"""

from __future__ import annotations

import re
from typing import Any

from licheck.files import yamlsafe
from licheck.importers.hfcard import Card, string, strings
from licheck.importers.skeleton import ModelIdentity
from licheck.library.compiled import Library

# Hub license ids that grant use for any purpose (or any non-commercial one) with none of a
# model license's use restrictions: offered alone for a derivative of a model whose license
# forbids added terms that conflict with it (Gemma, DBRX, FLUX.1 [dev]), they are such terms.
OPEN_GRANTS = frozenset(
    {
        "apache-2.0",
        "mit",
        "bsd-2-clause",
        "bsd-3-clause",
        "cc0-1.0",
        "cc-by-4.0",
        "cc-by-sa-4.0",
        "cc-by-nc-4.0",
        "cc-by-nc-sa-4.0",
        "gpl-3.0",
        "agpl-3.0",
        "lgpl-3.0",
        "mpl-2.0",
        "unlicense",
    }
)
# Hub license ids that name a license of the library's (where the id identifies it).
HUB_LICENSES = {
    "llama2": "llama-2-community",
    "llama3": "llama-3-community",
    "llama3.1": "llama-3.1-community",
    "llama3.2": "llama-3.2-community",
    "llama3.3": "llama-3.3-community",
    "llama4": "llama-4-community",
    "gemma": "gemma-terms-of-use",
}

_PARENTHESIS = re.compile(r"\s*\([^)]*\)")


def license_statement(document: yamlsafe.Document) -> str:
    """The card's license keys as the component's note words them."""
    licenses = strings(document, "license")
    parts = []
    if licenses:
        parts.append(f"license: {', '.join(licenses)}")
    for key in ("license_name", "license_link"):
        value = string(document, key)
        if value is not None:
            parts.append(f"{key}: {value}")
    if not parts:
        return "the card states no license"
    text = "the card declares " + ", ".join(parts)
    if len(licenses) > 1:
        text += " (several licenses: which one covers which part, the card does not say)"
    if "other" in licenses:
        text += (
            " (license: other with a free license_name identifies no license by itself: "
            "the same name is used for different licenses)"
        )
    return text


def declared_terms(
    document: yamlsafe.Document,
    identities: list[ModelIdentity],
    library: Library,
    evidence: dict[str, Any],
) -> tuple[dict[str, Any], list[str]]:
    """What the card's own license says against its bases' licenses: `added_terms_conflict`
    where it offers the model under an open grant alone and a base's license forbids added
    terms that conflict with it (that clause's own quote decides), and notes where it names
    another license than a base's."""
    declared = [name.lower() for name in strings(document, "license")]
    readers = library.operands.get("added_terms_conflict", frozenset())
    relicensing = library.operands.get("declared_license", frozenset())
    conflicts: list[str] = []
    notes: list[str] = []
    for identity in identities:
        model = identity.model
        if model is None:
            continue
        licenses = [model.license] if model.license else []
        licenses += [dated.license for dated in model.license_history]
        licenses = list(dict.fromkeys(licenses))
        named = {HUB_LICENSES[d] for d in declared if d in HUB_LICENSES}
        if (
            named
            and not named & set(licenses)
            and not any(lic.startswith(n) for n in named for lic in licenses)
        ):
            notes.append(
                f"the card declares license {', '.join(declared)}, but {model.name}'s license "
                f"is {', '.join(licenses) or 'not in the library'}: licheck evaluates the base's"
            )
        grants = [d for d in declared if d in OPEN_GRANTS]
        if not grants or named:
            continue
        bound = [lic for lic in licenses if lic in readers]
        conflicts += bound
        judged = [lic for lic in licenses if lic in relicensing]
        if judged:
            notes.append(
                f"the card offers the model under {', '.join(grants)}, not under "
                f"{model.name}'s {', '.join(licenses)}: its relicensed-derivative clause "
                "judges the card's declared_license"
            )
        elif not bound and licenses and set(licenses).isdisjoint(OPEN_GRANTS):
            notes.append(
                f"the card offers the model under {', '.join(grants)}, not under "
                f"{model.name}'s {', '.join(licenses)}, which has no clause on the terms a "
                "derivative is offered under: its own duties still bind"
            )
    if not conflicts:
        return {}, notes
    note = (
        f"the card offers the model under {', '.join(declared)} alone: a grant with none of "
        "the use restrictions of the base's license, so terms that conflict with it; if the "
        "model is also offered subject to that license, correct this"
    )
    fact = {"includes": list(dict.fromkeys(conflicts)), "evidence": [dict(evidence)], "note": note}
    return {"added_terms_conflict": fact}, notes


def declared_license(
    card: Card, base_licenses: list[str], library: Library, evidence: dict[str, Any]
) -> dict[str, Any]:
    """The component's `declared_license`, as the card states it (see the module's words)."""
    document = card.document
    declared = list(dict.fromkeys(name.lower() for name in strings(document, "license")))
    if not declared:
        note = "the card states no license: it declares none of its own"
        return {"value": [], "evidence": [dict(evidence)], "note": note}
    note = f"the card's license: {', '.join(declared)}"
    if "other" in declared:
        name = (string(document, "license_name") or "").strip().lower()
        if not (name in HUB_LICENSES or name in library.licenses):
            return _in_part(declared, name, note, evidence)
        note += f", license_name: {name} (a license licheck knows)"
        declared = list(dict.fromkeys([d for d in declared if d != "other"] + [name]))
    named = _named_in_body(card.body, base_licenses, declared, library)
    if named:
        note += (
            f"; its text also names the {', '.join(named)}, which its metadata does not "
            "declare: which terms the model is offered under, the card does not say plainly"
        )
        return {"includes": declared, "evidence": [dict(evidence)], "note": note}
    return {"value": declared, "evidence": [dict(evidence)], "note": note}


def _in_part(declared: list[str], name: str, note: str, evidence: dict[str, Any]) -> dict[str, Any]:
    """`license: other` with a name licheck cannot read: what the card declares is known in
    part, so a clause asking for its base's license is a governance risk, never satisfied."""
    note += (f", license_name: {name}" if name else ", and no license_name") + (
        ": `other` names no license licheck can read, so what the card declares is known "
        "only in part; name the license (a Hub id such as llama3.1, or a library license id)"
    )
    named = [name] if name else []
    return {"includes": declared + named, "evidence": [dict(evidence)], "note": note}


def _named_in_body(
    body: str, base_licenses: list[str], declared: list[str], library: Library
) -> list[str]:
    """The base licenses the card's text names ("governed by the Llama 3.3 Community License")
    that its `license:` leaves out: the card may offer the model under them too."""
    named = []
    for license_id in base_licenses:
        if license_id in declared or license_id not in library.licenses:
            continue
        if any(HUB_LICENSES.get(d) and license_id.startswith(HUB_LICENSES[d]) for d in declared):
            continue
        title = library.licenses[license_id].license.name
        short = _PARENTHESIS.sub("", title).removesuffix(" Agreement").removeprefix("Meta ")
        # its name ("Llama 3.3 Community License"), or its version's with "license"
        # ("Llama 3.1 license", "llama3.1 license", as DeepSeek's distills word it)
        names = [short, short.removesuffix(" Community License") + " license"]
        names += [f"{hub} license" for hub, known in HUB_LICENSES.items() if known == license_id]
        if any(_mentions(name, body) for name in names):
            named.append(short)
    return list(dict.fromkeys(named))


def _mentions(name: str, body: str) -> bool:
    """Whether the text names `name`, in any case and spacing, as whole words."""
    words = r"\s+".join(re.escape(word) for word in name.split())
    return re.search(rf"(?<!\w){words}(?!\w)", body, re.IGNORECASE) is not None
