"""Small modules with one job: no module of the package over 500 lines (issue "A simpler core");
evaluation.py, the orchestration, at most 350."""

from __future__ import annotations

from pathlib import Path

import licheck

PACKAGE = Path(licheck.__file__).resolve().parent
LIMIT = 500


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_is_over_500_lines() -> None:
    modules = sorted(PACKAGE.rglob("*.py"))
    assert len(modules) > 50  # the installed package, not an empty folder
    over = {str(m.relative_to(PACKAGE)): n for m in modules if (n := _lines(m)) > LIMIT}
    assert over == {}


def test_evaluation_stays_orchestration() -> None:
    assert _lines(PACKAGE / "evaluation.py") <= 350
