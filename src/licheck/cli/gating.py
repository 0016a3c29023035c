"""Options `evaluate` and `check` share: output format and file, the --fail-on gate, waivers."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from licheck.cli.common import (
    DEFAULT_WAIVERS,
    PIPE_CLOSED,
    PathParam,
    color_for,
    discard_stdout,
    format_option,
    is_utf8,
    output_option,
    parse_as_of,
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
    from licheck.report.baseline import Baseline
    from licheck.report.view import Report
    from licheck.report.waivers import Waivers

F = TypeVar("F", bound=Callable[..., Any])

FORMAT_CHOICES = ("text", "json", "sarif", "junit", "markdown", "github", "compact", "html")


def report_options(function: F) -> F:
    """--format, --output, --fail-on, --waivers, --no-waivers, --today."""
    decorators = [
        format_option(
            FORMAT_CHOICES,
            "Output format: text (terminal), json (schema'd: licheck schema "
            "report), sarif (2.1.0, code scanning), junit (CI test reports), "
            "markdown (a PR comment), github (workflow annotations), compact (one line "
            "per finding), html (one self-contained page to read: lineage and evidence "
            "drawn).",
            metavar="FORMAT",  # the choices, listed in the help, would run over 60 columns
        ),
        output_option("the report"),
        click.option(
            "--fail-on",
            type=click.Choice(["violation", "evidence-risk", "risk", "never"]),
            default="violation",
            show_default=True,
            help="Exit 1 when a finding that is not waived is at or above this "
            "verdict (risk: governance risk or violation; evidence-risk: a violation, or a "
            "governance risk open on the product's record, not only on conduct to attest).",
        ),
        click.option(
            "--waivers",
            "waivers_file",
            type=PathParam(dir_okay=False, path_type=Path),
            help=f"Read waivers from FILE (default: {DEFAULT_WAIVERS} in the current "
            "folder, when present).",
        ),
        click.option("--no-waivers", is_flag=True, help="Ignore every waiver file."),
        click.option(
            "--root",
            type=click.Path(file_okay=False, path_type=Path),
            help="SARIF: make file URIs relative to DIR (default: the repository's top "
            "folder, the nearest folder up from here with a .git; else this folder).",
        ),
        click.option(
            "--annotations",
            type=click.IntRange(min=0),
            default=10,
            show_default=True,
            metavar="N",
            help="github: write at most N annotations of each kind (GitHub shows 10 per "
            "step); the rest are listed in the summary.",
        ),
        click.option(
            "--today",
            metavar="DATE",
            callback=parse_as_of,
            help="The date waiver expiry is judged on (YYYY-MM-DD; default: today). "
            "For reproducible reports.",
        ),
    ]
    for decorator in reversed(decorators):
        function = decorator(function)
    return function


def load_waivers(waivers_file: Path | None, no_waivers: bool) -> Waivers | None:
    """The waivers to apply: --waivers FILE, else the default file when present."""
    if no_waivers:
        if waivers_file is not None:
            raise click.UsageError("--waivers and --no-waivers exclude each other")
        return None
    # the default file is looked for before importing licheck.report.waivers (and its models): most
    # runs have no waiver file and need none of it
    path = waivers_file or Path.cwd() / DEFAULT_WAIVERS
    # present in any form it is the team's waivers: one that cannot be read (a folder, a FIFO,
    # a link to nothing) is an error, not a run without them that fails unexplained
    if waivers_file is None and not os.path.lexists(path):
        return None
    from licheck.report.waivers import load

    return load(path, DEFAULT_WAIVERS if waivers_file is None else str(path))


def baseline_option(function: F) -> F:
    """--baseline REPORT.json."""
    return click.option(
        "--baseline",
        "baseline_file",
        type=PathParam(dir_okay=False, path_type=Path),
        metavar="REPORT.json",
        help="Compare with a previous --format json report: only findings that are new or "
        "worse than in it count toward --fail-on; the report marks new, worse, unchanged, "
        "improved and fixed findings.",
    )(function)


def load_baseline(baseline_file: Path | None) -> Baseline | None:
    """The baseline report to compare with, checked before anything is evaluated."""
    if baseline_file is None:
        return None
    from licheck.report.baseline import load

    return load(baseline_file)


def compare_baseline(report: Report, baseline: Baseline | None) -> Report:
    """The report compared with the baseline (unchanged without one); doubts said on stderr."""
    if baseline is None:
        return report
    from licheck.report.baseline import compare, warnings

    compared = compare(report, baseline)
    for warning in warnings(compared, baseline):
        say(f"licheck: warning: --baseline: {warning}")
    return compared


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
