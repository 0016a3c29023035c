"""The exact three-valued verdict of one clause over every completion of the facts.

A *completion* fills in each unknown fact and narrows each range.  Conditions only compare facts
with thresholds and constants, so the completions fall into finitely many *cells* per fact (for a
quantity: each threshold and each open interval between them; for a string or set: each pattern of
the tests on it), and enumerating one representative per cell is exact.  The verdict is then:

- not applicable: the trigger is false in every completion;
- satisfied: in every completion the clause is not triggered, lifted by an exception, or its
  requirement holds, and it is triggered in at least one;
- violation: in every completion it is triggered, not lifted, and its requirement fails;
- governance risk: anything else.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from licheck.core.units import Dimension
from licheck.core.verdicts import Outcome, Settlement, Verdict, verdict_of
from licheck.engine.cells import Cell, Rule
from licheck.engine.conditions import Test, Value, strings_read
from licheck.engine.domains import Booleans, Domain, Interval, Strings, StringSet
from licheck.engine.tables import Compiled, Signature, Table, tabulate
from licheck.text import nearmatch
from licheck.vocabulary.names import period_of

# Settlements are advice: past this many combinations of one size the search stops (a clause
# whose open facts make that many is rare; the reach's relations once made millions).
MAX_SETTLEMENT_TRIES = 100_000
MAX_SET_MEMBERS = 12  # 2**12 cells for one set fact is already far beyond any real clause


def cells(domain: Domain, tests: Sequence[Test]) -> list[Cell]:
    """The cells of `domain` cut by `tests` (all on the same fact), in ascending order."""
    match domain:
        case Interval():
            return _quantity_cells(domain, tests)
        case Booleans():
            return [
                Cell(v, Booleans(frozenset({v})), "true" if v else "false")
                for v in sorted(domain.values)
            ]
        case Strings():
            return _string_cells(domain, tests)
        case StringSet():
            return _set_cells(domain, tests)
    raise AssertionError(domain)  # pragma: no cover


def _quantity_cells(domain: Interval, tests: Sequence[Test]) -> list[Cell]:
    # a money fact of another period (ARR: a year) is labelled in it; others on demand
    months = period_of(tests[0].fact) if tests and domain.dimension is Dimension.MONEY else 1
    thresholds = sorted({t.operand for t in tests if isinstance(t.operand, Fraction)})
    pieces: list[Interval] = []
    below = Fraction(-1)
    for threshold in thresholds:
        pieces.append(Interval(below, below == Fraction(-1), threshold, False, domain.dimension))
        pieces.append(Interval.point(threshold, domain.dimension))
        below = threshold
    pieces.append(Interval(below, below == Fraction(-1), None, False, domain.dimension))
    result = []
    for piece in pieces:
        region = piece.intersect(domain)
        if region.is_empty():
            continue
        if domain.dimension is Dimension.COUNT:
            # A count is a whole number: a cell without one (between 100M and 100000001) is no
            # completion at all.
            whole = region.whole_sample()
            if whole is not None:
                result.append(Cell(whole, region))
        elif months != 1:
            result.append(Cell(region.sample(), region, region.shown(months)))
        else:
            result.append(Cell(region.sample(), region))
    return result


def _string_cells(domain: Strings, tests: Sequence[Test]) -> list[Cell]:
    if domain.value is not None:
        return _known_string_cells(domain.value, domain, tests)
    constants: set[str] = set()
    prefixes: set[str] = set()
    for test in tests:
        if test.operator == "starts_with":
            prefixes.add(str(test.operand))
        elif isinstance(test.operand, frozenset):
            constants |= test.operand
        else:
            constants.add(str(test.operand))
    # Every pattern of equality and prefix tests is met by a constant, a prefix followed by a
    # character no constant holds, or a string unlike any of them.
    candidates = [*sorted(constants | prefixes | {p + "\x00" for p in prefixes}), "\x00"]
    return _distinct(candidates, tests, lambda v: Strings(str(v)))


def _known_string_cells(value: str, domain: Strings, tests: Sequence[Test]) -> list[Cell]:
    """A known string, and where it near-matches a name a test asks for (up to case, white space
    or typography), also the reading in which it counts as that name: a person must judge."""
    readings: dict[str, str] = {}
    for test in tests:
        if test.operator == "starts_with":
            prefix = str(test.operand)
            if nearmatch.near_prefix(value, prefix):
                words = nearmatch.difference(value, prefix)
                readings.setdefault(prefix + value, f"read as starting with {prefix!r} ({words})")
            continue
        for name in sorted(strings_read((test,))):
            if nearmatch.near(value, name):
                words = nearmatch.difference(value, name)
                readings.setdefault(name, f"read as {name!r} ({words})")
    if not readings:
        return [Cell(value, domain)]
    written = Cell(value, domain, f"{value!r} as written")
    return [
        written,
        *(
            Cell(v, domain, f"{value!r} {words}", f"{value!r} {words}")
            for v, words in readings.items()
        ),
    ]


def _known_set_cells(domain: StringSet, tests: Sequence[Test]) -> list[Cell]:
    """A known set, and where a member near-matches a name a test asks for, also the readings in
    which it counts as that name."""
    mentioned = strings_read(tests)
    near = {
        name: member
        for name in sorted(mentioned - domain.includes)
        for member in sorted(domain.includes)
        if nearmatch.near(member, name)
    }
    if not near:
        return [Cell(domain.includes, domain)]
    result = [Cell(domain.includes, domain, f"{_members(domain.includes)} as written")]
    for size in range(1, len(near) + 1):
        for chosen in itertools.combinations(sorted(near), size):
            words = "; ".join(
                f"{near[n]!r} read as {n!r} ({nearmatch.difference(near[n], n)})" for n in chosen
            )
            result.append(Cell(domain.includes | frozenset(chosen), domain, words, words))
    return result


def _members(values: frozenset[str]) -> str:
    return "[" + ", ".join(sorted(values)) + "]"


def _set_cells(domain: StringSet, tests: Sequence[Test]) -> list[Cell]:
    if domain.exact:
        return _known_set_cells(domain, tests)
    near = _near_excluded(domain, tests)
    if not near:
        return _open_set_cells(domain, tests)
    # A member shown may be the very name the manifest excludes (`KIMI K2.5` beside excludes
    # `Kimi K2.5`): the exclusion is of the string as written, and whether the near-match counts
    # as the name is for a person to judge, so both readings are completions.
    result = [
        Cell(c.value, c.region, f"{c.label}, as written") for c in _open_set_cells(domain, tests)
    ]
    for size in range(1, len(near) + 1):
        for chosen in itertools.combinations(sorted(near), size):
            words = "; ".join(
                f"{near[n]!r} read as {n!r} ({nearmatch.difference(near[n], n)})" for n in chosen
            )
            read = StringSet(
                domain.includes | frozenset(chosen), domain.excludes - frozenset(chosen), False
            )
            result += [
                Cell(c.value, c.region, f"{c.label}, {words}", words)
                for c in _open_set_cells(read, tests)
            ]
    return result


def _near_excluded(domain: StringSet, tests: Sequence[Test]) -> dict[str, str]:
    """The names a test asks for, excluded or not known to be included, that an included member
    matches only up to case, white space or typography: name -> that member.  (`includes: [KIMI
    K2.5]` leaves open whether `Kimi K2.5` is shown too; read as the name, it is.)"""
    return {
        name: member
        for name in sorted(strings_read(tests) - domain.includes)
        for member in sorted(domain.includes)
        if nearmatch.near(member, name)
    }


def _open_set_cells(domain: StringSet, tests: Sequence[Test]) -> list[Cell]:
    """The cells of a set known in part: every pattern of the members it leaves open."""
    reads = [strings_read((test,)) for test in tests]
    mentioned = strings_read(tests)
    free = sorted(mentioned - domain.includes - domain.excludes)
    if len(free) > MAX_SET_MEMBERS:
        raise ValueError(
            f"a clause tests {len(free)} members of one set fact; the limit is {MAX_SET_MEMBERS}"
        )
    # Members that the same tests name are interchangeable: whether a set holds one or several of
    # them, every test answers alike.  So only combinations of each such class's first member are
    # tried: in this order (by size, then as listed), a pattern's first combination is always one
    # of them (any other with that pattern is larger, or names a later member of some class), so
    # the cells and their order are those of trying every combination, at 2**classes, not
    # 2**members, candidates.
    firsts: dict[tuple[bool, ...], str] = {}
    for member in free:
        profile = tuple(member in read for read in reads)
        firsts.setdefault(profile, member)
    representatives = sorted(firsts.values())
    candidates = [
        domain.includes | frozenset(chosen)
        for size in range(len(representatives) + 1)
        for chosen in itertools.combinations(representatives, size)
    ]

    def region(value: Value) -> Domain:
        assert isinstance(value, frozenset)
        return StringSet(
            value & mentioned | domain.includes, mentioned - value | domain.excludes, False
        )

    return _distinct(candidates, tests, region)


def _distinct(
    candidates: Sequence[Value], tests: Sequence[Test], region: Callable[[Value], Domain]
) -> list[Cell]:
    """One cell per pattern of test results, labelled by that pattern."""
    unique = list({str(t): t for t in tests}.values())
    seen: set[tuple[bool, ...]] = set()
    result = []
    for value in candidates:
        signature = tuple(t.holds(value) for t in unique)
        if signature not in seen:
            seen.add(signature)
            label = " and ".join(
                _phrase(t, holds) for t, holds in zip(unique, signature, strict=True)
            )
            result.append(Cell(value, region(value), label))
    return result


def _phrase(test: Test, holds: bool) -> str:
    """A test's result in words: "contains any of 'a', 'b'" / "contains none of 'a', 'b'"."""
    operand = test.operand
    shown = (
        ", ".join(repr(s) for s in sorted(operand))
        if isinstance(operand, frozenset)
        else repr(operand)
    )
    positive, negative = _PHRASES[test.operator]
    return (positive if holds else negative).format(shown)


_PHRASES = {
    "contains": ("contains {}", "does not contain {}"),
    "contains_any": ("contains any of {}", "contains none of {}"),
    "equals": ("is {}", "is not {}"),
    "in": ("is one of {}", "is none of {}"),
    "starts_with": ("starts with {}", "does not start with {}"),
}


@dataclass(frozen=True, slots=True)
class Judgement:
    verdict: Verdict
    outcomes: frozenset[Outcome]
    in_scope: frozenset[bool]  # whether the license binds, over the completions
    triggered: frozenset[bool]  # the clause's own trigger, over the completions in scope
    open_facts: tuple[str, ...]  # facts with more than one cell that the outcome depends on


def fact_cells(rule: Rule, domains: Mapping[str, Domain]) -> dict[str, list[Cell]]:
    """The cells of every fact the rule tests (keyed as `Rule.facts` names them)."""
    by_fact: dict[str, list[Test]] = {}
    for test in rule.tests():
        by_fact.setdefault(test.key, []).append(test)
    return {fact: cells(domains[fact], tests) for fact, tests in sorted(by_fact.items())}


def judge(rule: Rule, domains: Mapping[str, Domain]) -> Judgement:
    """The exact verdict of `rule` given what is known of each fact."""
    return judge_cells(rule, fact_cells(rule, domains))


def judge_cells(
    rule: Rule | Compiled, by_fact: Mapping[str, Sequence[Cell]], table: Table | None = None
) -> Judgement:
    """The verdict over every combination of cells (the completions).  `table`: the rule over
    these same cells, where the caller has it (`tabulate`), so that `branches` and
    `settlements` need not make it again."""
    details = _details(table or tabulate(rule, by_fact))
    return Judgement(verdict_of(set(details[0])), *details)


def _details(
    table: Table,
) -> tuple[frozenset[Outcome], frozenset[bool], frozenset[bool], tuple[str, ...]]:
    """Every outcome, scope and trigger value, and which open facts the outcome depends on."""
    scope = {
        value for value, where in ((True, table.scope), (False, table.full ^ table.scope)) if where
    }
    triggered = {
        value
        for value, where in (
            (True, table.scope & table.trigger),
            (False, table.scope & ~table.trigger),
        )
        if where
    }
    # Cells with the same signature never end differently: a fact with one digit is not open.
    open_facts = tuple(
        name
        for p, name in enumerate(table.names)
        if len(table.choices[p]) > 1 and table.depends_on(p)
    )
    return frozenset(table.outcomes), frozenset(scope), frozenset(triggered), open_facts


@dataclass(frozen=True, slots=True)
class Branch:
    """What the verdict becomes when one open fact is supplied as `when` says."""

    when: str
    verdict: Verdict
    region: Domain | None = None  # for a quantity: the interval
    near: str | None = None  # the near-match this branch reads as the name (`Cell.near`)


def branches(
    rule: Rule | Compiled,
    by_fact: Mapping[str, Sequence[Cell]],
    fact: str,
    table: Table | None = None,
) -> list[Branch]:
    """For one open fact: the verdict for each of its cells, the other facts still open.

    Neighbouring quantity cells with the same verdict merge into one interval, unless every cell
    gives the same verdict (the fact settles nothing alone): then the thresholds stay visible."""
    table = table or tabulate(rule, by_fact)
    choices = list(table.choices)
    position = table.names.index(fact)
    result: list[Branch] = []
    for cell, signature in zip(by_fact[fact], table.signatures[position], strict=True):
        choices[position] = [signature]
        verdict = verdict_of(table.over(choices))
        result.append(
            Branch(
                cell.label,
                verdict,
                cell.region if isinstance(cell.region, Interval) else None,
                cell.near,
            )
        )
    if len({b.verdict for b in result}) == 1:
        return result
    merged: list[Branch] = []
    for branch in result:
        previous = merged[-1] if merged else None
        if previous is not None and previous.verdict is branch.verdict:
            if isinstance(previous.region, Interval) and isinstance(branch.region, Interval):
                left, right = previous.region, branch.region
                region = Interval(
                    left.lo, left.lo_closed, right.hi, right.hi_closed, left.dimension
                )
                merged[-1] = Branch(region.shown(period_of(fact)), branch.verdict, region)
                continue
            if previous.region is None and branch.region is None:
                nears = [n for n in (previous.near, branch.near) if n]
                merged[-1] = Branch(
                    f"{previous.when} or {branch.when}",
                    branch.verdict,
                    near="; ".join(nears) if nears else None,
                )
                continue
        merged.append(branch)
    return merged


def settlements(
    rule: Rule | Compiled,
    by_fact: Mapping[str, Sequence[Cell]],
    open_facts: Sequence[str],
    limit: int = 4,
    table: Table | None = None,
    max_tries: int | None = None,
) -> list[Settlement]:
    """The minimal combinations of open-fact values that turn a governance risk firm.

    Facts are tried in growing combinations (up to `limit` of them); a combination is kept when
    it yields a verdict other than governance risk and no smaller kept combination is part of it.
    Quantity cells that every test treats alike are merged first ("≤ 20M" rather than "< 20M"
    and "20M").  The search stops before a size that would try more than `max_tries`
    (default `MAX_SETTLEMENT_TRIES`) combinations: what it found is still true (each settles
    the finding), fewer sizes are searched, and the bound depends on the rule and the facts
    alone, never on the run.
    """
    table = table or tabulate(rule, by_fact)
    coarse = _coarse_groups(table, by_fact, open_facts)
    outcomes = list(table.outcomes.items())
    found: list[tuple[int, Settlement]] = []
    tries = _tries_by_size([len(coarse[n]) for n in open_facts], limit)
    for size in range(1, min(limit, len(open_facts)) + 1):
        if tries[size] > (MAX_SETTLEMENT_TRIES if max_tries is None else max_tries):
            break
        for chosen in itertools.combinations(open_facts, size):
            for picked in itertools.product(*(coarse[n] for n in chosen)):
                key = 0
                for _, _, group_bit in picked:
                    key |= group_bit
                for smaller, _ in found:  # a loop: no generator per combination
                    if smaller & key == smaller:
                        break
                else:
                    selected = table.full
                    for _, where, _ in picked:
                        selected &= where
                    verdict = verdict_of({o for o, where in outcomes if where & selected})
                    if verdict is not Verdict.GOVERNANCE_RISK:
                        words = tuple(
                            (n, group[0]) for n, group in zip(chosen, picked, strict=True)
                        )
                        found.append((key, Settlement(verdict, words)))
    order = {Verdict.VIOLATION: 0, Verdict.SATISFIED: 1, Verdict.NOT_APPLICABLE: 2}
    return sorted(
        (s for _, s in found),
        key=lambda s: (order.get(s.verdict, 3), len(s.when), s.when),
    )


def _tries_by_size(groups: Sequence[int], limit: int) -> list[int]:
    """How many combinations of groups each size of settlement tries: the elementary symmetric
    sums of the facts' group counts (index 0 unused)."""
    sums = [1] + [0] * limit
    for count in groups:
        for size in range(limit, 0, -1):
            sums[size] += sums[size - 1] * count
    return sums


def _coarse_groups(
    table: Table, by_fact: Mapping[str, Sequence[Cell]], open_facts: Sequence[str]
) -> dict[str, list[tuple[str, int, int]]]:
    """Each coarse group of an open fact: its words, the combinations where the fact is in it,
    and a bit of its own, so that a combination of groups is an integer (subsets by AND)."""
    position = {name: i for i, name in enumerate(table.names)}
    coarse: dict[str, list[tuple[str, int, int]]] = {}
    bit = 1
    for name in open_facts:
        p = position[name]
        groups = []
        for label, signatures in _coarse(by_fact[name], table.signatures[p], period_of(name)):
            where = 0
            for signature in signatures:
                where |= table.digit[p][table.choices[p].index(signature)]
            groups.append((label, where, bit))
            bit <<= 1
        coarse[name] = groups
    return coarse


def _coarse(
    cells_: Sequence[Cell], signatures: Sequence[Signature], months: int = 1
) -> list[tuple[str, list[Signature]]]:
    """Neighbouring quantity cells with the same test results, merged: (label, the distinct
    signatures of its cells; money shown per `months`, the fact's own period)."""
    groups: list[tuple[Signature, list[Cell]]] = []
    for cell, signature in zip(cells_, signatures, strict=True):
        if groups and groups[-1][0] == signature and isinstance(cell.region, Interval):
            groups[-1][1].append(cell)
        else:
            groups.append((signature, [cell]))
    result = []
    for signature, members in groups:
        first, last = members[0].region, members[-1].region
        if len(members) > 1 and isinstance(first, Interval) and isinstance(last, Interval):
            label = Interval(
                first.lo, first.lo_closed, last.hi, last.hi_closed, first.dimension
            ).shown(months)
        else:
            label = members[0].label
        result.append((label, [signature]))
    return result
