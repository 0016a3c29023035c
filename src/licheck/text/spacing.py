"""White space folded: every run of white space one space, none at either end.

The one fold for both places that set spacing aside: quotes matched against license texts, where
line wrapping may differ (`textcheck`, `coverage`), and the near-matches the engine reads both
ways (`nearmatch`).  It imports nothing of licheck, so the engine side uses it without importing
the library side.
"""

from __future__ import annotations

import re
from typing import Final

_SPACE: Final = re.compile(r"\s+")  # \s is Unicode: a non-breaking space too


def fold_space(text: str) -> str:
    """`text` with each run of white space one space, and none at either end."""
    return _SPACE.sub(" ", text).strip()
