"""Which files `licheck check` evaluates: manifest files named on the command line, and the
manifests found in folders.

A file named on the command line is always read as a manifest (so a broken one is an error, never
skipped).  In a folder, searched recursively in name order, a file counts as a manifest when its
name ends in `.yaml` or `.yml`, neither it nor a folder on the way is hidden (a name starting with
`.`), and it has a top-level `product:` key.  Other YAML (rule files, the catalog, waiver files, CI
configuration) is skipped without being parsed, so a folder can hold anything else.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

from licheck.diagnostics import Diagnostic, InputError

SUFFIXES = (".yaml", ".yml")
_PRODUCT_KEY = re.compile(rb"^product[ \t]*:", re.MULTILINE)
_SNIFF_BYTES = 1 << 20  # a top-level `product:` sits near the top of any real manifest
_FIRST_READ = 1 << 16  # read first: asking for the whole megabyte at once costs 3x more per file


def is_manifest(path: Path) -> bool:
    """A folder's YAML file is a manifest when it has a top-level `product:` key."""
    try:
        with path.open("rb") as stream:
            head = stream.read(_FIRST_READ)
            if len(head) == _FIRST_READ and not _PRODUCT_KEY.search(head):
                head += stream.read(_SNIFF_BYTES - _FIRST_READ)
    except OSError:
        return True  # let the loader report why it cannot be read
    return _PRODUCT_KEY.search(head) is not None


def _identity(path: Path) -> object:
    """What makes two paths the same file: its device and inode (one `stat`, where resolving
    the path walks every component of it), or the resolved path when it cannot be stat'ed."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return path.resolve()
    return (info.st_dev, info.st_ino)


def _walk(folder: Path) -> Iterator[Path]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            if not name.startswith(".") and name.endswith(SUFFIXES):
                yield Path(root) / name


def discover(paths: Sequence[Path]) -> list[Path]:
    """The manifest files to check, each once, in command-line then name order."""
    found: list[Path] = []
    seen: set[object] = set()
    problems: list[Diagnostic] = []
    for path in paths:
        if path.is_dir():
            candidates = [p for p in _walk(path) if is_manifest(p)]
        elif path.exists():
            candidates = [path]
        else:
            problems.append(Diagnostic(str(path), 0, 0, "no such file or folder"))
            continue
        for candidate in candidates:
            key = _identity(candidate)
            if key not in seen:
                seen.add(key)
                found.append(candidate)
    if problems:
        raise InputError(problems)
    if not found:
        shown = ", ".join(str(p) for p in paths)
        raise InputError(
            [
                Diagnostic(
                    shown,
                    0,
                    0,
                    "no manifests found (a manifest is a .yaml "
                    "or .yml file with a top-level `product:` key)",
                )
            ]
        )
    return found
