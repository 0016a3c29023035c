"""What the commands share: error translation, common options, writing output."""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

import click

from licheck.cli.state import run_state
from licheck.core.diagnostics import InputError, LicheckError
from licheck.files.safeio import STDIN, Terminated, refuse_overwrite, signals_raise, write_atomic

if TYPE_CHECKING:
    from licheck.config.settings import Config
    from licheck.core.diagnostics import Diagnostic
    from licheck.library.source import LibrarySource

F = TypeVar("F", bound=Callable[..., Any])
DEFAULT_WAIVERS = ".licheck-waivers.yaml"  # equals licheck.report.waivers.DEFAULT_FILE (tested)


class PathParam(click.Path):
    """`click.Path` that refuses an empty path: `""` means the current folder to `pathlib`, so
    an unset shell variable (`licheck check "$DIR"`) would check, or write over, whatever is
    there."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and not value:
            self.fail("an empty path (an unset variable?): name a file or folder", param, ctx)
        converted = super().convert(value, param, ctx)
        # click refuses a regular file where a folder is wanted, but lets a device or a FIFO
        # through (`--texts /dev/zero` then found no text in it: drift, exit 1, not bad input)
        if not self.file_okay and os.path.exists(value) and not os.path.isdir(value):
            self.fail(f"{os.fsdecode(value)!r} is not a folder", param, ctx)
        return converted


# Input paths are checked by the loader, not by click, so that a missing file, a directory or an
# unreadable file is reported with every other problem of the run instead of stopping at the first.
INPUT_PATH = PathParam(path_type=Path, readable=False)


def stdin_once(
    _ctx: click.Context, param: click.Parameter, values: tuple[Path, ...]
) -> tuple[Path, ...]:
    """The callback of a command's input arguments: `-` (a manifest on standard input,
    `licheck.files.safeio.STDIN`) may be named once; standard input cannot be read twice."""
    if values.count(STDIN) > 1:
        raise click.BadParameter("'-' (standard input) can be named once", param=param)
    return values


INTERRUPTED = 130  # Ctrl-C, as a shell reports a process killed by SIGINT (128 + 2)
PIPE_CLOSED = 1  # the exit code when standard output's reader went away, whatever the gate


def run_guarded(command: click.Command, argv: list[str] | None) -> int:  # noqa: C901
    """Run the click command; bad input exits 2 with located messages, never a traceback."""
    debug = "--debug" in (argv if argv is not None else sys.argv[1:])
    tolerate_encodings()
    try:
        # Without standalone mode click *returns* the code of a `click.exceptions.Exit` raised by
        # a command (e.g. exit 1 for findings) instead of raising it: keep it.  SIGTERM and
        # SIGHUP stop the run as Ctrl-C does (`Terminated`): workers stopped, outputs cleaned up.
        with signals_raise():
            result = command.main(args=argv, prog_name="licheck", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.ClickException as exc:
        context = exc.ctx if isinstance(exc, click.UsageError) else None
        if context is not None:  # as click shows it, with the message escaped
            hint = f"Try '{context.command_path} {context.help_option_names[0]}' for help."
            say(f"{context.get_usage()}\n{hint}\n")
        say(f"Error: {_terminal(exc.format_message())}")
        return exc.exit_code
    except click.Abort as exc:
        # Click turns Ctrl-C (KeyboardInterrupt) into `Abort` when not in standalone mode.
        if isinstance(exc.__context__, KeyboardInterrupt):
            say("Interrupted.")
            return INTERRUPTED
        say("Aborted.")
        return 2
    except InputError as exc:
        say_located(exc.diagnostics)
        count = len(exc.diagnostics)
        say(
            f"licheck: {count} problem{'s' if count != 1 else ''} in the input; "
            "nothing was evaluated"
        )
        return 2
    except LicheckError as exc:
        say(f"licheck: error: {_terminal(str(exc))}")
        return 2
    except RecursionError:  # a pathological input the limits did not catch: still not a crash
        say("licheck: error: the input is nested too deeply to process")
        return 2
    except KeyboardInterrupt:
        say("Interrupted.")
        return INTERRUPTED
    except Terminated as exc:  # SIGTERM or SIGHUP: the output was cleaned up, workers stopped
        say("Terminated.")
        return 128 + exc.number
    except BrokenPipeError:
        # The reader of standard output went away (`licheck ... | head`): what it did not read
        # was not delivered, so the run did not succeed (and a failing gate never exits 0).
        discard_stdout()
        return PIPE_CLOSED
    except OSError as exc:  # inputs and --output report their own; this is standard output
        # (a full disk, /dev/full, an I/O error): the report did not arrive, say why; one that
        # names a file is about that file, read or written: it is named, not called a write
        discard_stdout()
        why = _terminal(exc.strerror or str(exc))
        if exc.filename:
            say(f"licheck: error: {_terminal(str(exc.filename))}: {why}")
        else:
            say(f"licheck: error: cannot write standard output: {why}")
        return 2
    except Exception as exc:  # a bug: say so plainly, traceback only on request
        if debug:
            import traceback

            traceback.print_exc()
        say(
            f"licheck: internal error: {type(exc).__name__}: {_terminal(str(exc))}\n"
            "This is a bug in licheck; run again with --debug for the traceback."
        )
        return 3
    return result if isinstance(result, int) and not isinstance(result, bool) else 0


def _terminal(text: str) -> str:
    """`licheck.text.escape.terminal`, imported only when there is a message to show."""
    from licheck.text.escape import terminal

    return terminal(text)


def discard_stdout() -> None:
    """Point standard output at the null device, so that later flushes (at exit) cannot fail
    again on a closed pipe."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)


NOTE = "licheck: note: "  # an informational line on stderr, which -q/--quiet leaves out


def quiet() -> bool:
    """Whether the run was given `-q/--quiet`: then no progress line and no `licheck: note:`
    line (`say`); the report, warnings and errors are written as ever."""
    return run_state().quiet


def say(text: str, *, located_first: bool = False, trust: bool = False) -> None:
    """Lines on stderr, each wrapped to the width of stderr (`formats.text.fit_lines`);
    nothing when stderr is gone, or for a note (`NOTE`) under `--quiet` unless it bears on
    how far the output can be trusted (`trust`: e.g. the library's layers, where the output
    has no place for them).  With `located_first`, the first line (`FILE:LINE:COL: error:
    ...`, what editors and CI problem matchers read) stays whole."""
    if text.startswith(NOTE) and not trust and quiet():
        return
    from licheck.text.readable import encodable, fit_lines

    # laid out as it will be shown: a stand-in (`—` as `--`) may be wider than its character
    text = encodable(text, getattr(sys.stderr, "encoding", None) or "utf-8")
    lines = text.split("\n")
    whole = lines[:1] if located_first else []
    rest = lines[len(whole) :]
    if rest:
        whole.append(fit_lines("\n".join(rest), terminal_width(sys.stderr)))
    text = "\n".join(whole)
    with contextlib.suppress(OSError, ValueError):
        click.echo(text, err=True)


def say_located(diagnostics: Iterable[Diagnostic]) -> None:
    """Each diagnostic on stderr, its `FILE:LINE:COL: error:` line whole (`located`)."""
    for diagnostic in diagnostics:
        say(located(diagnostic), located_first=True)


def located(diagnostic: Diagnostic) -> str:
    """A diagnostic for stderr: the file name, message and hint with every control character
    shown escaped, so no input can start a line (a GitHub `::error` command) or drive the
    terminal."""
    from licheck.text.escape import line, terminal

    where = line(diagnostic.file)  # first on the line: cannot start a workflow command
    if diagnostic.line:
        where += f":{diagnostic.line}:{diagnostic.column}"
    text = f"{where}: error: {terminal(diagnostic.message)}"
    return f"{text}\n  hint: {terminal(diagnostic.hint)}" if diagnostic.hint else text


def tolerate_encodings() -> None:
    """Never fail on a character the terminal's encoding lacks (a cp1252 console, ASCII
    `PYTHONIOENCODING`): such characters are replaced, in output and messages alike.  A closed
    standard output (`>&-`) is said once and what would go there discarded; the exit code
    keeps its meaning."""
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 (lives as long as the run)
        say("licheck: standard output is closed: the report printed there is discarded")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    narrow = [stream for stream in (sys.stdout, sys.stderr) if not is_utf8(stream)]
    if not narrow:
        return  # the usual case: nothing to register (and `licheck.text.readable` stays unloaded)
    from licheck.text.readable import register

    handler = register()
    for stream in narrow:
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(OSError, ValueError, AttributeError):
                reconfigure(errors=handler)  # readable ASCII stand-ins (`licheck.text.readable`)


def is_utf8(stream: object) -> bool:
    """Whether a text stream encodes as UTF-8 (so that it takes every character)."""
    encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
    return encoding in ("utf8", "utf_8")


def parse_as_of(_ctx: click.Context, _param: click.Parameter, value: str | None) -> dt.date | None:
    if value is None:
        return None
    from licheck.inputs.rules import parse_date

    try:
        return parse_date(value)
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


def evidence_option(function: F) -> F:
    """--evidence POLICY."""
    return click.option(
        "--evidence",
        "evidence",
        default="default",
        show_default=True,
        metavar="POLICY",
        help="Which evidence counts: default, estimates, strict, or a comma-separated list of "
        "evidence kinds that establish a fact.",
    )(function)


def evidence_options(function: F) -> F:
    """--evidence and --as-of."""

    function = click.option(
        "--as-of",
        "as_of",
        metavar="DATE",
        callback=parse_as_of,
        help="Count only evidence that existed, and was not yet retracted, on DATE (YYYY-MM-DD).",
    )(function)
    return evidence_option(function)


def format_option(
    choices: Sequence[str], help: str | None = None, *, metavar: str | None = None
) -> Callable[[F], F]:
    """--format/-f among `choices`, the first the default; the command gets `fmt`."""
    return click.option(
        "--format",
        "-f",
        "fmt",
        type=click.Choice(list(choices)),
        metavar=metavar,
        default=choices[0],
        show_default=True,
        help=help,
    )


def output_option(what: str = "the output") -> Callable[[F], F]:
    """--output/-o FILE, written atomically (`write_output`)."""
    return click.option(
        "--output",
        "-o",
        type=PathParam(dir_okay=False, path_type=Path),
        help=f"Write {what} to FILE (atomically) instead of standard output.",
    )


def _no_builtin(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    run_state(ctx).no_builtin_licenses = value  # eager: processed before --licenses reads it
    return value


def _policies(ctx: click.Context, _param: click.Parameter, value: tuple[Path, ...] | None) -> None:
    run_state(ctx).policy_files = tuple(value or ())  # eager: processed before --licenses


def _library_source(
    ctx: click.Context, _param: click.Parameter, value: tuple[Path, ...] | None
) -> LibrarySource:
    from licheck.library.source import LibrarySource

    state = run_state(ctx)
    return LibrarySource(
        tuple(value or ()), builtin=not state.no_builtin_licenses, policies=state.policy_files
    )


def policy_option(function: F) -> F:
    """--policy FILE (repeatable): organisation policy files, carried by the command's
    `LibrarySource` (with `library_option`)."""
    return click.option(
        "--policy",
        "policy_files",
        multiple=True,
        type=PathParam(dir_okay=False, path_type=Path),
        is_eager=True,
        expose_value=False,
        callback=_policies,
        metavar="FILE",
        help="Judge the organisation's own rules in FILE too (repeatable): each rule is "
        "reported as policy/ORG/RULE, like a license clause, and can be waived.",
    )(function)


def library_option(function: F) -> F:
    """--licenses DIR (repeatable) and --no-builtin-licenses: the command gets `licenses_dir`, a
    `LibrarySource`."""
    function = click.option(
        "--no-builtin-licenses",
        is_flag=True,
        is_eager=True,
        expose_value=False,
        callback=_no_builtin,
        help="Leave out the built-in rule library: the first --licenses folder is the base.",
    )(function)
    return click.option(
        "--licenses",
        "licenses_dir",
        multiple=True,
        type=PathParam(file_okay=False, path_type=Path),
        callback=_library_source,
        metavar="DIR",
        help="Layer the rule files and catalog in DIR over the built-in library (repeatable, "
        "in order): new licenses and models are added, one with an id already present "
        "replaces it, and the report says so.",
    )(function)


def write_output(text: str, output: Path | None, inputs: Sequence[Path | None] = ()) -> None:
    """Write to stdout, or to `output` (`licheck.files.safeio.write_atomic`): a regular file
    atomically, so a reader never sees a half-written report and a failed run leaves the
    previous report intact; a device or FIFO written through.  An input is never overwritten."""
    write_stream(lambda write: write(text), output, inputs)


def refuse_outputs(
    outputs: Sequence[tuple[str, Path | None]], inputs: Sequence[Path | None]
) -> None:
    """Refuse, before any work, outputs that are inputs of the run or name one file twice."""
    refuse_overwrite(outputs, inputs)
    refuse_overwrite(outputs, config_inputs(), CONFIG_NAMED)


def loaded(ctx: click.Context | None = None) -> Config | None:
    """The configuration file this run read (`configuring.configure`), if any; `ctx`: any
    context of the run (default: the current one)."""
    return run_state(ctx).config


def config_file() -> Path | None:
    """The configuration file this run read (`licheck.cli.configuring`): an input too."""
    config = loaded()
    return config.file if config is not None else None


CONFIG_NAMED = "the configuration file or a file it names"  # for `refuse_overwrite`


def config_inputs() -> tuple[Path, ...]:
    """The configuration file this run read and every file and folder it names (the paths
    `check` checks, waivers, layers, policies): inputs of some run, whichever command this
    is, so never overwritten by an output (`licheck notices -o` naming the waiver file)."""
    config = loaded()
    if config is None:
        return ()
    from licheck.config.settings import BY_KEY

    named: list[Path] = [config.file]
    for key, value in config.values.items():
        setting = BY_KEY.get(key)
        if (
            setting is None or not setting.path or key == "root"
        ):  # root: only URIs are relative to it
            continue
        items = value if isinstance(value, (list, tuple)) else (value,)
        named.extend(Path(item) for item in items if isinstance(item, (str, Path)) and str(item))
    return tuple(named)


def write_stream(
    produce: Callable[[Callable[[str], object]], object],
    output: Path | None,
    inputs: Sequence[Path | None] = (),
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
                to_stdout("".join(pending))
                pending.clear()
                size = 0

        produce(gather)
        to_stdout("".join(pending))
        return

    refuse_overwrite([("--output", output)], inputs)
    refuse_overwrite([("--output", output)], config_inputs(), CONFIG_NAMED)
    write_atomic(output, produce)


def json_output(value: object) -> str:
    """`value` as indented JSON, safe for a CI log (`licheck.files.jsontext.document`)."""
    from licheck.files.jsontext import document

    return document(value)


def to_stdout(text: str) -> None:
    """Write to standard output in its own encoding (with readable stand-ins where it lacks a
    character: `tolerate_encodings`).  Not click.echo: it re-encodes an ASCII stdout as UTF-8
    and strips the colour `--color always` asked for; text carries colour only when asked."""
    sys.stdout.write(text)
    sys.stdout.flush()


COLOR_CHOICES = ("auto", "always", "never")
DEFAULT_WIDTH = (
    80  # columns, when neither COLUMNS nor a terminal says (a pipe: 80, as less and mail read)
)
MINIMUM_WIDTH = 40  # narrower, tables cannot be laid out at all: lines run over instead
MAXIMUM_WIDTH = 1000  # no terminal is wider; a stray COLUMNS=99999 would draw 99999-wide rules


DUMB_TERMINALS = ("dumb", "unknown")  # TERM values that take no escape sequences (as rich)


def dumb_terminal() -> bool:
    """Whether TERM says the terminal takes no escape sequences (`TERM=dumb`: Emacs' shell, some
    CI consoles): no colour and no redrawn progress line, as rich decides."""
    return os.environ.get("TERM", "").lower() in DUMB_TERMINALS


def resolve_color(choice: str, stream: object = None) -> bool:
    """Whether to colour text: `always` / `never` as asked; `auto` colours a terminal, unless
    NO_COLOR is set (non-empty) or TERM is dumb (`dumb_terminal`), and anything when
    FORCE_COLOR is set (non-empty) — but NO_COLOR and a dumb TERM win over it, as in rich.
    An explicit choice wins over all three."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR") or dumb_terminal():
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    isatty = getattr(stream if stream is not None else sys.stdout, "isatty", None)
    try:
        return bool(isatty()) if isatty is not None else False
    except (OSError, ValueError):  # a closed stream
        return False


def color_for(choice: str, output: Path | None) -> bool:
    """Whether to colour text written to `output`: a file only when asked (`always`),
    standard output as `resolve_color` says."""
    return resolve_color(choice) if output is None else choice == "always"


def color_option(function: F) -> F:
    """--color auto|always|never, for every command that prints text."""
    return click.option(
        "--color",
        "color",
        type=click.Choice(COLOR_CHOICES),
        default="auto",
        show_default=True,
        help="Colour the text output: auto (on a terminal, unless NO_COLOR is set or "
        "TERM=dumb; FORCE_COLOR forces it otherwise), always (e.g. for less -R), never.",
    )(function)


def terminal_width(stream: TextIO | None = None) -> int:
    """The width to lay text out in: COLUMNS when set (also when piped: it wins), else the
    terminal's, else 80 columns (a pipe); between 40 and 1000."""
    columns = os.environ.get("COLUMNS", "").strip()
    width = int(columns) if columns.isdigit() and len(columns) < 6 else 0
    if not width:
        target = stream if stream is not None else sys.stdout
        with contextlib.suppress(OSError, ValueError, AttributeError):
            if target.isatty():
                width = os.get_terminal_size(target.fileno()).columns
    return min(max(width or DEFAULT_WIDTH, MINIMUM_WIDTH), MAXIMUM_WIDTH)


def exit_unread(unread: Sequence[Diagnostic], consequence: str) -> None:
    """After a command has written what it could from the manifests it read: the ones it could
    not read, located on stderr, what that leaves unknown, and exit 2 (nothing can pass on
    what was not read)."""
    if not unread:
        return
    say_located(unread)
    files = len({d.file for d in unread})
    say(
        f"licheck: {files} manifest(s) could not be read: {consequence}; the others were read "
        "(exit 2)"
    )
    raise click.exceptions.Exit(2)
