"""`delivery` may carry evidence: the facts derived from it are as strong as that evidence."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clirun import report_json, run

MANIFEST = """\
product: D
owner: Acme
facts: {{commercial: true, model_name: Acme 8B}}
components:
  - id: c
    name: C
    delivery: {delivery}
    lineage:
      base: {{model: llama-3.1-8b}}
      steps: [fine_tuning]
"""


def weights_fact(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, delivery: str
) -> dict[str, object]:
    path = tmp_path / "d.yaml"
    path.write_text(MANIFEST.format(delivery=delivery), encoding="utf-8")
    _, out, _ = run(capsys, "evaluate", str(path), "-f", "json")
    report = report_json(out)
    product = report["products"][0] if "products" in report else report
    # the Notice file duty reads distributes_weights (the Agreement copy reads availability)
    finding = next(f for f in product["findings"] if f["clause"] == "notice-file")
    fact: dict[str, object] = next(
        x for x in finding["facts"] if x["name"] == "distributes_weights"
    )
    return fact


@pytest.mark.parametrize(
    ("kind", "status"), [("official_statement", "established"), ("rumour", "unknown")]
)
def test_delivery_evidence_counts_under_the_policy(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str, status: str
) -> None:
    evidence = f"[{{source: forum, kind: {kind}, date: 2025-03-01}}]"
    fact = weights_fact(capsys, tmp_path, f"{{value: [weights], evidence: {evidence}}}")
    assert fact["status"] == status


def test_a_plain_list_is_declared_as_before(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    fact = weights_fact(capsys, tmp_path, "[weights]")
    assert fact["status"] == "established" and fact["value"] == "true"


def test_a_malformed_delivery_is_a_located_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "d.yaml"
    path.write_text(MANIFEST.format(delivery="{values: [weights]}"), encoding="utf-8")
    code, out, err = run(capsys, "evaluate", str(path))
    assert code == 2 and "delivery is a list" in out + err and "d.yaml:" in out + err
