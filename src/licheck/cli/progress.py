"""How far a long `check` has got, on a terminal only.

A line on standard error, "checked 1,234 of 10,000 manifests", redrawn at most ten times a second
and wiped when the run ends.  Nothing is shown when standard error is not a terminal (a pipe, a
file, a CI log: `CI` set in the environment), on a dumb terminal (`TERM=dumb`: a redrawn line
needs a carriage return it may not honour), or for a portfolio small enough to finish at once.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TextIO

from licheck.cli.common import dumb_terminal

MINIMUM = 200  # fewer manifests take about a second: a progress line would only flicker
INTERVAL = 0.1  # seconds between redraws


class Progress:
    """A callback `(done, total)` drawing the progress line on `stream`."""

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self._stream = stream
        self._clock = clock
        self._last = float("-inf")
        self._width = 0

    def __call__(self, done: int, total: int) -> None:
        if total < MINIMUM:
            return
        now = self._clock()
        if done < total and now - self._last < INTERVAL:
            return
        self._last = now
        line = f"checked {done:,} of {total:,} manifests"
        self._width = max(self._width, len(line))
        if done < total:
            self._stream.write("\r" + line)
        else:  # done: leave the terminal as it was
            self._stream.write("\r" + " " * self._width + "\r")
        self._stream.flush()


def for_terminal(stream: TextIO | None = None) -> Progress | None:
    """A `Progress` on standard error when it is an interactive terminal that is not dumb, else
    None."""
    stream = stream if stream is not None else sys.stderr
    if os.environ.get("CI") or dumb_terminal() or not stream.isatty():
        return None
    return Progress(stream)
