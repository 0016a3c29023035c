"""The library cache: the rule files' parsed data, stored as JSON, so a run need not re-read them.

Reading and checking the 41 YAML rule files costs more than evaluating a manifest.  After a
successful load, the library's inputs are stored as plain JSON data (never pickle: rule files are
data, and a cache must never become code) with what the library keeps of their positions (where
each clause starts).  The next run rebuilds the library from that data through the same checks as
a fresh load (`shapes`, then the rule compiler), so a cache can only skip the YAML reading.

The cache is keyed by the SHA-256 of every rule file and the catalog (name and bytes), the
library folder, licheck's version, the YAML reader's source and the cache format: any edit misses
it, and a broken rule file still fails every command as before.  It lives in
`$LICHECK_CACHE_DIR`, else `$XDG_CACHE_HOME/licheck`, else `~/.cache/licheck`;
`LICHECK_NO_CACHE=1` turns it off.  A missing, unreadable, corrupt, foreign or unsafe (not ours,
or writable by others) cache file is ignored and rewritten; an unwritable cache folder is
silently skipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from licheck import __version__, yamlfast, yamlsafe

FORMAT = 1  # bump when what is stored, or how it is read, changes


@dataclass(frozen=True, slots=True)
class Stored:
    """One rule file (or the catalog) as stored: its path as the library names it, its parsed
    data, and the (line, column) of each clause."""

    file: str
    data: Any
    clauses: list[tuple[int, int]]


def directory() -> Path | None:
    """The cache folder, or None when the cache is off."""
    if os.environ.get("LICHECK_NO_CACHE", "") not in ("", "0"):
        return None
    explicit = os.environ.get("LICHECK_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "licheck"


def key(root: Path, files: list[Path]) -> str | None:
    """The SHA-256 of everything the library is built from, or None when a file is unreadable
    (the fresh load then reports it)."""
    digest = hashlib.sha256(f"licheck {__version__} cache {FORMAT}\0{root}\0".encode())
    # The stored data is checked again on every hit; only the clause positions are taken as
    # stored, so the readers that found them (the fast path and the event reader) are part of
    # the key (a checkout edited without a version bump then misses too).
    for reader in (yamlfast.__file__, yamlsafe.__file__):
        with contextlib.suppress(OSError):
            digest.update(Path(reader).read_bytes())
    for path in files:
        try:
            content = path.read_bytes()
        except OSError:
            return None
        digest.update(f"{path.name}\0{len(content)}\0".encode())
        digest.update(content)
    return digest.hexdigest()


def _path(folder: Path, root: Path) -> Path:
    # One file per library folder: a changed rule file replaces its entry instead of adding one.
    name = hashlib.sha256(str(root).encode()).hexdigest()[:24]
    return folder / f"library-{name}.json"


def read(root: Path, digest: str) -> tuple[list[Stored], Stored | None] | None:
    """The stored rule files and catalog for `digest`, or None (no cache, a miss, or a file that
    is unsafe, corrupt or not ours)."""
    folder = directory()
    if folder is None:
        return None
    path = _path(folder, root)
    try:
        with path.open("rb") as stream:
            info = os.fstat(stream.fileno())
            if (
                not stat.S_ISREG(info.st_mode)
                or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
                or (hasattr(os, "getuid") and info.st_uid != os.getuid())
            ):
                return None  # someone else could have written it
            raw = stream.read()
        stored = json.loads(raw)
        if (
            type(stored) is not dict
            or stored.get("format") != FORMAT
            or stored.get("key") != digest
        ):
            return None
        licenses = [_entry(item) for item in stored["licenses"]]
        catalog = None if stored["catalog"] is None else _entry(stored["catalog"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return licenses, catalog


def _entry(item: Any) -> Stored:
    clauses = [(int(line), int(column)) for line, column in item["clauses"]]
    if type(item["file"]) is not str:
        raise TypeError("file")
    return Stored(item["file"], item["data"], clauses)


def write(root: Path, digest: str, licenses: list[Stored], catalog: Stored | None) -> None:
    """Store the library's inputs under `digest`, atomically; any failure is silently skipped
    (the cache only saves time)."""
    folder = directory()
    if folder is None:
        return
    content = json.dumps(
        {
            "format": FORMAT,
            "key": digest,
            "licenses": [_dumped(s) for s in licenses],
            "catalog": None if catalog is None else _dumped(catalog),
        },
        ensure_ascii=False,
        allow_nan=False,
        separators=(",", ":"),
    ).encode()
    temporary = None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".library-", suffix=".tmp", dir=folder)
        with os.fdopen(handle, "wb") as stream:
            stream.write(content)
        os.replace(temporary, _path(folder, root))  # readers see the old file or the new one
        temporary = None
    except (OSError, ValueError):
        pass
    finally:
        if temporary is not None:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


def _dumped(stored: Stored) -> dict[str, Any]:
    return {
        "file": stored.file,
        "data": stored.data,
        "clauses": [list(position) for position in stored.clauses],
    }
