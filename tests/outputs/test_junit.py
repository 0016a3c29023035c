"""JUnit output under `--fail-on never`: the gate does not fail (exit 0), but a violation is still
a `<failure type="violation">` in the XML (it is still a violation, as `formats/junit.py` and the
format table of docs/check.md say), so a CI test-report view shows it; only a governance risk, which
fails no gate below `--fail-on risk`, is `<skipped>` with the reason."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.clirun import run

MANIFEST = """\
product: Open Bound {name}
owner: Test Co
release_date: 2026-03-19
facts:
  commercial: true
  mau: {{at_least: {mau}}}
  monthly_revenue: 1M USD/month
  ui_attribution: []
  agreement_waives: []
components:
  - id: chat
    name: Chat
    delivery: [hosted_service]
    lineage:
      base: {{model: kimi-k2.5}}
"""

QUOTE = (
    "Our only modification part is that, if the Software (or any derivative works thereof) is "
    "used for any of your commercial products or services that have more than 100 million "
    "monthly active users, or more than 20 million US dollars (or equivalent in other "
    "currencies) in monthly revenue, you shall prominently display &quot;Kimi K2.5&quot; on the "
    "user interface of such product or service."
)
WHY = (
    "Why: In every completion of the facts the clause binds and is triggered, its requirement "
    "fails, and no exception lifts it: agreement_waives is [] (declared); commercial is true "
    "(declared); lineage is true (declared); mau is ≥ 150M (declared); monthly_revenue is 1M "
    "USD/month (declared); outputs_lineage is false (declared); relations is [served] "
    "(declared); ui_attribution is [] (declared)."
)
TITLE = "Display &quot;Kimi K2.5&quot; on the user interface at scale"

VIOLATION_SUITE = f"""\
  <testsuite name="high.yaml" tests="2" failures="1" errors="0" skipped="0" time="0">
    <properties>
      <property name="product" value="Open Bound High" />
      <property name="owner" value="Test Co" />
      <property name="verdict" value="violation" />
    </properties>
    <testcase classname="licheck.high.yaml" \
name="chat: kimi-k2.5-modified-mit/copyright-notice" time="0" />
    <testcase classname="licheck.high.yaml" \
name="chat: kimi-k2.5-modified-mit/ui-attribution" time="0">
      <failure message="violation: {TITLE}" type="violation">\
high.yaml:8:3: violation: kimi-k2.5-modified-mit/ui-attribution
{WHY}
The license says: “{QUOTE.replace("&quot;", '"')}”</failure>
    </testcase>
  </testsuite>"""

RISK_SUITE = f"""\
  <testsuite name="low.yaml" tests="2" failures="0" errors="0" skipped="1" time="0">
    <properties>
      <property name="product" value="Open Bound Low" />
      <property name="owner" value="Test Co" />
      <property name="verdict" value="governance_risk" />
    </properties>
    <testcase classname="licheck.low.yaml" \
name="chat: kimi-k2.5-modified-mit/copyright-notice" time="0" />
    <testcase classname="licheck.low.yaml" \
name="chat: kimi-k2.5-modified-mit/ui-attribution" time="0">
      <skipped message="governance risk (does not fail --fail-on never): {TITLE}">\
low.yaml:6:3: governance risk: kimi-k2.5-modified-mit/ui-attribution
Why: Governance risk, not a violation: the verdict depends on facts that are missing or only \
weakly evidenced — whether the clause is triggered is not settled (mau is ≥ 50M: the threshold \
100M lies inside, so it is unsettled). Where the clause is triggered and not lifted, its \
requirement fails.
The license says: “{QUOTE.replace("&quot;", '"')}”
Missing fact mau: if [50M, 100M]: not applicable; if &gt; 100M: violation</skipped>
    </testcase>
  </testsuite>"""


def settings_suite(fail_on: str) -> str:
    """The settings in force: the gate's policy, typed here (every other setting the default)."""
    return f"""\
  <testsuite name="settings in force" tests="0" failures="0" errors="0" skipped="0" time="0">
    <properties>
      <property name="fail-on" value="{fail_on}" />
      <property name="fail-on.source" value="command line" />
    </properties>
  </testsuite>"""


@pytest.fixture
def products(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """high.yaml (a violation: mau at least 150M) and low.yaml (a governance risk: at least 50M),
    in the working directory so the reports name them by their bare file names."""
    (tmp_path / "high.yaml").write_text(MANIFEST.format(name="High", mau="150M"), "utf-8")
    (tmp_path / "low.yaml").write_text(MANIFEST.format(name="Low", mau="50M"), "utf-8")
    monkeypatch.chdir(tmp_path)


@pytest.mark.usefixtures("products")
@pytest.mark.parametrize("command", ["evaluate", "check"])
def test_a_violation_is_a_failure_element_under_fail_on_never(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, out, err = run(capsys, command, "high.yaml", "--format", "junit", "--fail-on", "never")
    assert code == 0, err  # the gate does not fail ...
    assert out == (  # ... but the violation is reported as a failure
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<testsuites name="licheck" tests="2" failures="1" errors="0" time="0">\n'
        f"{VIOLATION_SUITE}\n"
        f"{settings_suite('never')}\n"
        "</testsuites>\n"
    )
    failure = ET.fromstring(out).find(".//failure")
    assert failure is not None and failure.get("type") == "violation"


@pytest.mark.usefixtures("products")
@pytest.mark.parametrize("command", ["evaluate", "check"])
def test_a_violation_reads_the_same_whatever_the_gate(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """The XML of a violation does not depend on --fail-on; only the exit code does (and the
    settings in force name the policy)."""
    outputs = {}
    for fail_on, expected_code in (("never", 0), ("violation", 1), ("risk", 1)):
        code, out, err = run(capsys, command, "high.yaml", "-f", "junit", "--fail-on", fail_on)
        assert code == expected_code, err
        assert settings_suite(fail_on) in out
        outputs[fail_on] = out.replace(settings_suite(fail_on), "")
    assert outputs["never"] == outputs["violation"] == outputs["risk"]


@pytest.mark.usefixtures("products")
def test_check_under_fail_on_never_fails_the_violation_and_skips_the_risk(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys, "check", "high.yaml", "low.yaml", "--format", "junit", "--fail-on", "never"
    )
    assert code == 0, err
    assert out == (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<testsuites name="licheck" tests="4" failures="1" errors="0" time="0">\n'
        f"{VIOLATION_SUITE}\n"
        f"{RISK_SUITE}\n"
        f"{settings_suite('never')}\n"
        "</testsuites>\n"
    )


@pytest.mark.usefixtures("products")
def test_under_fail_on_risk_the_risk_is_a_failure_too(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "check", "low.yaml", "--format", "junit", "--fail-on", "risk")
    assert code == 1, err
    suite = ET.fromstring(out).find("testsuite")
    assert suite is not None and (suite.get("failures"), suite.get("skipped")) == ("1", "0")
    failure = suite.find(".//failure")
    assert failure is not None
    assert failure.get("type") == "governance_risk"
    assert failure.get("message") == (
        'governance risk: Display "Kimi K2.5" on the user interface at scale'
    )
    assert failure.text is not None
    assert "Missing fact mau: if [50M, 100M]: not applicable; if > 100M: violation" in failure.text
