"""SARIF 2.1.0 for code-scanning tools (GitHub code scanning, IDE SARIF viewers).

Each clause that any finding is about is a rule (shortDescription: its title; fullDescription and
help: built from its quoted text; its default level the most severe of its results in the run, by
what each means: a violation `error`, a governance risk the record keeps open `warning`, one that
only awaits an attestation `note`; `note` for a rule with no result).  Each violation and
governance risk is a result located at the manifest line of the fact that decides it.
Satisfied and not-applicable findings are not results (nothing to look at).  The driver's
`informationUri` is the repository the package's metadata names, and absent while it names none
(never an address the project does not own); each rule's `helpUri` is the place in the docs on
that repository, at this version's tag, that explains it (`outputs.rulesdoc`: its clause on
docs/rules.md, the page on refusals for a manifest not read), absent likewise, and its markdown
help names that page either way.  Written by hand: the format is small.  As GitHub
code scanning reads it:

- URIs are relative to the repository's top folder (`RenderOptions.root`, which the CLI finds by
  walking up to `.git`, or `--root`), with `uriBaseId` %SRCROOT%: code scanning resolves them
  against the checkout, not against the folder licheck ran in.  A file outside the root keeps an
  absolute `file://` URI.
- `partialFingerprints.primaryLocationLineHash` (the only fingerprint code scanning keys alerts
  on; upload-sarif computes one from the line's text only when it is missing) is a hash of the
  repository-relative manifest, component, model, license and clause: an alert survives a line
  move and a re-run, and is new when the finding is.  `licheck/v1` is the same key over the path
  as given.
- A waived finding is a result like any other, with SARIF's `suppressions` (kind `external`: the
  waiver file; status `accepted`; the justification its reason, owner and expiry date), so code
  scanning shows the alert dismissed, never closed as fixed (docs/waivers.md: a waived finding
  stays in every format).  Their number is also the run's `waivedResults` property; waivers that
  expired, changed or matched nothing are tool-configuration notifications (their findings are
  plain results again).
- At most 25,000 results (GitHub rejects a run with more): products past the cap keep their
  rules but not their results; waived findings and the manifests not read (each an error result)
  count toward it; the run says so in `properties.resultsOmitted` and a tool-execution
  notification.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
from collections.abc import Container
from importlib import metadata
from typing import Any, cast
from urllib.parse import quote

from licheck._version import __version__
from licheck.core.verdicts import Verdict
from licheck.files.jsontext import Encoder, Hole, dumps, join
from licheck.outputs.document import Piece, Plain, RenderOptions, written
from licheck.outputs.rulesdoc import (
    LAYERED,
    POLICY_PREFIX,
    REFUSALS,
    UNKNOWN_LICENSE,
    link,
    rule_link,
)
from licheck.outputs.summary import (
    UNKNOWN_RULES,
    fingerprint,
    is_problem,
    relation_words,
    replacement_line,
    rule_id,
)
from licheck.outputs.unread import message
from licheck.report.view import (
    ErrorOut,
    FindingOut,
    LibraryOut,
    ProductOut,
    ReplacementOut,
    Report,
    WaiverRef,
    WaiverStatus,
)

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
MAX_DESCRIPTION = 1000  # GitHub truncates rule descriptions over 1024 characters
INDENT = "\n        "  # a result's level in the log
# A result's level says what the finding is: a violation an error, a governance risk the
# product's record keeps open a warning, one that only awaits an attestation a note.
LEVELS = {Verdict.VIOLATION: "error", Verdict.GOVERNANCE_RISK: "warning"}
SEVERITY = ("note", "warning", "error")  # least to most severe: a rule's default is its worst
MEANING = (
    "**What the verdicts mean.** A *violation* (error): the clause binds in every completion of "
    "the manifest's facts and its requirement fails. A *governance risk*: the answer depends on "
    "facts that are missing or weakly evidenced (warning), or only on conduct no one has "
    "attested yet (note): supply the facts with evidence or an attestation, meet the "
    "requirement, or record a waiver with a reason, an owner and an expiry date."
)
MAX_RESULTS = 25_000  # GitHub code scanning rejects a run with more results
SHOWN_RESULTS = 5_000  # and stores only the top ones of a run, by severity (waived ones count)
# licheck's comparison with a baseline as SARIF's `baselineState` (a result is a violation or a
# risk, so never `fixed`; the baseline's problems that are gone are counted in the properties)
BASELINE_STATES = {
    "new": "new",
    "worse": "updated",
    "improved": "updated",
    "unchanged": "unchanged",
    "fixed": "absent",
}


def _clip(text: str) -> str:
    return text if len(text) <= MAX_DESCRIPTION else text[: MAX_DESCRIPTION - 1] + "…"


def repository_path(file: str, root: str | None = None, cwd: str | None = None) -> str:
    """`file` (as given: relative to `cwd`, or absolute) relative to `root`, "/"-separated;
    absolute when it is outside `root`; as given (normalised) without a root."""
    path = posixpath.normpath(file.replace("\\", "/"))
    if root is None or cwd is None:
        return path
    if not posixpath.isabs(path):
        path = posixpath.normpath(posixpath.join(cwd, path))
    relative = posixpath.relpath(path, root)
    return path if relative == ".." or relative.startswith("../") else relative


def _uri(file: str, root: str | None = None, cwd: str | None = None) -> dict[str, str]:
    """A URI reference: relative paths against %SRCROOT% (code scanning wants them
    repository-relative), absolute ones as file URIs; spaces and the like percent-encoded."""
    path = quote(repository_path(file, root, cwd), safe="/-._~")
    if path.startswith("/"):
        return {"uri": "file://" + path}
    return {"uri": path, "uriBaseId": "%SRCROOT%"}


def _location(
    file: str, line: int, column: int, root: str | None = None, cwd: str | None = None
) -> dict[str, Any]:
    region: dict[str, int] = {"startLine": max(line, 1)}
    if column > 0:
        region["startColumn"] = column
    return {"physicalLocation": {"artifactLocation": _uri(file, root, cwd), "region": region}}


def line_hash(uri: str, f: FindingOut) -> str:
    """The alert's identity for code scanning: no line number in it."""
    key = "\0".join((uri, f.component, f.model, f.license, f.clause))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def level(f: FindingOut) -> str:
    """error (violation), warning (governance risk on the record), note (to attest)."""
    if f.verdict is Verdict.GOVERNANCE_RISK and f.risk_kind == "attestation":
        return "note"
    return LEVELS[f.verdict]


def _help_markdown(finding: FindingOut, short: str, full: str) -> str:
    """The rule's help as code scanning shows it: the clause, its words, what to do."""
    lines = [f"## {finding.license}/{finding.clause}: {short}", ""]
    if finding.quote:
        lines += [
            f"{finding.license_name} ({finding.kind}) says:",
            "",
            *(f"> {part}" for part in finding.quote.splitlines() or [""]),
            "",
        ]
    else:
        lines += [full, ""]
    lines += [
        MEANING,
        "",
        "Run `licheck evaluate -v MANIFEST` for the facts each result hangs on, and "
        f"`licheck licenses show {finding.license}` for the whole license.",
    ]
    return "\n".join(lines)


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
        "help": {"text": help_text, "markdown": _help_markdown(finding, short, full)},
        # what the run's results of the rule mean at worst (`SarifDocument.head` sets it)
        "defaultConfiguration": {"level": "note"},
        "properties": {
            "tags": list(dict.fromkeys(("license", finding.license, finding.kind))),
            "license": finding.license,
            "licenseName": finding.license_name,
        },
    }


def _message(product: ProductOut, f: FindingOut) -> str:
    text = (
        f"{f.verdict.label.capitalize()}: {f.license}/{f.clause} ({f.title}) for "
        f"{f.component} of {product.product}, {relation_words(f)}. {f.explanation}"
    )
    if f.missing_facts:
        text += " Would settle it: " + ", ".join(m.fact for m in f.missing_facts) + "."
    if f.waiver is not None:
        text += f" {f.waiver.message[0].upper()}{f.waiver.message[1:]}."
    return text


def _result(
    product: ProductOut, f: FindingOut, index: int | Hole, options: RenderOptions
) -> dict[str, Any]:
    location = _location(
        f.location.file, f.location.line, f.location.column, options.root, options.cwd
    )
    uri = location["physicalLocation"]["artifactLocation"]["uri"]
    result: dict[str, Any] = {
        "ruleId": rule_id(f),
        "ruleIndex": index,
        "level": level(f),
        "message": {"text": _message(product, f)},
        "locations": [location],
        "partialFingerprints": {
            "licheck/v1": fingerprint(product, f),
            "primaryLocationLineHash": line_hash(uri, f),
        },
        "properties": {
            "product": product.product,
            "component": f.component,
            "model": f.model,
            "verdict": f.verdict.value,
            "likelyVerdict": f.likely_verdict.value,
            "missingFacts": [m.fact for m in f.missing_facts],
        },
    }
    if f.risk_kind is not None:  # evidence, or only conduct to attest
        result["properties"]["riskKind"] = f.risk_kind
    if f.baseline is not None:  # SARIF's own field; licheck's finer status beside it
        result["baselineState"] = BASELINE_STATES[f.baseline.status]
        result["properties"]["baseline"] = f.baseline.status
    if f.waived and f.waiver is not None:
        result["suppressions"] = [_suppression(f.waiver, options)]
        result["properties"]["waiver"] = f.waiver.id
    return result


def _suppression(waiver: WaiverRef, options: RenderOptions) -> dict[str, Any]:
    """The waiver that accepts a result, as SARIF says so: kept in an external file (located at
    the waiver), accepted."""
    return {
        "kind": "external",
        "status": "accepted",
        "justification": f"{waiver.reason} (owner: {waiver.owner}, until {waiver.expires})",
        "location": _location(waiver.file, waiver.line, 0, options.root, options.cwd),
        "properties": {"waiver": waiver.id, "comment": waiver.comment},
    }


def shown_limit(results: int, waived: int) -> str:
    """Why code scanning may not show every alert of a log of `results` results."""
    return (
        f"{results} results: GitHub code scanning stores only the top {SHOWN_RESULTS} of a run "
        f"(by severity); {waived} of them are waived findings, each a suppressed result. Check "
        "fewer manifests per run (one SARIF category each) to see every alert."
    )


def _notification(status: WaiverStatus, options: RenderOptions) -> dict[str, Any]:
    return {
        "descriptor": {"id": f"waiver-{status.status.replace('_', '-')}"},
        "level": "warning",
        "message": {"text": status.message},
        "locations": [
            _location(status.file, status.line, status.column, options.root, options.cwd)
        ],
    }


def _replaced_notification(replacement: ReplacementOut, options: RenderOptions) -> dict[str, Any]:
    """An entry a layer replaced: a warning at the layer's file, since it changes verdicts."""
    return {
        "descriptor": {"id": "library-replaced"},
        "level": "warning",
        "message": {"text": replacement_line(replacement)},
        "locations": [_location(replacement.file, 1, 0, options.root, options.cwd)],
    }


UNREAD_RULE: dict[str, Any] = {
    "id": "licheck/manifest-not-read",
    "name": "ManifestNotRead",
    "shortDescription": {"text": "Manifest could not be read"},
    "fullDescription": {
        "text": "The manifest could not be read or evaluated, so its findings are unknown; "
        "the other manifests were evaluated, and licheck exits 2."
    },
    "help": {"text": "Fix the manifest at the location given, then run licheck check again."},
    "defaultConfiguration": {"level": "error"},
    "properties": {"tags": ["input"]},
}


def docs_uri(page_link: str) -> str | None:
    """A docs page (`docs/page.md#anchor`) on the repository the package names, at this
    version's tag; None while the package names no repository."""
    home = repository()
    if home is None:
        return None
    return f"{home.removesuffix('/').removesuffix('.git')}/blob/v{__version__}/{page_link}"


class Docs:
    """Where the docs explain each rule of a run: its clause on docs/rules.md, unless a layer
    replaced its license or defines it (then the page on layered libraries: the docs list the
    shipped library only) or an organisation policy makes it (the page on policies)."""

    def __init__(self, library: LibraryOut | None) -> None:
        self.replaced = frozenset(
            r.id for r in (library.replaced if library else []) if r.kind == "license"
        )
        # the licenses the docs list, in a run that layered folders (None: the shipped ones)
        self.listed: Container[str] | None = None
        if library is not None and library.builtin:  # a layered run: the library is loaded
            from licheck.library.compiled import load_library

            self.listed = load_library().licenses
        elif library is not None:
            self.listed = frozenset()

    def page(self, license_id: str, clause: str) -> str:
        if license_id.startswith(POLICY_PREFIX) or license_id == UNKNOWN_LICENSE:
            return rule_link(license_id, clause)
        if license_id in self.replaced:
            return rule_link(license_id, clause, replaced=True)
        if self.listed is not None and license_id not in self.listed:
            return link(*LAYERED)  # a layer's own license
        return rule_link(license_id, clause)


def _documented(rule: dict[str, Any], page_link: str) -> dict[str, Any]:
    """The rule with its help link (`helpUri`, when the package names its repository) and the
    docs page named at the end of its markdown help."""
    uri = docs_uri(page_link)
    where = f"[{page_link}]({uri})" if uri is not None else f"`{page_link}`"
    help_: dict[str, str] = dict(rule["help"])
    line = f"Explained in licheck's documentation: {where}."
    help_["markdown"] = help_.get("markdown", help_["text"]) + "\n\n" + line
    documented = {**rule, "help": help_}
    if uri is not None:
        documented["helpUri"] = uri
    return documented


def _verdict_properties(top: Report) -> dict[str, Any]:
    """The run's first properties: the policy, the verdicts, the waived and to-attest counts,
    the baseline compared."""
    properties: dict[str, Any] = {
        "evidencePolicy": top.evidence_policy,
        "asOf": top.as_of,
        "verdict": top.verdict.value,
        "gateVerdict": top.summary.gate_verdict.value,
    }
    if top.summary.counts.waived:
        properties["waivedResults"] = top.summary.counts.waived
    if top.summary.counts.to_attest:
        properties["toAttestResults"] = top.summary.counts.to_attest
    if top.baseline is not None:
        properties["baseline"] = {"file": top.baseline.file, **top.baseline.counts.model_dump()}
    return properties


def _unread_result(error: ErrorOut, index: int, options: RenderOptions) -> dict[str, Any]:
    """A manifest that could not be read, as an error result at its file:line:column."""
    location = _location(error.file, error.line, error.column, options.root, options.cwd)
    uri = location["physicalLocation"]["artifactLocation"]["uri"]
    key = "\0".join((uri, error.message))
    return {
        "ruleId": UNREAD_RULE["id"],
        "ruleIndex": index,
        "level": "error",
        "message": {"text": message(error)},
        "locations": [location],
        "partialFingerprints": {
            "primaryLocationLineHash": hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]
        },
    }


def _unread_notification(error: ErrorOut, options: RenderOptions) -> dict[str, Any]:
    return {
        "descriptor": {"id": "manifest-not-read"},
        "level": "error",
        "message": {"text": message(error)},
        "locations": [_location(error.file, error.line, error.column, options.root, options.cwd)],
    }


# A product's piece's extra: its rules (by id), its number of results, each rule's worst level.
Extra = tuple[dict[str, dict[str, Any]], int, dict[str, str]]


def _worse(first: str | None, second: str) -> str:
    """The more severe of two levels (`first` None: none yet)."""
    if first is None:
        return second
    return max(first, second, key=SEVERITY.index)


def repository() -> str | None:
    """The project's repository as its package metadata names it (`Project-URL: Repository`);
    None while it names none (the project owns no address yet: pyproject.toml says so)."""
    try:
        urls = metadata.metadata("licheck").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    for entry in urls:
        label, _, url = str(entry).partition(",")
        if label.strip().lower() == "repository" and url.strip().startswith("https://"):
            return url.strip()
    return None


class SarifDocument(Plain):
    """The log, product by product: each product's results are encoded where it was evaluated,
    with a hole for their rule's index (known once every product's rules are); the rules,
    sorted, and the run's properties are written around them."""

    separator = "," + INDENT

    def __init__(self, options: RenderOptions | None = None, cap: int | None = None) -> None:
        self.options = options or RenderOptions()
        self.cap = MAX_RESULTS if cap is None else cap
        self._rules: dict[str, tuple[int, dict[str, Any]]] = {}  # id -> (product, rule)
        self._levels: dict[str, str] = {}  # id -> the most severe level of its results
        self._order: dict[str, int] | None = None
        self.results = 0  # every product's results
        self.written = 0  # those admitted under the cap

    def piece(self, product: ProductOut) -> Piece:
        rules: dict[str, dict[str, Any]] = {}
        for finding in product.findings:  # a clause's rule is drawn from its first finding
            if rule_id(finding) not in rules:
                rules[rule_id(finding)] = _rule(finding)
        parts: list[str | Hole] = []
        encoder = Encoder(parts)
        levels: dict[str, str] = {}  # each rule's most severe result in the product
        count = 0
        for finding in product.findings:
            if is_problem(finding):  # waived too: with its suppression
                if parts:
                    parts.append(self.separator)
                result = _result(product, finding, Hole(rule_id(finding)), self.options)
                encoder.value(result, INDENT)
                levels[result["ruleId"]] = _worse(levels.get(result["ruleId"]), result["level"])
                count += 1
        text = join(parts)
        return Piece(text.text, (rules, count, levels), text.holes)

    def take(self, index: int, extra: Extra) -> None:
        rules, count, levels = extra
        self.results += count
        for rid, rule in rules.items():
            if rid not in self._rules or index < self._rules[rid][0]:
                self._rules[rid] = (index, rule)
        for rid, worst in levels.items():
            self._levels[rid] = _worse(self._levels.get(rid), worst)

    def admits(self, index: int, extra: Extra) -> bool:
        count = extra[1]
        if self.written + count > self.cap:
            return False
        self.written += count
        return True

    def head(self, top: Report, pieces: int) -> str:
        docs = Docs(top.library)
        rules = [self._leveled(rid, docs) for rid in sorted(self._rules)]
        if top.errors:  # last, so that the findings' rule indexes (filled apart) still hold
            rules.append(_documented(UNREAD_RULE, link(*REFUSALS)))
        opened = pieces or top.errors
        return self._split(top, rules)[0] + ("[" + INDENT if opened else "[]")

    def _leveled(self, rid: str, docs: Docs) -> dict[str, Any]:
        """The rule with its default level (its results' most severe, `note` without any) and
        its place in the docs."""
        rule = self._rules[rid][1]
        license_id = rule["properties"]["license"]
        page_link = docs.page(license_id, rid.removeprefix(license_id + "/"))
        level = self._levels.get(rid, "note")
        return _documented({**rule, "defaultConfiguration": {"level": level}}, page_link)

    def tail(self, top: Report, pieces: int) -> str:
        index = len(self._rules)  # the manifests not read: their rule is after the findings'
        # their results count toward the cap too (GitHub rejects a run over it, every alert
        # with it); each unread manifest is also a tool-execution notification, never cut
        kept = top.errors[: max(self.cap - self.written, 0)]
        self.results += len(top.errors)
        self.written += len(kept)
        results = [_unread_result(e, index, self.options) for e in kept]  # kept alive:
        parts: list[str | Hole] = []  # the encoder knows the values it wrote by their ids
        encoder = Encoder(parts)
        for result in results:
            if parts or pieces:
                parts.append(self.separator)
            encoder.value(result, INDENT)
        unread = join(parts).text
        closing = "\n      ]" if pieces or top.errors else ""  # as `head` opened it
        return unread + closing + self._split(top, [])[1]

    def _split(self, top: Report, rules: list[dict[str, Any]]) -> tuple[str, str]:
        """The log's text before and after its (empty) results array."""
        driver: dict[str, Any] = {"name": "licheck", "semanticVersion": __version__}
        home = repository()
        if home is not None:  # never an address the project does not own
            driver["informationUri"] = home
        run: dict[str, Any] = {
            "tool": {"driver": {**driver, "rules": rules}},
            "automationDetails": {"id": "licheck/"},
            "columnKind": "unicodeCodePoints",
            "results": Hole("results"),
            "properties": _verdict_properties(top),
        }
        invocation: dict[str, Any] = {"executionSuccessful": True}
        omitted = self.results - self.written
        if omitted:
            run["properties"]["resultsOmitted"] = omitted
            invocation["toolExecutionNotifications"] = [
                {
                    "descriptor": {"id": "results-capped"},
                    "level": "warning",
                    "message": {
                        "text": f"{omitted} of {self.results} results omitted: GitHub code "
                        f"scanning accepts at most {self.cap} results per run (the first "
                        "products' results are kept)."
                    },
                }
            ]
        if self.written > SHOWN_RESULTS:  # accepted, but not every alert is kept
            invocation.setdefault("toolExecutionNotifications", []).append(
                {
                    "descriptor": {"id": "results-over-display-limit"},
                    "level": "warning",
                    "message": {"text": shown_limit(self.written, top.summary.counts.waived)},
                }
            )
        if top.errors:
            invocation.setdefault("toolExecutionNotifications", []).extend(
                _unread_notification(e, self.options) for e in top.errors
            )
        notes = [_notification(s, self.options) for s in top.waivers if s.status != "applied"]
        if top.cards is not None:  # audit-cards: the summary of the cards audited
            run["properties"]["cards"] = top.cards.model_dump(mode="json")
        if top.config is not None:  # the settings a configuration file gave this run
            run["properties"]["config"] = top.config.model_dump(mode="json")
        if top.gate_settings:  # every setting that decided the verdicts and the gate
            run["properties"]["gateSettings"] = [
                s.model_dump(mode="json") for s in top.gate_settings
            ]
        if top.library is not None:  # the layered library changes verdicts: say what it is
            run["properties"]["library"] = top.library.model_dump(mode="json")
            notes += [_replaced_notification(r, self.options) for r in top.library.replaced]
        if notes:
            invocation["toolConfigurationNotifications"] = notes
        if len(invocation) > 1:
            run["invocations"] = [invocation]
        before, after = dumps({"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}).split()
        return before, after + "\n"

    def fill(self, name: str) -> str:
        if self._order is None:
            self._order = {rid: i for i, rid in enumerate(sorted(self._rules))}
        return str(self._order[name])


def document(report: Report) -> dict[str, Any]:
    """The SARIF log as plain data."""
    return cast(dict[str, Any], json.loads(render(report)))


def render(report: Report) -> str:
    return written(SarifDocument(RenderOptions()), report)
