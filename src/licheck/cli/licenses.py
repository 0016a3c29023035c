"""`licheck licenses list | show ID | models | verify --texts DIR`: the rule library."""

from __future__ import annotations

import json
from pathlib import Path

import click

from licheck.cli.common import library_option, use_color


@click.group()
def licenses() -> None:
    """The license rule library and the model catalog."""


@licenses.command("list")
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@library_option
def list_(fmt: str, licenses_dir: Path | None) -> None:
    """List the encoded licenses."""
    from licheck.library import load_library

    library = load_library(licenses_dir)
    rows = []
    for license_id, entry in sorted(library.licenses.items()):
        lic = entry.license
        models = sorted(m.id for m in library.models if m.license == license_id
                        or any(d.license == license_id for d in m.license_history))
        rows.append({"id": license_id, "name": lic.name, "version": lic.version,
                     "licensor": lic.licensor, "clauses": len(lic.clauses),
                     "provenance": lic.text.provenance.value, "unverified": lic.unverified,
                     "models": models})
    if fmt == "json":
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table(show_edge=False, header_style="bold")
    for column in ("id", "name", "clauses", "models", "provenance"):
        table.add_column(column)
    for row in rows:
        provenance = str(row["provenance"]) + (" (unverified)" if row["unverified"] else "")
        table.add_row(str(row["id"]), str(row["name"]), str(row["clauses"]),
                      ", ".join(row["models"]) or "—", provenance)  # type: ignore[arg-type]
    Console(no_color=use_color() is False, highlight=False).print(table)


@licenses.command()
@click.argument("license_id")
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@library_option
def show(license_id: str, fmt: str, licenses_dir: Path | None) -> None:
    """Show one license: its source, and each clause with its quote and its rule."""
    from licheck.diagnostics import LicheckError
    from licheck.library import load_library
    from licheck.vocabulary import suggest

    library = load_library(licenses_dir)
    entry = library.licenses.get(license_id)
    if entry is None:
        raise LicheckError(f"no license {license_id!r} in the library"
                           f"{suggest(license_id, library.licenses)}; see `licheck licenses list`")
    lic = entry.license
    if fmt == "json":
        click.echo(json.dumps(lic.model_dump(mode="json", by_alias=True, exclude_none=True),
                              indent=2, ensure_ascii=False))
        return
    from rich.console import Console
    from rich.markup import escape

    console = Console(no_color=use_color() is False, highlight=False)
    source = lic.text
    console.print(f"[bold]{escape(lic.name)}[/bold] ({lic.id}, version {escape(lic.version)})")
    origin = " ".join(x for x in (source.repo, source.path, source.commit) if x)
    console.print(f"text: {escape(source.file)} — {escape(origin)}")
    console.print(f"sha256: {source.sha256}   provenance: {source.provenance.value}"
                  + ("  [yellow](unverified: a secondary copy)[/yellow]" if lic.unverified
                     else ""))
    if lic.summary:
        console.print(escape(lic.summary))
    if lic.incorporates:
        console.print("incorporates (its clauses bind too): " + ", ".join(lic.incorporates))
    for compiled in entry.clauses:
        clause = compiled.clause
        rule = compiled.rule
        console.print()
        console.print(f"[bold]{clause.id}[/bold] ({clause.kind.value}) — {escape(clause.title)}")
        console.print(f"  [italic]“{escape(clause.quote)}”[/italic]")
        if clause.summary:
            console.print(f"  {escape(clause.summary)}")
        console.print(f"  trigger:     {escape(_show(rule.trigger))}")
        console.print(f"  requirement: {escape(_show(rule.requirement))}")
        for exception in rule.exceptions:
            console.print(f"  exception:   {escape(_show(exception))}")


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
@click.option("--format", "-f", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
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
        click.echo(f"{model.id:<28} {license_id}{released}")


@licenses.command()
@click.option("--texts", "texts", required=True,
              type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Folder of canonical license texts (e.g. ../shared/reference/licenses).")
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
        click.echo(f"licheck: {len(problems)} problem(s) in {len(library.licenses)} licenses",
                   err=True)
        raise click.exceptions.Exit(1)
    click.echo(f"ok: {len(library.licenses)} licenses, {clauses} quoted clauses verified "
               f"against {texts}")
