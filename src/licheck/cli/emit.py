"""Rendering and writing the report of `evaluate` and `check` (to --output atomically, or to
standard output, streamed too), then exiting with the gate's code (`--fail-on`): what the
command does once it has its report.  The options it reads are `request`'s."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from licheck.cli.common import (
    PIPE_CLOSED,
    color_for,
    discard_stdout,
    is_utf8,
    say,
    say_located,
    terminal_width,
    write_output,
    write_stream,
)
from licheck.cli.configuring import say_weakened, with_config
from licheck.core.diagnostics import Diagnostic

if TYPE_CHECKING:
    from licheck.outputs import RenderOptions
    from licheck.portfolio.streaming import Stream
    from licheck.report.view import Report


def repository_root(start: Path) -> Path:
    """The nearest folder at or above `start` holding `.git` (a folder, a worktree's file, or
    a link, even one to nothing: `config.settings.is_repository_root`); `start` when there is
    none."""
    from licheck.config.settings import repository_of

    return repository_of(start) or start


def render_options(
    fmt: str,
    fail_on: str,
    output: Path | None,
    *,
    verbose: bool = False,
    summary: bool = False,
    root: Path | None = None,
    annotations: int = 10,
    json_schema: str = "2.0",
    color: str = "auto",
    brief: bool = False,
) -> RenderOptions:
    """How to render: colour only for text (`--color`: auto on a terminal, not into a file);
    text as wide as the terminal (or COLUMNS); paths in SARIF relative to the repository's top
    folder."""
    from licheck.outputs import RenderOptions
    from licheck.report.view import FailOn

    color_text = color_for(color, output) if fmt == "text" else False
    cwd = Path.cwd()
    top = root.resolve() if root is not None else repository_root(cwd)
    return RenderOptions(
        fail_on=FailOn(fail_on),
        color=color_text,
        verbose=verbose,
        summary=summary,
        brief=brief and fmt == "text",
        width=terminal_width(),
        encoding=_encoding(output) if fmt == "text" else "utf-8",
        annotations=annotations,
        json_schema=json_schema,
        root=top.as_posix(),
        cwd=cwd.as_posix(),
    )


def _encoding(output: Path | None) -> str:
    """What the text is written in: standard output's encoding, or UTF-8 (a file)."""
    if output is not None:
        return "utf-8"
    return getattr(sys.stdout, "encoding", None) or "utf-8"


def write_report(
    report: Report,
    options: RenderOptions,
    fmt: str,
    output: Path | None,
    inputs: Sequence[Path | None] = (),
) -> None:
    """Render, write (atomically with --output) and exit with the gate's code."""
    from licheck.outputs import Format, render
    from licheck.report.view import exit_code

    report = with_config(report)  # the report says which settings came from the file
    warn_sarif_cap(report, [fmt])
    code = exit_code(report, options.fail_on)
    with _gate_stands(code):
        write_output(render(report, Format(fmt), options), output, inputs)
    say_unread(report)
    say_weakened(report, options.fail_on)
    raise click.exceptions.Exit(code)


def emit_stream(
    streamed: Stream, output: Path | None, *, inputs: Sequence[Path | None] = ()
) -> None:
    """Write a streamed report (atomically with --output, never over one of `inputs`, the files
    the run read; to standard output its bytes as the workers encoded them) and exit with the
    gate's code."""
    from licheck.report.view import exit_code

    assert streamed.top is not None  # `check_stream` finished it

    streamed.top = with_config(streamed.top)  # its head and tail are written from `top`
    warn_sarif_cap(streamed.top, [streamed.context.fmt.value])
    code = exit_code(streamed.top, streamed.context.options.fail_on)
    with _gate_stands(code):
        if output is None:
            sys.stdout.flush()  # anything printed before goes first
            binary = getattr(sys.stdout, "buffer", None)
            if binary is not None and is_utf8(sys.stdout):
                streamed.write(binary)
                binary.flush()
            else:  # another encoding (stand-ins where it lacks a character), or text only
                streamed.write_text(sys.stdout.write)
                sys.stdout.flush()
        else:
            write_stream(streamed.write_text, output, inputs)
    say_unread(streamed.top)
    say_weakened(streamed.top, streamed.context.options.fail_on)
    raise click.exceptions.Exit(code)


def say_unread(top: Report) -> None:
    """The manifests that could not be read, on stderr as every bad input is (the report lists
    them too), and that the others were evaluated."""
    if not top.errors:
        return
    from licheck.outputs.summary import plural, unread

    say_located(Diagnostic(e.file, e.line, e.column, e.message, e.hint or "") for e in top.errors)
    say(
        f"licheck: {plural(len(top.errors), 'problem')} in the input: {unread(top)}; every "
        "other manifest was evaluated (exit 2)"
    )


def warn_sarif_cap(top: Report, formats: Sequence[str]) -> None:
    """Say on stderr when a SARIF log is cut at GitHub's limit of results per run."""
    if "sarif" not in formats:  # (and the SARIF format is not imported for nothing)
        return
    from licheck.outputs.sarif import MAX_RESULTS, SHOWN_RESULTS, shown_limit

    counts = top.summary.counts
    results = counts.violation + counts.governance_risk + len(top.errors)  # waived ones too
    if results > MAX_RESULTS:
        say(
            f"licheck: warning: {results} SARIF results, over GitHub code scanning's "
            f"{MAX_RESULTS} per run: the log keeps the first products' results up to "
            "the cap (see runs[0].properties.resultsOmitted)"
        )
    elif results > SHOWN_RESULTS:
        say(f"licheck: warning: SARIF: {shown_limit(results, counts.waived)}")


@contextlib.contextmanager
def _gate_stands(code: int) -> Iterator[None]:
    """A reader of standard output that goes away (`licheck check ... | head`) ends the writing,
    quietly, and the run exits 1 whatever the gate: a failing gate never exits 0, and a report
    nobody received is no success either (what click did, when it caught the broken pipe)."""
    try:
        yield
    except BrokenPipeError:
        discard_stdout()
        raise click.exceptions.Exit(max(code, PIPE_CLOSED)) from None
