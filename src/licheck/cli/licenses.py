"""`licheck licenses list | show ID | models | verify --texts DIR`: the rule library."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from licheck.cli.common import library_option, use_color

if TYPE_CHECKING:
    from licheck.library import Library, LicenseEntry


@click.group()
def licenses() -> None:
    """The license rule library and the model catalog."""


@licenses.command("list")
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@library_option
def list_(fmt: str, licenses_dir: Path | None) -> None:
    """List the encoded licenses."""
    from licheck.library import load_library

    library = load_library(licenses_dir)
    rows = []
    for license_id, entry in sorted(library.licenses.items()):
        lic = entry.license
        models = sorted(
            m.id
            for m in library.models
            if m.license == license_id or any(d.license == license_id for d in m.license_history)
        )
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
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(show_edge=False, header_style="bold", box=None)
    table.add_column("id", no_wrap=True)
    table.add_column("clauses", justify="right")
    table.add_column("provenance", no_wrap=True)
    table.add_column("models", overflow="fold")
    for row in rows:
        provenance = str(row["provenance"]) + (" (unverified)" if row["unverified"] else "")
        named = ", ".join(cast(list[str], row["models"])) or "—"
        table.add_row(str(row["id"]), str(row["clauses"]), provenance, named)
    console = Console(
        no_color=use_color() is False, highlight=False, width=None if use_color() else 120
    )
    console.print(table)
    console.print(
        f"{len(rows)} licenses; `licheck licenses show ID` for one, with its clauses and quotes"
    )


@licenses.command()
@click.argument("license_id")
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@library_option
def show(license_id: str, fmt: str, licenses_dir: Path | None) -> None:
    """Show one license: its source, and each clause with its quote and its rule."""
    from licheck.diagnostics import LicheckError
    from licheck.library import load_library
    from licheck.vocabulary import suggest

    library = load_library(licenses_dir)
    entry = library.licenses.get(license_id)
    if entry is None:
        raise LicheckError(
            f"no license {license_id!r} in the library"
            f"{suggest(license_id, list(library.licenses))}; see `licheck "
            "licenses list`"
        )
    lic = entry.license
    if fmt == "json":
        click.echo(
            json.dumps(
                lic.model_dump(mode="json", by_alias=True, exclude_none=True),
                indent=2,
                ensure_ascii=False,
            )
        )
        return
    from rich.console import Console

    console = Console(no_color=use_color() is False, highlight=False)
    console.print(_describe(entry, library), end="")


def _describe(entry: LicenseEntry, library: Library) -> str:
    """One license as text: name, provenance (flagging copies), models, and every clause with its
    quote, plain-words summary and rule.  Plain text: the caller prints it without markup."""
    from rich.markup import escape

    from licheck.library import normalise

    lic, source = entry.license, entry.license.text
    lines = [f"[bold]{escape(lic.name)}[/bold] ({lic.id}, version {escape(lic.version)})"]
    origin = " ".join(x for x in (source.repo, source.path, source.commit) if x)
    lines.append(f"text:       {escape(source.file)}" + (f" — {escape(origin)}" if origin else ""))
    if source.url:
        lines.append(f"url:        {escape(source.url)}")
    lines.append(f"sha256:     {source.sha256}")
    lines.append(
        f"provenance: {source.provenance.value}" + (" — UNVERIFIED" if lic.unverified else "")
    )
    caveat = source.provenance.caveat
    if caveat or lic.unverified:
        warning = caveat or "marked unverified: not checked against the licensor's own file"
        lines.append(f"[yellow]warning: every quote below is {escape(warning)}[/yellow]")
    models = _models_of(lic.id, library)
    lines.append("models:     " + (escape(", ".join(models)) if models else "none in the catalog"))
    if lic.summary:
        lines.append(escape(lic.summary))
    if lic.incorporates:
        lines.append("incorporates (its clauses bind too): " + ", ".join(lic.incorporates))
    for compiled in entry.clauses:
        clause, rule = compiled.clause, compiled.rule
        lines.append("")
        lines.append(f"[bold]{clause.id}[/bold] ({clause.kind.value}) — {escape(clause.title)}")
        lines.append(f"  [italic]“{escape(normalise(clause.quote))}”[/italic]")
        if caveat:
            lines.append(f"  [yellow](quoted from a {source.provenance.value})[/yellow]")
        if clause.summary:
            lines.append(f"  {escape(clause.summary)}")
        lines.append(f"  trigger:     {escape(_show(rule.trigger))}")
        lines.append(f"  requirement: {escape(_show(rule.requirement))}")
        lines.extend(f"  exception:   {escape(_show(e))}" for e in rule.exceptions)
        if clause.note:
            lines.append(f"  note:        {escape(clause.note)}")
    return "\n".join(lines) + "\n"


def _models_of(license_id: str, library: Library) -> list[str]:
    """The catalog models under a license, with the dates where it applied to only some copies."""
    found = []
    for model in library.models:
        dated = [d for d in model.license_history if d.license == license_id]
        if dated:
            spans = ", ".join(_span(d.from_, d.until) for d in dated)
            found.append(f"{model.id} (copies obtained {spans})")
        elif model.license == license_id and not model.license_history:
            found.append(model.id)
    return found


def _span(start: object, end: object) -> str:
    if start and end:
        return f"{start} to {end}"
    if start:
        return f"on or after {start}"
    return f"on or before {end}" if end else "at any date"


def _show(node: object) -> str:
    from licheck.conditions import All, Any_, Const, Not, Test

    match node:
        case Test():
            return str(node)
        case All():
            return "(" + " and ".join(_show(i) for i in node.items) + ")"
        case Any_():
            return "(" + " or ".join(_show(i) for i in node.items) + ")"
        case Not():
            return "not " + _show(node.item)
        case Const():
            return "always" if node.value else "never"
    return str(node)


@licenses.command()
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@library_option
def models(fmt: str, licenses_dir: Path | None) -> None:
    """List the model catalog: each model's license, release date and source."""
    from licheck.library import load_library

    library = load_library(licenses_dir)
    rows = [m.model_dump(mode="json", by_alias=True, exclude_none=True) for m in library.models]
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for model in library.models:
        license_id = model.license or "unknown (not in the library)"
        released = f", released {model.release_date}" if model.release_date else ""
        click.echo(f"{model.id:<30} {license_id}{released}")
        for dated in model.license_history:
            click.echo(
                f"{'':<32}copies obtained {_span(dated.from_, dated.until)}: {dated.license}"
            )


@licenses.command()
@click.option(
    "--texts",
    "texts",
    required=True,
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="Folder of canonical license texts (e.g. ../shared/reference/licenses).",
)
@library_option
def verify(texts: Path, licenses_dir: Path | None) -> None:
    """Check each rule file against its canonical text: the text's SHA-256 and every quote.

    Exits 1 naming each drifted license and clause.
    """
    from licheck.library import load_library
    from licheck.library import verify as run_verify

    library = load_library(licenses_dir)
    problems = run_verify(library, texts)
    for problem in problems:
        where = f"{problem.file}:{problem.line}"
        clause = f"/{problem.clause}" if problem.clause else ""
        click.echo(f"{where}: {problem.license}{clause}: {problem.message}", err=True)
    clauses = sum(len(e.clauses) for e in library.licenses.values())
    if problems:
        click.echo(
            f"licheck: {len(problems)} problem(s) in {len(library.licenses)} licenses", err=True
        )
        raise click.exceptions.Exit(1)
    click.echo(
        f"ok: {len(library.licenses)} licenses, {clauses} quoted clauses verified against {texts}"
    )
