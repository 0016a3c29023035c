"""Which files `licheck check` evaluates: manifest files named on the command line, and the
manifests found in folders.

A file named on the command line is always read as a manifest (so a broken one is an error, never
skipped).  In a folder, searched recursively in name order, a file is a candidate when its name
ends in `.yaml` or `.yml` and neither it nor a folder on the way is hidden (a name starting with
`.`); a candidate is a manifest when it could have a top-level `product` key, or has both
`owner` and `components` (`is_manifest`).
Other YAML (rule files, the catalog, waiver files, CI configuration) is skipped without being
parsed, so a folder can hold anything else.  Nothing that could be a manifest is passed over in
silence: a special file (FIFO, device, socket) named like YAML, a broken symlink, a symlink loop
and a folder that cannot be read are reported as errors; symlinked folders are followed, each
real folder once.
"""

from __future__ import annotations

import errno
import itertools
import os
import re
import stat
from collections.abc import Iterator, Sequence
from pathlib import Path

from licheck.diagnostics import Diagnostic, InputError
from licheck.safeio import STDIN, read_bytes, special_kind
from licheck.yamlsafe import MAX_FILE_BYTES

SUFFIXES = (".yaml", ".yml")
# An anchor or a tag before a key (`&p product:`, `!!str product:`).
_PROPERTIES = rb"(?:(?:&[^ \t\r\n]+|![^ \t\r\n]*)[ \t]+)*"
# A top-level key in block style: at the start of a line, bare or quoted, or as an explicit key
# (`? product`), after an anchor or a tag.  Group 2 is `product`, or a manifest's other two
# required keys (a file with both is one whose `product` key is misspelt or missing: `Product:`,
# `prodcut:`, read so that the loader says so, never skipped in silence); it is None for a
# double-quoted key with an escape (`"prod\\u0075ct":`), which may be any of them, so it counts.
_KEY = (
    rb"(?:\xef\xbb\xbf)?(?:\?[ \t]+)?"
    + _PROPERTIES
    + rb"""(?:(["']?)(product|owner|components)\1|"[^"\n]*\\[^"\n]*")[ \t]*(?::|$)"""
)
# Matched at the start of the file, and searched for after each newline: a pattern that starts
# with a literal character is scanned for in C, about six times as fast as `^` in multiline mode,
# which is tried at every byte (a folder's large data files are read whole, and were most of a
# run); one scan looks for the three keys.
_KEY_FIRST = re.compile(_KEY, re.MULTILINE)
_KEY_LATER = re.compile(rb"\n" + _KEY, re.MULTILINE)
# a document in flow style (JSON included): `{` first, after a BOM, comments, directives, `---`
_FLOW = re.compile(rb"\A(?:\xef\xbb\xbf)?(?:\s|#[^\n]*\n|%[^\n]*\n|---)*\{")
_NOT_UTF8 = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")


class NoManifests(InputError):
    """The paths hold no manifest at all (every path exists and could be read)."""


def is_manifest(path: Path) -> bool:
    """A folder's YAML file is a manifest when it could have a top-level `product` key, or has
    both the other keys a manifest needs (`owner` and `components`): the key at the start of a
    line anywhere in the file (bare or quoted, after a BOM), or `product` anywhere in a
    flow-style (JSON) document.  What cannot be sniffed (too large, not UTF-8,
    unreadable) counts as a manifest, so that the loader says why it cannot be read."""
    try:
        head = read_bytes(path, str(path), MAX_FILE_BYTES)
    except InputError:
        return True
    if head.startswith(_NOT_UTF8):
        return True
    if _has_manifest_keys(head):
        return True
    return _FLOW.match(head) is not None and b"product" in head


def _has_manifest_keys(head: bytes) -> bool:
    """A top-level `product` key, or both `owner` and `components`, in one scan of `head`."""
    first = _KEY_FIRST.match(head)
    seen: set[bytes] = set()
    for key in itertools.chain((first,) if first else (), _KEY_LATER.finditer(head)):
        name = key.group(2)
        if name is None or name == b"product":
            return True
        seen.add(name)
        if len(seen) == 2:
            return True
    return False


def _identity(path: Path) -> object:
    """What makes two paths the same file: its device and inode (one `stat`, where resolving
    the path walks every component of it), or the resolved path when it cannot be stat'ed."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return path.resolve()
    return (info.st_dev, info.st_ino)


def _walk(folder: Path, problems: list[Diagnostic]) -> Iterator[Path]:
    """The candidate files under `folder`, in name order; symlinked folders are followed
    (each real folder once), and what cannot be walked is added to `problems`."""
    try:
        top = os.stat(folder)
    except OSError as exc:
        problems.append(Diagnostic(str(folder), 0, 0, f"cannot read the folder: {exc.strerror}"))
        return
    yield from _walk_in(folder, problems, {(top.st_dev, top.st_ino)}, set())


def _walk_in(
    folder: Path,
    problems: list[Diagnostic],
    ancestors: set[tuple[int, int]],
    visited: set[tuple[int, int]],
) -> Iterator[Path]:
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError as exc:
        problems.append(
            Diagnostic(str(folder), 0, 0, f"cannot read the folder: {exc.strerror or exc}")
        )
        return
    folders: list[tuple[Path, tuple[int, int]]] = []  # walked after the folder's files
    for entry in entries:
        if entry.name.startswith("."):
            continue
        path = Path(entry.path)
        try:
            info = os.stat(path)
        except OSError as exc:
            if entry.name.endswith(SUFFIXES) or entry.is_symlink():
                why = "a symlink loop" if exc.errno == errno.ELOOP else exc.strerror or str(exc)
                problems.append(Diagnostic(str(path), 0, 0, f"cannot be read: {why}"))
            continue
        if stat.S_ISDIR(info.st_mode):
            key = (info.st_dev, info.st_ino)
            if key in ancestors:
                problems.append(
                    Diagnostic(
                        str(path), 0, 0, "a symlink loop: it leads back to a folder above it"
                    )
                )
            elif key not in visited:
                visited.add(key)
                folders.append((path, key))
            continue
        if not entry.name.endswith(SUFFIXES):
            continue
        kind = special_kind(info.st_mode)
        if kind is not None:
            problems.append(
                Diagnostic(
                    str(path), 0, 0, f"is {kind}, not a regular file: it cannot be a manifest"
                )
            )
            continue
        if is_manifest(path):
            yield path
    for path, key in folders:
        yield from _walk_in(path, problems, ancestors | {key}, visited)


def discover(paths: Sequence[Path]) -> list[Path]:
    """The manifest files to check, each once, in command-line then name order; `InputError`
    when some path or folder could not be searched (`check` judges nothing then)."""
    found, problems = search(paths)
    if problems:
        raise InputError(problems)
    if not found:
        raise no_manifests(paths)
    return found


def no_manifests(paths: Sequence[Path]) -> NoManifests:
    """The error for paths that hold no manifest at all."""
    shown = ", ".join(str(p) for p in paths)
    message = (
        "no manifests found (a manifest is a .yaml or .yml file with a top-level `product:` key)"
    )
    return NoManifests([Diagnostic(shown, 0, 0, message)])


def search(paths: Sequence[Path]) -> tuple[list[Path], list[Diagnostic]]:
    """The manifest files found, each once, in command-line then name order, and what could not
    be searched (a missing path, an unreadable folder, a symlink loop, a broken link)."""
    found: list[Path] = []
    seen: set[object] = set()
    problems: list[Diagnostic] = []
    for path in paths:
        if path.is_dir():
            candidates = list(_walk(path, problems))
        elif path.exists() or path == STDIN:  # `-`: a manifest on standard input
            candidates = [path]
        else:
            why = "no such file or folder"
            if path.is_symlink():
                why = "a broken symlink, or a symlink loop"
            problems.append(Diagnostic(str(path), 0, 0, why))
            continue
        for candidate in candidates:
            key = _identity(candidate)
            if key not in seen:
                seen.add(key)
                found.append(candidate)
    return found, problems
