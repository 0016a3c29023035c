"""What several formats share: stable names for findings, the gate summary, waiver notes.

Every helper is a pure function of the report; nothing here reads a clock or the file system.
"""

from __future__ import annotations

import hashlib

from licheck.core.verdicts import RiskKind, Verdict
from licheck.report.view import (
    Counts,
    FailOn,
    FindingOut,
    LibraryOut,
    ProductOut,
    ReplacementOut,
    Report,
    WaiverStatus,
    counts_toward_gate,
    fails,
    gate_fails,
)
from licheck.text.escape import line

UNKNOWN_RULES = {  # findings licheck makes about unknown licenses: fixed rule texts
    "base-undisclosed": "The base model is undisclosed, so the license that binds the "
    "component cannot be known.",
    "license-unknown": "A model in the lineage has a license that is not in licheck's library; "
    "until its terms are encoded, no finding can be given for it.",
    "lineage-unconfirmed": "That the component is built on the model is not established; if it "
    "is built on another model, that model's license binds it instead.",
}


def rule_id(finding: FindingOut) -> str:
    """A clause's id across runs and products: license/clause."""
    return f"{finding.license}/{finding.clause}"


def fingerprint(product: ProductOut, finding: FindingOut) -> str:
    """Stable across runs and line moves: the manifest, component, model, license and clause."""
    key = "\0".join(
        (product.file, finding.component, finding.model, finding.license, finding.clause)
    )
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def is_problem(finding: FindingOut) -> bool:
    """Violations and governance risks: what a pipeline shows (waived or not)."""
    return finding.verdict in (Verdict.VIOLATION, Verdict.GOVERNANCE_RISK)


def blocks(finding: FindingOut, fail_on: FailOn) -> bool:
    """Whether the finding fails the gate at this policy (with a baseline: only a new or worse
    one can)."""
    return counts_toward_gate(finding) and fails(finding.verdict, fail_on, finding.risk_kind)


def relation_words(finding: FindingOut) -> str:
    """How the component is related to the finding's model, in words: 'built on Llama 3.1 8B',
    or, for a model it was only trained on the outputs of (`lineage` established false),
    'trained on the outputs of Llama 3.1 70B' — never 'built on' a model whose weights it does
    not use."""
    for fact in finding.facts:
        if fact.name == "lineage" and fact.status == "established" and fact.value == "false":
            return f"trained on the outputs of {finding.model_name}"
    return f"built on {finding.model_name}"


def written_figures(finding: FindingOut) -> dict[str, str]:
    """Each fact's figure as the user wrote it, by fact name, where it reads unlike the
    normalised value (`fact.written`): shown beside a likely figure in 'what would settle it'."""
    return {fact.name: fact.written for fact in finding.facts if fact.written}


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def counts_line(report: Report) -> str:
    c = report.summary.counts
    return (
        f"{plural(report.summary.products, 'product')}: {plural(c.violation, 'violation')}, "
        f"{plural(c.governance_risk, 'governance risk')}{_kinds(c)}, {c.satisfied} satisfied, "
        f"{c.not_applicable} not applicable; {c.waived} waived"
    )


def _kinds(c: Counts) -> str:
    """' (E evidence, A to attest)': the governance risks open on the product's record, and
    those open only on conduct an attestation can settle."""
    if not c.governance_risk:
        return ""
    return f" ({c.governance_risk - c.to_attest} evidence, {c.to_attest} to attest)"


def unread(report: Report) -> str:
    """'N manifests could not be read', or '' when every one was."""
    files = len({e.file for e in report.errors})
    return f"{plural(files, 'manifest')} could not be read" if files else ""


def gate_line(report: Report, fail_on: FailOn) -> str:
    """The gate's policy and result.  User text (the configuration file that set the policy):
    the caller escapes it as its format needs."""
    gate = report.summary.gate_verdict
    worst = "worst new or worse finding" if report.baseline else "worst finding"
    policy = f"--fail-on {fail_on.value}{_set_at(report, 'fail-on')}"
    if report.errors:  # exit 2 whatever the policy: what was not read cannot pass
        return (
            f"Gate ({policy}): FAILS: {unread(report)}, exit 2 ({worst} "
            f"not waived in the others: {gate.label})"
        )
    if fail_on is FailOn.NEVER:
        return f"Gate ({policy}): passes ({worst} not waived: {gate.label})"
    result = "FAILS" if gate_fails(report.summary, fail_on) else "passes"
    return f"Gate ({policy}): {result} ({worst} not waived: {gate.label}{_to_attest(report)})"


def _to_attest(report: Report) -> str:
    """What the gate leaves to attest, when its risks are only that."""
    if report.summary.gate_risk_kind is not RiskKind.ATTESTATION:
        return ""
    return f"; only conduct to attest: {plural(report.summary.counts.to_attest, 'risk')}"


def settings_line(report: Report) -> str:
    """ "Settings in force: --evidence estimates (.licheck.yaml:3:1; ...), --as-of DATE (command
    line)": each setting that decides verdicts or the gate and is not licheck's default (the
    gate line names --fail-on), where it came from; "" when every one is the default, or the
    report does not say (`Report.gate_settings`).  Every format shows it beside the gate line.
    User text: the caller escapes it as its format needs."""
    from licheck.report.gatesettings import changed, phrase

    named = changed(report.gate_settings)
    if not named:
        return ""
    return "Settings in force: " + ", ".join(map(phrase, named)) + "; the rest licheck's defaults"


def settings_lines(report: Report) -> list[str]:
    """`settings_line` as a list: [] when it is empty."""
    text = settings_line(report)
    return [text] if text else []


def _set_at(report: Report, key: str) -> str:
    """ ", set at FILE:LINE:COLUMN" when the configuration file set `key`, else "": a gate
    weakened by a file the user did not name is seen where it came from.  User text."""
    settings = report.config.settings if report.config is not None else []
    return next((f", set at {s.at}" for s in settings if s.key == key), "")


def baseline_tag(finding: FindingOut) -> str:
    """How the finding compares with the baseline, e.g. "worse, was governance risk"; "" when
    the run has no baseline."""
    ref = finding.baseline
    if ref is None:
        return ""
    if ref.verdict is None or ref.status == "unchanged":
        return ref.status
    if ref.status == "new":  # the baseline has it, waived: its waiver accepted it, not the baseline
        return f"new: waived in the baseline ({ref.verdict.label})"
    return f"{ref.status}, was {ref.verdict.label}"


def baseline_lines(report: Report) -> list[str]:
    """The comparison's totals, then each of the baseline's problems that is gone: user text,
    for the caller to escape as its format needs."""
    compared = report.baseline
    if compared is None:
        return []
    c = compared.counts
    lines = [
        f"Baseline {compared.file} (licheck {compared.tool_version}): {c.new} new, "
        f"{c.worse} worse, {c.unchanged} unchanged, {c.improved} improved, {c.fixed} fixed "
        "(violations and governance risks; only new and worse ones count toward --fail-on)"
    ]
    lines += [
        f"  fixed, gone: {g.product} / {g.component}: {g.license}/{g.clause} "
        f"(was {g.verdict.label}; {g.file})"
        for g in compared.gone
    ]
    return lines


def waiver_line(status: WaiverStatus) -> str:
    """`FILE:LINE:COLUMN: note|warning: message`: a note when the waiver applied, else a
    warning.  User text: the caller escapes it as its format needs."""
    tag = "note" if status.status == "applied" else "warning"
    return f"{status.file}:{status.line}:{status.column}: {tag}: {status.message}"


def waiver_lines(report: Report) -> list[str]:
    """One line per waiver, in file order (`waiver_line`), shown safely (`escape.line`)."""
    return [line(waiver_line(status)) for status in report.waivers]


def summary_text(report: Report, fail_on: FailOn) -> str:
    """The block `licheck check` prints at the end of its text report."""
    lines = ["", "Summary: " + counts_line(report), *map(line, baseline_lines(report))]
    lines.append(gate_line(report, fail_on))
    lines += map(line, settings_lines(report))
    notes = waiver_lines(report)
    if notes:
        lines.append("Waivers:")
        lines.extend(f"  {line}" for line in notes)
    return "\n".join(lines) + "\n"


def replacement_line(replacement: ReplacementOut) -> str:
    """ "FILE replaces license ID (from FILE)": one wording for every format.  User text."""
    r = replacement
    line = f"{r.file} replaces {r.kind} {r.id} (from {r.replaced})"
    if r.license_before is not None and r.license_after is not None:
        before = r.license_before or "a license not in the library"
        after = r.license_after or "a license not in the library"
        line += f": its license was {before}, now {after}"
    return line


def library_lines(report: Report) -> list[str]:
    """The report's `layer_lines`."""
    return layer_lines(report.library)


def layer_lines(library: LibraryOut | None) -> list[str]:
    """Which rule folders were layered over (or instead of) the built-in library, each entry
    they replaced, and the organisation policies read; [] for the built-in library alone.
    One description for every command that evaluates (`report.layering.described` gives `library`).
    User text: the caller escapes it as its format needs."""
    if library is None:
        return []
    base = ["built-in"] if library.builtin else []
    lines = ["Rule library: " + " + ".join(base + list(library.layers))]
    lines += [f"  {replacement_line(r)}" for r in library.replaced]
    if library.policies:
        lines.append("Policies: " + ", ".join(library.policies))
    return lines
