"""The engine's shortcuts give exactly what the plain constructions give: a set fact's cells from
one member per class of interchangeable members, against every combination of members."""

from __future__ import annotations

import itertools
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from licheck.engine.conditions import Test, Value
from licheck.engine.domains import StringSet
from licheck.engine.exact import _distinct, cells

MEMBERS = ("A", "B", "C", "D", "E", "F")


def every_combination(domain: StringSet, tests: list[Test]) -> list[tuple[object, object, str]]:
    """The cells as trying every combination of the free members finds them."""
    mentioned: set[str] = set()
    for test in tests:
        mentioned |= test.operand if isinstance(test.operand, frozenset) else {str(test.operand)}
    free = sorted(mentioned - domain.includes - domain.excludes)
    members = frozenset(mentioned)
    candidates = [
        domain.includes | frozenset(chosen)
        for size in range(len(free) + 1)
        for chosen in itertools.combinations(free, size)
    ]

    def region(value: Value) -> StringSet:
        chosen = cast("frozenset[str]", value)
        return StringSet(
            chosen & members | domain.includes, members - chosen | domain.excludes, False
        )

    found = _distinct(candidates, tests, region)
    return [(c.value, c.region, c.label) for c in found]


set_tests = st.lists(
    st.one_of(
        st.builds(lambda m: Test("ui_attribution", "contains", m), st.sampled_from(MEMBERS)),
        st.builds(
            lambda ms: Test("ui_attribution", "contains_any", frozenset(ms)),
            st.sets(st.sampled_from(MEMBERS), min_size=1, max_size=4),
        ),
    ),
    min_size=1,
    max_size=5,
)
known = st.sets(st.sampled_from(MEMBERS), max_size=2)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, database=None)
@given(set_tests, known, known)
def test_set_cells_equal_every_combination(
    tests: list[Test], includes: set[str], excludes: set[str]
) -> None:
    domain = StringSet(frozenset(includes), frozenset(excludes - includes), False)
    assert [(c.value, c.region, c.label) for c in cells(domain, tests)] == every_combination(
        domain, tests
    )


def test_a_long_list_of_members_is_one_class() -> None:
    """Twelve territories named by one test are one class: two cells, quickly."""
    many = frozenset(f"T{i:02d}" for i in range(12))
    tests = [
        Test("ui_attribution", "contains_any", many),
        Test("ui_attribution", "contains", "T03"),
    ]
    domain = StringSet(frozenset(), frozenset(), False)
    found = cells(domain, tests)
    assert [(c.value, c.label) for c in found] == [
        (c[0], c[2]) for c in every_combination(domain, tests)
    ]
    assert len(found) == 3
