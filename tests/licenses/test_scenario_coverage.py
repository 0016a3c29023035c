"""No false comfort: every clause has a scenario that breaches it and one that leaves it open.

For every clause of every license in the library, some scenario in `licenses/tests/*.yaml`
must expect `violation` for it (the text plainly says the duty is breached) and some scenario
must expect `governance_risk` for it (a deciding fact is missing).  A rule that can never fail
gives false comfort, so it is a defect, never something to allow-list quietly.

This test only counts what the scenarios *expect*; `tests/licenses/test_scenarios.py` checks
that the engine actually gives those verdicts.  The scenarios of `tests/licenses/claimed/` count
too: they run on a catalog layer that names a model under a license whose built-in models rest on
secondary claims (`tests/licenses/test_claimed_layer.py` checks their verdicts).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from licheck.library.compiled import load_library
from tests.scenarios import load_scenarios

VIOLATION = "violation"
GOVERNANCE_RISK = "governance_risk"

# (license, clause) -> why no scenario can expect a governance risk for it.  Keep each reason
# short and honest: it must be a property of the clause's structure, not a missing scenario.
NO_GOVERNANCE_RISK: dict[tuple[str, str], str] = {}

# (license, clause, verdict) -> where a test outside the scenarios reaches that verdict: the
# built-in catalog cannot (e.g. no built-in model has the property the clause binds), a catalog
# layer can.  Each reason names the test file; a rule that can never fail is a defect, and
# defects are not listed here but fixed.
PROVED_ELSEWHERE: dict[tuple[str, str, str], str] = {
    ("llama-3.3-acceptable-use-policy", "eu-multimodal", VIOLATION): (
        "`multimodal` comes only from the catalog and no built-in model under llama-3.3-community "
        "is multimodal, so no scenario can breach it; a catalog layer listing one does: "
        "tests/library/test_layer_eu_multimodal.py asserts violation, governance_risk and "
        "not_applicable."
    ),
}

LIBRARY = load_library()
CLAIMED_DIR = Path(__file__).resolve().parent / "claimed"
SCENARIOS = load_scenarios() + load_scenarios(CLAIMED_DIR)


def _expected() -> dict[tuple[str, str], set[str]]:
    found: dict[tuple[str, str], set[str]] = {}
    for scenario in SCENARIOS:
        for clause, verdict in scenario.expect.items():
            found.setdefault((scenario.license, clause), set()).add(verdict)
    return found


EXPECTED = _expected()


def _gaps(license_id: str) -> list[str]:
    """The clauses of one license that lack a violation or a governance-risk scenario."""
    gaps = []
    for entry in LIBRARY.licenses[license_id].clauses:
        key = (license_id, entry.clause.id)
        verdicts = EXPECTED.get(key, set())
        if VIOLATION not in verdicts and (*key, VIOLATION) not in PROVED_ELSEWHERE:
            gaps.append(f"{license_id}/{entry.clause.id}: no scenario expects violation")
        if (
            GOVERNANCE_RISK not in verdicts
            and key not in NO_GOVERNANCE_RISK
            and (*key, GOVERNANCE_RISK) not in PROVED_ELSEWHERE
        ):
            gaps.append(f"{license_id}/{entry.clause.id}: no scenario expects governance_risk")
    return gaps


@pytest.mark.parametrize("license_id", sorted(LIBRARY.licenses))
def test_every_clause_can_fail_and_can_be_open(license_id: str) -> None:
    gaps = _gaps(license_id)
    assert not gaps, "false comfort: " + "; ".join(gaps)


def test_allow_lists_name_real_clauses_and_are_not_stale() -> None:
    clauses = {
        (license_id, entry.clause.id)
        for license_id, library_entry in LIBRARY.licenses.items()
        for entry in library_entry.clauses
    }
    for key, reason in NO_GOVERNANCE_RISK.items():
        assert key in clauses, f"allow-listed clause not in the library: {key}"
        assert reason.strip(), f"allow-list entry without a reason: {key}"
        assert (*key, GOVERNANCE_RISK) not in PROVED_ELSEWHERE, (
            f"both proved elsewhere and allow-listed: {key}"
        )
        assert GOVERNANCE_RISK not in EXPECTED.get(key, set()), (
            f"{key} is allow-listed as never a governance risk, yet a scenario expects one"
        )
    for (license_id, clause, verdict), reason in PROVED_ELSEWHERE.items():
        key = (license_id, clause)
        assert key in clauses, f"entry names a clause not in the library: {key}"
        assert verdict in (VIOLATION, GOVERNANCE_RISK), f"entry names no verdict: {key}"
        proof = Path(__file__).parents[1] / reason.split("tests/", 1)[1].split(" ")[0].rstrip(":,.")
        assert proof.is_file(), f"{key}: the reason names no test file of tests/: {reason}"
        assert verdict not in EXPECTED.get(key, set()), (
            f"{key} is listed as never {verdict}, yet a scenario expects it: remove the entry"
        )
