"""Facts the lineage already implies (issue 23, deliverable 5; audit s3-A C6).

A component built on another family's model and trained on a model's outputs is another model
improved with them, of its base's kind: `improves_other_models` includes it unless stated, and a
statement that leaves it out is a located error (exit 2) unless it carries evidence.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from licheck.checks.implied import implied_by, teachers
from licheck.inputs.manifest import Lineage
from licheck.inputs.rules import CatalogModel
from licheck.library.compiled import load_library
from tests.clirun import run

LIBRARY = load_library()

HEAD = """product: Probe
owner: acme
release_date: 2026-06-01
components:
  - id: student
    name: Student
    lineage:
"""


def _write(tmp_path: Path, lineage: str, facts: str = "") -> Path:
    path = tmp_path / "probe.yaml"
    path.write_text(HEAD + lineage + "    delivery: [api]\n" + facts, encoding="utf-8")
    return path


def _lineage(data: dict[str, object]) -> Lineage:
    return Lineage.model_validate(data)


def _model(name: str) -> CatalogModel:
    model = LIBRARY.model(name)
    assert model is not None, name
    return model


def test_a_student_of_another_family_is_an_llm_improved_with_the_outputs() -> None:
    lineage = _lineage({"base": "mistral-7b", "trained_on_outputs_of": ["llama-2-70b"]})
    implied = implied_by(lineage, _model("llama-2-70b"), LIBRARY)
    assert implied is not None
    assert (implied.improves, implied.competes) == ("llm", True)
    assert "Mistral 7B" in implied.why


def test_an_image_student_of_an_image_teacher_competes_with_it() -> None:
    lineage = _lineage({"base": "stable-diffusion-xl-1.0", "trained_on_outputs_of": ["flux.1-dev"]})
    implied = implied_by(lineage, _model("flux.1-dev"), LIBRARY)
    assert implied is not None
    assert (implied.improves, implied.competes) == ("foundation_model", True)


def test_a_language_student_of_an_image_teacher_is_not_said_to_compete() -> None:
    lineage = _lineage({"base": "qwen3", "trained_on_outputs_of": ["flux.1-dev"]})
    implied = implied_by(lineage, _model("flux.1-dev"), LIBRARY)
    assert implied is not None
    assert (implied.improves, implied.competes) == ("llm", None)


@pytest.mark.parametrize(
    "lineage",
    [
        {"base": "llama-2-13b", "trained_on_outputs_of": ["llama-2-70b"]},  # its own derivative
        {"base": "unknown", "trained_on_outputs_of": ["llama-2-70b"]},  # undisclosed
        {"base": "llama-2-70b", "trained_on_outputs_of": ["llama-2-70b"]},  # itself
        {  # candidates of different kinds
            "base": {"candidates": ["mistral-7b", "stable-diffusion-xl-1.0"]},
            "trained_on_outputs_of": ["llama-2-70b"],
        },
        {"base": "mistral-7b", "trained_on_outputs_of": ["qwen-72b"]},  # another teacher
    ],
)
def test_nothing_is_implied_where_the_lineage_does_not_say(lineage: dict[str, object]) -> None:
    assert implied_by(_lineage(lineage), _model("llama-2-70b"), LIBRARY) is None


def test_a_distillation_steps_parents_are_teachers() -> None:
    lineage = _lineage(
        {"base": "qwen3", "steps": [{"kind": "distillation", "parents": ["llama-3-70b"]}]}
    )
    assert [t.path for t in teachers(lineage)] == [("steps", 0, "parents", 0)]
    implied = implied_by(lineage, _model("llama-3-70b"), LIBRARY)
    assert implied is not None and implied.improves == "llm"
    merged = _lineage({"base": "qwen3", "steps": [{"kind": "merge", "parents": ["llama-3-70b"]}]})
    assert teachers(merged) == []


def _verdicts(out: str, clause: str) -> set[str]:
    return {
        f["verdict"]
        for product in json.loads(out)["products"]
        for f in product["findings"]
        if f["clause"] == clause
    }


LLAMA2_STUDENT = """      base: mistral-7b
      steps: [fine_tuning]
      trained_on_outputs_of: [{model: llama-2-70b, role: teacher}]
"""


def test_unstated_the_ban_is_a_violation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, LLAMA2_STUDENT)
    code, out, _ = run(capsys, "evaluate", str(path), "--format", "json")
    assert code == 1  # a violation
    assert _verdicts(out, "no-improving-other-llms") == {"violation"}


def test_stating_none_against_the_lineage_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, LLAMA2_STUDENT, "    facts: {improves_other_models: []}\n")
    code, _, err = run(capsys, "evaluate", str(path))
    assert code == 2
    assert f"{path}:12:13:" in err  # the stated value
    assert "improves_other_models leaves out 'llm'" in err
    assert "line 10" in err  # the lineage entry naming the teacher
    code, _, err = run(capsys, "validate", str(path))
    assert code == 2 and "leaves out 'llm'" in err


def test_a_product_level_statement_is_checked_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _write(tmp_path, LLAMA2_STUDENT, "facts:\n  improves_other_models: [other]\n")
    code, _, err = run(capsys, "evaluate", str(path))
    assert code == 2 and f"{path}:13:3:" in err


def test_a_statement_with_evidence_decides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    facts = (
        "    facts:\n      improves_other_models:\n        value: []\n"
        "        evidence: [{source: review, kind: official_statement, date: 2026-05-01}]\n"
    )
    path = _write(tmp_path, LLAMA2_STUDENT, facts)
    code, out, _ = run(capsys, "evaluate", str(path), "--format", "json")
    assert code == 0
    assert _verdicts(out, "no-improving-other-llms") == {"satisfied"}


def test_the_implication_is_as_certain_as_the_lineage_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lineage = (
        "      base: mistral-7b\n      steps: [fine_tuning]\n      trained_on_outputs_of:\n"
        "        - model: llama-2-70b\n"
        "          evidence: [{source: a blog, kind: press_report, date: 2026-05-01}]\n"
    )
    code, out, _ = run(capsys, "evaluate", str(_write(tmp_path, lineage)), "--format", "json")
    assert code == 0
    assert _verdicts(out, "no-improving-other-llms") == {"governance_risk"}


def test_competes_false_against_an_image_lineage_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lineage = (
        "      base: stable-diffusion-xl-1.0\n      steps: [fine_tuning]\n"
        "      trained_on_outputs_of: [{model: flux.1-dev, obtained: 2025-07-01}]\n"
    )
    path = _write(tmp_path, lineage, "    facts: {competes_with_licensed_model: false}\n")
    code, _, err = run(capsys, "evaluate", str(path))
    assert code == 2 and "competes_with_licensed_model is false" in err


def test_a_what_if_swap_of_the_base_is_what_the_lineage_implies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Swapped for Llama 2 13B, the student is Llama 2's own derivative: nothing is implied."""
    path = _write(tmp_path, LLAMA2_STUDENT)
    code, out, err = run(capsys, "whatif", str(path), "--swap-base", "mistral-7b=llama-2-13b")
    assert code in (0, 1), err
    flipped = "FLIPPED  llama-2-community / no-improving-other-llms: VIOLATION → GOVERNANCE RISK"
    assert flipped in out
