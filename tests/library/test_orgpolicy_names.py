"""A policy rule that names a license id or a model family the library has not would never
match it: in a deny list (`not: {fact: model_license, in: [...]}`) the rule would always hold.
Such a name is a located error with a did-you-mean, against the library the run reads (layers
included); names as the engine compares them (case, typography) are accepted."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clirun import run
from tests.conftest import PRODUCTS

RULE = """\
policy: acme
name: Acme
clauses:
  - id: deny
    kind: restriction
    title: Deny
    text: Deny.
    requirement: {{not: {{fact: {fact}, {operator}: {operand}}}}}
"""


def _check(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fact: str, operator: str, operand: str
) -> tuple[int, str]:
    policy = tmp_path / "policy.yaml"
    policy.write_text(RULE.format(fact=fact, operator=operator, operand=operand), "utf-8")
    manifest = str(PRODUCTS / "composer2.yaml")
    code, _, err = run(capsys, "check", manifest, "--policy", str(policy))
    return code, err


@pytest.mark.parametrize(
    ("fact", "operator", "operand", "message"),
    [
        (
            "model_license",
            "in",
            "[mit, kimi-k2.5-modifed-mit]",
            "no license 'kimi-k2.5-modifed-mit' in the library (did you mean "
            "'kimi-k2.5-modified-mit'?)",
        ),
        ("model_license", "equals", "lama-3-community", "no license 'lama-3-community'"),
        (
            "model_family",
            "equals",
            "kimmi",
            "no family 'kimmi' in the library (did you mean 'kimi'",
        ),
        ("model_family", "starts_with", "lam", "no family 'lam'"),
    ],
)
def test_a_name_the_library_has_not_is_a_located_error(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    fact: str,
    operator: str,
    operand: str,
    message: str,
) -> None:
    code, err = _check(tmp_path, capsys, fact, operator, operand)
    assert code == 2
    assert f"policy.yaml:8:19: error: {message}" in err, err


@pytest.mark.parametrize(
    ("fact", "operator", "operand"),
    [
        ("model_license", "in", "[mit, Kimi-K2.5-Modified-MIT]"),
        ("model_family", "equals", "Kimi"),
        ("model_family", "starts_with", "lla"),
    ],
)
def test_names_the_library_has_are_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], fact: str, operator: str, operand: str
) -> None:
    code, err = _check(tmp_path, capsys, fact, operator, operand)
    assert code in (0, 1), err
