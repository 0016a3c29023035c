"""What the formats show under their caps: a finding the JSON report holds must not be dropped,
hidden or shown with another weight by a format's cap."""

from __future__ import annotations

import functools
import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence

import pytest

from licheck.core.verdicts import Verdict
from licheck.outputs import Format, RenderOptions, render
from licheck.report.view import (
    BaselineCounts,
    BaselineOut,
    BaselineRef,
    BaselineStatus,
    ErrorOut,
    FailOn,
    FindingOut,
    ProductOut,
    Report,
    WaiverRef,
    summarize,
)
from tests.conftest import PRODUCTS
from tests.outputs.test_formats_agree import evaluated


@functools.cache
def _shipped() -> Report:
    return evaluated((PRODUCTS,))


def _problem(verdict: Verdict, clause: str, status: BaselineStatus | None = None) -> FindingOut:
    """A finding of the shipped report, made a problem of `verdict` about `clause`."""
    base = next(f for p in _shipped().products for f in p.findings if f.quote)
    was = None if status == "new" else verdict
    baseline = None if status is None else BaselineRef(status=status, verdict=was)
    return base.model_copy(update={"verdict": verdict, "clause": clause, "baseline": baseline})


def _report(findings: list[FindingOut], errors: Sequence[ErrorOut] = ()) -> Report:
    worst = max((f.verdict for f in findings), key=lambda v: v.severity)
    product = _shipped().products[0].model_copy(update={"findings": findings, "verdict": worst})
    top = {"products": [product], "summary": summarize([product]), "errors": list(errors)}
    return _shipped().model_copy(update=top | {"verdict": worst})


def test_github_unread_manifests_take_their_share_of_the_error_annotations() -> None:
    """GitHub shows 10 errors a step: an unread manifest's ::error (always written) used to come
    on top of `limit` findings' errors, so GitHub dropped a violation and nothing said so."""
    violations = [_problem(Verdict.VIOLATION, f"clause-{i}") for i in range(3)]
    unread = ErrorOut(file="broken.yaml", line=1, column=1, message="invalid YAML")
    report = _report(violations, [unread])
    text = render(report, Format.GITHUB, RenderOptions(annotations=3))
    errors = [line for line in text.splitlines() if line.startswith("::error")]
    assert len(errors) == 3
    assert "manifest not read" in errors[0]
    listed = [
        line for line in text.splitlines() if line.startswith("licheck: ") and "/clause-2" in line
    ]
    assert listed and "1 more finding not annotated" in text
    assert not any("/clause-2" in line for line in errors)


def _markdown_rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| ") and "`" in line]


def test_markdown_shows_the_findings_that_fail_the_gate_before_accepted_ones() -> None:
    """With a baseline, 20 unchanged violations (accepted) used to fill the comment's rows while
    the new governance risk that fails `--fail-on risk` was only counted in '… and 1 more'."""
    accepted = [_problem(Verdict.VIOLATION, f"old-{i}", "unchanged") for i in range(20)]
    failing = _problem(Verdict.GOVERNANCE_RISK, "fresh", "new")
    report = _report([*accepted, failing])
    text = render(report, Format.MARKDOWN, RenderOptions(fail_on=FailOn.RISK))
    rows = _markdown_rows(text)
    assert len(rows) == 20 and "… and 1 more finding" in text
    assert "/fresh`" in rows[0] and "**governance risk** (new)" in rows[0]
    # without a gate it could fail (--fail-on never), the worst verdict comes first
    text = render(report, Format.MARKDOWN, RenderOptions(fail_on=FailOn.NEVER))
    assert not any("/fresh`" in row for row in _markdown_rows(text))
    assert isinstance(report.products[0], ProductOut)


def test_sarif_unread_manifests_count_toward_the_results_cap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The cap kept `MAX_RESULTS` findings' results, then added an error result per unread
    manifest: a run over code scanning's limit, which GitHub rejects with every alert in it."""
    import licheck.outputs.sarif as sarif

    monkeypatch.setattr(sarif, "MAX_RESULTS", 3)
    violations = [_problem(Verdict.VIOLATION, f"clause-{i}") for i in range(3)]
    unread = ErrorOut(file="broken.yaml", line=1, column=1, message="invalid YAML")
    (run,) = json.loads(render(_report(violations, [unread]), Format.SARIF))["runs"]
    assert len(run["results"]) == 3
    assert run["properties"]["resultsOmitted"] == 1
    notes = run["invocations"][0]["toolExecutionNotifications"]
    assert [n["descriptor"]["id"] for n in notes] == ["results-capped", "manifest-not-read"]
    assert "1 of 4 results omitted" in notes[0]["message"]["text"]
    # under the cap, the unread manifest is a result as before
    monkeypatch.setattr(sarif, "MAX_RESULTS", 4)
    (run,) = json.loads(render(_report(violations, [unread]), Format.SARIF))["runs"]
    assert [r["ruleId"] for r in run["results"]][-1] == "licheck/manifest-not-read"
    assert "resultsOmitted" not in run["properties"]


def test_markdown_heading_names_the_worst_finding_even_when_it_is_accepted() -> None:
    """The comment's heading showed the gate verdict: a product whose only violation is waived
    (or unchanged from the baseline) was headed '✅ not applicable', where the JSON report's
    verdict and the HTML page's say violation."""
    waived = _problem(Verdict.VIOLATION, "waived").model_copy(update={"waived": True})
    report = _report([waived])
    assert report.summary.gate_verdict is Verdict.NOT_APPLICABLE
    heading = render(report, Format.MARKDOWN).splitlines()[0]
    assert heading.startswith("### licheck: 🛑 violation (waived; counted toward the gate: ")
    assert heading.endswith("— gate passes") and "✅" not in heading
    compared = BaselineOut(file="b.json", tool_version="0", counts=BaselineCounts(), gone=[])
    accepted = _report([_problem(Verdict.VIOLATION, "old", "unchanged")])
    accepted = accepted.model_copy(update={"baseline": compared})
    heading = render(accepted, Format.MARKDOWN).splitlines()[0]
    assert heading.startswith("### licheck: 🛑 violation (waived or no worse than in the baseline")


def test_junit_text_cannot_start_a_workflow_command() -> None:
    """An expired waiver's message (its owner and comment are the waiver file's text) went raw
    into the <skipped> text: an owner 'x\\n::warning::forged' began a line with `::`, a workflow
    command when the report is printed to a GitHub Actions log (the HTML page guards against
    this; JUnit did not)."""
    risk = _problem(Verdict.GOVERNANCE_RISK, "ui")
    message = "waiver w1 expired (owner x\n::warning::forged): it counts again"
    waiver = WaiverRef(
        id="w1", status="expired", reason="facts_pending", owner="x\n::warning::forged",
        expires="2026-01-31", comment="", file="w.yaml", line=2, message=message,
    )  # fmt: skip
    text = render(_report([risk.model_copy(update={"waiver": waiver})]), Format.JUNIT)
    assert re.search(r"(?m)^\s*::", text) is None
    (skipped,) = ET.fromstring(text).iter("skipped")
    assert skipped.text is not None and message in skipped.text  # the same text, read as XML
