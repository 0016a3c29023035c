"""The library's entry points: load, evaluate, report — what the CLI and other tools call."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from licheck.diagnostics import Diagnostic, InputError, LicheckError
from licheck.discovery import discover
from licheck.evaluation import Options, ProductResult, evaluate_manifest
from licheck.facts import EvidencePolicy, policy_named
from licheck.library import Library, load_library
from licheck.loading import load_manifest
from licheck.report import Report, build

if TYPE_CHECKING:
    from licheck.waivers import Waivers


def resolve_policy(text: str) -> EvidencePolicy:
    try:
        return policy_named(text)
    except ValueError as exc:
        raise LicheckError(f"--evidence: {exc}") from None


def evaluate_paths(
    paths: Sequence[Path], options: Options, library: Library
) -> list[ProductResult]:
    """Evaluate every manifest; all problems in all files are raised together."""
    results: list[ProductResult] = []
    problems: list[Diagnostic] = []
    for path in paths:
        try:
            manifest, document = load_manifest(path, str(path))
            results.append(evaluate_manifest(manifest, document, library, options))
        except InputError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise InputError(problems)
    return results


def evaluate_files(
    paths: Sequence[Path], policy: EvidencePolicy, as_of: dt.date | None = None,
    licenses_dir: Path | None = None, waivers: Waivers | None = None,
    today: dt.date | None = None,
) -> Report:
    library = load_library(licenses_dir)
    results = evaluate_paths(paths, Options(policy, as_of), library)
    return apply_waivers(build(results, policy.name, as_of), waivers, today)


def check_paths(
    paths: Sequence[Path], options: Options, library: Library
) -> list[ProductResult]:
    """The core of `licheck check`: evaluate every discovered manifest.  Kept as one function
    so a streaming or parallel implementation can replace it; results keep `paths` order."""
    return evaluate_paths(paths, options, library)


def check_files(
    paths: Sequence[Path], policy: EvidencePolicy, as_of: dt.date | None = None,
    licenses_dir: Path | None = None, waivers: Waivers | None = None,
    today: dt.date | None = None,
) -> Report:
    """`licheck check`: find the manifests in files and folders, evaluate, apply waivers."""
    manifests = discover(paths)
    library = load_library(licenses_dir)
    results = check_paths(manifests, Options(policy, as_of), library)
    return apply_waivers(build(results, policy.name, as_of), waivers, today)


def apply_waivers(report: Report, waivers: Waivers | None, today: dt.date | None) -> Report:
    if waivers is None:
        return report
    from licheck.waivers import apply

    return apply(report, waivers, today or dt.date.today())
