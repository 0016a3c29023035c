"""Territories: ISO codes, with EU standing for the union (members count, excluding EU excludes
every member)."""

from __future__ import annotations

import pytest

from licheck.core import territory
from licheck.engine.conditions import ConditionError, compile_condition
from licheck.engine.domains import StringSet
from licheck.facts.evidencepolicy import POLICIES
from licheck.facts.periods import FactError
from licheck.facts.resolution import Resolution, resolve
from licheck.inputs.manifest import FactSpec
from licheck.inputs.rules import FactTest

CONTEXT = Resolution(POLICIES["default"], None)


def domain(raw: dict[str, object]) -> StringSet:
    result = resolve("territories", FactSpec.model_validate(raw), CONTEXT).domain
    assert isinstance(result, StringSet)
    return result


def test_a_member_state_puts_the_union_in_the_set() -> None:
    assert domain({"value": ["US", "de"]}) == StringSet(
        frozenset({"US", "DE", "EU"}), frozenset(), True
    )


def test_non_members_do_not() -> None:
    assert "EU" not in domain({"value": ["GB", "CH", "NO", "KR"]}).includes


def test_aliases_are_read_as_iso_codes() -> None:
    assert domain({"value": ["UK", "EL"]}).includes == frozenset({"GB", "GR", "EU"})


def test_excluding_the_union_excludes_every_member() -> None:
    excluded = domain({"excludes": ["EU"]}).excludes
    assert excluded >= territory.EU_MEMBERS
    assert "EU" in excluded
    assert len(territory.EU_MEMBERS) == 27 + 7


@pytest.mark.parametrize("region", ["RE", "GP", "MQ", "GF", "YT", "MF", "AX"])
def test_eu_regions_with_their_own_codes_count_as_eu(region: str) -> None:
    # audit m3: the outermost regions and Åland are EU territory under ISO codes of their own
    assert "EU" in domain({"value": [region, "US"]}).includes
    assert region in domain({"excludes": ["EU"]}).excludes


def test_excluding_one_member_says_nothing_of_the_union() -> None:
    assert domain({"excludes": ["DE"]}).excludes == frozenset({"DE"})


def test_including_a_member_while_excluding_the_union_contradicts() -> None:
    with pytest.raises(FactError):
        domain({"includes": ["FR"], "excludes": ["EU"]})


def test_a_country_name_is_refused_with_a_hint() -> None:
    with pytest.raises(FactError, match="ISO 3166") as caught:
        domain({"value": ["US", "Germany"]})
    assert caught.value.path == ("value",)


def test_rule_operands_are_normalised_and_checked() -> None:
    node = compile_condition(
        FactTest.model_validate({"fact": "territories", "contains_any": ["EU", "UK", "kr"]})
    )
    assert node.operand == frozenset({"EU", "GB", "KR"})  # type: ignore[union-attr]
    with pytest.raises(ConditionError):
        compile_condition(
            FactTest.model_validate({"fact": "licensee_domicile", "contains": "Europe"})
        )
