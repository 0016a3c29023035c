"""`commercial` as the product's own figures imply it (issue 24, deliverable 3).

A product that earns revenue is commercial: stated revenue above zero (`monthly_revenue`,
`annual_recurring_revenue`) or a paid offering (`paid: true`) implies `commercial: true`, as
certain as the evidence for the figure (a press report's 300M USD ARR makes it likely).  Where
`commercial` is stated it is read as stated, but `commercial: false` beside revenue above zero
in the same scope cannot both be true: a located error at `commercial` (which one is wrong only
the author knows), never one of them believed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import NamedTuple

from licheck.core.diagnostics import Diagnostic
from licheck.core.units import UnitError, exchange_rates
from licheck.engine.domains import Interval
from licheck.facts.periods import FactError
from licheck.facts.resolution import claim_domain
from licheck.files.yamlsafe import Document, Path_
from licheck.inputs.manifest import Evidence, FactSpec, Manifest
from licheck.loading.factchecks import written_at
from licheck.vocabulary.names import FACTS

COMMERCIAL, PAID = "commercial", "paid"
# The product's own revenue figures: any above zero makes it commercial.
REVENUE = ("monthly_revenue", "annual_recurring_revenue")


class Implied(NamedTuple):
    """`commercial: true` as one stated fact implies it."""

    fact: str  # the fact that implies it (a revenue figure, or `paid`)
    spec: FactSpec  # `commercial: true` with that fact's evidence (its own claims left out)
    why: str


def positive(name: str, spec: FactSpec, rates: Mapping[str, Fraction]) -> bool:
    """The stated figure is above zero (a range too: `at_least: 1M USD/month`)."""
    try:
        domain = claim_domain(FACTS[name], spec, dict(rates))
    except (FactError, UnitError):
        return False  # reported where the fact is resolved
    if not isinstance(domain, Interval) or domain.is_empty():
        return False
    return domain.lo > 0 or (domain.lo == 0 and not domain.lo_closed)


def earns(name: str, spec: FactSpec, rates: Mapping[str, Fraction]) -> bool:
    """The stated revenue is above zero: its own value (or range); else, where it states none,
    what every piece of its evidence claims, or every month of its series."""
    if any(getattr(spec, key) is not None for key in ("value", "at_least", "at_most")):
        return positive(name, spec, rates)
    claiming = [piece for piece in spec.evidence if piece.claims]
    if claiming:
        return all(_claims_it(name, piece, rates) for piece in claiming)
    months = list((spec.series or {}).values())
    return bool(months) and all(earns(name, month, rates) for month in months)


def implied_commercial(
    specs: Mapping[str, FactSpec], rates: Mapping[str, Fraction]
) -> Implied | None:
    """`commercial: true` as the first fact of `specs` that implies it does (None: none does)."""
    for name in REVENUE:
        spec = specs.get(name)
        if spec is not None and not spec.scoped_only and earns(name, spec, rates):
            shown = _shown(spec)
            why = f"derived from {name} ({shown}): a product that earns revenue is commercial"
            return Implied(name, _true(spec, why, rates, name), why)
    paid = specs.get(PAID)
    if paid is not None and paid.value is True:
        why = "derived from paid: a product offered for a fee is commercial"
        return Implied(PAID, _true(paid, why, rates, PAID), why)
    return None


def _shown(spec: FactSpec) -> str:
    if spec.value is not None:
        return str(spec.value)
    return f"at least {spec.at_least}" if spec.at_least is not None else "a range"


def _true(spec: FactSpec, why: str, rates: Mapping[str, Fraction], name: str) -> FactSpec:
    """`commercial: true` with the evidence of the fact implying it; a piece claiming a figure of
    its own counts only where that figure is above zero too, and claims nothing of `commercial`."""
    kept = [
        piece.model_copy(update=dict.fromkeys(_CLAIMS))
        for piece in spec.evidence
        if not piece.claims or _claims_it(name, piece, rates)
    ]
    return FactSpec(value=True, evidence=kept, note=why)


_CLAIMS = ("value", "at_least", "at_most", "includes", "excludes")


def _claims_it(name: str, piece: Evidence, rates: Mapping[str, Fraction]) -> bool:
    """The piece's own claim implies `commercial` too: a figure above zero, or paid."""
    if name == PAID:
        return piece.value is True
    claimed = FactSpec(value=piece.value, at_least=piece.at_least, at_most=piece.at_most)
    return positive(name, claimed, rates)


def contradictions(manifest: Manifest, document: Document) -> Iterator[Diagnostic]:
    """`commercial: false` stated in a scope (the product's, a component's) where a revenue
    figure above zero, or `paid: true`, is stated too: located at the `commercial` value."""
    rates = exchange_rates(manifest.currency_rates)[0]
    product: dict[str, Path_] = {n: ("facts", n) for n in manifest.facts}
    scopes: list[tuple[dict[str, FactSpec], dict[str, Path_]]] = [(dict(manifest.facts), product)]
    for c, component in enumerate(manifest.components):
        paths = dict(product)
        paths.update({n: ("components", c, "facts", n) for n in component.facts})
        scopes.append(({**manifest.facts, **component.facts}, paths))
    seen: set[Path_] = set()
    for specs, paths in scopes:
        stated = specs.get(COMMERCIAL)
        implied = (
            None
            if stated is None or stated.value is not False
            else implied_commercial(specs, rates)
        )
        if implied is None or paths[COMMERCIAL] in seen:
            continue
        seen.add(paths[COMMERCIAL])
        line, _ = document.locate(paths[implied.fact])
        yield document.error(
            written_at(document, (*paths[COMMERCIAL], "value")),
            f"commercial is false, but {implied.fact} (line {line}) says the "
            f"product earns revenue: {implied.why}",
            f"state commercial: true (or leave it out: licheck derives it), or correct "
            f"{implied.fact}; a product with no revenue states 0",
        )
