"""Review findings are read uniformly (issue 23, deliverable 4).

docs/licenses.md has a table saying which facts each kind of duty reads (`complies_with`: law,
policy, ethics).  For every clause that declares a kind, each fact of its row is checked by
evaluating the clause: with every review fact clean it is satisfied; with that one fact in breach it
is a violation; with it unstated, a governance risk.  And every clause whose quote requires
compliance with applicable law, ethical standards or a policy declares the kind, so a new rule file
cannot leave a review fact unread unnoticed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from licheck.evaluation.evaluate import Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files import yamlsafe
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import Manifest
from licheck.inputs.rules import Standard
from licheck.library.compiled import CompiledClause, Library, load_library
from licheck.library.layers import load
from licheck.library.source import LibrarySource
from licheck.vocabulary.names import FACTS
from tests.licenses.test_claimed_layer import CLAIMED_DIR, MODEL_PREFIX, catalog_layer
from tests.scenarios import SCENARIO_DIR

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = load_library()

# Every review fact at the value that keeps the duty.
CLEAN: dict[str, Any] = {
    "restricted_uses": [],
    "export_laws_complied": True,
    "use_policy_followed": True,
    "guardrails_circumvented": False,
}


def _breach(fact: str, standard: Standard, license_id: str) -> Any:
    """The value of `fact` that a review finding a breach of `standard` states."""
    if fact == "restricted_uses":
        return ["unlawful"] if standard is Standard.LAW else [f"policy:{license_id}"]
    return not CLEAN[fact]


def _table() -> dict[Standard, frozenset[str]]:
    """The facts each kind reads, as docs/licenses.md's table says."""
    page = (ROOT / "docs" / "licenses.md").read_text(encoding="utf-8")
    section = page.split("## Review findings", 1)[1].split("\n## ", 1)[0]
    found: dict[Standard, frozenset[str]] = {}
    for row in section.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        kind = re.fullmatch(r"`(law|policy|ethics)`", cells[1]) if len(cells) == 5 else None
        if kind is not None:
            named = set(re.findall(r"`([a-z_]+)`", cells[2]))
            found[Standard(kind.group(1))] = frozenset(named & set(FACTS))
    return found


TABLE = _table()
DECLARING = [
    entry
    for license_entry in LIBRARY.licenses.values()
    for entry in license_entry.clauses
    if entry.clause.complies_with
]


def test_the_table_has_a_row_for_every_kind() -> None:
    assert set(TABLE) == set(Standard)
    assert TABLE[Standard.LAW] == {"restricted_uses", "export_laws_complied"}
    assert TABLE[Standard.POLICY] == {"restricted_uses", "use_policy_followed"}
    assert TABLE[Standard.ETHICS] == {"use_policy_followed"}
    assert len(DECLARING) > 20


def _claimed(license_id: str) -> bool:
    """The license's built-in models rest on secondary claims, which never give a violation on
    the claim alone: its clauses are probed on the licensor-claimed model of a catalog layer
    (`tests/licenses/test_claimed_layer.py`)."""
    return (CLAIMED_DIR / f"{license_id}.yaml").exists()


@pytest.fixture(scope="module")
def claimed_library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    layer = tmp_path_factory.mktemp("claimed-layer")
    return load(LibrarySource((catalog_layer(layer),)))


def _defaults(license_id: str) -> tuple[str, str | None]:
    """The model (and obtained date) the license's scenario file is written for."""
    if _claimed(license_id):
        return MODEL_PREFIX + license_id, None
    data = yamlsafe.load(SCENARIO_DIR / f"{license_id}.yaml").data
    assert isinstance(data, dict)
    obtained = data.get("obtained")
    return str(data["model"]), None if obtained is None else str(obtained)


def _verdict(entry: CompiledClause, facts: dict[str, Any], library: Library) -> str:
    license_id = entry.license.id
    model, obtained = _defaults(license_id)
    base: dict[str, Any] = {"model": model, **({"obtained": obtained} if obtained else {})}
    manifest = Manifest.model_validate(
        {
            "product": f"review facts: {license_id}/{entry.clause.id}",
            "owner": "probe",
            "release_date": "2026-06-01",
            "facts": facts,
            "components": [
                {
                    "id": "c",
                    "name": "C",
                    "lineage": {"base": base, "steps": ["fine_tuning"]},
                    "delivery": ["api"],
                }
            ],
        }
    )
    result = evaluate_manifest(
        manifest, Document("probe", {}, {}), library, Options(POLICIES["default"])
    )
    verdicts = {
        f.verdict.value
        for f in result.findings
        if f.license == license_id and f.clause == entry.clause.id
    }
    assert len(verdicts) == 1, (license_id, entry.clause.id, verdicts)
    return verdicts.pop()


_LAYERED: dict[str, Library] = {}


def _library_for(license_id: str, tmp_path_factory: pytest.TempPathFactory) -> Library:
    """The built-in library, or with the scenario file's `catalog_layer` over it (a license
    whose scenarios run on a stand-in model, `tests/scenarios.py`)."""
    data = yamlsafe.load(SCENARIO_DIR / f"{license_id}.yaml").data
    models = data.get("catalog_layer") if isinstance(data, dict) else None
    if not models:
        return LIBRARY
    if license_id not in _LAYERED:
        folder = tmp_path_factory.mktemp("layer")
        (folder / "catalog.yaml").write_text(json.dumps({"models": models}), "utf-8")
        _LAYERED[license_id] = load(LibrarySource(folders=(folder,)))
    return _LAYERED[license_id]


@pytest.mark.parametrize("entry", DECLARING, ids=lambda e: f"{e.license.id}/{e.clause.id}")
def test_each_clause_reads_every_review_fact_of_its_kind(
    entry: CompiledClause, claimed_library: Library, tmp_path_factory: pytest.TempPathFactory
) -> None:
    read = {test.fact for test in entry.rule.tests()}
    clean = {name: CLEAN[name] for name in CLEAN if name in read}
    library = (
        claimed_library
        if _claimed(entry.license.id)
        else _library_for(entry.license.id, tmp_path_factory)
    )
    assert _verdict(entry, clean, library) == "satisfied"
    for standard in entry.clause.complies_with:
        for fact in sorted(TABLE[standard]):
            assert fact in read, f"{fact} is not read, though the clause complies_with {standard}"
            breached = {**clean, fact: _breach(fact, standard, entry.license.id)}
            assert _verdict(entry, breached, library) == "violation", (standard, fact)
            unstated = {k: v for k, v in clean.items() if k != fact}
            assert _verdict(entry, unstated, library) == "governance_risk", (standard, fact)


# What a quote says that makes it a duty of each kind.
SAYS = {
    Standard.LAW: re.compile(
        r"compl\w* with (all |the )?(applicable )?laws? and regulations|comply with all applicable "
        r"law|in violation of applicable laws|comply with the Laws and Regulations",
        re.I,
    ),
    Standard.ETHICS: re.compile(r"ethic|moral standards", re.I),
    Standard.POLICY: re.compile(
        r"(Acceptable|Prohibited) Uses? Policy|Trustworthy AI terms|\bAUP\b|regulations, policies",
        re.I,
    ),
}
# Quotes that match but whose duty is another: (license, clause) -> why.
NOT_OF_THAT_KIND = {
    ("deepseek-license-v1.0", "personal-information-laws"): (
        "the laws on personal information and protected works only, not applicable law at large"
    ),
    **{
        (license_id, "no-permitting-violations"): (
            "the grant's duty not to encourage or permit others to violate the terms "
            "(others_violations_permitted); the same sentence's own adherence to the policy is "
            "the clause acceptable-use's"
        )
        for license_id in ("tencent-hunyuan-community-a13b", "tencent-hunyuan-community-large")
    },
    **{
        (license_id, "no-allowing-others"): (
            'the Prohibited Uses Policy\'s "or allow others to use" (others_violations_permitted); '
            "the policy itself is the clause prohibited-uses'"
        )
        for license_id in ("minimax-model-license-01", "minimax-model-license-m2.5")
    },
}


def _quoted(text: str) -> str:
    return " ".join(text.split())


def test_every_quote_that_requires_compliance_declares_it() -> None:
    missing = []
    for license_id, license_entry in LIBRARY.licenses.items():
        by_quote: dict[str, set[Standard]] = {}
        for entry in license_entry.clauses:
            declared = by_quote.setdefault(_quoted(entry.clause.quote), set())
            declared |= set(entry.clause.complies_with)
        for entry in license_entry.clauses:
            if (license_id, entry.clause.id) in NOT_OF_THAT_KIND:
                continue
            quote = _quoted(entry.clause.quote)
            for standard, pattern in SAYS.items():
                if not pattern.search(quote) or standard in by_quote[quote]:
                    continue
                if standard is Standard.POLICY and license_entry.license.incorporates:
                    continue  # the policy is a rule file of its own, incorporated
                missing.append(f"{license_id}/{entry.clause.id}: {standard.value}")
    assert not missing, missing
