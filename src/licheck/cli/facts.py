"""`licheck facts [NAME]`: the fact vocabulary, in which licenses and manifests meet."""

from __future__ import annotations

import os
import shutil
import sys
import textwrap
from typing import TYPE_CHECKING

import click

from licheck.cli.common import (
    format_option,
    json_output,
    library_option,
    resolve_color,
    terminal_width,
)
from licheck.core.diagnostics import LicheckError

if TYPE_CHECKING:
    from licheck.library.factinfo import FactInfo
    from licheck.library.source import LibrarySource

HELP = """Print the fact vocabulary, or one fact in full.

Without NAME: every fact, one line each (type, where a manifest states it, what licheck assumes
when it does not, meaning). With NAME: its type and unit, how a value is written, its allowed
values, its default, the clauses of the library that read it, and a manifest example.

\b
Example:
  licheck facts
  licheck facts monthly_revenue
  licheck facts restricted_uses --format json
"""


@click.command(help=HELP)
@click.argument("name", required=False)
@format_option(["text", "json", "markdown"], "markdown: the table of docs/facts.md (without NAME).")
@library_option
def facts(name: str | None, fmt: str, licenses_dir: LibrarySource) -> None:
    from licheck.library import factinfo

    if name is None:
        every = factinfo.every_fact()
        if fmt == "json":
            click.echo(json_output([f.summary() for f in every]))
        elif fmt == "markdown":
            click.echo(factinfo.markdown_table(), nl=False)
        else:
            _print_table(every)
        return
    info = _look_up(name, licenses_dir)
    if fmt == "json":
        click.echo(json_output(info.detail()))
    elif fmt == "markdown":
        raise click.UsageError("--format markdown prints the whole table: leave NAME out")
    else:
        click.echo("\n".join(_describe(info, terminal_width())))


def _look_up(name: str, licenses_dir: LibrarySource) -> FactInfo:
    """The fact, with the clauses of the library that read it; exit 2 with a did-you-mean."""
    from licheck.library import factinfo
    from licheck.library.layers import load as load_library
    from licheck.vocabulary.factdefs import suggest
    from licheck.vocabulary.names import FACTS

    if name not in FACTS:
        key = name.strip().lower()  # `MAU` is `mau`: say so (suggest never offers the name itself)
        hint = f" (did you mean {key!r}?)" if key in FACTS else suggest(key, FACTS)
        raise LicheckError(
            f"no fact {name!r} in the vocabulary{hint}; run `licheck facts` for the list"
        )
    found = factinfo.one_fact(name, factinfo.clauses_of(load_library(licenses_dir)))
    assert found is not None  # the name is in the vocabulary
    return found


def _width() -> int | None:
    """The terminal's width (COLUMNS wins); None off a terminal without COLUMNS: no limit, so
    that `licheck facts | grep ...` sees every meaning in full."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    return shutil.get_terminal_size().columns if sys.stdout.isatty() else None


def _print_table(every: list[FactInfo]) -> None:
    """One line per fact, its meaning cut to what the width leaves; where that is too little,
    the meaning goes on a line of its own, and where the columns alone do not fit, so do they."""
    width = _width() or 10**6
    header = ("fact", "type", "scope", "default")
    rows = [(f.name, f.kind, f.scope, f.default[0]) for f in every]
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    table = sum(widths) + 2 * (len(widths) - 1)
    room = width - table - 2
    for i, (info, row) in enumerate([(None, header), *zip(every, rows, strict=True)]):
        meaning = "meaning" if info is None else info.definition.meaning
        cells = "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True))
        if room >= 24:
            text = f"{cells}  {_cut(meaning, room)}"
        elif table <= width:
            text = cells.rstrip() + ("" if i == 0 else f"\n    {_cut(meaning, width - 4)}")
        elif i == 0:
            continue  # no room for columns: each fact says what its values are
        else:
            name, kind, scope, default = row
            text = _cut(f"{name}: {kind}; {scope}; default {default}", width)
            text += f"\n    {_cut(meaning, width - 4)}"
        click.echo(click.style(text, bold=i == 0 and resolve_color("auto")))
    footer = (
        f"{len(every)} facts. scope: where a manifest states it (by model: also per model or "
        "per license; licheck: never, licheck supplies it); default: what licheck assumes when "
        "it is not stated. `licheck facts NAME` shows one in full."
    )
    click.echo("\n".join(_wrap(footer, min(width, 100), "", "")))


def _cut(text: str, room: int) -> str:
    """`text` on one line of at most `room` characters, `...` where it is cut."""
    text = " ".join(text.split())
    return text if len(text) <= room else text[: max(room - 3, 0)].rstrip() + "..."


def _describe(info: FactInfo, width: int) -> list[str]:
    """One fact in full, as plain lines wrapped to `width`."""
    from licheck.text.escape import terminal

    definition = info.definition
    fields = [
        ("type", f"{definition.type.value}: {definition.unit}"),
        ("written", "" if definition.implicit else info.written),
        ("values", ", ".join(info.values)),
        ("scope", info.scope_text),
        ("default", info.default[1]),
        ("bounds", "; ".join(info.bounds)),
    ]
    if info.binds:
        fields.append(("binding", f"decides whether {len(info.binds)} licenses bind a component"))
    lines = [definition.name, *_wrap(definition.meaning, width, "  ", "  ")]
    for label, text in fields:
        if text:
            lines += _wrap(terminal(text), width, f"  {label:<8} ", " " * 11)
    for i, reader in enumerate(_readers(info)):
        lines += _wrap(terminal(reader), width, "  read by  " if i == 0 else " " * 11, " " * 13)
    lines.append("  example")
    lines += [_example_line(f"    {line}", width) for line in info.example.splitlines()]
    return lines


def _example_line(line: str, width: int) -> str:
    """A line of the YAML example wrapped to `width` so that it stays the same YAML: continued
    deeper than its own line (inside a flow collection or a plain scalar), and a comment
    continued as a comment."""
    from licheck.text.readable import fit

    body = line.lstrip(" ")
    lead = line[: len(line) - len(body)]
    if body.startswith("#"):  # deeper than the commented-out line's own indent
        text = body[1:]
        lead += "#" + text[: len(text) - len(text.lstrip(" "))]
    return fit(line, width, lead + "    ")


def _readers(info: FactInfo) -> list[str]:
    """The clauses that read the fact, a license a line."""
    if not info.read_by:
        return ["no clause's own conditions" if info.binds else "no clause of the library"]
    return [f"{lid}: {', '.join(ids)}" for lid, ids in info.read_by.items()]


def _wrap(text: str, width: int, first: str, rest: str) -> list[str]:
    return textwrap.wrap(
        text,
        width=max(width, 40),
        initial_indent=first,
        subsequent_indent=rest,
        break_on_hyphens=False,
    )
