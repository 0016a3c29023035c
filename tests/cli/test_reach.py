"""`licheck licenses reach ID`: each clause's cell for each relation, with the deciding quote,
and the reach of the audits' critical cases (issue 23)."""

from __future__ import annotations

import json

import pytest

from licheck.inputs.rules import Relation
from tests.clirun import run


def _cells(capsys: pytest.CaptureFixture[str], license_id: str) -> dict[str, dict[str, str]]:
    code, out, _ = run(capsys, "licenses", "reach", license_id, "--format", "json")
    assert code == 0
    document = json.loads(out)
    assert [r["id"] for r in document["relations"]] == [r.value for r in Relation]
    return {
        f"{c['license']}/{c['clause']}": {r: cell["cell"] for r, cell in c["cells"].items()}
        for c in document["clauses"]
    }


def test_gemma_derivatives_include_distillation_and_leave_a_judge_open(
    capsys: pytest.CaptureFixture[str],
) -> None:
    cells = _cells(capsys, "gemma-terms-of-use")
    copy = cells["gemma-terms-of-use/agreement-copy"]
    assert copy["served"] == "reaches"
    assert copy["fine_tuned"] == "defined"
    assert copy["distilled"] == "defined"
    assert copy["synthetic_data"] == "defined"
    assert copy["judge"] == "open"  # audit A M3: not a violation for a judge


def test_llama_leaves_derivative_to_copyright_law_but_binds_the_unmodified_model(
    capsys: pytest.CaptureFixture[str],
) -> None:
    cells = _cells(capsys, "llama-3.1-community")
    copy = cells["llama-3.1-community/agreement-copy"]
    assert copy["served"] == copy["redistributed"] == "reaches"  # audit A C4
    assert copy["fine_tuned"] == "opinion"
    assert copy["distilled"] == "no"
    gate = cells["llama-3.1-community/additional-commercial-terms"]
    assert gate["distilled"] == "licensee"  # audit A C2: running the teacher is use
    assert gate["fine_tuned"] == "reaches"
    # the incorporated Acceptable Use Policy's clauses follow the license's own
    assert any(key.startswith("llama-3.1-acceptable-use-policy/") for key in cells)


def test_flux_outputs_are_not_derivatives_but_training_on_them_is_use(
    capsys: pytest.CaptureFixture[str],
) -> None:
    cells = _cells(capsys, "flux-1-dev-non-commercial-v1.1.1")
    assert cells["flux-1-dev-non-commercial-v1.1.1/license-copy"]["distilled"] == "no"
    assert cells["flux-1-dev-non-commercial-v1.1.1/commercial-license"]["synthetic_data"] == (
        "licensee"
    )
    assert cells["flux-1-dev-non-commercial-v1.1.1/use-restrictions"]["synthetic_data"] == (
        "reaches"  # "any data produced by the FLUX.1 [dev] Model" (audit A C3)
    )


def test_the_text_shows_each_definition_with_its_quote(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, wrapped, _ = run(capsys, "licenses", "reach", "deepseek-license-v1.0")
    assert code == 0
    out = " ".join(wrapped.split())  # wrapped to the terminal's width
    assert "“Derivatives of the Model” includes" in out
    assert "distillation methods" in out  # the definition's own words
    assert "deepseek-license-v1.0 / license-copy" in out
    assert "synthetic data" in out and "open (risk)" in out


def test_an_unknown_license_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "licenses", "reach", "no-such-license")
    assert code == 2
    assert "no-such-license" in err
