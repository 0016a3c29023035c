"""`record` behaves as `@dataclass(frozen=True, slots=True)` does: each case is checked against a
real dataclass of the same fields."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from dataclasses import dataclass, field
from typing import Any

import pytest

from licheck.records import record


@record
class Point:
    x: int
    y: int = 0
    note: str = field(default="", compare=False)
    cache: tuple[int, ...] = field(default=(), repr=False)


@dataclass(frozen=True, slots=True)
class PointDC:
    x: int
    y: int = 0
    note: str = field(default="", compare=False)
    cache: tuple[int, ...] = field(default=(), repr=False)


@record
class One:
    value: float


@dataclass(frozen=True, slots=True)
class OneDC:
    value: float


@record(order=True)
class Ranked:
    file: str
    line: int
    hint: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True, order=True)
class RankedDC:
    file: str
    line: int
    hint: str = field(default="", compare=False)


@record
class Custom:
    a: int

    def __eq__(self, other: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "custom"


def _pairs() -> list[tuple[Any, Any]]:
    return [
        (Point(1, 2, "a", (3,)), PointDC(1, 2, "a", (3,))),
        (Point(1), PointDC(1)),
        (One(1.5), OneDC(1.5)),
        (Ranked("f", 2, "h"), RankedDC("f", 2, "h")),
    ]


def test_repr_equals_dataclass_repr() -> None:
    for mine, theirs in _pairs():
        assert repr(mine) == repr(theirs).replace("DC(", "(", 1)


def test_equality_and_hash_follow_compared_fields() -> None:
    assert Point(1, 2, "a") == Point(1, 2, "b")  # note: compare=False
    assert Point(1, 2) != Point(1, 3)
    assert hash(Point(1, 2, "a")) == hash(PointDC(1, 2, "b")) == hash((1, 2, ()))
    assert hash(One(1.5)) == hash(OneDC(1.5)) == hash((1.5,))
    assert Point(1) != PointDC(1)  # another class: NotImplemented, then identity
    assert Point(1).__eq__(object()) is NotImplemented
    nan = One(float("nan"))
    assert nan == nan  # the same object inside the tuple, as dataclass compares
    assert len({Point(1, 2, "a"), Point(1, 2, "b")}) == 1


def test_order_matches_dataclass_order() -> None:
    items = [("b", 1), ("a", 2), ("a", 1), ("b", 0)]
    mine = sorted(Ranked(f, n, str(n)) for f, n in items)
    theirs = sorted(RankedDC(f, n, str(n)) for f, n in items)
    assert [(r.file, r.line) for r in mine] == [(r.file, r.line) for r in theirs]
    assert Ranked("a", 1) <= Ranked("a", 1, "other hint") and Ranked("a", 1) >= Ranked("a", 1)
    assert Ranked("a", 2) > Ranked("a", 1) and not Ranked("a", 2) < Ranked("a", 1)
    with pytest.raises(TypeError):
        _ = Ranked("a", 1) < RankedDC("a", 1)  # type: ignore[operator]


def test_frozen_slotted_and_a_dataclass() -> None:
    point = Point(1)
    theirs = PointDC(1)
    for obj in (point, theirs):  # the same errors, worded alike
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot assign to field 'x'"):
            obj.x = 2  # type: ignore[misc]
        with pytest.raises(dataclasses.FrozenInstanceError, match="cannot delete field 'y'"):
            del obj.y  # type: ignore[misc]
        with pytest.raises(TypeError):  # not a field: 3.11's slotted frozen classes refuse
            obj.other = 1  # type: ignore[attr-defined]
    assert not hasattr(point, "__dict__")
    assert Point.__match_args__ == ("x", "y", "note", "cache")
    assert [f.name for f in dataclasses.fields(Point)] == ["x", "y", "note", "cache"]
    assert dataclasses.replace(point, y=5) == Point(1, 5)
    assert pickle.loads(pickle.dumps(point)) == point
    assert copy.deepcopy(Ranked("a", 1, "h")).hint == "h"


def test_methods_of_the_body_are_kept() -> None:
    assert Custom(1) == Custom(2)
    assert repr(Custom(1)) == "custom"
    assert hash(Custom(1)) == hash((1,))  # a body's __eq__ alone: the hash is still made


@record
class OwnHash:
    a: int

    def __hash__(self) -> int:
        return 7


def test_a_body_hash_is_kept() -> None:
    assert hash(OwnHash(1)) == 7
    assert OwnHash(1) == OwnHash(1) and OwnHash(1) != OwnHash(2)
