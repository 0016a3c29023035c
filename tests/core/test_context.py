"""The run's memo tables (`core.context`): bounded, keyed by the whole value, one per table."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from licheck.core.context import EvaluationContext, Memo, Table


@dataclass(frozen=True)
class Key:
    """A value key: equal keys are one key, whatever object holds them."""

    name: str
    months: int


def test_equal_keys_share_an_answer_and_unequal_ones_do_not() -> None:
    memo: Memo[Key, str] = Memo()
    memo.keep(Key("mau", 1), "one month")
    assert memo.get(Key("mau", 1)) == "one month"  # another object, the same value
    assert memo.get(Key("mau", 12)) is None  # the part of the key that differs counts
    assert memo.get(Key("revenue", 1)) is None
    assert Key("mau", 1) in memo and Key("mau", 12) not in memo


def test_a_full_table_is_emptied_before_it_keeps_more() -> None:
    memo: Memo[int, int] = Memo(limit=3)
    for n in range(10):
        assert memo.keep(n, n * n) == n * n
        assert 1 <= len(memo) <= 3
        assert memo.get(n) == n * n  # the newest answer is always kept
    assert len(memo) == 1  # 9 came when 6, 7, 8 filled it
    memo.keep(9, 81)  # kept again: not a new entry, nothing forgotten
    memo.keep(10, 100)
    assert (memo.get(9), memo.get(10)) == (81, 100)


def test_remember_makes_an_answer_once() -> None:
    memo: Memo[str, list[str]] = Memo()
    made: list[str] = []

    def make() -> list[str]:
        made.append("made")
        return ["answer"]

    first = memo.remember("key", make)
    assert memo.remember("key", make) is first
    assert made == ["made"]


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one entry"):
        Memo(limit=0)


def test_each_table_is_its_own_and_each_context_its_own() -> None:
    squares: Table[int, int] = Table("squares")
    names: Table[int, str] = Table("names")
    run, other = EvaluationContext(limit=2), EvaluationContext()
    run.table(squares).keep(3, 9)
    assert run.table(squares) is run.table(squares)
    assert run.table(squares).get(3) == 9
    assert run.table(names).get(3) is None  # another table, though keyed alike
    assert other.table(squares).get(3) is None  # another run
    assert run.table(names).limit == 2  # the context's bound holds for every table
    namesake: Table[int, int] = Table("squares")
    assert run.table(namesake).get(3) is None  # tables are told apart by identity, not name
    run.clear()
    assert run.table(squares).get(3) is None


def test_the_bottom_layer_imports_nothing_above_it() -> None:
    """`core.context` knows none of the tables' owners: no import of licheck's in it."""
    import ast
    import inspect

    from licheck.core import context

    tree = ast.parse(inspect.getsource(context))
    imported = [
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    ] + [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    assert imported and not [m for m in imported if m.startswith("licheck")]
