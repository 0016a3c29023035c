"""A lineage that names one catalog model twice is refused at the second naming: its findings
would be given twice, alike (counted twice, two SARIF results with one fingerprint, two matches
for a waiver or a baseline entry)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clirun import run

MANIFEST = """product: Soup
owner: Acme
components:
  - id: app
    name: App
    lineage:
      base: llama-3.1-8b
      steps:
        - fine_tuning
        - {kind: merge, parents: [PARENTS]}
    delivery: [hosted_service]
"""


def _run(capsys: pytest.CaptureFixture[str], tmp_path: Path, parents: str) -> tuple[int, str]:
    path = tmp_path / "soup.yaml"
    path.write_text(MANIFEST.replace("PARENTS", parents), encoding="utf-8")
    code, _, err = run(capsys, "validate", str(path))
    return code, err


@pytest.mark.parametrize(
    ("parents", "message"),
    [
        ("llama-3.1-8b", "soup.yaml:10:35: error: llama-3.1-8b is already in this lineage, as "),
        (
            "meta-llama/Llama-3.1-8B",  # an alias of the base
            "soup.yaml:10:35: error: 'meta-llama/Llama-3.1-8B' (llama-3.1-8b) is already in this",
        ),
        (
            "mistral-7b, mistral-7b",  # twice among one step's parents
            "soup.yaml:10:47: error: mistral-7b is already in this lineage, as a parent of step 2",
        ),
    ],
)
def test_a_model_named_twice_in_a_lineage_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, parents: str, message: str
) -> None:
    code, err = _run(capsys, tmp_path, parents)
    assert code == 2 and "Traceback" not in err
    assert message in err
    assert "a merge lists the other models merged in" in err


@pytest.mark.parametrize("parents", ["mistral-7b", "unknown, unknown"])
def test_other_models_and_undisclosed_parents_are_fine(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, parents: str
) -> None:
    code, err = _run(capsys, tmp_path, parents)
    assert code == 0, err
