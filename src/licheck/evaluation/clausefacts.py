"""Facts as one clause reads them, for its finding (never for its verdict, judged before).

- A set fact stated in part (some members known, the rest open) is shown with respect to the
  members the clause reads: `agreement_waives` that excludes MiniMax's clauses says nothing about
  Kimi's, so a Kimi clause shows "unknown whether it includes 'kimi-…/ui-attribution'", with the
  status it has for that clause.  The narrowed domain cuts the clause's tests into the same
  cells, so nothing the verdict depends on changes.  An included member that near-matches a
  member read (`KIMI K2.5` for `Kimi K2.5`) stays shown: the finding's near-match reading is
  about it.  Unstated and exact sets are shown as they are.
- A review that says the use policy is followed (`use_policy_followed: true`) beside a declared
  use the clause forbids (`restricted_uses`) cannot both be true: where the verdict turns on the
  declared use, the finding says so and which statement decided.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence

from licheck.core.verdicts import Verdict
from licheck.engine.conditions import Test, strings_read
from licheck.engine.domains import Booleans, Domain, StringSet
from licheck.engine.exact import cells
from licheck.facts.resolution import FactState, Status
from licheck.text import nearmatch

REVIEW, DECLARED = "use_policy_followed", "restricted_uses"


def as_read(state: FactState, tests: Sequence[Test]) -> FactState:
    """`state` as the clause whose `tests` on it read it: a set stated in part narrowed to the
    members read, with the status it has for them; any other state unchanged."""
    domain = state.domain
    if not isinstance(domain, StringSet) or domain.exact or state.status is Status.DISPUTED:
        return state
    if not (domain.includes or domain.excludes):
        return state  # unstated: "not stated" says it
    read = strings_read(tests)
    # a member that near-matches a name read (`KIMI K2.5` beside `excludes: [Kimi K2.5]`) stays
    # shown: it is what the finding's near-match reading is about
    near = frozenset(m for m in domain.includes if any(nearmatch.near(m, r) for r in read))
    narrowed = _narrow(domain, read)
    likely = state.likely
    likely_narrowed = _narrow(likely, read) if isinstance(likely, StringSet) else None
    if _settles(narrowed, tests):
        status, likely_narrowed = Status.ESTABLISHED, None
    elif likely_narrowed is not None and _settles(likely_narrowed, tests):
        status = Status.LIKELY
    else:
        status, likely_narrowed = Status.UNKNOWN, None
    narrowed = StringSet(narrowed.includes | near, narrowed.excludes, False)
    return dataclasses.replace(
        state,
        status=status,
        domain=narrowed,
        shown=_phrase(narrowed, read),
        likely=likely_narrowed,
        lasting=False,
    )


def _narrow(domain: StringSet, read: frozenset[str]) -> StringSet:
    if domain.exact:  # a likely value may be exact: what it says of the members read
        return StringSet(domain.includes & read, read - domain.includes, False)
    return StringSet(domain.includes & read, domain.excludes & read, False)


def _settles(domain: StringSet, tests: Sequence[Test]) -> bool:
    """Every test has one result over `domain` (one cell)."""
    return len(cells(domain, tests)) == 1


def _phrase(domain: StringSet, read: frozenset[str]) -> str:
    """'includes 'a'; excludes 'b'; unknown whether it includes 'c' or 'd''."""
    parts = []
    if domain.includes:
        parts.append("includes " + _names(domain.includes, ", "))
    if domain.excludes:
        parts.append("excludes " + _names(domain.excludes, ", "))
    open_ = read - domain.includes - domain.excludes
    if open_:
        parts.append("unknown whether it includes " + _names(open_, " or "))
    return "; ".join(parts) or "unknown"


def _names(members: frozenset[str], last: str) -> str:
    shown = [repr(m) for m in sorted(members)]
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + last + shown[-1]


# -- a review against a declared use ----------------------------------------------------------

Rejudge = Callable[[Mapping[str, Domain]], Verdict]  # the verdict with some domains replaced


def contradiction(
    states: Mapping[str, FactState],
    tests: Mapping[str, Sequence[Test]],
    verdict: Verdict,
    rejudge: Rejudge,
    where: str,
) -> str | None:
    """Why the clause sets aside `use_policy_followed: true` (`where`: "the LICENSE forbids in
    its clause …"), when its verdict turns on a `restricted_uses` member it reads; else None."""
    review, declared = states.get(REVIEW), states.get(DECLARED)
    if review is None or declared is None or review.domain != Booleans(frozenset({True})):
        return None
    used = declared.domain
    if not isinstance(used, StringSet):  # pragma: no cover - the vocabulary's type
        return None
    forbidden = used.includes & strings_read(tests.get(DECLARED, ()))
    if not forbidden:
        return None
    believed = rejudge({DECLARED: _without(used, forbidden)})
    if believed is verdict:
        return None
    return (
        f"The manifest contradicts itself: its review (use_policy_followed: true) says the use "
        f"policy is followed, while restricted_uses declares {_names(forbidden, ' and ')}, a use "
        f"{where}. Both cannot be true, and licheck believes only one: the declared use "
        f"decides (believing the review, the verdict would be {believed.label}), because a "
        "declared use is specific and a review is a summary. Correct whichever is wrong."
    )


def _without(domain: StringSet, members: frozenset[str]) -> StringSet:
    """`domain` with `members` ruled out: the declared use as if the review were right."""
    return StringSet(domain.includes - members, domain.excludes | members, domain.exact)
