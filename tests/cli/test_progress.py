"""The progress line of a long `check`: on a terminal only, throttled, wiped at the end."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from licheck.cli.progress import INTERVAL, MINIMUM, Progress, for_terminal
from licheck.facts.evidencepolicy import POLICIES
from licheck.outputs import Format, RenderOptions
from licheck.portfolio.runs import check_stream
from tests.conftest import PRODUCTS


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_is_throttled_and_wiped() -> None:
    out = io.StringIO()
    now = [0.0]
    progress = Progress(out, clock=lambda: now[0])
    total = MINIMUM + 100
    for done in range(1, total + 1):
        progress(done, total)
        now[0] += INTERVAL / 4  # four manifests per redraw interval
    frames = out.getvalue().split("\r")[1:]
    drawn = [f for f in frames if f.strip()]
    assert drawn[0] == f"checked 1 of {total:,} manifests"
    # a redraw every fourth or (rounding of the clock) fifth manifest, never one per manifest
    assert total / 5 - 1 <= len(drawn) <= total / 4 + 1
    assert all(f"of {total:,} manifests" in f for f in drawn)
    assert frames[-2].strip() == "" and frames[-1] == ""  # wiped, the cursor back at the start
    assert len(frames[-2]) == max(len(f) for f in drawn)


def test_small_portfolios_show_nothing() -> None:
    out = io.StringIO()
    progress = Progress(out)
    for done in range(1, MINIMUM):
        progress(done, MINIMUM - 1)
    assert out.getvalue() == ""


def test_only_on_a_terminal_and_never_in_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    assert for_terminal(io.StringIO()) is None  # a pipe or a file
    assert isinstance(for_terminal(Terminal()), Progress)
    monkeypatch.setenv("CI", "true")
    assert for_terminal(Terminal()) is None


def test_check_stream_tells_each_manifest_in_order() -> None:
    seen: list[tuple[int, int]] = []
    paths = [Path(PRODUCTS)]
    with check_stream(
        paths,
        POLICIES["default"],
        Format("json"),
        RenderOptions(),
        progress=lambda done, total: seen.append((done, total)),
    ):
        pass
    total = len(list(Path(PRODUCTS).glob("*.yaml")))
    assert seen == [(done, total) for done in range(1, total + 1)]
