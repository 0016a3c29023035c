"""Organisation policies where the license a model is under is not one known text: a model
whose license is not in the library still has the policies judged for it (a rule on its family
binds whatever its license), and a copy that may be under either of two dated texts reports each
rule once and never lets a rule named like a license's clause stand for that clause."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clirun import run

PRODUCT = """\
product: P
owner: O
facts:
  commercial: true
  notice_included: false
components:
  - id: c
    name: C
    delivery: [weights]
    lineage: {{base: {base}}}
"""

RULE = """\
policy: acme
name: Acme
clauses:
  - id: {rule}
    kind: restriction
    title: A rule
    text: A rule.
    requirement: {requirement}
"""


def _findings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], base: str, rule: str, requirement: str
) -> tuple[int, list[dict[str, str]]]:
    manifest = tmp_path / "p.yaml"
    manifest.write_text(PRODUCT.format(base=base), encoding="utf-8")
    policy = tmp_path / "policy.yaml"
    policy.write_text(RULE.format(rule=rule, requirement=requirement), encoding="utf-8")
    code, out, err = run(capsys, "check", str(manifest), "--policy", str(policy), "-f", "json")
    assert code in (0, 1), err
    return code, json.loads(out)["products"][0]["findings"]


def test_a_rule_on_the_family_binds_a_model_whose_license_is_unknown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Qwen2.5-72B's license is not in the library: the policy's 'no Qwen' is still a
    violation, and a rule on the license is a governance risk, not skipped."""
    code, findings = _findings(
        tmp_path, capsys, "qwen2.5-72b", "no-qwen", "{not: {fact: model_family, equals: qwen}}"
    )
    assert code == 1
    verdicts = {(f["license"], f["clause"]): f["verdict"] for f in findings}
    assert verdicts[("policy/acme", "no-qwen")] == "violation"
    assert verdicts[("unknown", "license-unknown")] == "governance_risk"
    _, findings = _findings(
        tmp_path, capsys, "qwen2.5-72b", "mit-only", "{fact: model_license, equals: mit}"
    )
    verdicts = {(f["license"], f["clause"]): f["verdict"] for f in findings}
    assert verdicts[("policy/acme", "mit-only")] == "governance_risk"


def test_a_rule_named_like_a_clause_never_stands_for_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """MiniMax-M2's copy may be under either of two texts (no `obtained`); both have a
    `copyright-notice` clause the manifest violates.  A policy rule also named
    `copyright-notice`, satisfied, must not make those violations vanish."""
    code, findings = _findings(
        tmp_path, capsys, "minimax-m2", "copyright-notice", "{fact: commercial, is: true}"
    )
    assert code == 1
    violated = {f["license"] for f in findings if f["clause"] == "copyright-notice"}
    assert {"minimax-m2-mit-original", "minimax-m2-modified-mit"} <= violated
    rules = [f for f in findings if f["license"] == "policy/acme"]
    assert [(f["clause"], f["verdict"]) for f in rules] == [("copyright-notice", "satisfied")]


def test_the_policies_bind_an_undisclosed_base_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A rule on the product's own facts is violated whatever the base is; a rule on the
    family of an undisclosed base is a governance risk — neither is skipped."""
    code, findings = _findings(
        tmp_path, capsys, "unknown", "notice", "{fact: notice_included, is: true}"
    )
    assert code == 1
    verdicts = {(f["license"], f["clause"]): f["verdict"] for f in findings}
    assert verdicts == {
        ("policy/acme", "notice"): "violation",
        ("unknown", "base-undisclosed"): "governance_risk",
    }
    _, findings = _findings(
        tmp_path, capsys, "unknown", "no-qwen", "{not: {fact: model_family, equals: qwen}}"
    )
    verdicts = {(f["license"], f["clause"]): f["verdict"] for f in findings}
    assert verdicts[("policy/acme", "no-qwen")] == "governance_risk"
