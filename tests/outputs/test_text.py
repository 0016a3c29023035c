"""The default text report: the lineage worded as the relation is (built on a model, or only
trained on its outputs), and a reason in one line for each not-applicable finding it does not
detail."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clirun import report_json, run

STUDENT = """\
format: 2
product: Student
owner: {owner}
release_date: 2025-03-19
agreements: none
facts:
  commercial: true
  licensee_mau: 2M
components:
  - id: student
    name: Student model
    delivery: [weights]
    lineage:
      base: mistral-7b
      steps: [distillation]
      trained_on_outputs_of:
        - {{model: llama-3.1-70b, role: teacher}}
    facts:
      model_made_available: true
      model_name: Llama-student
"""
OWN = """\
format: 2
product: Meta AI
owner: {id: meta, name: "Meta Platforms, Inc."}
release_date: 2025-03-19
facts:
  commercial: true
components:
  - id: app
    name: App
    delivery: [hosted_service]
    lineage:
      base: {model: llama-3.1-8b}
"""


def _evaluate(capsys: pytest.CaptureFixture[str], path: Path, *options: str) -> str:
    code, out, err = run(capsys, "evaluate", str(path), *options)
    assert code in (0, 1), err
    return out


def test_a_teacher_is_not_said_to_be_built_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "student.yaml"
    path.write_text(STUDENT.format(owner="Acme"), encoding="utf-8")
    text = " ".join(_evaluate(capsys, path, "-v").split())
    assert "student built on Mistral 7B" in text
    assert "student trained on the outputs of Llama 3.1 70B" in text
    assert "built on Llama 3.1 70B" not in text
    assert "a model trained from Llama 3.1 70B is a derivative" not in text
    data = report_json(_evaluate(capsys, path, "-f", "json"))
    (product,) = data["products"]
    copy = next(f for f in product["findings"] if f["clause"] == "agreement-copy")
    derivative = next(f for f in copy["facts"] if f["name"] == "derivative")
    assert "trained on Llama 3.1 70B's outputs, not built on its weights" in " ".join(
        e["source"] for e in derivative["evidence"]
    )
    assert copy["reason"] == (
        "only trained on Llama 3.1 70B's outputs, which this clause does not reach"
    )
    assert "only trained on Llama 3.1 70B's outputs" in copy["explanation"]
    base = next(f for f in product["findings"] if f["model"] == "mistral-7b")
    base_derivative = next(f for f in base["facts"] if f["name"] == "derivative")
    assert "a model trained from Mistral 7B is a derivative work" in " ".join(
        e["source"] for e in base_derivative["evidence"]
    )


def test_each_not_applicable_finding_gives_its_reason_without_verbose(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "own.yaml"
    path.write_text(OWN, encoding="utf-8")
    out = _evaluate(capsys, path)
    lines = [line.strip() for line in out.splitlines()]
    assert "llama-3.1-community/agreement-copy — the owner is the licensor" in lines
    listed = [line for line in lines if line.startswith("llama-3.1-")]
    assert listed and all(line.endswith("— the owner is the licensor") for line in listed)
    data = report_json(_evaluate(capsys, path, "-f", "json"))
    (product,) = data["products"]
    assert {f["reason"] for f in product["findings"]} == {"the owner is the licensor"}


def test_a_clause_not_triggered_says_by_what(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "student.yaml"
    path.write_text(STUDENT.format(owner="Acme").replace("[weights]", "[hosted_service]"), "utf-8")
    data = report_json(_evaluate(capsys, path, "-f", "json"))
    (product,) = data["products"]
    reasons = {f["clause"]: f["reason"] for f in product["findings"] if f["model"] == "mistral-7b"}
    assert reasons["license-copy"] is not None
    assert reasons["license-copy"].startswith("not triggered: ")
    assert "distributes_weights is false" in reasons["license-copy"]
    decided = [f for f in product["findings"] if f["verdict"] != "not_applicable"]
    assert all(f["reason"] is None for f in decided)
