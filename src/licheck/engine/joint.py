"""Facts that bound each other, as one joint constraint over a rule's cells.

`vocabulary.AT_MOST` chains facts that count a part of the next (`mau ≤ licensee_own_mau ≤
licensee_mau`; a twelfth of ARR ≤ a month's revenue; one year's revenue ≤ the peak 12 months).
Cells are made per fact, so a rule reading two of them would otherwise meet combinations no
completion has (the product with more users than its licensee).  Here each combination of their
cells is kept only when some values in those cells satisfy the whole chain; keys measured at
another date (`fact@measured`) are related only to keys measured at the same date.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

from licheck.core.units import Dimension
from licheck.engine.cells import Cell
from licheck.engine.domains import Interval
from licheck.vocabulary.names import AT_MOST


def _full_chains() -> list[list[str]]:
    """Each maximal chain of AT_MOST, smallest first (mau, licensee_own_mau, licensee_mau)."""
    starts = set(AT_MOST) - set(AT_MOST.values())
    chains = []
    for start in sorted(starts):
        chain = [start]
        while chain[-1] in AT_MOST:
            chain.append(AT_MOST[chain[-1]])
        chains.append(chain)
    return chains


CHAINS = _full_chains()


def related(names: Sequence[str]) -> list[list[int]]:
    """The positions in `names` of facts a chain relates (two or more), smallest first."""
    found = []
    suffixes = sorted({name.partition("@")[1:] for name in names})
    for chain in CHAINS:
        for at, suffix in suffixes:
            keys = [fact + at + suffix for fact in chain]
            present = [names.index(key) for key in keys if key in names]
            if len(present) > 1:
                found.append(present)
    return found


# A lower bound: (value, strict) — strict (>) is above non-strict (≥) at the same value.
Bound = tuple[Fraction, bool]


def _lower(region: Interval) -> tuple[Bound, tuple[Fraction, bool] | None]:
    """The region's ends, whole for counts: (lower bound, upper (value, closed) or None)."""
    if region.dimension is Dimension.COUNT:
        low, high = region.whole_bounds()
        return (Fraction(low), False), None if high is None else (Fraction(high), True)
    upper = None if region.hi is None else (region.hi, region.hi_closed)
    return (region.lo, not region.lo_closed), upper


def chain_holds(regions: Sequence[Interval]) -> bool:
    """Whether some values, one in each region, are in ascending order (x1 ≤ x2 ≤ …)."""
    floor: Bound | None = None
    for region in regions:
        low, upper = _lower(region)
        floor = low if floor is None else max(floor, low)
        if upper is not None:
            value, strict = floor
            top, closed = upper
            if value > top or (value == top and (strict or not closed)):
                return False
    return True


def feasible(
    chains: Sequence[Sequence[int]],
    cells: Sequence[Sequence[Cell]],
    signatures: Sequence[Sequence[tuple[bool, ...]]],
    choices: Sequence[Sequence[tuple[bool, ...]]],
    digit: Sequence[Sequence[int]],
    full: int,
) -> int:
    """The combinations of digits (see `tables`) that some completion has: for each chain, a
    combination of its facts' digits is kept when some of their cells hold the chain."""
    allowed = full
    for chain in chains:
        # each fact's cells by digit: the regions whose signature is that digit
        groups = [
            [
                [c.region for c, s in zip(cells[p], signatures[p], strict=True) if s == choice]
                for choice in choices[p]
            ]
            for p in chain
        ]
        keep = 0
        for picked in itertools.product(*(range(len(g)) for g in groups)):
            options = [groups[i][k] for i, k in enumerate(picked)]
            if any(
                chain_holds([r for r in combo if isinstance(r, Interval)])
                for combo in itertools.product(*options)
            ):
                mask = full
                for p, k in zip(chain, picked, strict=True):
                    mask &= digit[p][k]
                keep |= mask
        allowed &= keep
    return allowed
