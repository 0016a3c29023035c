"""licheck's Python API: load the rule library, evaluate manifests, check a portfolio, ask what
if, and read the report.  The names in `__all__` are the API, each documented in docs/api.md;
everything else, here and in the rest of the package, is licheck's own and may change in any
release.

Each function takes its inputs positionally and every option by keyword, with the command
line's defaults: `evaluate(path, evidence="strict", as_of=date(2026, 3, 19))` is `licheck
evaluate PATH --evidence strict --as-of 2026-03-19`.  Problems in input files are raised as one
`InputError` listing each with its file, line and column; every other error of the user's to fix
is a `LicheckError`.  Nothing is printed and no file is written.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

from licheck.core.diagnostics import Diagnostic, InputError, LicheckError
from licheck.core.verdicts import Verdict
from licheck.evaluation.evaluate import Options
from licheck.facts.evidencepolicy import EvidencePolicy
from licheck.library.compiled import Library
from licheck.library.layers import load as load_layers
from licheck.library.source import LibrarySource
from licheck.loading.documents import load_manifest
from licheck.portfolio.runs import check_report, evaluate_report, evidence_policy
from licheck.report import attestations as attestation_files
from licheck.report import waivers as waiver_files
from licheck.report.layering import described
from licheck.report.view import FindingOut, ProductOut, Report
from licheck.whatif import Scenario, Subject, analyse
from licheck.whatif.report import WhatIfReport, build
from licheck.whatif.spec import parse_assignment, parse_swap, parse_sweep

__all__ = [
    "Diagnostic",
    "FindingOut",
    "InputError",
    "Library",
    "LicheckError",
    "ProductOut",
    "Report",
    "Verdict",
    "WhatIfReport",
    "check",
    "evaluate",
    "load_library",
    "what_if",
]

_Path = str | os.PathLike[str]


def load_library(
    *,
    licenses: Sequence[_Path] = (),
    builtin: bool = True,
    policies: Sequence[_Path] = (),
) -> Library:
    """Load and compile the rule library: the built-in one (unless `builtin` is false), with
    each folder of `licenses` layered over it in order, and the organisation policy files of
    `policies` (`--licenses`, `--no-builtin-licenses`, `--policy`).  Load it once and pass it
    as `library=` to evaluate many products with it."""
    source = LibrarySource(
        tuple(Path(f) for f in licenses), builtin, tuple(Path(p) for p in policies)
    )
    return load_layers(source)


def evaluate(
    manifests: _Path | Sequence[_Path],
    *,
    library: Library | None = None,
    evidence: str = "default",
    as_of: dt.date | None = None,
    waivers: _Path | None = None,
    attestations: _Path | None = None,
    today: dt.date | None = None,
    keep_going: bool = False,
) -> Report:
    """Evaluate one manifest file or several (`licheck evaluate`) and return the report.

    `library`: from `load_library` (default the built-in library); `evidence`: the evidence
    policy (`default`, `strict`, ...); `as_of`: count only evidence dated up to that day;
    `waivers`, `attestations`: files, as `--waivers` and `--attestations` read them, judged on
    `today` (default the current date).  A manifest that cannot be read raises `InputError`
    (every problem of every file at once), unless `keep_going`: then it is listed in the
    report's `errors` and every other manifest is evaluated."""
    return evaluate_report(
        _paths(manifests),
        _policy(evidence),
        as_of=as_of,
        library=library,
        waivers=_waivers(waivers),
        today=today,
        attestations=_attestations(attestations),
        keep_going=keep_going,
    )


def check(
    paths: _Path | Sequence[_Path],
    *,
    library: Library | None = None,
    evidence: str = "default",
    as_of: dt.date | None = None,
    waivers: _Path | None = None,
    attestations: _Path | None = None,
    today: dt.date | None = None,
    jobs: int | None = None,
) -> Report:
    """Check a portfolio (`licheck check`): find the manifests in the files and folders of
    `paths` as `check` finds them, evaluate each (on `jobs` worker processes; default one per
    core when there are many) and return one report.  A manifest that cannot be read is listed
    in the report's `errors`, and the others are evaluated; none found raises `InputError`.
    The options are `evaluate`'s."""
    return check_report(
        _paths(paths),
        _policy(evidence),
        as_of=as_of,
        library=library,
        waivers=_waivers(waivers),
        today=today,
        attestations=_attestations(attestations),
        jobs=jobs,
    )


def what_if(
    manifest: _Path,
    *,
    facts: Mapping[str, str] | None = None,
    sweep: Mapping[str, str] | None = None,
    swap_base: Mapping[str, str] | None = None,
    scenario_as_of: dt.date | None = None,
    library: Library | None = None,
    evidence: str = "default",
    as_of: dt.date | None = None,
    attestations: _Path | None = None,
) -> WhatIfReport:
    """Ask what if of one manifest (`licheck whatif`): its verdicts as it stands (the
    baseline) beside a scenario's, which findings change and why, and what to find out next.
    The manifest is never modified.

    `facts`: a fact's value supposed, written as `--set` takes it (`{"mau": "50M"}`); `sweep`:
    one or two quantity facts over a range (`{"monthly_revenue": "1M..100M"}`), cut exactly at
    the clauses' thresholds; `swap_base`: a catalog model evaluated in place of another
    (`{"kimi-k2.5": "glm-5"}`); `scenario_as_of`: the scenario counts only evidence as of that
    day.  `library`, `evidence`, `as_of`, `attestations` as for `evaluate`.  A scenario that
    cannot be applied raises `LicheckError`."""
    scenario = Scenario(
        tuple(parse_assignment(f"{k}={v}") for k, v in (facts or {}).items()),
        tuple(parse_swap(f"{k}={v}") for k, v in (swap_base or {}).items()),
        scenario_as_of,
    )
    path = Path(manifest)
    loaded, document = load_manifest(path, str(path))
    library = library if library is not None else load_layers()
    attested_by = _attestations(attestations)
    if attested_by is not None:
        on = as_of or dt.date.today()
        attesting = attestation_files.attesting(attested_by, on, library)
        loaded = attestation_files.attested(loaded, document.file, attesting)
    subject = Subject(loaded, document, library, Options(_policy(evidence), as_of))
    ranges = [parse_sweep(f"{k}={v}", subject.rates()) for k, v in (sweep or {}).items()]
    report = build(analyse(subject, scenario, ranges))
    return report.model_copy(update={"library": described(library)})


def _paths(given: _Path | Sequence[_Path]) -> list[Path]:
    if isinstance(given, str | os.PathLike):
        return [Path(given)]
    return [Path(p) for p in given]


def _policy(evidence: str) -> EvidencePolicy:
    return evidence_policy(evidence, option="evidence")


def _waivers(path: _Path | None) -> waiver_files.Waivers | None:
    return None if path is None else waiver_files.load(Path(path), str(path))


def _attestations(path: _Path | None) -> attestation_files.Attestations | None:
    return None if path is None else attestation_files.load(Path(path), str(path))
