"""Which files `licheck check` (and `notices`, `discover`) reads as manifests: the files named on
the command line, and the manifests found in folders.

A file named on the command line is always read as a manifest (so a broken one is an error, never
skipped).  In a folder, searched recursively in name order, every regular file whose name ends in
`.yaml` or `.yml` in any case and that is not hidden (neither it nor a folder on the way starts
with `.`) is a YAML file, and a YAML file is a manifest (`why_not_manifest` returns None) when
YAML reads it as `evaluate` does (the same parser, any line breaks, a BOM, indentation, quoting,
flow style) and some document's top-level mapping has a key `product`, or both `owner` and
`components` (a manifest whose `product` key is misspelt, refused at its line by the loader).
It is one too, so that the loader says what is wrong with it, when it holds no data at all (no
document, or only empty ones: an emptied manifest) and when it could be one but cannot be read
(unreadable, too large, not UTF-8, not valid YAML) unless its bytes cannot spell those keys.
Every other YAML file (rule files, the catalog, waivers, policies, CI configuration) is skipped,
with the reason (`Skipped`, shown by `check -v`).  Nothing that could be a manifest is passed
over in silence: a special file (FIFO, device, socket) named like YAML, a broken symlink, a
symlink loop and a folder that cannot be read are reported as errors; symlinked folders are
followed, each real folder once.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import yaml

from licheck.core.diagnostics import Diagnostic, InputError, path_text
from licheck.files.safeio import STDIN, read_bytes, special_kind
from licheck.files.toplevel import TopLevel
from licheck.files.yamlsafe import MAX_FILE_BYTES

SUFFIXES = (".yaml", ".yml")  # compared with the name in lower case (`has_yaml_name`)
_NOT_UTF8 = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")
# Before YAML reads a file: the keys' words anywhere, or a double-quoted escape that may spell
# one (`\x70`, `\u0070`, `\U00000070`, an escaped line break).
_ESCAPE = re.compile(rb"\\(?:[xuU]|\r|\n|\xc2\x85|\xe2\x80[\xa8\xa9])")
# In a file YAML cannot read: one of those words where a key could start (at the start of a line
# or after `-`, `?`, `{`, `[` or `,`, and indentation, an anchor or a tag; bare or quoted; then
# `:` or the end of a line), not a word in a value (`{{ .Values.product }}`, `name: my product`).
_BREAK = rb"[\r\n]|\xc2\x85|\xe2\x80[\xa8\xa9]"
_KEY_LIKE = re.compile(
    rb"(?:\A|" + _BREAK + rb"""|[-?{\[,])(?:\xef\xbb\xbf)?[ \t]*(?:[&!][^ \t\r\n]*[ \t]+)*"""
    rb"""['"]?(product|owner|components)['"]?[ \t]*(?::|\Z|""" + _BREAK + rb")"
)
# YAML's line breaks besides `\n` (libyaml reads YAML 1.1: CR, NEL, LS and PS too).
_BREAKS = str.maketrans({"\r": "\n", "\x85": "\n", "\u2028": "\n", "\u2029": "\n"})
_COMMENT = re.compile(r"(?:^|(?<=\s))#.*$", re.MULTILINE)
_EMPTY_WORDS = frozenset({"---", "...", "~", "null", "Null", "NULL", "{}", "{", "}"})
_MANIFEST_KEYS = frozenset({"owner", "components"})


class NoManifests(InputError):
    """The paths hold no manifest at all (every path exists and could be read)."""


@dataclass(frozen=True, slots=True)
class Skipped:
    """A YAML file or a folder a search passed over, and why (`licheck check -v` lists them)."""

    path: str
    why: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "path", path_text(self.path))  # a name that is not UTF-8


def has_yaml_name(name: str) -> bool:
    """Whether a file named `name` is a YAML file: `.yaml` or `.yml` in any case."""
    return name.lower().endswith(SUFFIXES)


def is_manifest(path: Path) -> bool:
    """Whether a folder's YAML file is read as a manifest (`why_not_manifest`)."""
    return why_not_manifest(path) is None


def why_not_manifest(path: Path) -> str | None:
    """None when the YAML file at `path` is a manifest (see the module's rule), else why not."""
    try:
        raw = read_bytes(path, str(path), MAX_FILE_BYTES)
    except InputError:
        return None  # unreadable or too large: the loader says why
    if raw.startswith(_NOT_UTF8):
        return None  # UTF-16 or UTF-32: the loader says so
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        text = None
    if text is None or "\x00" in text:
        if _may_be_keys(raw):
            return None  # the loader locates the bad byte
        return "not a manifest: not UTF-8 text, and its bytes hold no `product` key"
    if not _may_spell_keys(raw) and not _may_be_empty(text):
        return "not a manifest: no `product` key anywhere in it"
    return _judged_by_yaml(text, raw)


def _may_spell_keys(raw: bytes) -> bool:
    """Whether `raw` could hold a key `product`, or both `owner` and `components`."""
    if b"product" in raw or (b"owner" in raw and b"components" in raw):
        return True
    return _ESCAPE.search(raw) is not None


def _may_be_keys(raw: bytes) -> bool:
    """Whether a file YAML cannot read may have a key `product` (or `owner` and `components`)."""
    words = {match.group(1) for match in _KEY_LIKE.finditer(raw)}
    if b"product" in words or len(words) == 2:
        return True
    return _ESCAPE.search(raw) is not None


def _may_be_empty(text: str) -> bool:
    """Whether `text` may hold no data: only white space, comments, directives, document
    markers and a null or an empty mapping (`yaml` then decides)."""
    lines = _COMMENT.sub("", text.translate(_BREAKS)).split("\n")
    words = (w for line in lines if not line.startswith("%") for w in line.split())
    return all(word in _EMPTY_WORDS for word in words)


def _judged_by_yaml(text: str, raw: bytes) -> str | None:
    """The rule, decided on YAML's own reading of `text` (`licheck.files.toplevel`, the loader's
    events): None as soon as a document's top-level mapping has a manifest's key."""
    top = TopLevel(text)
    owner_and_components: set[str] = set()
    try:
        for key in top:
            if key.text == "product" or (key.text == "<<" and key.plain):  # (a merge may add one)
                return None
            if key.text in _MANIFEST_KEYS:
                owner_and_components.add(key.text)
                if len(owner_and_components) == 2:
                    return None
    except yaml.YAMLError:
        if _may_be_keys(raw) or _may_be_empty(text):
            return None  # it could be a manifest: the loader locates the error
        return "not a manifest: not valid YAML, and no `product` key could be in it"
    if not top.has_data:
        return None  # nothing but empty documents: an emptied manifest, which the loader refuses
    return "not a manifest: no top-level `product` key (nor both `owner` and `components`)"


class Survey(NamedTuple):
    """What a search found: the manifests, each once, in command-line then name order; what
    could not be searched (a missing path, an unreadable folder, a symlink loop, a broken link);
    and what it passed over, with why."""

    found: list[Path]
    problems: list[Diagnostic]
    skipped: list[Skipped]


def _identity(path: Path) -> object:
    """What makes two paths the same file: its device and inode (one `stat`, where resolving
    the path walks every component of it), or the resolved path when it cannot be stat'ed."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        try:
            return path.resolve()
        except (OSError, RuntimeError):  # a symlink loop (3.11 raises RuntimeError): as named
            return path.absolute()
    return (info.st_dev, info.st_ino)


def distinct(paths: Sequence[Path]) -> list[Path]:
    """`paths` with each file once, where it is first named: two names of one file (`m.yaml`
    and `./m.yaml`, a symlink, a hard link) are the same file (`_identity`), as in `search`."""
    seen: set[object] = set()
    kept = []
    for path in paths:
        key = _identity(path)
        if key not in seen:
            seen.add(key)
            kept.append(path)
    return kept


class _Walk:
    """One folder search: what it could not enter, and what it passed over."""

    def __init__(self) -> None:
        self.problems: list[Diagnostic] = []
        self.skipped: list[Skipped] = []
        self.visited: set[tuple[int, int]] = set()

    def files(self, folder: Path) -> Iterator[Path]:
        """The manifests under `folder`, in name order; symlinked folders are followed (each
        real folder once)."""
        try:
            top = os.stat(folder)
        except OSError as exc:
            self._cannot(folder, f"cannot read the folder: {exc.strerror}")
            return
        self.visited = set()  # each real folder once per folder named
        # depth first, a folder's files before its subfolders, with a stack of our own: a tree
        # deeper than Python's recursion limit is searched as any other
        pending = [(folder, frozenset({(top.st_dev, top.st_ino)}))]
        while pending:
            current, ancestors = pending.pop()
            subfolders = yield from self._files_in(current, ancestors)
            pending += [(path, ancestors | {key}) for path, key in reversed(subfolders)]

    def _cannot(self, path: Path, why: str) -> None:
        self.problems.append(Diagnostic(str(path), 0, 0, why))

    def _files_in(
        self, folder: Path, ancestors: frozenset[tuple[int, int]]
    ) -> Generator[Path, None, list[tuple[Path, tuple[int, int]]]]:
        """The manifests directly in `folder`, in name order; returns its subfolders to walk."""
        folders: list[tuple[Path, tuple[int, int]]] = []
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda entry: entry.name)
        except OSError as exc:
            self._cannot(folder, f"cannot read the folder: {exc.strerror or exc}")
            return folders
        for entry in entries:
            path = Path(entry.path)
            info = self._status(entry, path)
            if info is None:
                continue
            if stat.S_ISDIR(info.st_mode):
                folders += self._subfolder(path, info, ancestors)
            elif has_yaml_name(entry.name) and self._is_manifest(path, info):
                yield path
        return folders

    def _status(self, entry: os.DirEntry[str], path: Path) -> os.stat_result | None:
        """What `entry` is, a symlink followed; None for one not to look into: hidden (noted
        where it could be or hold a manifest) or unreadable (a problem where it could be one)."""
        yaml_name = has_yaml_name(entry.name)
        if entry.name.startswith("."):
            if yaml_name or entry.is_dir():
                self.skipped.append(Skipped(str(path), "hidden (its name starts with '.')"))
            return None
        try:
            return os.stat(path)
        except OSError as exc:
            if yaml_name or entry.is_symlink():
                why = "a symlink loop" if exc.errno == errno.ELOOP else exc.strerror or str(exc)
                self._cannot(path, f"cannot be read: {why}")
            return None

    def _subfolder(
        self, path: Path, info: os.stat_result, ancestors: frozenset[tuple[int, int]]
    ) -> list[tuple[Path, tuple[int, int]]]:
        """The folder to walk, unless it was walked already or leads back above itself."""
        key = (info.st_dev, info.st_ino)
        if key in ancestors:
            self._cannot(path, "a symlink loop: it leads back to a folder above it")
            return []
        if key in self.visited:
            return []
        self.visited.add(key)
        return [(path, key)]

    def _is_manifest(self, path: Path, info: os.stat_result) -> bool:
        """Whether a file with a YAML name is a manifest to check (said why where it is not)."""
        kind = special_kind(info.st_mode)
        if kind is not None:
            self._cannot(path, f"is {kind}, not a regular file: it cannot be a manifest")
            return False
        not_one = why_not_manifest(path)
        if not_one is not None:
            self.skipped.append(Skipped(str(path), not_one))
        return not_one is None


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
        "no manifests found (a manifest is a .yaml or .yml file whose top-level mapping has a "
        "`product` key; `licheck check -v` lists the YAML files passed over, and why)"
    )
    return NoManifests([Diagnostic(shown, 0, 0, message)])


def search(paths: Sequence[Path]) -> tuple[list[Path], list[Diagnostic]]:
    """The manifest files found, each once, in command-line then name order, and what could not
    be searched (a missing path, an unreadable folder, a symlink loop, a broken link)."""
    found = survey(paths)
    return found.found, found.problems


def survey(paths: Sequence[Path]) -> Survey:
    """`search`, and what it passed over (`Skipped`)."""
    found: list[Path] = []
    seen: set[object] = set()
    walk = _Walk()
    for path in paths:
        if path.is_dir():
            candidates = list(walk.files(path))
        elif path.exists() or path == STDIN:  # `-`: a manifest on standard input
            candidates = [path]
        else:
            why = "no such file or folder"
            if path.is_symlink():
                why = "a broken symlink, or a symlink loop"
            walk.problems.append(Diagnostic(str(path), 0, 0, why))
            continue
        for candidate in candidates:
            key = _identity(candidate)
            if key not in seen:
                seen.add(key)
                found.append(candidate)
    return Survey(found, walk.problems, walk.skipped)
