"""Territories as set facts: ISO 3166 alpha-2 codes, with `EU` standing for the European Union.

Licenses exclude whole regions ("excluding the territory of the European Union, United Kingdom and
South Korea").  A product offered in Germany is offered in the EU, so a member state's code also
puts `EU` in the set; a product known not to be offered in the EU is not offered in any member
state, so excluding `EU` excludes every member.  Excluding one member says nothing of the others.
"""

from __future__ import annotations

import re
from typing import Final

UNION: Final = "EU"
# The 27 member states since 2020-02-01 (ISO 3166 alpha-2), and the parts of the union with
# codes of their own: the outermost regions Réunion, Guadeloupe, Martinique, French Guiana,
# Mayotte and Saint-Martin, and Åland.
EU_MEMBERS: Final = frozenset(
    {
        "AT",
        "BE",
        "BG",
        "HR",
        "CY",
        "CZ",
        "DK",
        "EE",
        "FI",
        "FR",
        "DE",
        "GR",
        "HU",
        "IE",
        "IT",
        "LV",
        "LT",
        "LU",
        "MT",
        "NL",
        "PL",
        "PT",
        "RO",
        "SK",
        "SI",
        "ES",
        "SE",
        *("RE", "GP", "MQ", "GF", "YT", "MF", "AX"),  # EU regions with their own ISO codes
    }
)
# Codes people write that ISO spells otherwise: the UK is GB, and the EU writes Greece as EL.
ALIASES: Final = {"UK": "GB", "EL": "GR"}
_CODE = re.compile(r"^[A-Z]{2}$")


class TerritoryError(ValueError):
    """A territory code that is not an ISO 3166 alpha-2 code or EU."""


def code(raw: str) -> str:
    """One code, upper-cased and de-aliased; `TerritoryError` when it is not a 2-letter code."""
    text = raw.strip().upper()
    text = ALIASES.get(text, text)
    if not _CODE.match(text):
        raise TerritoryError(
            f"{raw!r} is not a territory: use ISO 3166 alpha-2 codes such as "
            "US, DE, GB, KR, or EU for the European Union"
        )
    return text


def including(codes: frozenset[str] | list[str]) -> frozenset[str]:
    """Codes where a product is (or the licensee is): a member state brings in EU."""
    result = {code(c) for c in codes}
    if result & EU_MEMBERS:
        result.add(UNION)
    return frozenset(result)


def excluding(codes: frozenset[str] | list[str]) -> frozenset[str]:
    """Codes where it is not: excluding EU excludes every member state."""
    result = {code(c) for c in codes}
    if UNION in result:
        result |= EU_MEMBERS
    return frozenset(result)
