"""Facts stated per model or per license: a model, license or fact that cannot be scoped there
is a located error (exit 2), never a silent skip."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BAD = """\
product: P
owner: O
facts:
  derivative: {by_license: {apache-2.0: false}}
components:
  - id: c
    name: C
    delivery: [weights]
    lineage: {base: llama-3.1-8b, steps: [fine_tuning]}
    facts:
      derivative: {by_license: {mit: false}, by_model: {qwen3: true}}
      mau: {by_license: {llama-3.1-community: 5}}
"""


def test_scopes_outside_the_lineage_are_located_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "licheck", "evaluate", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    out = result.stdout + result.stderr
    assert "bad.yaml:4:16: error: fact 'derivative': by_license" in out
    assert "bad.yaml:11:38: error: license 'mit' is not in this component's lineage" in out
    assert "bad.yaml:11:64: error: model 'qwen3' is not in this component's lineage" in out
    assert "bad.yaml:12:13: error: fact 'mau': by_license" in out


# -- a running figure dated within its month (issue 24, deliverable 5) ----------------------------

RUNNING = """\
format: 2
product: Coder
owner: Acme
facts:
  {fact}:
    series:
      2025-06: {value}
    evidence: [{{source: acquisition announcement, kind: official_statement, date: {date}}}]
components:
  - id: c
    name: Coder
    delivery: [hosted_service]
    lineage: {{base: kimi-k2.5, steps: [fine_tuning]}}
"""


def _validate(tmp_path: Path, fact: str, value: str, date: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / "running.yaml"
    path.write_text(RUNNING.format(fact=fact, value=value, date=date), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "licheck", "validate", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_arr_as_of_a_day_mid_month_is_that_months_figure(tmp_path: Path) -> None:
    """ARR from an acquisition announcement on 2025-06-15 is June's ARR as of that day."""
    result = _validate(tmp_path, "annual_recurring_revenue", "500M USD", "2025-06-15")
    assert result.returncode == 0, result.stderr


def test_arr_dated_before_its_month_began_is_still_refused(tmp_path: Path) -> None:
    result = _validate(tmp_path, "annual_recurring_revenue", "500M USD", "2025-05-31")
    assert result.returncode == 2 and "before the month was over" in result.stderr


def test_a_months_total_dated_mid_month_is_still_refused_naming_arr(tmp_path: Path) -> None:
    result = _validate(tmp_path, "monthly_revenue", "50M USD/month", "2025-06-15")
    assert result.returncode == 2
    assert "running.yaml:7:7: error: the month 2025-06 of monthly_revenue" in result.stderr
    assert "annual_recurring_revenue" in " ".join(result.stderr.split())
