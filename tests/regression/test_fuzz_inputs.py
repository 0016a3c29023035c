"""Fuzzing the inputs beside manifests: waiver files, policies, configuration files and library
layers' catalogs, mutated as `tests/regression/test_fuzz.py` mutates manifests (same mutations, same
promise: exit 0, 1 or 2, never 3 or a traceback; on 2, the file named and nothing on stdout)."""

from __future__ import annotations

import contextlib
import io
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given

from licheck.cli import cli
from licheck.cli.common import run_guarded
from tests.conftest import PRODUCTS, ROOT
from tests.regression.test_fuzz import COUNT, fuzz, mutated

COMPOSER = str(PRODUCTS / "composer2.yaml")
WAIVERS = """\
waivers:
  - id: composer2-kimi-attribution
    product: Composer 2
    license: kimi-k2.5-modified-mit
    clause: ui-attribution
    component: composer-2
    reason: facts_pending
    comment: Asking Moonshot.
    owner: legal@example.com
    expires: 2026-12-31
    granted: 2026-03-25
    pins:
      derivative: unknown
      ui_attribution: {excludes: [Kimi K2.5]}
"""
POLICY = (ROOT / "docs" / "policy-example.yaml").read_text(encoding="utf-8")
CONFIG = f"""\
paths: [{COMPOSER}]
fail-on: risk
evidence: default
verbose: true
annotations: 5
format: json
"""
LAYER_CATALOG = """\
models:
  - id: acme-coder-7b
    name: Acme Coder 7B
    aliases: [acme/coder-7b]
    family: acme
    licensor: acme
    license: mit
    source: "acme/coder-7b model card: MIT"
  - id: kimi-k2.5
    name: Kimi K2.5
    aliases: [moonshotai/Kimi-K2.5]
    family: kimi
    licensor: moonshot
    license: mit
    source: an internal review
"""


def run_input(content: str, kind: str, name: str, argv: Callable[[Path], list[str]]) -> int:
    """Write `content` as `name` in a fresh folder, run `licheck ARGV(path)`, check the answer
    is a clean one."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_bytes(content.encode("utf-8", errors="surrogateescape"))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run_guarded(cli, argv(path))
        stdout, stderr = out.getvalue(), err.getvalue()
    COUNT.cases[kind] += 1
    COUNT.codes[code] += 1
    assert code in (0, 1, 2), f"exit {code}:\n{stderr}"
    assert "Traceback" not in stderr + stdout
    if code == 2:
        assert name in stderr, stderr
        assert stdout == ""
        assert "error" in stderr
    return code


def with_waivers(path: Path) -> list[str]:
    argv = ["--no-config", "evaluate", COMPOSER, "-f", "json", "--today", "2026-05-01"]
    return [*argv, "--waivers", str(path)]


def with_policy(path: Path) -> list[str]:
    return ["--no-config", "evaluate", COMPOSER, "-f", "json", "--policy", str(path)]


def with_config(path: Path) -> list[str]:
    # PATHS named: a mutation that drops `paths` would make a usage error, not a finding
    return ["--config", str(path), "check", COMPOSER]


def with_layer(path: Path) -> list[str]:
    return ["--no-config", "evaluate", COMPOSER, "-f", "json", "--licenses", str(path.parent)]


@pytest.mark.slow
@fuzz(300)
@given(mutated([WAIVERS]))
def test_mutated_waiver_files(text: str) -> None:
    run_input(text, "waiver files", "waivers.yaml", with_waivers)


@pytest.mark.slow
@fuzz(300)
@given(mutated([POLICY]))
def test_mutated_policies(text: str) -> None:
    run_input(text, "policies", "policy.yaml", with_policy)


@pytest.mark.slow
@fuzz(300)
@given(mutated([CONFIG]))
def test_mutated_configuration_files(text: str) -> None:
    run_input(text, "configurations", ".licheck.yaml", with_config)


@pytest.mark.slow
@fuzz(200)
@given(mutated([LAYER_CATALOG]))
def test_mutated_layer_catalogs(text: str) -> None:
    run_input(text, "layer catalogs", "catalog.yaml", with_layer)


def test_the_seeds_are_valid() -> None:
    """The mutations start from valid files, so that they probe the checks one step away."""
    assert run_input(WAIVERS, "seeds", "waivers.yaml", with_waivers) == 0
    assert run_input(POLICY, "seeds", "policy.yaml", with_policy) in (0, 1)
    assert run_input(CONFIG, "seeds", ".licheck.yaml", with_config) == 1
    assert run_input(LAYER_CATALOG, "seeds", "catalog.yaml", with_layer) == 0
