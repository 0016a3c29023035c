"""`--set`, `--sweep` and `--swap-base` as users type them, fuzzed: any text is either read into
a value or refused with a `ScenarioError` (exit 2, the option named), never a traceback; and a set
read from a list is never a silently shortened one (every name as typed, nothing dropped)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from licheck.whatif.spec import ScenarioError, parse_assignment, parse_swap, parse_sweep

# one fact of each type, and a quantity of each dimension
FACTS = ["mau", "monthly_revenue", "commercial", "model_name", "ui_attribution", "territories"]
# pieces of lists: brackets, quotes, separators, names and the set words, in any order
TOKENS = st.sampled_from([*'[]",; ab\\', "K2.5", '""', "includes ", "excludes ", "unknown"])
LISTISH = st.lists(TOKENS, max_size=16).map("".join)
ANY = st.one_of(st.text(max_size=40), LISTISH)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(fact=st.sampled_from(FACTS), value=ANY)
def test_set_reads_or_refuses_any_text(fact: str, value: str) -> None:
    try:
        assignment = parse_assignment(f"{fact}={value}")
    except ScenarioError as exc:
        assert str(exc).startswith("--set"), exc
        return
    assert assignment.fact == fact


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    fact=st.sampled_from(["mau", "monthly_revenue", "commercial"]),
    value=ANY,
    rates=st.sampled_from([None, {"EUR": Fraction(11, 10)}]),
)
def test_sweep_reads_or_refuses_any_text(
    fact: str, value: str, rates: dict[str, Fraction] | None
) -> None:
    try:
        sweep = parse_sweep(f"{fact}={value}", rates)
    except ScenarioError as exc:
        assert str(exc).startswith("--sweep"), exc
        return
    assert sweep.lower < sweep.upper


@settings(max_examples=100, deadline=None)
@given(value=ANY)
def test_swap_reads_or_refuses_any_text(value: str) -> None:
    try:
        swap = parse_swap(value)
    except ScenarioError as exc:
        assert str(exc).startswith("--swap-base"), exc
        return
    assert swap.old and swap.new


def _listed(value: str) -> list[str] | None:
    """The names of a `--set ui_attribution=VALUE` read as a list, or None when refused."""
    try:
        spec = parse_assignment(f"ui_attribution={value}").spec
    except ScenarioError:
        return None
    return [*(spec.value if isinstance(spec.value, list) else []), *(spec.includes or [])]


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(value=LISTISH.map(lambda s: "[" + s))
def test_a_list_read_keeps_every_name_as_typed(value: str) -> None:
    """Whatever a list typed by hand reads as, each name is in the text as typed (a quoted
    one with its quotes doubled), and writing the names back gives the same list."""
    names = _listed(value)
    if names is None:
        return
    for name in names:
        assert name.replace('"', '""') in value
    # every character typed is a name's, a quote around one, a comma or a bracket: none dropped
    # (a quote left open, a bracket too many) and none added
    quoted = [n for n in names if any(c in n for c in ',[]"')]
    typed = 2 + max(len(names) - 1, 0) + 2 * len(quoted)
    typed += sum(len(_visible(n.replace('"', '""'))) for n in names)
    extra = len(_visible(value)) - typed  # the quotes around names that need none
    assert extra % 2 == 0 and 0 <= extra <= 2 * (len(names) - len(quoted)), (value, names)
    written = "[" + ", ".join('"' + n.replace('"', '""') + '"' for n in names) + "]"
    assert _listed(written) == names


def _visible(text: str) -> str:
    return "".join(text.split())


NAMES = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12
).filter(lambda n: n.strip() == n and n.strip())


@settings(max_examples=200, deadline=None)
@given(names=st.lists(NAMES, max_size=5))
def test_any_names_quoted_come_back_whole(names: list[str]) -> None:
    written = "[" + ", ".join('"' + n.replace('"', '""') + '"' for n in names) + "]"
    assert _listed(written) == names
    assert _listed("includes " + written) == names
