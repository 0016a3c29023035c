"""No unmapped tag gives comfort (issue 12, deliverable 8).

A clause that reads `restricted_uses` beside a review (`use_policy_followed`), or any clause of a
separately published policy file, must not be met by declaring a restricted use it does not map
together with `use_policy_followed: true`: the review cannot vouch for a declared use the policy
may cover.  For each such clause and each member of the vocabulary the clause does not name, the
requirement is checked over every truth value of its other tests (an over-approximation of the
completions): if it can hold, the clause could report `satisfied`.  Allowed only where the policy
text plainly does not cover the use (`PLAINLY_NOT_COVERED`, with the reason); the cases still to
fix are `DEFECTS` (every reason starts with "DEFECT:"), so the test passes until they are fixed.

Clauses that read `restricted_uses` without a review are closed lists quoted from their text
(e.g. glm-4's "for any military or illegal purposes"); a tag they do not list is not theirs to
judge, so they are outside this test.
"""

from __future__ import annotations

import itertools

import pytest

from licheck.engine import conditions
from licheck.engine.conditions import All, Any_, Const, Node, Not, Test
from licheck.library.compiled import CompiledClause, load_library
from licheck.vocabulary.names import FACTS

LIBRARY = load_library()
MEMBERS = sorted(FACTS["restricted_uses"].members or ())
READ = frozenset({"restricted_uses", "use_policy_followed"})

_MEDICAL = (
    'the item reads "To provide medical advice and medical results interpretation"; no tag '
    "names medical advice, and the Attachment A items the tags name are use-restrictions'"
)
_JUSTICE = (
    'the item reads "administration of justice, law enforcement, immigration or asylum '
    'processes, such as predicting an individual will commit fraud/crime"; this tag is none of '
    "those (automated_legal_decisions, discrimination and pii_misuse, which may be, breach it)"
)
_CREATIVEML = (
    "creativeml-openrail-m",
    "creativeml-openrail-plus-plus-m",
    # issue 26: the BigScience RAIL texts CreativeML's adapts have the same two items
    "bigscience-bloom-rail-1.0",
    "bigscience-openrail-m-2022-08-18",
)
_IMPERSONATION = (
    'the item reads "To impersonate or attempt to impersonate others"; no tag names '
    "impersonation, and the Attachment A items the tags name are use-restrictions'"
)
_BIGCODE_UNTAGGED = (
    "the clause holds Attachment A's items (c) malware, (h) impersonation, (m) medical advice and "
    "(n) automated justice decisions, which no tag names (automated_legal_decisions, which may "
    "be (n), breaches it); the items the tags name are use-restrictions'"
)
_SEXUAL = (
    'item 4 reads "Generate sexually explicit content"; no tag names it, and the heads the tags '
    "name are prohibited-uses'"
)
_JUSTICE_NOT_COVERED = frozenset(MEMBERS) - {
    "automated_legal_decisions",
    "discrimination",
    "pii_misuse",
}

# (license, clause, tag) -> why the policy plainly does not cover the use.
PLAINLY_NOT_COVERED: dict[tuple[str, str, str], str] = {
    # Issue 26: the Cohere policies' law sentence; their prohibited-uses clause maps every tag.
    **{
        (lid, "comply-with-laws", tag): (
            'the sentence is "comply with all applicable local and international laws": the use '
            "is lawful in some places and unlawful in others (an unlawful one is the tag "
            "unlawful); every use the policy names is the clause prohibited-uses', which maps "
            "each tag"
        )
        for lid in ("cohere-c4ai-acceptable-use-policy", "cohere-labs-acceptable-use-policy")
        for tag in MEMBERS
        if tag != "unlawful"
    },
    **{(lid, "medical-advice", tag): _MEDICAL for lid in _CREATIVEML for tag in MEMBERS},
    **{(lid, "justice-uses", tag): _JUSTICE for lid in _CREATIVEML for tag in _JUSTICE_NOT_COVERED},
    **{
        (lid, "impersonation", tag): _IMPERSONATION
        for lid in ("bigscience-bloom-rail-1.0", "bigscience-openrail-m-2022-08-18")
        for tag in MEMBERS
    },
    **{
        ("bigcode-openrail-m-v1", "untagged-restricted-uses", tag): _BIGCODE_UNTAGGED
        for tag in set(MEMBERS) - {"automated_legal_decisions"}
    },
    **{
        ("gemma-prohibited-use-policy-2024-02-21", "sexually-explicit-content", tag): _SEXUAL
        for tag in MEMBERS
    },
    **{
        ("gemma-prohibited-use-policy-2024-02-21", "no-circumventing-safety-filters", tag): (
            "item 2.d is circumventing safety filters (guardrails_circumvented) and driving the "
            "model against the policy; the heads the tags name are prohibited-uses'"
        )
        for tag in MEMBERS
    },
    ("gpt-oss-usage-policy", "comply-with-law", "military"): (
        'the policy\'s one term is "comply with all applicable law" and it names no use; a '
        "military use is not unlawful as such (an unlawful one is the tag unlawful)"
    ),
    # Audit s3-A M1: reading each as a breach was a false violation.
    **{
        ("gpt-oss-usage-policy", "comply-with-law", tag): (
            'the policy\'s one term is "comply with all applicable law" and it names no use; '
            "this use is lawful in some places and forms and unlawful in others, so whether it "
            "breaches is exactly the review's conclusion on lawfulness (use_policy_followed)"
        )
        for tag in set(MEMBERS) - {"unlawful", "military"}
    },
    **{
        ("glm-4", "comply-with-laws-and-ethics", tag): (
            "the duty is to comply with the laws, policies and ethical standards of the place of "
            "use, which is not a fact: this use is lawful in some places and not in others, so "
            "the review of the place of use decides it (§3's own restrictions judge the military, "
            "illegal and harmful uses they name)"
        )
        for tag in set(MEMBERS) - {"unlawful", "minors_harm"}
    },
    # issue 26: the glm-4-9b text is word for word glm-4-voice's (the glm-4 rule)
    **{
        ("glm-4-9b-license", "comply-with-laws-and-ethics", tag): (
            "as glm-4's: the laws, policies and ethical standards of the place of use, which is "
            "not a fact, decide it (§3's own restrictions judge the uses they name)"
        )
        for tag in set(MEMBERS) - {"unlawful", "minors_harm"}
    },
    **{
        ("exaone-ai-model-license-1.1-nc", "ethical-use", tag): (
            "§3.4's guidelines name disinformation, discrimination, infringement and harm; an "
            "unlawful use is §3.3's (clause unlawful-use), and this use is not named: whether it "
            "causes the harm d. forbids is the review's conclusion (use_policy_followed)"
        )
        for tag in ("military", "unlawful", "national_security_harm", "automated_legal_decisions")
    },
    ("minicpm-model-community-license-1.0", "usage-restrictions", "national_security_harm"): (
        "Appendix A names no national-security use; an unlawful one is the tag unlawful, and the "
        "rest is the review's (use_policy_followed)"
    ),
}

# (license, clause) -> the tags still to map or allow-list, and why they are open.
DEFECTS: dict[tuple[str, str], tuple[frozenset[str], str]] = {}


def _is_policy_clause(entry: CompiledClause) -> bool:
    fields = {t.fact for t in entry.rule.tests()}
    policy_file = entry.license.id.endswith(("-use-policy", "-usage-policy"))
    return "restricted_uses" in fields and ("use_policy_followed" in fields or policy_file)


def _holds(node: Node, tag: str, atoms: dict[int, bool]) -> bool:
    match node:
        case Test(fact="restricted_uses"):
            return node.holds(frozenset({tag}))
        case Test(fact="use_policy_followed"):
            return node.holds(True)
        case Test():
            return atoms[id(node)]
        case All():
            return all(_holds(item, tag, atoms) for item in node.items)
        case Any_():
            return any(_holds(item, tag, atoms) for item in node.items)
        case Not():
            return not _holds(node.item, tag, atoms)
        case Const():
            return node.value
    raise AssertionError(node)  # pragma: no cover


def _can_hold(node: Node, tag: str) -> bool:
    """The requirement holds for some truth values of its tests of other facts."""
    free = [t for t in conditions.tests_in(node) if t.fact not in READ]
    for values in itertools.product((False, True), repeat=len(free)):
        if _holds(node, tag, {id(t): v for t, v in zip(free, values, strict=True)}):
            return True
    return False


def _mapped(node: Node) -> set[str]:
    named: set[str] = set()
    for test in conditions.tests_in(node):
        if test.fact == "restricted_uses":
            operand = test.operand
            named |= set(operand) if isinstance(operand, frozenset) else {str(operand)}
    return named


def _comforting(entry: CompiledClause) -> set[str]:
    requirement = entry.rule.requirement
    return {t for t in MEMBERS if t not in _mapped(requirement) and _can_hold(requirement, t)}


POLICY_CLAUSES = [
    entry
    for license_entry in LIBRARY.licenses.values()
    for entry in license_entry.clauses
    if _is_policy_clause(entry)
]


@pytest.mark.parametrize("entry", POLICY_CLAUSES, ids=lambda e: f"{e.license.id}/{e.clause.id}")
def test_no_unmapped_tag_is_met_by_the_review(entry: CompiledClause) -> None:
    key = (entry.license.id, entry.clause.id)
    allowed = {tag for (lid, cid, tag) in PLAINLY_NOT_COVERED if (lid, cid) == key}
    known = DEFECTS.get(key, (frozenset(), ""))[0]
    comforting = _comforting(entry) - allowed - known
    assert not comforting, (
        f"{key[0]}/{key[1]}: restricted_uses {sorted(comforting)} with use_policy_followed "
        "true can be satisfied: map each tag the policy covers (violation) or allow-list it "
        "in PLAINLY_NOT_COVERED with the reason"
    )


def test_the_lists_name_only_what_still_comforts() -> None:
    """A fixed rule leaves its entry stale: remove it."""
    clauses = {(e.license.id, e.clause.id): e for e in POLICY_CLAUSES}
    for key, (tags, reason) in DEFECTS.items():
        assert reason.startswith("DEFECT:"), key
        assert key in clauses, f"{key}: no such policy clause"
        stale = tags - _comforting(clauses[key])
        assert not stale, f"{key}: {sorted(stale)} no longer comfort: remove them from DEFECTS"
    for lid, cid, tag in PLAINLY_NOT_COVERED:
        assert (lid, cid) in clauses, f"{(lid, cid)}: no such policy clause"
        mapped = _mapped(clauses[(lid, cid)].rule.requirement)
        assert tag not in mapped, f"{(lid, cid, tag)}: the clause maps it: remove the entry"


def test_llama_policies_map_the_tags_they_used_to_leave_to_the_review() -> None:
    """Issue 12: automated_legal_decisions with use_policy_followed true was `satisfied`."""
    llama = [e for e in POLICY_CLAUSES if e.license.id.startswith("llama-")]
    assert len(llama) >= 6
    for entry in llama:
        assert "automated_legal_decisions" in _mapped(entry.rule.requirement), entry.license.id
