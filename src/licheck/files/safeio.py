"""Reading inputs and writing outputs without harm.

Reading: `read_bytes` refuses folders and special files (FIFOs, devices, sockets) *before*
opening them, opens without blocking, checks again on the open descriptor (the path may have been
swapped), and reads at most `limit` bytes — so no input can hang licheck or grow without bound.

Writing: `refuse_overwrite` says no to an output that is an input of the run (a file, or a YAML
file inside an input folder), that lies inside licheck's installation (the package and its
built-in rule library), that names the same file as another output, or that is a read-only
file (`refuse_read_only`: renaming over it would replace it all the same).  `write_atomic`
follows a symlink to its target; a regular file (or a new one) is written to a temporary file in
the same folder and renamed into place, and the temporary file is removed whatever happens,
SIGTERM and SIGHUP included; anything else (`/dev/null`, `/dev/stdout`, a FIFO) is written
through, never renamed over.
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import FrameType

from licheck.core.diagnostics import LicheckError, fail

YAML_SUFFIXES = (".yaml", ".yml")


class OutputRefused(LicheckError):
    """An output that would destroy an input, or that names one file twice."""


def special_kind(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)


STDIN = Path("-")  # an input named `-` is read from standard input (`Path("./-")` is it too)
STDIN_NAME = "<stdin>"  # what messages and reports call it


def read_stdin(display: str, limit: int) -> bytes:
    """At most `limit` bytes of standard input, as `read_bytes` reads a file: more is refused."""
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:  # closed (`<&-`)
        raise fail(display, 0, 0, "standard input is closed: nothing to read")
    try:
        raw: bytes = stream.read(limit + 1)
    except (OSError, ValueError) as exc:
        raise fail(display, 0, 0, f"cannot read standard input: {exc}") from None
    if len(raw) > limit:
        raise fail(display, 0, 0, f"standard input is too large (the limit is {limit:,} bytes)")
    return raw


def read_bytes(path: Path, display: str, limit: int, *, hint: str = "name a regular file") -> bytes:
    """At most `limit` bytes of the regular file `path` (standard input for `STDIN`:
    `read_stdin`); `InputError` for anything else (with `hint`).  A special file is refused
    before it is opened; the file is then opened without blocking (a FIFO swapped in meanwhile
    cannot hang the open) and never as a controlling terminal, and the open descriptor is
    checked again, so nothing but a regular file is read."""
    if path == STDIN:
        return read_stdin(display, limit)
    try:
        info = os.stat(path)  # once: a portfolio reads thousands of files
        kind = special_kind(info.st_mode)
        if kind is not None:
            raise fail(display, 0, 0, f"is {kind}, not a regular file", hint)
        if info.st_size > limit:
            raise fail(
                display, 0, 0, f"file is too large ({info.st_size:,} bytes; the limit is {limit:,})"
            )
        with os.fdopen(os.open(path, _OPEN_FLAGS), "rb") as stream:
            kind = special_kind(os.fstat(stream.fileno()).st_mode)
            if kind is not None:  # swapped after the first look
                raise fail(display, 0, 0, f"is {kind}, not a regular file", hint)
            raw = stream.read(limit + 1)
    except FileNotFoundError:
        raise fail(display, 0, 0, "no such file") from None
    except PermissionError:
        raise fail(display, 0, 0, "permission denied: the file cannot be read") from None
    except OSError as exc:
        raise fail(display, 0, 0, f"cannot read the file: {exc.strerror or exc}") from None
    except ValueError as exc:  # e.g. a NUL character in the path
        raise fail(display, 0, 0, f"cannot read the file: {exc}") from None
    if len(raw) > limit:
        raise fail(display, 0, 0, f"file is too large (the limit is {limit:,} bytes)")
    return raw


_APPEND_FLAGS = (
    os.O_WRONLY
    | os.O_APPEND
    | os.O_CREAT
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
)


def append_regular(path: Path, text: str) -> None:
    """Append `text` to the regular file `path` (created when missing); `OutputRefused` for a
    folder, FIFO, device or socket, before opening it and again on the open descriptor (opened
    without blocking: a FIFO swapped in meanwhile cannot hang the run)."""
    try:
        kind = special_kind(os.stat(path).st_mode)
    except FileNotFoundError:
        kind = None  # a new file, or a dangling symlink: created at its target
    except (OSError, ValueError) as exc:
        raise OutputRefused(f"cannot write {path}: {_reason(exc)}") from None
    if kind is not None:
        raise OutputRefused(f"{path} is {kind}, not a regular file")
    try:
        descriptor = os.open(path, _APPEND_FLAGS, 0o666)
    except (OSError, ValueError) as exc:  # ENXIO: a FIFO without a reader
        raise OutputRefused(f"cannot write {path}: {_reason(exc)}") from None
    with os.fdopen(descriptor, "a", encoding="utf-8", newline="") as stream:
        kind = special_kind(os.fstat(stream.fileno()).st_mode)
        if kind is not None:  # swapped after the first look
            raise OutputRefused(f"{path} is {kind}, not a regular file")
        stream.write(text)


def _reason(exc: Exception) -> str:
    return (exc.strerror if isinstance(exc, OSError) else None) or str(exc)


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return (info.st_dev, info.st_ino)


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def default_directory() -> Path:
    """The installed rule files (what the built-in library is compiled from), or the
    repository's `licenses/` when run from a checkout."""
    package = Path(__file__).resolve().parent.parent  # src/licheck, or site-packages/licheck
    installed = package / "licenses"
    if installed.is_dir():
        return installed
    return package.parent.parent / "licenses"


def _installed() -> tuple[Path, ...]:
    """The installed package (`library.json`, the schemas, the code) and the built-in rule
    files, resolved: an input of every run that does not name --licenses."""
    return (_real(Path(__file__).parent.parent), _real(default_directory()))


def refuse_overwrite(
    outputs: Sequence[tuple[str, Path | None]],
    inputs: Sequence[Path | None],
    what: str = "an input of this run",
) -> None:
    """`OutputRefused` when an output (`(option, path)`) is an input file of the run (`what`
    the inputs are, for the message), a YAML file inside an input folder, a folder, or the
    same file as another output."""
    named = [(option, path) for option, path in outputs if path is not None]
    seen: dict[object, str] = {}
    for option, path in named:
        real = _real(path)
        key: object = _identity(path) or real
        if key in seen:
            raise OutputRefused(f"{option} {path}: the same file as {seen[key]}; name two files")
        seen[key] = f"{option} {path}"
        if real.is_dir():
            raise OutputRefused(f"{option} {path} is a folder, not a file")
        refuse_read_only(f"{option} {path}", path)
        for folder in _installed():
            if _inside(real, folder):
                raise OutputRefused(
                    f"{option} {path} is inside licheck's installation ({folder}: the package "
                    "or its built-in rule library); licheck never overwrites it"
                )
        identity = _identity(path)
        for source in inputs:
            if source is None:
                continue
            source_real = _real(source)
            if identity is not None and identity == _identity(source):
                raise OutputRefused(
                    f"{option} {path} is {what} ({source}); licheck never overwrites its inputs"
                )
            if (
                source_real.is_dir()
                and _inside(real, source_real)
                and real.suffix.lower() in YAML_SUFFIXES
            ):
                raise OutputRefused(
                    f"{option} {path} is a YAML file inside the input folder {source}; licheck "
                    "never overwrites what it reads: write the report elsewhere"
                )


def refuse_read_only(shown: str, path: Path, info: os.stat_result | None = None) -> None:
    """`OutputRefused` (naming it `shown`) when `path` is an existing regular file that is
    read-only (no write permission for this user, or no write bit at all, which the superuser
    would ignore): renaming a new report over it would replace what its owner protected, as `cp` and
    editors refuse to do unasked."""
    if info is None:
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            return  # a new file (or one the write itself will report)
    if not stat.S_ISREG(info.st_mode):
        return
    if not info.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise OutputRefused(
            f"{shown} is read-only; licheck does not replace a read-only file: make it "
            "writable or remove it first, or write elsewhere"
        )


def refuse_existing_inside(option: str, path: Path | None, folders: Sequence[Path]) -> None:
    """`OutputRefused` when `path` is an existing file inside one of `folders` whose every file
    the run reads (`licheck discover` scans source files of any name): it is an input."""
    if path is None or not os.path.lexists(path):
        return
    real = _real(path)
    for folder in folders:
        if folder.is_dir() and _inside(real, _real(folder)):
            raise OutputRefused(
                f"{option} {path} is a file inside the scanned folder {folder}; licheck never "
                "overwrites what it reads: write the output elsewhere"
            )


_SIGNALS = tuple(
    s for s in (getattr(signal, "SIGTERM", None), getattr(signal, "SIGHUP", None)) if s is not None
)


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: the run stops as it does for Ctrl-C (clean-up runs, no
    output is left half written) and exits 128 + the signal's number."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def _raise(number: int, _frame: FrameType | None) -> None:
    for each in _SIGNALS:  # stopping already: a second signal must not cut the clean-up short
        signal.signal(each, signal.SIG_IGN)
    raise Terminated(number)


@contextlib.contextmanager
def signals_raise() -> Iterator[None]:
    """Turn SIGTERM and SIGHUP into `Terminated` while the block runs (main thread only), so
    that clean-up runs as it does for Ctrl-C.  After one arrived they stay ignored."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {number: signal.signal(number, _raise) for number in _SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            if signal.getsignal(number) is _raise:  # not after one arrived: still stopping
                signal.signal(number, handler)


def write_atomic(output: Path, produce: Callable[[Callable[[str], object]], object]) -> None:
    """Write the text `produce` gives (piece by piece) to `output`, as the module says."""
    try:
        # the path itself, symlinks followed by the system: `/dev/stdout` names a pipe through
        # /proc/self/fd/1, whose resolved name ("pipe:[…]") is no path at all
        info: os.stat_result | None = os.stat(output)
    except FileNotFoundError:
        info = None  # a new file, or a dangling symlink: created at its target
    except OSError as exc:
        raise LicheckError(f"cannot write {output}: {exc.strerror or exc}") from None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise OutputRefused(f"{output} is a folder, not a file")
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_through(output, output, produce)
        return
    refuse_read_only(str(output), output, info)
    target = _real(output)
    directory = target.parent
    if not directory.is_dir():
        raise OutputRefused(f"cannot write {output}: folder {directory} does not exist")
    import tempfile  # only here: a run that writes no file needs none of it

    with signals_raise():
        try:
            handle, temporary = tempfile.mkstemp(
                # a short prefix: a name near the system's limit (255 bytes) must still work
                dir=directory,
                prefix=f".{target.name[:32]}.",
                suffix=".tmp",
            )
        except OSError as exc:
            raise LicheckError(f"cannot write in {directory}: {exc.strerror or exc}") from None
        try:
            with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
                produce(stream.write)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(temporary, _report_mode(info))  # mkstemp makes it private (0600)
            os.replace(temporary, target)
        except OSError as exc:
            Path(temporary).unlink(missing_ok=True)
            raise LicheckError(f"cannot write {output}: {exc.strerror or exc}") from None
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


def _write_through(
    output: Path, target: Path, produce: Callable[[Callable[[str], object]], object]
) -> None:
    """A device, FIFO or other special file: open it for writing as a shell redirect would."""
    try:
        with open(target, "w", encoding="utf-8", newline="") as stream:
            produce(stream.write)
    except OSError as exc:
        raise LicheckError(f"cannot write {output}: {exc.strerror or exc}") from None


def _report_mode(info: os.stat_result | None) -> int:
    """Keep an existing report's permissions; a new one gets the usual 0666 less the umask."""
    if info is not None:
        return info.st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
