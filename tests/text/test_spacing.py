"""One white-space fold (`text.spacing`) for quotes matched against license texts and for the
engine's near-matches; the engine side gets it without importing the library side."""

from __future__ import annotations

import subprocess
import sys

from licheck.library import coverage, textcheck
from licheck.text import nearmatch
from licheck.text.spacing import fold_space


def test_runs_of_any_white_space_become_one_space_and_the_ends_none() -> None:
    assert fold_space("  a\tb\n\nc \u00a0d\u2028e  ") == "a b c d e"
    assert fold_space("") == "" and fold_space(" \n\t ") == ""
    assert fold_space("a-b") == "a-b"  # nothing but white space changes


def test_verify_and_coverage_fold_with_it() -> None:
    assert textcheck.normalise is fold_space
    assert coverage.fold is fold_space


def test_near_matches_fold_with_it() -> None:
    assert nearmatch.normal("Kimi\u00a0\u00a0K2.5 ") == "kimi k2.5"
    assert nearmatch.near("Kimi  K2.5", "Kimi K2.5")
    assert nearmatch.difference("Kimi\u00a0K2.5", "Kimi K2.5").startswith(
        "differs only in white space:"
    )


def test_the_near_matches_import_nothing_of_the_library_side() -> None:
    probe = (
        "import sys, licheck.text.nearmatch; "
        "print(sorted(m for m in sys.modules if m.startswith('licheck.')))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.split() == [
        "['licheck._version',",  # `import licheck` loads the version's own module
        "'licheck.text',",  # the package: its __init__ holds only its docstring
        "'licheck.text.nearmatch',",
        "'licheck.text.spacing']",
    ]
