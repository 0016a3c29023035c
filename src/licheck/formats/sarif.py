"""SARIF 2.1.0 for code-scanning tools (GitHub code scanning, IDE SARIF viewers).

Each clause that any finding is about is a rule (shortDescription: its title; fullDescription and
help: built from its quoted text).  Each violation and governance risk is a result located at the
manifest line of the fact that decides it, with a `licheck/v1` partial fingerprint that does not
depend on line numbers.  Satisfied and not-applicable findings are not results (nothing to look
at).  Waived findings carry an accepted external suppression; waivers that expired, changed or
matched nothing are tool-configuration notifications.  Written by hand: the format is small.
"""

from __future__ import annotations

import json
import posixpath
from typing import Any, cast
from urllib.parse import quote

from licheck import __version__
from licheck.formats import Piece, Plain
from licheck.formats.summary import UNKNOWN_RULES, fingerprint, is_problem, rule_id
from licheck.jsontext import Encoder, Hole, dumps, join
from licheck.report import FindingOut, ProductOut, Report, WaiverStatus
from licheck.verdicts import Verdict

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
MAX_DESCRIPTION = 1000  # GitHub truncates rule descriptions over 1024 characters
INDENT = "\n        "  # a result's level in the log
LEVELS = {Verdict.VIOLATION: "error", Verdict.GOVERNANCE_RISK: "warning"}


def _clip(text: str) -> str:
    return text if len(text) <= MAX_DESCRIPTION else text[: MAX_DESCRIPTION - 1] + "…"


def _uri(file: str) -> dict[str, str]:
    """A URI reference: relative paths against %SRCROOT% (code scanning wants them
    repository-relative), absolute ones as file URIs; spaces and the like percent-encoded."""
    path = quote(posixpath.normpath(file.replace("\\", "/")), safe="/-._~")
    if path.startswith("/"):
        return {"uri": "file://" + path}
    return {"uri": path, "uriBaseId": "%SRCROOT%"}


def _location(file: str, line: int, column: int) -> dict[str, Any]:
    region: dict[str, int] = {"startLine": max(line, 1)}
    if column > 0:
        region["startColumn"] = column
    return {"physicalLocation": {"artifactLocation": _uri(file), "region": region}}


def _rule(finding: FindingOut) -> dict[str, Any]:
    if finding.quote:
        full = f"{finding.license_name}, {finding.kind}: “{finding.quote}”"
        help_text = (
            f"{finding.title}. {finding.license_name} says: “{finding.quote}”\n\n"
            "A violation means the clause binds in every completion of the manifest's facts "
            "and its requirement fails; a governance risk means the answer depends on facts "
            "that are missing or weakly evidenced: supply them with evidence, meet the "
            "requirement, or record a waiver with a reason, an owner and an expiry date."
        )
        short = finding.title
    else:
        full = UNKNOWN_RULES.get(finding.clause, finding.title)
        help_text = full + (
            " Add the model and its license to the catalog and rule library, "
            "or state the lineage with stronger evidence."
        )
        short = {
            "base-undisclosed": "Base model undisclosed",
            "license-unknown": "License of a model unknown",
            "lineage-unconfirmed": "Base model not established",
        }.get(finding.clause, finding.title)
    return {
        "id": rule_id(finding),
        "name": "".join(part.capitalize() for part in finding.clause.split("-")),
        "shortDescription": {"text": _clip(short)},
        "fullDescription": {"text": _clip(full)},
        "help": {"text": help_text},
        "defaultConfiguration": {"level": "warning"},
        "properties": {
            "tags": list(dict.fromkeys(("license", finding.license, finding.kind))),
            "license": finding.license,
            "licenseName": finding.license_name,
        },
    }


def _message(product: ProductOut, f: FindingOut) -> str:
    text = (
        f"{f.verdict.label.capitalize()}: {f.license}/{f.clause} ({f.title}) for "
        f"{f.component} of {product.product}, built on {f.model_name}. {f.explanation}"
    )
    if f.missing_facts:
        text += " Would settle it: " + ", ".join(m.fact for m in f.missing_facts) + "."
    if f.waiver is not None:
        text += f" {f.waiver.message[0].upper()}{f.waiver.message[1:]}."
    return text


def _result(product: ProductOut, f: FindingOut, index: int | Hole) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": rule_id(f),
        "ruleIndex": index,
        "level": LEVELS[f.verdict],
        "message": {"text": _message(product, f)},
        "locations": [_location(f.location.file, f.location.line, f.location.column)],
        "partialFingerprints": {"licheck/v1": fingerprint(product, f)},
        "properties": {
            "product": product.product,
            "component": f.component,
            "model": f.model,
            "verdict": f.verdict.value,
            "likelyVerdict": f.likely_verdict.value,
            "missingFacts": [m.fact for m in f.missing_facts],
        },
    }
    if f.waived and f.waiver is not None:
        w = f.waiver
        result["suppressions"] = [
            {
                "kind": "external",
                "status": "accepted",
                "justification": f"{w.reason}: {w.comment} (owner {w.owner}, expires {w.expires})",
                "location": _location(w.file, w.line, 0),
                "properties": {
                    "waiver": w.id,
                    "owner": w.owner,
                    "expires": w.expires,
                    "reason": w.reason,
                },
            }
        ]
    return result


def _notification(status: WaiverStatus) -> dict[str, Any]:
    return {
        "descriptor": {"id": f"waiver-{status.status.replace('_', '-')}"},
        "level": "warning",
        "message": {"text": status.message},
        "locations": [_location(status.file, status.line, status.column)],
    }


class SarifDocument(Plain):
    """The log, product by product: each product's results are encoded where it was evaluated,
    with a hole for their rule's index (known once every product's rules are); the rules,
    sorted, and the run's properties are written around them."""

    separator = "," + INDENT

    def __init__(self) -> None:
        self._rules: dict[str, tuple[int, dict[str, Any]]] = {}  # id -> (product, rule)
        self._order: dict[str, int] | None = None

    def piece(self, product: ProductOut) -> Piece:
        rules: dict[str, dict[str, Any]] = {}
        for finding in product.findings:  # a clause's rule is drawn from its first finding
            if rule_id(finding) not in rules:
                rules[rule_id(finding)] = _rule(finding)
        parts: list[str | Hole] = []
        encoder = Encoder(parts)
        for finding in product.findings:
            if is_problem(finding):
                if parts:
                    parts.append(self.separator)
                encoder.value(_result(product, finding, Hole(rule_id(finding))), INDENT)
        text = join(parts)
        return Piece(text.text, rules, text.holes)

    def take(self, index: int, extra: dict[str, dict[str, Any]]) -> None:
        for rid, rule in extra.items():
            if rid not in self._rules or index < self._rules[rid][0]:
                self._rules[rid] = (index, rule)

    def head(self, top: Report, pieces: int) -> str:
        return _split(top, [self._rules[rid][1] for rid in sorted(self._rules)])[0] + (
            "[" + INDENT if pieces else "[]"
        )

    def tail(self, top: Report, pieces: int) -> str:
        return ("\n      ]" if pieces else "") + _split(top, [])[1]

    def fill(self, name: str) -> str:
        if self._order is None:
            self._order = {rid: i for i, rid in enumerate(sorted(self._rules))}
        return str(self._order[name])


def _split(top: Report, rules: list[dict[str, Any]]) -> tuple[str, str]:
    """The log's text before and after its (empty) results array."""
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "licheck",
                "semanticVersion": __version__,
                "informationUri": "https://licheck.dev/",
                "rules": rules,
            }
        },
        "automationDetails": {"id": "licheck/"},
        "columnKind": "unicodeCodePoints",
        "results": Hole("results"),
        "properties": {
            "evidencePolicy": top.evidence_policy,
            "asOf": top.as_of,
            "verdict": top.verdict.value,
            "gateVerdict": top.summary.gate_verdict.value,
        },
    }
    notes = [_notification(s) for s in top.waivers if s.status != "applied"]
    if notes:
        run["invocations"] = [
            {"executionSuccessful": True, "toolConfigurationNotifications": notes}
        ]
    before, after = dumps({"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}).split()
    return before, after + "\n"


def document(report: Report) -> dict[str, Any]:
    """The SARIF log as plain data."""
    return cast(dict[str, Any], json.loads(render(report)))


def render(report: Report) -> str:
    from licheck.formats import Format, RenderOptions
    from licheck.formats import render as render_format

    return render_format(report, Format.SARIF, RenderOptions())
