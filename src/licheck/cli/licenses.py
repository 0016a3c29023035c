"""`licheck licenses list | show ID | reach ID | models | verify --texts DIR`: the rule library."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from licheck.cli.common import (
    PathParam,
    color_option,
    format_option,
    json_output,
    library_option,
    resolve_color,
    say,
    terminal_width,
)
from licheck.core.context import EvaluationContext
from licheck.core.diagnostics import LicheckError
from licheck.core.verdicts import Verdict

if TYPE_CHECKING:
    from collections.abc import Callable

    from rich.console import Console

    from licheck.evaluation.reachcells import LicenseReach
    from licheck.library.compiled import Library, LicenseEntry
    from licheck.library.coverage import LibraryCoverage, Totals
    from licheck.library.setaside import SetAside
    from licheck.library.source import LibrarySource


@click.group()
def licenses() -> None:
    """The license rule library and the model catalog.

    \b
    Example:
      licheck licenses list
      licheck licenses show kimi-k2.5-modified-mit
    """


@licenses.command("list")
@format_option(["text", "json"])
@color_option
@library_option
def list_(fmt: str, color: str, licenses_dir: LibrarySource) -> None:
    """List the encoded licenses.

    \b
    Example:
      licheck licenses list --format json
    """
    from licheck.library.layers import load as load_library
    from licheck.library.lookup import models_under

    library = load_library(licenses_dir)
    rows = []
    for license_id, entry in sorted(library.licenses.items()):
        lic = entry.license
        models = models_under(library, license_id)
        rows.append(
            {
                "id": license_id,
                "name": lic.name,
                "version": lic.version,
                "licensor": lic.licensor,
                "clauses": len(lic.clauses),
                "provenance": lic.text.provenance.value,
                "unverified": lic.unverified,
                "models": models,
            }
        )
    if fmt == "json":
        click.echo(json_output(rows))
        return
    from rich.padding import Padding
    from rich.text import Text

    from licheck.text.escape import rich as plain_text

    footer = (
        f"{len(rows)} licenses; `licheck licenses show ID` for one, with its clauses and quotes"
    )

    def draw(console: Console) -> None:
        # a license a line, its models wrapped under it at spaces: ids are never split
        for row in rows:
            provenance = str(row["provenance"]) + (" (unverified)" if row["unverified"] else "")
            console.print(
                Text.assemble(
                    (plain_text(str(row["id"])), "bold"),
                    f"  {row['clauses']} clauses  {provenance}",
                )
            )
            named = ", ".join(cast(list[str], row["models"])) or "—"
            console.print(Padding(Text(plain_text(f"models: {named}")), (0, 0, 0, 4)))
        console.print(footer)

    _echo(draw, color)


@licenses.command()
@click.argument("license_id", metavar="LICENSE_OR_MODEL")
@format_option(["text", "json"])
@color_option
@library_option
def show(license_id: str, fmt: str, color: str, licenses_dir: LibrarySource) -> None:
    """Show one license (by license id, or by the id or alias of a catalog model): its source,
    and each clause with its quote and its rule.

    \b
    Example:
      licheck licenses show kimi-k2.5-modified-mit
      licheck licenses show moonshotai/Kimi-K2.5
    """
    from licheck.library.layers import load as load_library
    from licheck.library.lookup import lookup
    from licheck.text.escape import line

    library = load_library(licenses_dir)
    found = lookup(library, license_id)
    for note in found.notes:  # a layer's, not built in
        click.echo(line(note), err=True)
    if found.problem is not None:
        raise LicheckError(found.problem)
    model, entries = found.model, list(found.licenses)
    if model is None or not found.by_model:
        if model is not None and found.model_differs:  # the name is both
            from licheck.library.modelnames import license_words

            say(
                line(
                    f"licheck: note: this is the license {license_id}; the catalog model "
                    f"{model.id} is under {license_words(model)}"
                )
            )
        _print_licenses(entries, fmt, color, library)
        return
    if fmt == "json":
        documents = [_document(e) for e in entries]
        click.echo(json_output({"model": model.id, "licenses": documents}))
        return
    from licheck.library.modelnames import license_words
    from licheck.text.escape import terminal
    from licheck.text.readable import fit

    click.echo(
        fit(terminal(f"model {license_id} is under {license_words(model)}"), terminal_width())
    )
    click.echo()
    _print_licenses(entries, fmt, color, library)


@licenses.command()
@click.argument("license_id", metavar="LICENSE_OR_MODEL")
@format_option(["text", "json"])
@library_option
def reach(license_id: str, fmt: str, licenses_dir: LibrarySource) -> None:
    """Show which relations to the model each clause reaches: unmodified copy served,
    redistributed, fine-tuned, quantized, merged, distilled or trained on outputs, synthetic
    data, judge/evaluator, internal-only use, in the license's own defined terms, with the quote
    that decides each cell (docs/reach.md).  The clauses of the files the license incorporates
    follow its own.

    \b
    Example:
      licheck licenses reach llama-3.1-community
      licheck licenses reach gemma-terms-of-use --format json
    """
    from licheck.core.diagnostics import LicheckError
    from licheck.library.compiled import incorporated
    from licheck.library.layers import load as load_library
    from licheck.library.lookup import lookup
    from licheck.outputs.reach import reach_document, reach_text
    from licheck.text.escape import line

    library = load_library(licenses_dir)
    found = lookup(library, license_id)
    for note in found.notes:
        click.echo(line(note), err=True)
    if found.problem is not None:
        raise LicheckError(found.problem)
    for index, entry in enumerate(found.licenses):
        bound = incorporated(library.licenses, entry.license.id)
        licenses_ = [library.licenses[b].license for b in bound]
        if fmt == "json":
            click.echo(json_output(reach_document(licenses_)))
            continue
        if index:
            click.echo()
        click.echo(reach_text(licenses_, terminal_width()), nl=False)


def _document(entry: LicenseEntry) -> object:
    return entry.license.model_dump(mode="json", by_alias=True, exclude_none=True)


def _print_licenses(entries: list[LicenseEntry], fmt: str, color: str, library: Library) -> None:
    from licheck.outputs.library_text import describe

    if fmt == "json":
        click.echo(json_output(_document(entries[0])))
        return

    def draw(console: Console) -> None:
        for index, entry in enumerate(entries):
            if index:
                console.print()
            console.print(describe(entry, library), end="")

    _echo(draw, color)


def _echo(draw: Callable[[Console], None], color: str) -> None:
    """What `draw` prints on a console as wide as the terminal (or COLUMNS), coloured as --color
    says; plain text has no trailing spaces (`outputs.text.drawn`)."""
    from licheck.outputs.text import drawn

    sys.stdout.write(drawn(draw, terminal_width(), resolve_color(color)))


@licenses.command()
@format_option(["text", "json"])
@library_option
def models(fmt: str, licenses_dir: LibrarySource) -> None:
    """List the model catalog: each model's license, release date and source.

    \b
    Example:
      licheck licenses models
    """
    from licheck.library.layers import load as load_library

    library = load_library(licenses_dir)
    rows = [m.model_dump(mode="json", by_alias=True, exclude_none=True) for m in library.models]
    if fmt == "json":
        click.echo(json_output(rows))
        return
    from licheck.outputs.library_text import models_text

    click.echo(models_text(library.models, terminal_width()), nl=False)


@licenses.command()
@click.option(
    "--texts",
    "texts",
    required=True,
    type=PathParam(exists=True, file_okay=False, path_type=Path),
    help="Folder of canonical license texts (e.g. ../shared/reference/licenses).",
)
@library_option
def verify(texts: Path, licenses_dir: LibrarySource) -> None:
    """Check each rule file against its canonical text: the text's SHA-256 and every quote.

    Exits 1 naming each drifted license and clause.

    \b
    Example:
      licheck licenses verify \\
        --texts ../shared/reference/licenses
    """
    from licheck.library.layers import load as load_library
    from licheck.library.textcheck import verify as run_verify
    from licheck.text.escape import line

    library = load_library(licenses_dir)
    result = run_verify(library, texts)
    for problem in result.problems:  # FILE:LINE first, whole: what problem matchers read
        column = "" if problem.column is None else f":{problem.column}"
        where = f"{problem.file}:{problem.line}{column}"
        clause = f"/{problem.clause}" if problem.clause else ""
        say(line(f"{where}: {problem.license}{clause}: {problem.message}"), located_first=True)
    if not result.ok:
        say(f"licheck: {len(result.problems)} problem(s) in {result.licenses} licenses")
        raise click.exceptions.Exit(1)
    from licheck.text.readable import fit

    warned = f"; {len(result.warnings)} warning(s) below" if result.warnings else ""
    ok = (
        f"ok: {result.licenses} licenses, {result.clauses} quoted clauses and "
        f"{result.not_encoded} not_encoded quotes verified against {line(str(texts))}{warned}"
    )
    click.echo(fit(ok, terminal_width()))
    for warning in result.warnings:
        say(line(f"{warning.file}: warning: {warning.license}: {warning.message}"))


@licenses.command("coverage")
@click.option(
    "--texts",
    "texts",
    type=PathParam(file_okay=False, path_type=Path),
    default=None,
    help="Folder of canonical license texts (e.g. ../shared/reference/licenses).",
)
@click.option(
    "--reach/--no-reach",
    default=True,
    show_default=True,
    help="Judge each license's reach matrix (clause x relation x derivative); --no-reach "
    "reports the sentence counts alone, and says the reach was not measured.",
)
@click.option(
    "--only",
    "only",
    multiple=True,
    metavar="ID",
    help="Measure only this license (repeatable).",
)
@format_option(["text", "json"])
@library_option
def coverage_(
    texts: Path | None, reach: bool, only: tuple[str, ...], fmt: str, licenses_dir: LibrarySource
) -> None:
    """How much of each license text the rule files account for, and what their clauses reach.

    Counts the sentences of each text that impose a duty, a condition, a prohibition or an
    exception (those with a duty word, and those an entry quotes): encoded by a clause, or
    accounted for by a `not_encoded` entry (with "to encode" apart). Beside them, each
    license's reach matrix: its clause x relation x derivative cells, how many a breach
    manifest exercises, the verdicts they gave, and the cells whose verdict contradicts the
    matrix. Exits 2 when texts are missing: coverage is never reported for a text that was not
    read; exits 1 when a cell contradicts the matrix.

    \b
    Example:
      licheck licenses coverage --format json \\
        --texts ../shared/reference/licenses
    """
    from licheck.library.layers import load as load_library
    from licheck.library.textcheck import measure

    if texts is None or not texts.is_dir():
        where = (
            "no --texts folder given" if texts is None else f"the texts folder {texts} is missing"
        )
        say(
            f"licheck: {where}: coverage needs the canonical license texts (e.g. --texts "
            "../shared/reference/licenses); nothing was measured"
        )
        raise click.exceptions.Exit(2)
    library = load_library(licenses_dir)
    _known(library, only)
    measured = _selected(measure(library, texts, _set_aside(licenses_dir)), only)
    reaches = _reaches(library, measured, only) if reach else None
    if fmt == "json":
        click.echo(json_output(_coverage_document(measured, reaches)))
    else:
        from licheck.outputs.library_text import coverage_text, reach_text

        rows = [(r.license, t) for r, t in measured.each()]
        named = "overall" + ("" if measured.complete else " (partial)")
        named += f" (--only: {len(only)})" if only else ""
        overall = (named, measured.overall)
        others = (measured.unaccounted_texts, measured.set_aside)
        width = terminal_width()
        click.echo(coverage_text(rows, measured.missing, overall, width, others), nl=False)
        click.echo(reach_text(reaches, width), nl=False)
    if measured.unaccounted_texts:
        say(
            f"licheck: {len(measured.unaccounted_texts)} text(s) in {texts} that no rule file "
            "encodes or set-aside.yaml sets aside: "
            + ", ".join(t.text for t in measured.unaccounted_texts)
        )
    _coverage_exit(measured, reaches, texts)


def _known(library: Library, only: tuple[str, ...]) -> None:
    """Every --only names a license of the library (else exit 2)."""
    unknown = [i for i in only if i not in library.licenses]
    if unknown:
        say(f"licheck: --only: no license {', '.join(unknown)} in the library; nothing measured")
        raise click.exceptions.Exit(2)


def _selected(measured: LibraryCoverage, only: tuple[str, ...]) -> LibraryCoverage:
    """The coverage of the licenses --only names (all of them without it)."""
    if not only:
        return measured
    from licheck.library.coverage import LibraryCoverage

    # the folder's other texts are not about the licenses named: left out with them
    return LibraryCoverage(
        tuple(r for r in measured.results if r.license in only),
        tuple(m for m in measured.missing if m[0] in only),
    )


def _reaches(
    library: Library, measured: LibraryCoverage, only: tuple[str, ...]
) -> list[LicenseReach]:
    """Each measured license's reach matrix, judged (one run's memo, keyed by value)."""
    from licheck.evaluation.reachcells import license_reach

    context = EvaluationContext()
    ids = sorted({r.license for r in measured.results} | {m[0] for m in measured.missing})
    if not only:
        ids = sorted(library.licenses)
    return [license_reach(library, i, context) for i in ids]


def _coverage_exit(
    measured: LibraryCoverage, reaches: list[LicenseReach] | None, texts: Path
) -> None:
    """Exit 2 for missing texts, 1 for a cell that contradicts the matrix; a note when the
    reach was not measured."""
    from licheck.text.escape import line

    if reaches is None:
        say("licheck: --no-reach: the reach matrix was not measured")
    if not measured.complete:
        say(
            f"licheck: {len(measured.missing)} text(s) missing from {texts}: "
            + ", ".join(f for _, f in measured.missing)
        )
        raise click.exceptions.Exit(2)
    wrong = [cell for r in reaches or () for cell in r.contradictions]
    if wrong:
        for cell in wrong:
            say(line(f"licheck: reach contradicted: {cell.describe()}"))
        say(f"licheck: {len(wrong)} cell(s) of the reach matrix contradict it")
        raise click.exceptions.Exit(1)


def _set_aside(source: LibrarySource) -> tuple[SetAside, ...]:
    """The texts each library folder read sets aside (the built-in one's, unless it is off)."""
    from licheck.files.safeio import default_directory
    from licheck.library.setaside import load

    builtin = (default_directory(),) if source.builtin else ()
    return load((*builtin, *source.folders))


def _coverage_document(
    measured: LibraryCoverage, reaches: list[LicenseReach] | None
) -> dict[str, object]:
    """`licenses coverage --format json`: the overall figures, then each license's, each with
    its reach matrix (null where it was not measured)."""
    overall = measured.overall
    by_id = {r.license: r for r in reaches} if reaches is not None else {}
    return {
        "accounted": round(overall.accounted_fraction, 4),
        "encoded": round(overall.encoded_fraction, 4),
        **_counts(overall),
        "complete": measured.complete,
        "missing_texts": [{"id": i, "text": f} for i, f in measured.missing],
        "unaccounted_texts": [
            {"text": t.text, "counted": t.counted} for t in measured.unaccounted_texts
        ],
        "set_aside": [{"text": f, "reason": r} for f, r in measured.set_aside],
        "reach": _reach_counts(reaches) if reaches is not None else None,
        "licenses": [
            {
                "id": r.license,
                "text": r.text,
                "accounted": round(t.accounted_fraction, 4),
                "encoded": round(t.encoded_fraction, 4),
                **_counts(t),
                "unaccounted_sentences": [s.text for s in r.unaccounted],
                "reach": _reach_counts([by_id[r.license]]) if r.license in by_id else None,
            }
            for r, t in measured.each()
        ],
    }


def _reach_counts(reaches: list[LicenseReach]) -> dict[str, object]:
    """The matrix's cells, those exercised, their verdicts and the contradictions."""
    wrong = [cell for r in reaches for cell in r.contradictions]
    return {
        "cells": sum(r.cells for r in reaches),
        "tested": sum(r.tested for r in reaches),
        **{v.value: sum(r.count(v) for r in reaches) for v in Verdict},
        "contradictions": len(wrong),
        "contradicting_cells": [
            {
                "license": c.license,
                "clause": c.clause,
                "relation": c.relation.value,
                "derivative": c.derivative,
                "verdict": c.verdict.value,
                "reaches": c.reaches,
            }
            for c in wrong
        ],
        "unexercised_clauses": [f"{r.license}/{c}" for r in reaches for c in r.unjudged_clauses],
    }


def _counts(t: Totals) -> dict[str, int]:
    return {
        "counted": t.total,
        "encoded_count": t.encoded,
        "accounted_count": t.accounted,
        "to_encode": t.to_encode,
        "nothing_to_encode": t.nothing_to_encode,
        "unaccounted": t.unaccounted,
    }
