"""Evidence policies: which kinds of evidence establish a fact, and which only make it likely
(`licheck evaluate --evidence`)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from licheck.inputs.manifest import EvidenceKind

K = EvidenceKind


class Standing(StrEnum):
    """How a piece of evidence counts toward its fact (the value is what reports show)."""

    ESTABLISHES = "establishes"  # fixes the fact's value
    SUGGESTS = "suggests"  # makes a value likely: shown, treated as unknown for the verdict
    IGNORED = "ignored"  # does not count at all


@dataclass(frozen=True, slots=True)
class EvidencePolicy:
    """Which evidence kinds establish a fact, and which only make it likely."""

    name: str
    establishing: frozenset[EvidenceKind]
    suggestive: frozenset[EvidenceKind]

    def tier(self, kind: EvidenceKind) -> Standing:
        """How evidence of `kind` counts under this policy (before its dates are looked at)."""
        if kind in self.establishing:
            return Standing.ESTABLISHES
        if kind in self.suggestive:
            return Standing.SUGGESTS
        return Standing.IGNORED


_STRONG = frozenset({K.OBSERVED, K.OFFICIAL_STATEMENT, K.LICENSOR_STATEMENT})
_WEAK = frozenset({K.PRESS_REPORT, K.COMMUNITY_INFERENCE})
POLICIES: Final = {
    "default": EvidencePolicy("default", _STRONG | {K.DECLARED}, _WEAK),
    "estimates": EvidencePolicy("estimates", _STRONG | {K.DECLARED} | _WEAK, frozenset()),
    "strict": EvidencePolicy("strict", _STRONG, _WEAK | {K.DECLARED}),
}
POLICY_HELP: Final = (
    "default: observed facts, official and licensor statements (and unsourced facts the "
    "manifest declares) establish a fact; press reports and community inference make it likely. "
    "estimates: press reports and community inference establish too. strict: only sourced "
    "observed facts and official or licensor statements. Or a comma-separated list of kinds "
    "that establish. Rumours and retracted evidence never count."
)


def policy_named(text: str) -> EvidencePolicy:
    """A preset by name, or a comma-separated list of establishing kinds."""
    if text in POLICIES:
        return POLICIES[text]
    kinds = [part.strip() for part in text.split(",") if part.strip()]
    valid = {k.value for k in EvidenceKind} - {K.RUMOUR.value}
    bad = [k for k in kinds if k not in valid]
    if bad or not kinds:
        # a rumour in the list was dropped in silence once: say why it cannot be there
        why = "rumours never establish a fact; " if K.RUMOUR.value in bad else ""
        raise ValueError(
            f"unknown evidence policy {text!r}: {why}use one of {', '.join(POLICIES)} or a "
            f"comma-separated list of {', '.join(sorted(valid))}"
        )
    chosen = frozenset(EvidenceKind(k) for k in kinds)
    return EvidencePolicy(text, chosen, (_STRONG | _WEAK | {K.DECLARED}) - chosen)
