"""JUnit past GitLab's 30 MB: the suites that fit, then one suite naming the cut with a
testcase per product left out (failed when the product fails the gate); totals agree."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from licheck.outputs import Piece
from licheck.outputs.junit import MAX_BYTES, JunitDocument
from licheck.report.view import FailOn, Report
from tests.clirun import report_json, run
from tests.conftest import ROOT


def _report(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Report:
    monkeypatch.chdir(ROOT)
    _, out, _ = run(capsys, "check", "products", "-f", "json")
    return Report.model_validate(report_json(out))


def _render(report: Report, document: JunitDocument) -> str:
    """As `outputs.render` does, with the given document."""
    pieces: list[Piece] = []
    for index, product in enumerate(report.products):
        piece = document.piece(product)
        document.take(index, piece.extra)
        if piece.text and document.admits(index, piece.extra):
            pieces.append(piece)
    top = report.model_copy(update={"products": []})
    body = document.separator.join(p.filled(document) for p in pieces)
    return document.head(top, len(pieces)) + body + document.tail(top, len(pieces))


def _totals(root: ET.Element) -> None:
    """The root's totals are the sums over its suites (what xUnit and GitLab check)."""
    for key in ("tests", "failures", "errors"):
        assert int(root.get(key, "0")) == sum(int(s.get(key, "0")) for s in root), key


def test_the_cap_is_below_gitlabs_limit() -> None:
    assert MAX_BYTES < 30_000_000


@pytest.mark.parametrize("fail_on", [FailOn.VIOLATION, FailOn.RISK])
def test_a_cut_report_names_the_cut_and_keeps_the_gate(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, fail_on: FailOn
) -> None:
    report = _report(capsys, monkeypatch)
    whole = ET.fromstring(_render(report, JunitDocument(fail_on)))
    _totals(whole)
    sizes = [len(ET.tostring(s)) for s in whole if s.get("name", "").startswith("products/")]
    assert len(sizes) >= 3
    cap = sizes[0] + 10  # room for the first product's suite only
    cut = ET.fromstring(_render(report, JunitDocument(fail_on, cap=cap)))
    _totals(cut)
    suites = [s for s in cut if s.get("name", "").startswith("products/")]
    assert len(suites) == 1
    (named,) = [s for s in cut if "report cut" in s.get("name", "")]
    left_out = [case.get("classname") for case in named.iter("testcase")]
    assert left_out == [f"licheck.{p.file}" for p in report.products[1:]]
    # a product left out that fails the gate fails here too: the build's verdict is unchanged
    failing_whole = {s.get("name") for s in whole if int(s.get("failures", "0"))}
    failing_cut = {
        case.get("classname", "").removeprefix("licheck.")
        for case in named.iter("testcase")
        if case.find("failure") is not None
    } | {s.get("name") for s in suites if int(s.get("failures", "0"))}
    assert failing_cut == failing_whole
    assert (int(cut.get("failures", "0")) > 0) == (int(whole.get("failures", "0")) > 0)
