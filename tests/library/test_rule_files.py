"""The Llama, DBRX, Hunyuan and Stability rule files and catalog entries, checked against the
reference texts where a test can read them."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from licheck.engine import conditions
from licheck.library.compiled import load_library
from licheck.library.textcheck import canonical_body
from tests.conftest import REFERENCE_TEXTS, needs_reference

PART_A = re.compile(r"^(llama-|databricks-|tencent-hunyuan-|stability-)")
_DATE = re.compile(
    r"(?:Version Release Date|Version Effective Date|Release Date): "
    r"([A-Z][a-z]+ \d{1,2}, \d{4})"
)


def part_a() -> list[str]:
    return sorted(i for i in load_library().licenses if PART_A.match(i))


def test_part_a_licenses_are_in_the_library() -> None:
    assert len(part_a()) == 16  # 6 Llama licenses, their 6 policies, DBRX, 2 Hunyuan, Stability


@needs_reference()
@pytest.mark.parametrize(
    "license_id",
    [
        "llama-2-community",
        "llama-3-community",
        "llama-3.1-community",
        "llama-3.2-community",
        "llama-3.3-community",
        "llama-4-community",
        "databricks-open-model-license",
        "tencent-hunyuan-community-large",
        "tencent-hunyuan-community-a13b",
    ],
)
def test_catalog_release_dates_are_the_dates_the_license_states(license_id: str) -> None:
    library = load_library()
    text = canonical_body(
        (REFERENCE_TEXTS / library.licenses[license_id].license.text.file).read_bytes()
    )
    match = _DATE.search(text)
    assert match, f"no release date in {license_id}'s text"
    stated = dt.datetime.strptime(match[1], "%B %d, %Y").date()
    models = [m for m in library.models if m.license == license_id]
    assert models, f"no catalog model under {license_id}"
    assert {m.release_date for m in models} == {stated}


def test_every_license_granted_names_a_license_of_the_library() -> None:
    library = load_library()
    for entry in library.licenses.values():
        for compiled in entry.clauses:
            for test in (t for node in compiled.rule.nodes() for t in conditions.tests_in(node)):
                if test.fact == "license_granted":
                    assert test.operand in library.licenses, (entry.license.id, test.operand)


def facts_tested(license_id: str) -> set[str]:
    entry = load_library().licenses[license_id]
    return {
        t.fact for c in entry.clauses for node in c.rule.nodes() for t in conditions.tests_in(node)
    }


def test_hunyuan_only_encourages_powered_by_tencent_hunyuan() -> None:
    for license_id in ("tencent-hunyuan-community-large", "tencent-hunyuan-community-a13b"):
        assert not facts_tested(license_id) & {"ui_attribution", "attribution_elsewhere"}


def test_llama_2_has_no_display_duty_and_no_name_prefix() -> None:
    assert not facts_tested("llama-2-community") & {
        "ui_attribution",
        "attribution_elsewhere",
        "model_name",
    }


def test_llama_gates_count_affiliates_and_hunyuan_gates_do_not() -> None:
    for license_id in part_a():
        gated = facts_tested(license_id)
        if license_id.startswith(("llama-", "databricks-")) and "-policy" not in license_id:
            assert "licensee_mau" in gated and "licensee_own_mau" not in gated
        if license_id.startswith("tencent-hunyuan-"):
            assert "licensee_own_mau" in gated and "licensee_mau" not in gated


def test_gates_are_measured_on_the_release_date_except_stability() -> None:
    library = load_library()
    for license_id in part_a():
        for compiled in library.licenses[license_id].clauses:
            mau = [t for t in conditions.tests_in(compiled.rule.trigger) if t.fact.endswith("mau")]
            assert all(t.measured.value == "month_before_release" for t in mau), license_id
