"""GitLab Code Quality JSON: what a merge request shows inline, in its widget and its diff.

One entry per violation or governance risk (waived ones too, as `info`), and one per manifest
not read (`blocker`), each with the fields GitLab requires: `description`, `check_name` (the
clause, license/clause), `fingerprint` (stable across runs and line moves, as SARIF's: the
manifest, component, model, license and clause — so a merge request shows what it adds and what
it fixes), `severity` and `location.path` (relative to the repository's top folder, as GitLab
resolves it) with `location.lines.begin`.

Severity follows what a finding means, not the gate: a violation is `critical`, a governance
risk the record keeps open (`risk_kind: evidence`) `major`, one that only awaits an
attestation `minor`, a waived finding `info`; a manifest not read is a `blocker`.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from licheck.core.verdicts import Verdict
from licheck.outputs.document import Piece, Plain
from licheck.outputs.sarif import repository_path
from licheck.outputs.summary import fingerprint, is_problem, rule_id
from licheck.outputs.unread import message, where
from licheck.report.view import ErrorOut, FindingOut, ProductOut, Report


def severity(finding: FindingOut) -> str:
    """info (waived), critical (violation), major (evidence risk), minor (to attest)."""
    if finding.waived:
        return "info"
    if finding.verdict is Verdict.VIOLATION:
        return "critical"
    return "minor" if finding.risk_kind == "attestation" else "major"


def _dumps(entries: list[dict[str, Any]]) -> str:
    """The entries as members of the top-level array (no brackets), two-space indented."""
    text = json.dumps(entries, ensure_ascii=False, indent=2, sort_keys=True)
    return text[2:-2] if entries else ""  # drop "[\n" and "\n]"


class CodeQualityDocument(Plain):
    """A JSON array, product by product; the manifests not read last."""

    separator = ",\n"

    def __init__(self, root: str | None, cwd: str | None) -> None:
        self.root = root
        self.cwd = cwd

    def entry(self, product: ProductOut, finding: FindingOut) -> dict[str, Any]:
        waived = " (waived)" if finding.waived else ""
        return {
            "description": (
                f"{finding.verdict.label}{waived}: {rule_id(finding)}: {product.product} / "
                f"{finding.component} ({finding.model_name}): {finding.title}"
            ),
            "check_name": rule_id(finding),
            "fingerprint": fingerprint(product, finding),
            "severity": severity(finding),
            "location": {
                "path": repository_path(finding.location.file, self.root, self.cwd),
                "lines": {"begin": max(finding.location.line, 1)},
            },
        }

    def unread_entry(self, error: ErrorOut) -> dict[str, Any]:
        key = "\0".join((error.file, str(error.line), str(error.column), error.message))
        return {
            "description": f"licheck: manifest not read: {where(error)}: {message(error)}",
            "check_name": "licheck/manifest-not-read",
            "fingerprint": hashlib.sha256(key.encode("utf-8")).hexdigest()[:32],
            "severity": "blocker",
            "location": {
                "path": repository_path(error.file, self.root, self.cwd),
                "lines": {"begin": max(error.line, 1)},
            },
        }

    def piece(self, product: ProductOut) -> Piece:
        entries = [self.entry(product, f) for f in product.findings if is_problem(f)]
        return Piece(_dumps(entries))

    def head(self, top: Report, pieces: int) -> str:
        return "[\n"

    def tail(self, top: Report, pieces: int) -> str:
        unread = _dumps([self.unread_entry(e) for e in top.errors])
        joined = (",\n" if pieces and unread else "") + unread
        return joined + ("\n" if pieces or unread else "") + "]\n"
