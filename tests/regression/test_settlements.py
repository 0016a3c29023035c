"""Every "what would make it firm" line is checked against the manifest: stating the facts it
names, as it names them, gives the verdict it promises (boolean facts, and a set fact's
`contains 'X'` / `does not contain 'X'` as includes / excludes).  Products whose findings are
judged under several alternatives — dated license texts, candidate bases, an owner who may be
the licensor — are where one alternative's guidance used to be shown for all of them; they are
kept as data, in tests/data/settlements/products.yaml (the check itself is an oracle, code)."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from licheck.evaluation.evaluate import Finding
from licheck.vocabulary.factdefs import FactType
from licheck.vocabulary.names import FACTS
from tests.conftest import ROOT
from tests.regression.test_no_firmer_verdicts import findings_of

DATA = ROOT / "tests" / "data" / "settlements" / "products.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(DATA.read_text(encoding="utf-8"))["cases"]
WORDS = re.compile(r"^(contains|does not contain) '([^']*)'$")


def _manifest(case: dict[str, Any]) -> dict[str, Any]:
    component: dict[str, Any] = {
        "id": "c",
        "name": "C",
        "delivery": ["weights"],
        "lineage": {"base": case["base"]},
    }
    if "component_facts" in case:
        component["facts"] = case["component_facts"]
    return {
        "format": 2,
        "product": "P",
        "owner": case.get("owner", "O"),
        "facts": {"commercial": True, **case.get("facts", {})},
        "agreements": [],
        "components": [component],
    }


def _findings(tmp_path: Path, data: dict[str, Any]) -> dict[tuple[str, ...], Finding]:
    return {_key(f): f for f in findings_of(tmp_path, data)}


def _key(finding: Finding) -> tuple[str, ...]:
    """A clause of a license, whichever candidate base carries it (`binding.clause_key`)."""
    if finding.license == "unknown":
        return finding.key
    return (finding.component, finding.license, finding.clause)


def _statement(fact: str, words: str) -> dict[str, Any] | bool | None:
    """The manifest statement for a settlement's condition, where it is one a manifest can make."""
    definition = FACTS.get(fact)
    if definition is None or definition.implicit:
        return None
    if definition.type is FactType.BOOLEAN and words in ("true", "false"):
        return words == "true"
    found = WORDS.match(words)
    if definition.type is FactType.SET and found:
        return {"includes" if found[1] == "contains" else "excludes": [found[2]]}
    return None


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_each_settlement_gives_the_verdict_it_promises(
    case: dict[str, Any], tmp_path: Path
) -> None:
    data = _manifest(case)
    checked = 0
    for key, finding in _findings(tmp_path, data).items():
        for settlement in finding.settled_by:
            stated = {f: _statement(f, w) for f, w in settlement.when}
            if any(s is None for s in stated.values()) or stated.keys() & data["facts"].keys():
                continue  # not one a manifest can state, or already stated
            changed = copy.deepcopy(data)
            changed["facts"].update(stated)
            now = _findings(tmp_path, changed).get(key)
            assert now is not None and now.verdict is settlement.verdict, (key, settlement)
            checked += 1
    assert checked > 0
