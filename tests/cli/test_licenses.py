"""`licheck licenses list | show | models | verify` over the built-in library."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from licheck.cli import cli
from licheck.cli.common import run_guarded
from licheck.library.compiled import load_library
from tests.conftest import REFERENCE_TEXTS, needs_reference


def _run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.output


def test_list_json_gives_every_license_with_its_id() -> None:
    code, out = _run("licenses", "list", "--format", "json")
    assert code == 0
    rows = json.loads(out)
    ids = [row["id"] for row in rows]
    assert ids == sorted(load_library().licenses)
    assert len(ids) >= 20
    k3 = next(row for row in rows if row["id"] == "kimi-k3")
    assert k3["provenance"] == "secondary-copy" and k3["unverified"] is True


def test_show_flags_a_secondary_copy_as_unverified() -> None:
    code, out = _run("licenses", "show", "kimi-k3")
    assert code == 0
    assert "provenance: secondary-copy — UNVERIFIED" in out
    assert "SECONDARY COPY" in out
    for clause in ("maas-gate", "ui-attribution", "copyright-notice"):
        assert clause in out
    assert "any consecutive 12 months" in " ".join(out.split())


def test_show_says_what_a_clause_requires_compliance_with() -> None:
    code, out = _run("licenses", "show", "yi-community-license-v2.1")
    assert code == 0
    assert "complies with: law, ethics" in out
    assert out.count("complies with:") == 1  # only laws-and-ethics declares one


def test_show_flags_a_third_party_copy() -> None:
    code, out = _run("licenses", "show", "gemma-terms-of-use")
    assert code == 0
    assert "provenance: third-party-copy" in out
    assert "THIRD-PARTY COPY" in out


def test_show_of_a_verbatim_text_has_no_warning() -> None:
    code, out = _run("licenses", "show", "tongyi-qianwen")
    assert code == 0
    assert "provenance: verbatim" in out and "warning" not in out
    assert "license_granted contains 'tongyi-qianwen'" in out


def test_show_lists_models_with_the_dates_a_changed_license_applied() -> None:
    code, out = _run("licenses", "show", "minimax-m2-mit-original")
    assert code == 0
    assert "minimax-m2 (copies obtained 2025-10-27 to 2025-11-12)" in out


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
def test_show_an_unknown_license_exits_2_with_a_hint(capsys: pytest.CaptureFixture[str]) -> None:
    code = run_guarded(cli, ["licenses", "show", "tongyi-qianwan"])
    assert code == 2
    assert "did you mean 'tongyi-qianwen'" in capsys.readouterr().err


def test_models_lists_license_history() -> None:
    code, out = _run("licenses", "models")
    assert code == 0
    assert "copies obtained on or after 2024-05-30: yi-apache-2.0" in out


@needs_reference()
def test_verify_against_the_reference_texts_exits_0() -> None:
    code, out = _run("licenses", "verify", "--texts", str(REFERENCE_TEXTS))
    assert code == 0, out
    assert out.startswith("ok:")
