"""The runs `licheck evaluate`, `check` and `notices` make over manifest files: every file read
(or its problems located), the library loaded where the run needs it, the report completed with
waivers and the manifests that could not be read.  The command line and the public API
(`licheck.api`) both call these; a program calls `licheck.api`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from licheck.core.diagnostics import Diagnostic, InputError, LicheckError
from licheck.evaluation.evaluate import EvaluationContext, Options, ProductResult, evaluate_manifest
from licheck.facts.evidencepolicy import EvidencePolicy, policy_named
from licheck.files.discovery import discover, distinct
from licheck.inputs.manifest import Manifest
from licheck.library.compiled import Library
from licheck.library.layers import load as load_layers
from licheck.library.source import LibrarySource
from licheck.loading.documents import load_manifest
from licheck.report.building import build, product_out
from licheck.report.layering import described
from licheck.report.view import ProductOut, Report, assemble, errors_out

if TYPE_CHECKING:
    from licheck.outputs import Format, RenderOptions
    from licheck.portfolio.streaming import Stream
    from licheck.report.attestations import Attestations
    from licheck.report.waivers import Waivers


T = TypeVar("T")


LibraryGiven = Library | LibrarySource | Path | None
"""A run's library: loaded already, or what `licheck.library.layers.load` reads (None: the
built-in library), read where the run reads it."""


def evidence_policy(text: str, *, option: str = "--evidence") -> EvidencePolicy:
    """The evidence policy `text` names (a policy, or a comma-separated list of evidence kinds);
    `LicheckError` naming `option`."""
    try:
        return policy_named(text)
    except ValueError as exc:
        raise LicheckError(f"{option}: {exc}") from None


def loaded_library(library: LibraryGiven) -> Library:
    """The run's library, loaded where it is not yet."""
    return library if isinstance(library, Library) else load_layers(library)


def evaluate_paths(
    paths: Sequence[Path],
    options: Options,
    library: Library,
    context: EvaluationContext | None = None,
) -> list[ProductResult]:
    """Evaluate every manifest; all problems in all files are raised together.  `context`: the
    run's memo tables (one for all the paths when not given)."""
    results, problems = evaluate_readable(paths, options, library, context)
    if problems:
        raise InputError(problems)
    return results


def evaluate_readable(
    paths: Sequence[Path],
    options: Options,
    library: Library,
    context: EvaluationContext | None = None,
) -> tuple[list[ProductResult], list[Diagnostic]]:
    """Evaluate every manifest that can be read; the problems of the others, located.  A file
    named twice (by the same or another path: `discovery.distinct`) is evaluated once, where
    it is first named, as `check` finds it once."""
    context = context if context is not None else EvaluationContext()
    results: list[ProductResult] = []
    problems: list[Diagnostic] = []
    for path in distinct(paths):
        try:
            manifest, document = load_manifest(path, str(path))
            if options.attesting is not None:
                manifest = _attested(manifest, document.file, options)
            results.append(evaluate_manifest(manifest, document, library, options, context))
        except InputError as exc:
            problems.extend(exc.diagnostics)
    return results, problems


def run_options(
    policy: EvidencePolicy,
    as_of: dt.date | None,
    attestations: Attestations | None,
    today: dt.date | None,
    library: Library,
) -> Options:
    """The evaluation options of a run; its attestations judged on `as_of`, else `today`."""
    if attestations is None:
        return Options(policy, as_of)
    from licheck.report.attestations import attesting

    on = as_of or today or dt.date.today()
    return Options(policy, as_of, attesting=attesting(attestations, on, library))


def _attested(manifest: Manifest, file: str, options: Options) -> Manifest:
    from licheck.report.attestations import (
        attested,  # (a run without attestations never imports it)
    )

    return attested(manifest, file, options.attesting)


def evaluate_report(
    paths: Sequence[Path],
    policy: EvidencePolicy,
    *,
    as_of: dt.date | None = None,
    library: LibraryGiven = None,
    waivers: Waivers | None = None,
    today: dt.date | None = None,
    attestations: Attestations | None = None,
    keep_going: bool = True,
) -> Report:
    """`licheck evaluate`: evaluate the manifests, apply waivers; as `check_report`, a manifest
    that cannot be read is listed in the report's `errors` and the others are evaluated.  With
    `keep_going` false, any such problem is raised instead (`InputError`, all of them)."""
    library = loaded_library(library)
    results, problems = evaluate_readable(
        paths, run_options(policy, as_of, attestations, today, library), library
    )
    if problems and not keep_going:
        raise InputError(problems)
    return completed(build(results, policy.name, as_of), library, problems, waivers, today)


def _check_products(
    paths: Sequence[Path], options: Options, library: Library, jobs: int | None
) -> tuple[list[ProductOut], list[Diagnostic]]:
    """Evaluate every discovered manifest, on every core when there are many
    (`licheck.portfolio.workers`), each product's part of the report built where it is evaluated; in
    `paths` order, with the problems of the manifests that could not be read."""
    from licheck.portfolio.workers import iter_mapped

    products: list[ProductOut] = []
    problems: list[Diagnostic] = []
    for item in iter_mapped(paths, options, library, product_out, jobs=jobs):
        if item.result is None:
            problems.extend(item.problems)
        else:
            products.append(item.result)
    return products, problems


def check_report(
    paths: Sequence[Path],
    policy: EvidencePolicy,
    *,
    as_of: dt.date | None = None,
    library: LibraryGiven = None,
    waivers: Waivers | None = None,
    today: dt.date | None = None,
    attestations: Attestations | None = None,
    jobs: int | None = None,
) -> Report:
    """`licheck check`: find the manifests in files and folders, evaluate (on `jobs` worker
    processes, default one per core when there are many), apply waivers; a manifest that
    cannot be read is listed in the report's `errors`, the others evaluated."""
    manifests = discover(paths)
    library = loaded_library(library)
    products, problems = _check_products(
        manifests, run_options(policy, as_of, attestations, today, library), library, jobs
    )
    return completed(assemble(products, policy.name, as_of), library, problems, waivers, today)


def completed(
    report: Report,
    library: Library,
    problems: Sequence[Diagnostic],
    waivers: Waivers | None,
    today: dt.date | None,
) -> Report:
    """The report of the products evaluated, completed as `evaluate` and `check` give it: the
    library read, waivers applied, and the manifests that could not be read listed in `errors`
    (a waiver that matched nothing may have been meant for one of them)."""
    report = report.model_copy(update={"library": described(library)})
    report = _waived(report, waivers, today)
    errors = errors_out(problems)
    if waivers is not None:  # (a run without waivers does not import licheck.report.waivers)
        from licheck.report.waivers import noting_unread

        report = report.model_copy(update={"waivers": noting_unread(report.waivers, errors)})
    return report.model_copy(update={"errors": errors})


def check_stream(
    paths: Sequence[Path],
    policy: EvidencePolicy,
    fmt: Format,
    options: RenderOptions,
    *,
    as_of: dt.date | None = None,
    library: LibraryGiven = None,
    waivers: Waivers | None = None,
    today: dt.date | None = None,
    attestations: Attestations | None = None,
    jobs: int | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> Stream:
    """`licheck check`, streamed: each product evaluated, waived and rendered in `fmt` where it
    is evaluated (in worker processes for a large portfolio), the pieces spilled to a temporary
    file; `Stream.write` then writes the document.  The report is never held.  All problems in
    all files are raised together (`InputError`), and then nothing is kept.  `progress` is told
    `(done, total)` as each manifest is done."""
    from licheck.outputs import Context
    from licheck.portfolio.streaming import Encoder, stream
    from licheck.portfolio.workers import iter_mapped

    manifests = discover(paths)
    library = loaded_library(library)
    as_of_text = as_of.isoformat() if as_of else None
    context = Context(fmt, options, policy.name, as_of_text, described(library))
    items = iter_mapped(
        manifests,
        run_options(policy, as_of, attestations, today, library),
        library,
        Encoder(context, waivers),
        jobs=jobs,
    )
    if progress is not None:
        items = _told(items, len(manifests), progress)
    return stream(items, context, waivers, today or dt.date.today())


def _told(items: Iterable[T], total: int, progress: Callable[[int, int], object]) -> Iterator[T]:
    for done, item in enumerate(items, 1):
        progress(done, total)
        yield item


def _waived(report: Report, waivers: Waivers | None, today: dt.date | None) -> Report:
    if waivers is None:
        return report
    from licheck.report.waivers import apply

    return apply(report, waivers, today or dt.date.today())
