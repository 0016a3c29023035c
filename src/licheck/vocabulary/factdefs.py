"""What a fact is: its type, unit, meaning and closed vocabulary (the vocabulary's own types).

`vocabulary.names` holds the table of facts made of these types; `suggest` is the did-you-mean
that names a known fact, unit or member for a misspelt one (every layer that reads names uses
it, without the table).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from licheck.core.units import Dimension


class FactType(StrEnum):
    """The kind of value a fact holds, which decides the comparisons it supports."""

    QUANTITY = "quantity"  # a count or a money rate; compared with thresholds
    BOOLEAN = "boolean"
    STRING = "string"  # compared for equality, membership in a list, or a prefix
    SET = "set"  # a set of strings; tested for what it contains


@dataclass(frozen=True, slots=True)
class FactDef:
    """One fact name: its type, unit and meaning."""

    name: str
    type: FactType
    meaning: str
    dimension: Dimension | None = None
    period_months: int = 1  # the natural period of a money fact, used when a value states none
    implicit: bool = False  # supplied by the engine from the manifest's structure
    # A set fact's closed vocabulary: any other member is refused (a misspelt tag would never
    # match a rule, silently).  `prefixes` admits open families such as `policy:LICENSE-ID`.
    members: frozenset[str] | None = None
    prefixes: tuple[str, ...] = ()
    # A set fact whose members are ids of the library: "license" (a license id) or "clause"
    # (license-id/clause-id).  A misspelt id would match no clause, silently: it is refused.
    library_ids: Literal["license", "clause"] | None = None

    def unknown_member(self, item: str) -> str:
        """Why `item` is not in this fact's closed vocabulary, with a did-you-mean; '' if it is."""
        if self.members is None or item in self.members or item.startswith(self.prefixes):
            return ""
        choices = sorted(self.members)
        families = "".join(f", or {p}..." for p in self.prefixes)
        return (
            f"{self.name}: {item!r} is not one of {', '.join(choices)}{families}"
            f"{suggest(item, choices)}"
        )

    @property
    def unit(self) -> str:
        if self.dimension is Dimension.COUNT:
            return "count (K/M/B suffixes)"
        if self.dimension is Dimension.MONEY:
            period = "year" if self.period_months == 12 else "month"
            return f"money per {period} (normalised to USD/month)"
        return {
            FactType.BOOLEAN: "true / false",
            FactType.STRING: "string",
            FactType.SET: "list of strings",
        }.get(self.type, "")


SPELT_ALIKE = 0.6  # difflib's ratio a name must reach to be offered at all


def suggest(name: str, choices: Iterable[str]) -> str:
    """A ' (did you mean X?)' hint for a misspelt name, or ''."""
    import difflib  # only when a name is misspelt: not on a run's path

    others = sorted(c for c in choices if c != name)  # never "did you mean" the name itself
    close = difflib.get_close_matches(name, others, n=1, cutoff=SPELT_ALIKE)
    return f" (did you mean {close[0]!r}?)" if close else ""


def suggest_id(name: str, choices: Iterable[str]) -> str:
    """`suggest` for ids of the form vendor-name-version (license ids): most of an id is
    common words (`-license-v1`), so a suggestion is offered only where the first part (whose
    license it is) is alike too, or the whole is nearly the same: `acme-open-license-v1` is no
    misspelt `deepseek-license-v1.0`."""
    import difflib  # only when a name is misspelt: not on a run's path

    found = suggest(name, choices)
    if not found:
        return ""
    close = found.split("'")[1]
    head, close_head = (re.split(r"[-_.\s]+", n.lower(), maxsplit=1)[0] for n in (name, close))
    alike = difflib.SequenceMatcher(None, head, close_head).ratio() >= SPELT_ALIKE
    nearly = difflib.SequenceMatcher(None, name.lower(), close.lower()).ratio() >= _NEARLY_SAME
    return found if alike or nearly else ""


_NEARLY_SAME = 0.85  # a whole id this alike is a typo even where its first part differs
