"""Baselines: compare a run's findings with a previous `--format json` report.

A finding's identity is its product, component, model, license and clause.  The product is
named by its `product:` name, so that a baseline written by `licheck check products/` still
matches `licheck check ./products` or a moved manifest; where two manifests of either report
share a product name, the manifest's path is added to tell them apart.

How a finding compares with the baseline's finding of the same key, in the verdict order
not applicable < satisfied < governance risk < violation: `new` (no such finding in the
baseline, or the baseline shows it waived: its waiver accepted it, not the baseline), `worse`,
`unchanged`, `improved`, or `fixed` (a violation or risk that is now satisfied or not
applicable).  Only new and worse findings count toward `--fail-on`.  The baseline's violations
and risks that no finding of this run matches are listed as gone (fixed too), but only for the
products this run evaluated: a product the run did not read is not compared at all.  A finding
whose clause text (its quote) differs from the baseline's is new: the baseline accepted another
text.

A baseline's findings must add up to its own counts (per product and in the summary), and its
`digest` must be the one `licheck.report.digest` computes over what a comparison reads, so that a
finding added, re-graded, moved, swapped or duplicated by hand is refused rather than accepted as
"unchanged"; a report without a digest (written before there was one) is refused too.  A
baseline is at most `MAX_BASELINE_BYTES`, and only what a comparison reads is kept as it is
parsed: memory stays within about three times the file's size for a report licheck wrote, and
JSON packed denser than any report is refused unread.

A baseline that is not a licheck JSON report, comes from an incompatible report schema, or is
damaged is an `InputError`, located: never a silent "everything is new".
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from licheck._version import __version__
from licheck.core.diagnostics import Diagnostic, InputError, fail, path_text
from licheck.core.verdicts import Verdict
from licheck.files import jsonread
from licheck.files.safeio import read_bytes
from licheck.report.digest import product_digest, report_digest
from licheck.report.leaner import SCHEMA_V2
from licheck.report.view import (
    SCHEMA_VERSION,
    BaselineCounts,
    BaselineOut,
    BaselineRef,
    BaselineStatus,
    FindingOut,
    GoneFinding,
    Report,
    summarize,
)

# A JSON report of some 20,000 findings (7 KB each, most of it facts and evidence); reading one
# takes about three times its size in memory, any file within the limits at most about thirteen
# (docs/baselines.md, "How much is read")
MAX_BASELINE_BYTES = 128 * 1024 * 1024
HINT = "name a `--format json` report"
# A licheck report holds one JSON value per 19 characters or more (minified; 36 as written), so
# that parsing one takes about three times its size; a file far denser is refused unread
MIN_BYTES_PER_VALUE = 16
DENSE_FLOOR = 1024 * 1024  # smaller files cannot exhaust memory however dense
READS = ("1", "2")  # the schema versions (major) a baseline may be written in
PROBLEMS = frozenset({Verdict.VIOLATION, Verdict.GOVERNANCE_RISK})
REGENERATE = "write a new baseline with `licheck check PATHS --format json -o FILE`"


class _Read(BaseModel):
    # Only what a comparison needs: a report from a later 1.x licheck may carry more.
    model_config = ConfigDict(frozen=True, extra="ignore")


class _Finding(_Read):
    component: str
    model: str
    license: str
    clause: str
    quote: str | None
    verdict: Verdict
    waived: bool = False


class _Counts(_Read):
    violation: int
    governance_risk: int
    satisfied: int
    not_applicable: int
    waived: int


class _Product(_Read):
    product: str
    file: str
    verdict: Verdict
    counts: _Counts
    findings: list[_Finding]


class _Summary(_Read):
    products: int
    findings: int
    counts: _Counts


class _Report(_Read):
    tool: Literal["licheck"]
    schema_version: str
    tool_version: str
    evidence_policy: str
    as_of: str | None
    summary: _Summary
    products: list[_Product]
    library: dict[str, Any] | None = None  # present when layered (or without the built-in one)
    digest: str | None = None  # every report licheck writes has one; `_check_digest` asks


@dataclass(frozen=True, slots=True)
class Entry:
    """One finding of the baseline."""

    product: str
    file: str
    component: str
    model: str
    license: str
    clause: str
    verdict: Verdict
    waived: bool
    quote: str | None = None  # the clause's text the baseline judged


@dataclass(frozen=True, slots=True)
class Baseline:
    file: str
    tool_version: str
    evidence_policy: str
    as_of: str | None
    entries: tuple[Entry, ...]
    library: dict[str, Any] | None = None  # the report's `library`: its layers and policies


def load(path: Path, display: str | None = None) -> Baseline:
    """Read a baseline report; `InputError`, located, for anything but a licheck JSON report
    of a compatible schema."""
    name = path_text(display or str(path))
    text = _text(read_bytes(path, name, MAX_BASELINE_BYTES, hint=HINT), name)
    data = _parse(text, name)
    _check_kind(data, name)
    if data["schema_version"].split(".")[0] == "2":
        _quoted(data, name)
    try:
        report = _Report.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        raise InputError([_located(error, name) for error in errors]) from None
    del data  # only the fields a comparison reads are kept
    _check_counts(report, name)  # first: it names the product
    _check_digest(report, text, name)
    del text
    entries = tuple(
        Entry(
            p.product, p.file, f.component, f.model, f.license, f.clause, f.verdict, f.waived,
            f.quote,
        )
        for p in report.products
        for f in p.findings
    )  # fmt: skip
    return Baseline(
        name, report.tool_version, report.evidence_policy, report.as_of, entries, report.library
    )


def _tally(findings: Iterable[_Finding]) -> _Counts:
    counted = dict.fromkeys(_Counts.model_fields, 0)
    for f in findings:
        counted[f.verdict.value] += 1
        counted["waived"] += f.waived
    return _Counts(**counted)


def _check_counts(report: _Report, name: str) -> None:
    """Refuse a report whose findings do not add up to its counts: a finding added, removed or
    re-graded by hand would otherwise be accepted as the baseline's."""
    where = [
        f"products[{i}] ({p.product})"
        for i, p in enumerate(report.products)
        if _tally(p.findings) != p.counts
        or p.verdict.severity != max((f.verdict.severity for f in p.findings), default=0)
    ]
    findings = [f for p in report.products for f in p.findings]
    summary = report.summary
    if (summary.products, summary.findings) != (len(report.products), len(findings)) or (
        _tally(findings) != summary.counts
    ):
        where.append("summary")
    if where:
        message = (
            f"the findings do not add up to the report's counts in {', '.join(where)}: "
            "edited by hand? A baseline accepts only what licheck found"
        )
        raise fail(name, 0, 0, message, REGENERATE)


def _check_digest(report: _Report, text: str, name: str) -> None:
    """Refuse a report whose digest is missing or does not match what it says: one finding
    re-graded, moved, added, removed or duplicated by hand would hide a new one."""
    if report.digest is None:
        message = (
            "the report carries no digest: written by an earlier licheck, before baselines "
            "carried one, or its digest was removed"
        )
        raise fail(name, 1, 1, message, REGENERATE)
    data = report.model_dump(mode="json")
    expected = report_digest(data, (product_digest(p) for p in data["products"]))
    if report.digest != expected:
        line, column = _where(text, '"digest"')
        message = (
            "the digest does not match the report's findings: edited by hand? A baseline "
            "accepts only what licheck found, as it wrote it"
        )
        raise fail(name, line, column, message, REGENERATE)


def _where(text: str, needle: str) -> tuple[int, int]:
    """The 1-based line and column of the last `needle` in `text` (the top-level key licheck
    writes last), or 1:1."""
    offset = text.rfind(needle)
    if offset < 0:
        return 1, 1
    start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - start + 1


def _text(raw: bytes, name: str) -> str:
    try:
        return raw.decode("utf-8-sig")  # a byte-order mark (an editor's) is no damage
    except UnicodeDecodeError:
        raise fail(name, 0, 0, "not UTF-8 text: not a licheck JSON report", REGENERATE) from None


def _parse(text: str, name: str) -> Any:
    if not text.strip():
        raise fail(name, 0, 0, "the file is empty: expected a licheck JSON report", REGENERATE)
    _check_density(text, name)
    try:
        return jsonread.loads(text, parse_constant=_no_constant, object_pairs_hook=_kept)
    except MemoryError:
        message = "too large to read in memory: not a baseline licheck can compare with"
        raise fail(name, 0, 0, message, REGENERATE) from None
    except jsonread.DuplicateKey as exc:
        message = f"the key {exc.args[0]!r} twice in one object: edited by hand?"
        raise fail(name, 0, 0, message, REGENERATE) from None
    except json.JSONDecodeError as exc:
        message = f"not valid JSON ({exc.msg}): a damaged report?"
        raise fail(name, exc.lineno, exc.colno, message, REGENERATE) from None
    except jsonread.Unreadable as exc:  # a lone surrogate, an integer too long
        message = f"not valid JSON ({exc.reason}): a damaged report?"
        raise fail(name, exc.line, exc.column, message, REGENERATE) from None
    except ValueError as exc:  # e.g. an integer longer than Python converts (4,300 digits)
        raise fail(name, 0, 0, f"not valid JSON ({exc}): a damaged report?", REGENERATE) from None


def _check_density(text: str, name: str) -> None:
    """Refuse, before parsing, JSON packed with more values than a licheck report holds: parsed,
    millions of tiny values (`[[],[],...]`, `{"a":1},...`) take twenty times their text."""
    if len(text) <= DENSE_FLOOR:
        return
    values = text.count("{") + text.count("[") + text.count(",")  # an upper bound
    if values * MIN_BYTES_PER_VALUE > len(text):
        message = (
            f"{values:,} JSON values in {len(text):,} characters: denser than any licheck "
            f"report (each holds fewer than one per {MIN_BYTES_PER_VALUE}), so not read"
        )
        raise fail(name, 0, 0, message, REGENERATE)


# What a comparison never reads and a report holds most of: dropped as soon as it is parsed
# (a key named twice in it is still refused), so that memory holds little more than the text.
_UNREAD = frozenset(
    {"facts", "missing_facts", "settled_by", "explanation", "reason", "components", "waiver"}
    | {"errors"}
    | {"waivers", "config", "gone", "location", "title", "license_name", "model_name"}
)


def _kept(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = jsonread.unique_keys(pairs)
    for key in _UNREAD.intersection(data):
        del data[key]
    return data


def _no_constant(word: str) -> Any:
    """NaN and Infinity are not JSON, and licheck never writes them."""
    raise ValueError(f"{word} is not JSON")


def _check_kind(data: Any, name: str) -> None:
    """Refuse, with a message that says what it is, a file that is no licheck JSON report."""
    if not isinstance(data, dict):
        raise fail(name, 1, 1, "not a licheck JSON report: expected a JSON object", REGENERATE)
    if "runs" in data and "version" in data:
        raise fail(
            name, 1, 1, "a SARIF log, not a licheck JSON report", "use a `--format json` report"
        )
    if data.get("tool") != "licheck":
        raise fail(name, 1, 1, "not a licheck JSON report (no `tool: licheck`)", REGENERATE)
    version = data.get("schema_version")
    if not isinstance(version, str) or version.split(".")[0] not in READS:
        raise fail(
            name,
            1,
            1,
            f"a report of schema version {version!r} (licheck {data.get('tool_version')}); "
            f"this licheck reads versions {SCHEMA_VERSION} and {SCHEMA_V2}",
            REGENERATE,
        )


def _quoted(data: dict[str, Any], name: str) -> None:
    """A 2.0 report's findings given their clause's quote from its `clauses` table (what the
    digest and the comparison read), as a 1.0 report writes it; the table dropped."""
    clauses = data.pop("clauses", None)
    if not isinstance(clauses, dict):
        raise fail(name, 0, 0, "a report of schema 2.0 without its `clauses`", REGENERATE)
    products = data.get("products")
    for i, product in enumerate(products if isinstance(products, list) else ()):
        findings = product.get("findings") if isinstance(product, dict) else None
        for j, finding in enumerate(findings if isinstance(findings, list) else ()):
            if not isinstance(finding, dict):
                continue
            entry = clauses.get(finding.get("license"), {})
            entry = entry.get(finding.get("clause")) if isinstance(entry, dict) else None
            if not isinstance(entry, dict) or "quote" not in entry:
                message = (
                    f"products[{i}].findings[{j}]: its clause is not in the report's "
                    "`clauses`: a damaged report?"
                )
                raise fail(name, 0, 0, message, REGENERATE)
            finding["quote"] = entry["quote"]


def _located(error: Any, name: str) -> Diagnostic:
    """A schema error at its JSON path (a report is one long line or thousands: no position)."""
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error["loc"])
    return Diagnostic(
        name,
        0,
        0,
        f"{where.lstrip('.') or 'the report'}: {error['msg']}: a damaged report?",
        REGENERATE,
    )


Key = tuple[str, str, str, str, str]


def _ambiguous(pairs: Iterable[tuple[str, str]]) -> frozenset[str]:
    """Product names that two manifests of one report share."""
    files: dict[str, set[str]] = {}
    for product, file in pairs:
        files.setdefault(product, set()).add(os.path.normpath(file))
    return frozenset(name for name, seen in files.items() if len(seen) > 1)


def _name(ambiguous: frozenset[str], product: str, file: str) -> str:
    """A product as keys name it: by its name, and its manifest's path where that is shared."""
    return f"{product}\0{os.path.normpath(file)}" if product in ambiguous else product


def _key(
    ambiguous: frozenset[str], product: str, file: str, component: str, model: str, license: str,
    clause: str,
) -> Key:  # fmt: skip
    return (_name(ambiguous, product, file), component, model, license, clause)


def status_of(now: Verdict, before: Entry | None) -> BaselineStatus:
    """How a finding of verdict `now` compares with the baseline's `before`."""
    if before is None:
        return "new"
    if now.severity > before.verdict.severity:
        return "worse"
    if now.severity < before.verdict.severity and before.verdict in PROBLEMS:
        status: BaselineStatus = "improved" if now in PROBLEMS else "fixed"
    else:
        status = "unchanged" if now is before.verdict else "improved"
    if before.waived and now in PROBLEMS:
        return "new"  # its waiver accepted it, not the baseline
    return status


def _index(report: Report, baseline: Baseline) -> tuple[frozenset[str], dict[Key, Entry]]:
    """The product names to tell apart by path, and the baseline's findings by key."""
    ambiguous = _ambiguous((e.product, e.file) for e in baseline.entries) | _ambiguous(
        (p.product, p.file) for p in report.products
    )
    before: dict[Key, Entry] = {}
    for e in baseline.entries:
        key = _key(ambiguous, e.product, e.file, e.component, e.model, e.license, e.clause)
        # a key twice (the digest refuses a hand-made twin): the lesser verdict, so that the
        # baseline accepts no more than either of them
        if key not in before or e.verdict.severity < before[key].verdict.severity:
            before[key] = e
    return ambiguous, before


def _same_text(finding: FindingOut, entry: Entry | None) -> Entry | None:
    """The baseline's entry where it judged the same clause text; None where the clause's
    quote changed since (another library: the baseline accepted another text)."""
    return entry if entry is not None and entry.quote == finding.quote else None


def compare(report: Report, baseline: Baseline) -> Report:
    """The report with each finding's comparison with the baseline, the gate counting only new
    and worse findings, and the baseline's problems that are gone (of the products this run
    evaluated)."""
    ambiguous, before = _index(report, baseline)
    counts = dict.fromkeys(BaselineCounts.model_fields, 0)
    seen: set[Key] = set()
    products = []
    for product in report.products:
        findings = []
        for finding in product.findings:
            key = _key(ambiguous, product.product, product.file, *_parts(finding))
            seen.add(key)
            entry = _same_text(finding, before.get(key))
            status = status_of(finding.verdict, entry)
            if status == "fixed" or finding.verdict in PROBLEMS:
                counts[status] += 1
            ref = BaselineRef(status=status, verdict=entry.verdict if entry else None)
            findings.append(finding.model_copy(update={"baseline": ref}))
        products.append(product.model_copy(update={"findings": findings}))
    unread = _unread_files(report)
    evaluated = _evaluated(report, ambiguous)
    gone = [
        _gone(e)
        for k, e in before.items()
        if k not in seen
        and e.verdict in PROBLEMS
        and os.path.normpath(e.file) not in unread
        and k[0] in evaluated
    ]
    counts["fixed"] += len(gone)
    out = BaselineOut(
        file=baseline.file,
        tool_version=baseline.tool_version,
        counts=BaselineCounts(**counts),
        gone=gone,
    )
    return report.model_copy(
        update={"products": products, "summary": summarize(products), "baseline": out}
    )


def _evaluated(report: Report, ambiguous: frozenset[str]) -> set[str]:
    """The products this run evaluated, as keys name them: a baseline's product that is not
    among them was not compared (not passed to this run, or deleted), so nothing of it is
    "fixed"."""
    return {_name(ambiguous, p.product, p.file) for p in report.products}


def _unread_files(report: Report) -> set[str]:
    """The manifests this run could not read: their baseline findings were not re-evaluated,
    so they are neither gone nor fixed (the run exits 2 anyway)."""
    return {os.path.normpath(e.file) for e in report.errors}


def _parts(finding: FindingOut) -> tuple[str, str, str, str]:
    return (finding.component, finding.model, finding.license, finding.clause)


def _gone(entry: Entry) -> GoneFinding:
    return GoneFinding(
        product=entry.product,
        file=entry.file,
        component=entry.component,
        model=entry.model,
        license=entry.license,
        clause=entry.clause,
        verdict=entry.verdict,
    )


def warnings(report: Report, baseline: Baseline) -> list[str]:
    """What makes the comparison doubtful, to say on stderr: another evidence policy or date,
    or a baseline none of whose findings this run matches."""
    said = []
    unread = _unread_files(report)
    stale = sum(1 for e in baseline.entries if os.path.normpath(e.file) in unread)
    if stale:
        said.append(
            f"{stale} of the baseline's findings are in manifests this run could not read: "
            "they are not compared (neither gone nor fixed)"
        )
    if baseline.evidence_policy != report.evidence_policy:
        said.append(
            f"the baseline was evaluated with evidence policy {baseline.evidence_policy!r}, "
            f"this run with {report.evidence_policy!r}: verdicts may differ for that alone"
        )
    if baseline.as_of != report.as_of:
        said.append(
            f"the baseline counted evidence as of {baseline.as_of or 'its run'}, this run as "
            f"of {report.as_of or 'today'}"
        )
    ambiguous, before = _index(report, baseline)
    evaluated = _evaluated(report, ambiguous)
    absent = {k[0] for k, e in before.items() if k[0] not in evaluated and e.verdict in PROBLEMS}
    absent -= {
        _name(ambiguous, e.product, e.file)
        for e in baseline.entries
        if os.path.normpath(e.file) in unread
    }
    if absent:
        said.append(
            f"{len(absent)} of the baseline's products with violations or risks are not in this "
            "run (not passed, renamed or deleted): their findings are not compared, and none "
            "is counted fixed"
        )
    moved = _moved(report, baseline)
    if moved:
        said.append(
            f"matched by product name, at another manifest path than in the baseline: "
            f"{', '.join(moved)} (moved, or another product of the same name?)"
        )
    reworded = _reworded(report, ambiguous, before)
    if reworded:
        said.append(
            f"the clause text of {reworded} finding(s) differs from the baseline's (another "
            "rule library?): they count as new, since the baseline accepted another text"
        )
    library = report.library.model_dump(mode="json") if report.library else None
    if baseline.library != library:
        said.append(
            "the baseline was evaluated with another rule library (layers, policies or the "
            "built-in one left out): verdicts may differ for that alone"
        )
    if baseline.tool_version != __version__:
        said.append(
            f"the baseline was written by licheck {baseline.tool_version}, this is licheck "
            f"{__version__}: its rule library may differ"
        )
    compared = report.baseline
    if compared is not None and baseline.entries and _matched(report) == 0:
        said.append(
            "no finding of this run matches one of the baseline: every finding is new (were the "
            "products renamed, or the baseline written for other manifests?)"
        )
    return said


def _moved(report: Report, baseline: Baseline) -> list[str]:
    """The products of this run whose name the baseline gives one other manifest path: their
    findings are compared by name (a moved manifest), which a product of another team or
    repository with the same name would also match."""
    paths: dict[str, set[str]] = {}
    for e in baseline.entries:
        paths.setdefault(e.product, set()).add(os.path.normpath(e.file))
    return sorted(
        {
            repr(p.product)
            for p in report.products
            if len(paths.get(p.product, ())) == 1
            and os.path.normpath(p.file) not in paths[p.product]
        }
    )


def _reworded(report: Report, ambiguous: frozenset[str], before: dict[Key, Entry]) -> int:
    """The findings whose baseline entry judged another clause text."""
    count = 0
    for p in report.products:
        for f in p.findings:
            entry = before.get(_key(ambiguous, p.product, p.file, *_parts(f)))
            count += entry is not None and entry.quote != f.quote
    return count


def _matched(report: Report) -> int:
    return sum(
        1
        for product in report.products
        for f in product.findings
        if f.baseline is not None and f.baseline.verdict is not None
    )
