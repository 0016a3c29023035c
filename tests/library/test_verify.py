"""`licenses verify`: every quote occurs in its canonical text and every hash matches; a
one-character change to a quote or to a text is caught and the clause named."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.clirun import run
from tests.conftest import LICENSES, REFERENCE_TEXTS, needs_reference

pytestmark = needs_reference()


def test_reference_texts_verify(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "licenses", "verify", "--texts", str(REFERENCE_TEXTS))
    assert code == 0, err
    assert out.startswith("ok:")


def _library_copy(tmp_path: Path) -> Path:
    library = tmp_path / "licenses"
    shutil.copytree(LICENSES, library)
    return library


def test_a_changed_quote_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    library = _library_copy(tmp_path)
    rule = library / "kimi-k2.5-modified-mit.yaml"
    text = rule.read_text(encoding="utf-8")
    rule.write_text(
        text.replace("Our only modification part", "Our only modificatiom part", 1),
        encoding="utf-8",
    )
    code, _, err = run(
        capsys, "licenses", "verify", "--texts", str(REFERENCE_TEXTS), "--licenses", str(library)
    )
    assert code == 1
    assert "kimi-k2.5-modified-mit/ui-attribution" in err


def test_a_changed_text_is_named(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    texts = tmp_path / "texts"
    shutil.copytree(REFERENCE_TEXTS, texts)
    target = texts / "kimi-k2.5-modified-mit.txt"
    target.write_text(
        target.read_text(encoding="utf-8").replace("20 million", "30 million"), encoding="utf-8"
    )
    code, _, err = run(capsys, "licenses", "verify", "--texts", str(texts))
    assert code == 1
    assert "kimi-k2.5-modified-mit.txt has changed" in err
    assert "kimi-k2.5-modified-mit/ui-attribution" in err


def test_a_licensors_license_without_header_verifies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A LICENSE as the licensor publishes it (no provenance header) has the same hash.
    texts = tmp_path / "texts"
    shutil.copytree(REFERENCE_TEXTS, texts)
    target = texts / "kimi-k2.5-modified-mit.txt"
    lines = target.read_text(encoding="utf-8").split("\n")
    target.write_text("\n".join(lines[4:]), encoding="utf-8")
    code, _, err = run(capsys, "licenses", "verify", "--texts", str(texts))
    assert code == 0, err
