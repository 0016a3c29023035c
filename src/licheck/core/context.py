"""The memo tables of one run, owned by the caller and passed down.

Products repeat the same few facts, domains and clauses, so a run remembers what it has judged,
resolved and parsed.  Everything remembered is a pure function of immutable values, and each key
is the whole of the value its answer depends on (a key that is less lets one product's answer
stand for another's: tests/evaluation/test_isolation.py), so a table may be emptied at any
time (each is bounded) and two contexts give the same results; only speed differs.

The module that computes an answer owns its table: it declares a `Table[K, V]` (its name, the
type of its keys and of its answers) and reads it from the run's context with
`context.table(TABLE)`, a `Memo[K, V]`.  This module knows none of them, so it imports nothing
of licheck's.  Create one context per run (`EvaluationContext()`), or one per worker process,
and hand it to `evaluate_manifest`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

LIMIT = 4096  # entries per table: memory stays flat over a portfolio


class Memo(Generic[K, V]):
    """A bounded table of answers keyed by the whole value each depends on.

    Full, it is emptied before the next entry is kept (the answers are pure: forgetting costs
    only the time to find them again).  A key is compared by value (`==` and `hash`), never by
    identity: two equal keys share one answer, so a key must hold everything the answer reads.

    `get(key)`: the answer kept for `key`, None when there is none (answers are never None);
    it is the table's own lookup, called on every clause judged, so it costs no Python call."""

    __slots__ = ("_entries", "get", "limit")

    get: Callable[[K], V | None]

    def __init__(self, limit: int = LIMIT) -> None:
        if limit < 1:
            raise ValueError(f"a memo table keeps at least one entry, not {limit}")
        self.limit = limit
        self._entries: dict[K, V] = {}
        self.get = self._entries.get

    def keep(self, key: K, value: V) -> V:
        """Remember `value` for `key`, emptying the table first when it is full; `value`."""
        entries = self._entries
        if len(entries) >= self.limit and key not in entries:
            entries.clear()
        entries[key] = value
        return value

    def remember(self, key: K, make: Callable[[], V]) -> V:
        """The answer for `key`: the one kept, else `make()`, kept."""
        found = self._entries.get(key)
        return found if found is not None else self.keep(key, make())

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __bool__(self) -> bool:
        return bool(self._entries)

    def __repr__(self) -> str:
        return f"Memo({len(self._entries)}/{self.limit})"


@dataclass(frozen=True, eq=False, slots=True)
class Table(Generic[K, V]):
    """The name of one kind of memo table, declared once by the module that fills it (for
    example `JUDGED: Table[JudgedKey, Judged] = Table("judged")`); each run's context holds one
    `Memo[K, V]` for it.  Tables are told apart by identity: two declarations are two tables."""

    name: str


class _TableOf(Protocol):
    def __call__(self, which: Table[K, V], /) -> Memo[K, V]: ...


class _Tables(dict[Table[Any, Any], Memo[Any, Any]]):
    """A context's tables, each made on first use."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def __missing__(self, which: Table[Any, Any]) -> Memo[Any, Any]:
        made: Memo[Any, Any] = Memo(self.limit)
        self[which] = made
        return made


class EvaluationContext:
    """One run's memo tables, one `Memo` per `Table`, made on first use (see each table's owner
    for what its keys mean).  `limit`: the entries each table keeps.

    `table(which)`: this run's `Memo` for the table `which` (a lookup that costs no Python
    call: the judging of every clause asks for its tables)."""

    __slots__ = ("_tables", "limit", "table")

    table: _TableOf

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._tables = _Tables(limit)
        self.table = self._tables.__getitem__

    def clear(self) -> None:
        """Forget every answer (results stay the same; only speed differs)."""
        for memo in self._tables.values():
            memo.clear()

    def __repr__(self) -> str:
        tables = ", ".join(f"{t.name}={m!r}" for t, m in self._tables.items())
        return f"EvaluationContext({tables})"
