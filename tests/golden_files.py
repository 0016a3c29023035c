"""Compare output with a golden file byte for byte, or rewrite it under --update-golden."""

from __future__ import annotations

from tests.conftest import GOLDEN


def assert_golden(name: str, text: str, update: bool) -> None:
    path = GOLDEN / name
    if update:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="")
        return
    assert path.is_file(), f"{path} is missing: run pytest --update-golden"
    assert text == path.read_text(encoding="utf-8"), (
        f"output differs from {path}; if the change is intended, run pytest --update-golden"
    )
