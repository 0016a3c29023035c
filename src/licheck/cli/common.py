"""What the commands share: error translation, common options, writing output."""

from __future__ import annotations

import datetime as dt
import os
import sys
import tempfile
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

# Input paths are checked by the loader, not by click, so that a missing file, a directory or an
# unreadable file is reported with every other problem of the run instead of stopping at the first.
INPUT_PATH = click.Path(path_type=Path, readable=False)


def run_guarded(command: click.Command, argv: list[str] | None) -> int:
    """Run the click command; bad input exits 2 with located messages, never a traceback."""
    from licheck.diagnostics import InputError, LicheckError

    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    try:
        # Without standalone mode click *returns* the code of a `click.exceptions.Exit` raised by
        # a command (e.g. exit 1 for findings) instead of raising it: keep it.
        result = command.main(args=argv, prog_name="licheck", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.Abort:
        click.echo("Aborted.", err=True)
        return 2
    except InputError as exc:
        for diagnostic in exc.diagnostics:
            click.echo(str(diagnostic), err=True)
        count = len(exc.diagnostics)
        click.echo(
            f"licheck: {count} problem{'s' if count != 1 else ''} in the input; "
            "nothing was evaluated",
            err=True,
        )
        return 2
    except LicheckError as exc:
        click.echo(f"licheck: error: {exc}", err=True)
        return 2
    except RecursionError:  # a pathological input the limits did not catch: still not a crash
        click.echo("licheck: error: the input is nested too deeply to process", err=True)
        return 2
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: say so plainly, traceback only on request
        if debug:
            traceback.print_exc()
        click.echo(
            f"licheck: internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in licheck; run again with --debug for the traceback.",
            err=True,
        )
        return 3
    return result if isinstance(result, int) and not isinstance(result, bool) else 0


def parse_as_of(_ctx: click.Context, _param: click.Parameter, value: str | None) -> dt.date | None:
    if value is None:
        return None
    from licheck.model import parse_date

    try:
        return parse_date(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def evidence_options(function: F) -> F:
    """--evidence and --as-of."""

    function = click.option(
        "--as-of",
        "as_of",
        metavar="DATE",
        callback=parse_as_of,
        help="Count only evidence that existed, and was not yet retracted, on DATE (YYYY-MM-DD).",
    )(function)
    function = click.option(
        "--evidence",
        "evidence",
        default="default",
        show_default=True,
        metavar="POLICY",
        help="Which evidence counts: default, estimates, strict, or a comma-separated list of "
        "evidence kinds that establish a fact.",
    )(function)
    return function


def library_option(function: F) -> F:
    return click.option(
        "--licenses",
        "licenses_dir",
        type=click.Path(file_okay=False, path_type=Path),
        help="Use this rule library folder instead of the built-in one.",
    )(function)


def write_output(text: str, output: Path | None, inputs: Sequence[Path] = ()) -> None:
    """Write to stdout, or atomically to `output`: a temporary file in the same folder, flushed
    to disk and renamed over the target, so a reader never sees a half-written report and a
    failed run leaves the previous report intact.  An input file is never overwritten."""
    write_stream(lambda write: write(text), output, inputs)


def write_stream(
    produce: Callable[[Callable[[str], object]], object],
    output: Path | None,
    inputs: Sequence[Path] = (),
) -> None:
    """As `write_output`, for a report written in pieces: `produce` calls the function it is
    given with each piece in turn."""
    if output is None:
        # click.echo flushes every time: gather small pieces (whole ones, so that an escape
        # sequence click may strip is never cut)
        pending: list[str] = []
        size = 0

        def gather(piece: str) -> None:
            nonlocal size
            pending.append(piece)
            size += len(piece)
            if size >= 1 << 16:
                click.echo("".join(pending), nl=False)
                pending.clear()
                size = 0

        produce(gather)
        click.echo("".join(pending), nl=False)
        return
    from licheck.diagnostics import LicheckError

    for source in inputs:
        if output.exists() and source.exists() and os.path.samefile(output, source):
            raise click.BadParameter(
                f"{output} is an input file; licheck never overwrites its inputs",
                param_hint="--output",
            )
    directory = output.resolve().parent
    if not directory.is_dir():
        raise click.BadParameter(f"folder {directory} does not exist", param_hint="--output")
    if output.is_dir():
        raise click.BadParameter(f"{output} is a folder, not a file", param_hint="--output")
    try:
        handle, temporary = tempfile.mkstemp(
            dir=directory, prefix=f".{output.name}.", suffix=".tmp"
        )
    except OSError as exc:
        raise LicheckError(
            f"--output: cannot write in {directory}: {exc.strerror or exc}"
        ) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            produce(stream.write)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, _report_mode(output))  # mkstemp makes it private (0600)
        os.replace(temporary, output)
    except OSError as exc:
        Path(temporary).unlink(missing_ok=True)
        raise LicheckError(f"--output: cannot write {output}: {exc.strerror or exc}") from None
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _report_mode(output: Path) -> int:
    """Keep an existing report's permissions; a new one gets the usual 0666 less the umask."""
    try:
        return output.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def use_color() -> bool | None:
    """Colour on a terminal unless NO_COLOR is set; never when piped."""
    if os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty()
