"""A manifest's stated facts kept up to date from one day to the next, for the timeline.

Evaluating the manifest afresh as of every day reads every piece of evidence on every day: the
work grows with the square of the evidence.  Here each stated fact is read once (the first day
an evaluation asks for it), and from then on a piece of its evidence is looked at again only on
the few days its standing may change (`facts.standing_days`: its date and retraction, each a
month's or a year's first and last day).  The claims that establish a fact and those that only
suggest a value are met in a tree over its pieces, so a change costs a logarithm of them, not a
pass over all.

A fact resolved here is the one `facts.resolve` gives that day, except for what only the report
of one evaluation shows (each piece's evidence and the readings of its figures): the timeline
shows verdicts and the facts they hang on, never the evidence.  `tests/timeline/test_daily.py`
checks both: the same timeline as evaluating every day afresh, and work that grows with the
evidence, not its square.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import heapq
from dataclasses import dataclass, field

from licheck.engine.domains import Domain, intersect
from licheck.facts.evidencepolicy import EvidencePolicy, Standing
from licheck.facts.resolution import (
    FactState,
    PieceClaim,
    Resolution,
    piece_claims,
    resolve,
    resolve_series,
    settle,
    standing,
    standing_days,
)
from licheck.inputs.manifest import FactSpec
from licheck.vocabulary.names import FACTS

Path = tuple[str | int, ...]


@dataclass(slots=True)
class Work:
    """What building one timeline did, counted: it should grow with the evidence (the tests
    count it; wall-clock time is for `bench/timeline.py`)."""

    evaluations: int = 0  # days the manifest was evaluated
    facts_read: int = 0  # stated facts read whole (once each, the first day one is asked for)
    standings: int = 0  # a piece's standing worked out (when read, and on the days it may change)
    meets: int = 0  # two claims met in a fact's tree


@dataclass(frozen=True, slots=True)
class _Node:
    """What the pieces under one node of a fact's tree say that day."""

    established: Domain | None = None  # their establishing claims, met (None: there are none)
    suggested: Domain | None = None  # their weaker claims, met
    average: Domain | None = None  # the years' totals among their claims, as average months, met


_NOTHING = _Node()


class _Fact:
    """One stated fact: its pieces, each one's standing as of the current day, and the state."""

    def __init__(self, name: str, spec: FactSpec, path: Path, exact: FactState, work: Work):
        self.name, self.spec, self.path, self.work = name, spec, path, work
        self.definition = FACTS[name]
        self.shown = exact.shown  # as written: the same on every day
        self.pieces: list[PieceClaim] = []
        self.standings: list[Standing] = []
        self.width = 1
        self.tree: list[_Node] = []
        self.state = exact

    def start(self, pieces: list[PieceClaim], context: Resolution) -> None:
        self.pieces = pieces
        self.standings = [standing(p, context) for p in pieces]
        self.work.standings += len(pieces)
        while self.width < len(pieces):
            self.width *= 2
        self.tree = [_NOTHING] * (2 * self.width)
        for index in range(len(pieces)):
            self.tree[self.width + index] = self._leaf(index)
        for node in range(self.width - 1, 0, -1):
            self.tree[node] = self._join(self.tree[2 * node], self.tree[2 * node + 1])
        self.state = self._state()

    def reads(self, spec: FactSpec) -> bool:
        """Whether `spec` is the fact this one keeps (the same object, or an equal one built
        again by the evaluation, e.g. a lineage entry's evidence as a fact)."""
        return spec is self.spec or spec == self.spec

    def restand(self, index: int, context: Resolution) -> bool:
        """Work out one piece's standing again; whether it changed."""
        self.work.standings += 1
        now = standing(self.pieces[index], context)
        if now == self.standings[index]:
            return False
        self.standings[index] = now
        node = self.width + index
        self.tree[node] = self._leaf(index)
        node //= 2
        while node:
            self.tree[node] = self._join(self.tree[2 * node], self.tree[2 * node + 1])
            node //= 2
        return True

    def refresh(self) -> bool:
        """Recompute the state from the tree; whether it changed."""
        state = self._state()
        changed = state != self.state
        self.state = state
        return changed

    def _leaf(self, index: int) -> _Node:
        piece, now = self.pieces[index], self.standings[index]
        if piece.claim is None or now is Standing.IGNORED:
            return _NOTHING
        established = piece.claim if now is Standing.ESTABLISHES else None
        suggested = piece.claim if now is Standing.SUGGESTS else None
        return _Node(established, suggested, piece.average)

    def _join(self, left: _Node, right: _Node) -> _Node:
        if right is _NOTHING:
            return left
        if left is _NOTHING:
            return right
        return _Node(
            self._meet(left.established, right.established),
            self._meet(left.suggested, right.suggested),
            self._meet(left.average, right.average),
        )

    def _meet(self, a: Domain | None, b: Domain | None) -> Domain | None:
        """Both claims met; an empty meet (a contradiction) stays empty."""
        if a is None or (b is not None and b.is_empty()):
            return b
        if b is None or a.is_empty():
            return a
        self.work.meets += 1
        return intersect(a, b)

    def _state(self) -> FactState:
        top = self.tree[1] if self.tree else _NOTHING
        established = [] if top.established is None else [top.established]
        suggested = [] if top.suggested is None else [top.suggested]
        averages = [] if top.average is None else [top.average]
        status, domain, likely, averaged = settle(self.definition, established, suggested, averages)
        return FactState(
            self.name,
            self.definition,
            status,
            domain,
            self.shown,
            likely,
            (),
            self.spec.note,
            self.path,
            averaged=averaged,
        )


@dataclass(slots=True)
class DailyFacts:
    """The resolver of one timeline (`facts.Resolver`): `advance` to each day in turn, then
    evaluate with `Options(resolver=...)`; `changed` says whether any fact read so far differs
    from the day before."""

    policy: EvidencePolicy
    work: Work = field(default_factory=Work)
    changed: bool = False
    _day: dt.date | None = None
    _facts: dict[tuple[str, Path], list[_Fact]] = field(default_factory=dict)
    _due: list[tuple[dt.date, int, _Fact, int]] = field(default_factory=list)  # a heap
    _order: int = 0  # ties in the heap: the order pieces were scheduled in

    def advance(self, day: dt.date) -> None:
        """Move to `day` (later than the one before): every piece whose standing may have
        changed since is looked at again."""
        self._day, self.changed = day, False
        context = Resolution(self.policy, day)
        touched: dict[_Fact, None] = {}
        while self._due and self._due[0][0] <= day:
            _, _, fact, index = heapq.heappop(self._due)
            if fact.restand(index, context):
                touched[fact] = None
        for fact in touched:
            self.changed |= fact.refresh()

    def resolve(self, name: str, spec: FactSpec, context: Resolution, path: Path) -> FactState:
        assert context.as_of == self._day, "advance to the day before evaluating it"
        kept = self._facts.setdefault((name, path), [])
        fact = next((f for f in kept if f.reads(spec)), None)
        if fact is None:
            fact = self._read(name, spec, context, path)
            kept.append(fact)
        if spec.series is None:
            return fact.state
        return dataclasses.replace(fact.state, series=resolve_series(name, spec, context, path))

    def _read(self, name: str, spec: FactSpec, context: Resolution, path: Path) -> _Fact:
        """A fact asked for the first time: read whole, as `resolve` reads it (so a fact that
        cannot be read raises the same error), then kept."""
        self.work.facts_read += 1
        exact = resolve(name, spec, dataclasses.replace(context, resolver=None), path=path)
        fact = _Fact(name, spec, path, exact, self.work)
        pieces = piece_claims(name, spec, context)
        fact.start(pieces, context)
        for index, piece in enumerate(pieces):
            for day in standing_days(piece):
                if self._day is not None and day > self._day:
                    heapq.heappush(self._due, (day, self._order, fact, index))
                    self._order += 1
        return fact
