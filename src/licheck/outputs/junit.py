"""JUnit XML for CI test-report views (GitLab `artifacts:reports:junit`, Jenkins `junit`).

One <testsuite> per product (named by its manifest), one <testcase> per component × model ×
clause (classname `licheck.<manifest>`, name `component: license/clause`).  The rule: a testcase
fails exactly when its finding fails the gate at the run's `--fail-on` policy —

- violation → <failure type="violation"> (also under --fail-on never: it is still a violation);
- governance risk → <failure type="governance_risk"> under --fail-on risk, otherwise <skipped>
  with the reason (it needs a decision, but does not fail the build);
- waived violation or risk → <skipped> naming the waiver;
- with --baseline, a violation or risk that is not new or worse than in the baseline →
  <skipped> saying how it compares;
- satisfied and not applicable → passed (no child element).

Times are always 0 so the output is deterministic.

GitLab reads a JUnit report of at most 30 MB: past `MAX_BYTES` (25 MB, a margin for the
prolog, the totals and the cut itself) the suites of the remaining products are left out, in
the order they come, and one suite named "licheck: report cut at 25 MB" lists each product left
out as a testcase (failed when one of its findings fails the gate), so the gate and the cut stay
visible in the test view; the JSON, HTML and Code Quality reports have every finding.

Valid for Jenkins' xUnit plugin (its JUnit schema, junit-10.xsd, allows only `name`, `classname`,
`time` and `group` on a testcase, and no `skipped` on <testsuites>) and GitLab: the location is
in the text of the <failure> or <skipped> element (`file:line:col: ...`), not in attributes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

from licheck.core.verdicts import RiskKind, Verdict
from licheck.outputs.document import Piece, Plain, written
from licheck.outputs.summary import baseline_tag, is_problem, replacement_line
from licheck.outputs.unread import message, where
from licheck.report.cards import summary_rows
from licheck.report.gatesettings import shown_value
from licheck.report.view import FailOn, FindingOut, ProductOut, Report, counts_toward_gate, fails
from licheck.text.escape import no_workflow_command, xml_chars


def _outcome(f: FindingOut, fail_on: FailOn) -> tuple[str, str, str] | None:
    """(element, type, message) for a finding; None when it passes."""
    if not is_problem(f):
        return None
    if f.waived and f.waiver is not None:
        return "skipped", "waived", f.waiver.message
    if not counts_toward_gate(f):  # a baseline accepts it
        return "skipped", "baseline", f"{f.verdict.label} ({baseline_tag(f)}): {f.title}"
    if f.verdict is Verdict.VIOLATION or fails(f.verdict, fail_on, f.risk_kind):
        return "failure", f.verdict.value, f"{f.verdict.label}{_to_attest(f)}: {f.title}"
    return (
        "skipped",
        f.verdict.value,
        (f"governance risk{_to_attest(f)} (does not fail --fail-on {fail_on.value}): {f.title}"),
    )


def _to_attest(f: FindingOut) -> str:
    return " to attest" if f.risk_kind is RiskKind.ATTESTATION else ""


def _body(f: FindingOut) -> str:
    loc = f.location
    tag = baseline_tag(f)
    lines = [
        f"{loc.file}:{loc.line}:{loc.column}: {f.verdict.label}: {f.license}/{f.clause}"
        + (f" [{tag}]" if tag else ""),
        f"Why: {f.explanation}",
    ]
    if f.quote:
        lines.append(f"The license says: “{f.quote}”")
    for m in f.missing_facts:
        outcomes = "; ".join(f"if {o.when}: {o.verdict.label}" for o in m.outcomes)
        lines.append(f"Missing fact {m.fact}: {outcomes}")
    if f.waiver is not None and not f.waived:
        lines.append(f.waiver.message)
    return "\n".join(lines)


def _suite(product: ProductOut, fail_on: FailOn) -> tuple[ET.Element, dict[str, int]]:
    suite = ET.Element("testsuite")
    tally = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    names = [f"{f.component}: {f.license}/{f.clause}" for f in product.findings]
    repeated = {name for name, count in Counter(names).items() if count > 1}
    for f, name in zip(product.findings, names, strict=True):
        if name in repeated:  # one license reached through two models: keep names unique
            name += f" (via {f.model})"
        case = ET.SubElement(
            suite,
            "testcase",
            {
                "classname": f"licheck.{product.file}",
                "name": name,
                "time": "0",
            },
        )
        tally["tests"] += 1
        outcome = _outcome(f, fail_on)
        if outcome is None:
            continue
        element, kind, message = outcome
        child = ET.SubElement(
            case,
            element,
            {"message": message, "type": kind} if element == "failure" else {"message": message},
        )
        child.text = _body(f)
        tally["failures" if element == "failure" else "skipped"] += 1
    suite.attrib.update(
        {
            "name": product.file,
            "tests": str(tally["tests"]),
            "failures": str(tally["failures"]),
            "errors": "0",
            "skipped": str(tally["skipped"]),
            "time": "0",
        }
    )
    properties = ET.Element("properties")
    for name, value in (
        ("product", product.product),
        ("owner", product.owner),
        ("verdict", product.verdict.value),
    ):
        ET.SubElement(properties, "property", {"name": name, "value": value})
    suite.insert(0, properties)
    return suite, tally


def _serialized(suite: ET.Element) -> str:
    """The suite as XML, with forbidden and invisible characters shown (`xml_chars`) and every
    `::` written `:&#58;` (the same text to an XML reader): a report printed to a CI log cannot
    start a workflow command on a line of its own, whatever a waiver's owner or comment, a
    rule's text or a file name holds (as the HTML page, `escape.xml_text`)."""
    return no_workflow_command(xml_chars(ET.tostring(suite, encoding="unicode")))


TOTALS = ("tests", "failures", "errors", "skipped")
MAX_BYTES = 25_000_000  # GitLab refuses a JUnit report over 30 MB
PROLOG = '<?xml version="1.0" encoding="UTF-8"?>\n'


class JunitDocument(Plain):
    """The suites, product by product, each indented where it was evaluated (`ET.indent` at the
    suite's level gives what indenting the whole tree gives); the totals in the root."""

    separator = "\n  "

    def __init__(self, fail_on: FailOn, cap: int = MAX_BYTES) -> None:
        self.fail_on = fail_on
        self.cap = cap
        self._totals = dict.fromkeys(TOTALS, 0)
        self._written = 0  # bytes of the suites admitted
        self._omitted: list[tuple[str, int]] = []  # (manifest, failures) of the suites cut

    def piece(self, product: ProductOut) -> Piece:
        suite, tally = _suite(product, self.fail_on)
        ET.indent(suite, space="  ", level=1)
        text = _serialized(suite)
        return Piece(text, (tally, len(text.encode("utf-8")), product.file))

    def take(self, index: int, extra: tuple[dict[str, int], int, str]) -> None:
        return None  # counted when admitted: a suite cut is counted in the cut's own suite

    def admits(self, index: int, extra: tuple[dict[str, int], int, str]) -> bool:
        tally, size, file = extra
        if self._omitted or self._written + size > self.cap:
            self._omitted.append((file, tally["failures"]))
            return False
        self._written += size + len(self.separator)
        for key, value in tally.items():
            self._totals[key] += value
        return True

    def _cut_suite(self) -> list[str]:
        """The products left out past the cap, one testcase each: failed when one of its
        findings fails the gate, so the cut cannot hide a failing build."""
        if not self._omitted:
            return []
        count = str(len(self._omitted))
        failed = sum(1 for _, failures in self._omitted if failures)
        suite = ET.Element(
            "testsuite",
            {
                "name": f"licheck: report cut at {self.cap // 1_000_000} MB",
                "tests": count,
                "failures": str(failed),
                "errors": "0",
                "skipped": "0",
                "time": "0",
            },
        )
        reason = (
            f"{count} products left out: GitLab reads at most 30 MB of JUnit; the JSON, HTML "
            "and codequality reports list every finding"
        )
        for file, failures in self._omitted:
            case = ET.SubElement(
                suite,
                "testcase",
                {"classname": f"licheck.{file}", "name": "left out of this report", "time": "0"},
            )
            if failures:
                failure = ET.SubElement(
                    case, "failure", {"message": reason, "type": "left_out_failing"}
                )
                failure.text = f"{file}: {failures} failing findings, left out: {reason}"
        ET.indent(suite, space="  ", level=1)
        return [_serialized(suite)]

    def _root(self, pieces: int, more: dict[str, int]) -> tuple[str, str]:
        """The root element's tags, as ElementTree writes them (its attributes are a name and
        numbers: nothing to escape); `more`: counts to add to the pieces' totals."""
        totals = "".join(  # no `skipped`: Jenkins' xUnit schema has none on <testsuites>
            f' {key}="{value + more.get(key, 0)}"'
            for key, value in self._totals.items()
            if key != "skipped"
        )
        start = f'{PROLOG}<testsuites name="licheck"{totals} time="0"'
        return (start + ">", "</testsuites>") if pieces else (start + " />", "")

    def _root_of(self, top: Report, pieces: int) -> tuple[str, str]:
        """The root's tags, its totals counting a manifest that could not be read as a test in
        error."""
        files = len({e.file for e in top.errors})
        replaced = len(top.library.replaced) if top.library is not None else 0
        cut = len(self._omitted)
        failed = sum(1 for _, failures in self._omitted if failures)
        suites = files + (1 if replaced else 0) + (1 if cut else 0)
        more = {"tests": files + replaced + cut, "errors": files, "failures": failed}
        return self._root(pieces + suites, more)

    def head(self, top: Report, pieces: int) -> str:
        opened = (
            pieces
            or self._omitted
            or top.errors
            or (top.library is not None and top.library.replaced)
            or top.gate_settings
            or top.cards is not None
        )
        before = self._root_of(top, pieces)[0]
        return before + self.separator if opened else before + "\n"

    def tail(self, top: Report, pieces: int) -> str:
        unread = self.separator.join(
            self._cut_suite()
            + _unread_suites(top)
            + _library_suite(top)
            + _settings_suite(top)
            + _cards_suite(top)
        )
        if not (pieces or unread):
            return ""
        between = self.separator if pieces and unread else ""
        return between + unread + "\n" + self._root_of(top, pieces)[1] + "\n"


def _library_suite(top: Report) -> list[str]:
    """The entries a layer replaced, as a suite of skipped testcases: a replacement changes
    verdicts (it may be why the build passes), so a reader of the test view sees it."""
    replaced = top.library.replaced if top.library is not None else []
    if not replaced:
        return []
    count = str(len(replaced))
    suite = ET.Element(
        "testsuite",
        {"name": "rule library", "tests": count, "failures": "0", "errors": "0", "skipped": count},
    )
    suite.set("time", "0")
    for r in replaced:
        name = f"replaced: {r.kind} {r.id}"
        case = ET.SubElement(
            suite, "testcase", {"classname": "licheck.library", "name": name, "time": "0"}
        )
        skipped = ET.SubElement(case, "skipped", {"message": replacement_line(r)})
        skipped.text = replacement_line(r)  # GitLab shows the text: it starts at the file
    ET.indent(suite, space="  ", level=1)
    return [_serialized(suite)]


def _settings_suite(top: Report) -> list[str]:
    """The settings in force (`Report.gate_settings`: --fail-on, and each that is not the
    default) as the properties of a suite of no tests: a reader of the test view sees what
    decided the gate (`--evidence`, waivers, layers...)."""
    if not top.gate_settings:
        return []
    suite = ET.Element(
        "testsuite",
        {"name": "settings in force", "tests": "0", "failures": "0", "errors": "0"},
    )
    suite.attrib.update({"skipped": "0", "time": "0"})
    properties = ET.SubElement(suite, "properties")
    for setting in top.gate_settings:
        if setting.default and setting.key != "fail-on":  # the defaults: in the JSON report
            continue
        raw = setting.value
        value = str(raw).lower() if isinstance(raw, bool) else shown_value(setting)
        for name, text in ((setting.key, value), (f"{setting.key}.source", setting.source)):
            ET.SubElement(properties, "property", {"name": name, "value": text})
    ET.indent(suite, space="  ", level=1)
    return [_serialized(suite)]


def _cards_suite(top: Report) -> list[str]:
    """audit-cards' summary as the properties of a suite of no tests (`table.name`: cards);
    the cards not read are also suites in error, as every unread input."""
    if top.cards is None:
        return []
    suite = ET.Element(
        "testsuite", {"name": "cards audited", "tests": "0", "failures": "0", "errors": "0"}
    )
    suite.attrib.update({"skipped": "0", "time": "0"})
    properties = ET.SubElement(suite, "properties")
    for table, name, count in summary_rows(top.cards):
        ET.SubElement(properties, "property", {"name": f"{table}.{name}", "value": str(count)})
    ET.indent(suite, space="  ", level=1)
    return [_serialized(suite)]


def _unread_suites(top: Report) -> list[str]:
    """A manifest that could not be read: its own suite, with one testcase in error whose text
    lists each problem at file:line:column."""
    suites = []
    for file in dict.fromkeys(e.file for e in top.errors):
        errors = [e for e in top.errors if e.file == file]
        suite = ET.Element(
            "testsuite",
            {"name": file, "tests": "1", "failures": "0", "errors": "1", "skipped": "0"},
        )
        suite.set("time", "0")
        case = ET.SubElement(
            suite,
            "testcase",
            {"classname": f"licheck.{file}", "name": "manifest could not be read", "time": "0"},
        )
        error = ET.SubElement(
            case, "error", {"message": message(errors[0]), "type": "manifest_not_read"}
        )
        error.text = "\n".join(f"{where(e)}: error: {message(e)}" for e in errors)
        ET.indent(suite, space="  ", level=1)
        suites.append(_serialized(suite))
    return suites


def render(report: Report, fail_on: FailOn = FailOn.VIOLATION) -> str:
    return written(JunitDocument(fail_on), report)
