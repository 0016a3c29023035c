"""Where models come from: the model ids a code base or its configuration names.

Every file is scanned that is text: code, configuration, notebooks, Dockerfiles, `.env` files,
Markdown model cards and JSON BOMs by name, and any other file whose first 8 KiB hold no NUL
byte (Go, Java, a `models.txt`: a model named there is not missed for its file's name; other
binary files are counted, not read).  Version-control folders, virtual environments,
`node_modules` and caches are skipped; symlinked folders are not followed (no loops) and are
listed as not read.  In each file:

- any `org/name` token (in a URL or a path too) that is a Hugging Face id the catalog lists —
  a catalog match;
- an `org/name` string given to a model-loading call (`from_pretrained("...")`, `pipeline(...)`,
  `snapshot_download(...)`; the call may run over several lines, in a notebook's cell too) or
  to a model key (`model: ...`, `MODEL_ID=...`) that the catalog
  does not list — lower confidence: it may be a model, or a path;
- CycloneDX BOMs: each machine-learning-model component's Hub id (`licheck import`'s reading);
- Hugging Face model cards: the front matter's `base_model`.

A file that should be read but cannot be (too large, binary, unreadable, a damaged BOM or card)
is listed as unread, never passed over in silence.  Pure but for reading the files.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

from licheck.core.diagnostics import Diagnostic, InputError, fail, path_text
from licheck.discover.modelsources import Mention, bom_models, card_bases
from licheck.files.safeio import read_bytes, special_kind
from licheck.inputs.rules import CatalogModel
from licheck.library.compiled import Library

MAX_SCAN_BYTES = 2 * 1024 * 1024  # a source or config file; larger ones are listed as unread
SKIP_FOLDERS = frozenset(
    {
        ".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".tox", ".nox",
        ".mypy_cache", ".pytest_cache", ".ruff_cache", "site-packages", "dist-packages",
        ".ipynb_checkpoints", ".cache",
    }
)  # fmt: skip
SUFFIXES = frozenset(
    {
        ".py", ".pyi", ".ipynb", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".yaml", ".yml",
        ".json", ".toml", ".cfg", ".ini", ".env", ".sh", ".md", ".tf", ".hcl",
    }
)  # fmt: skip
NAMES = frozenset({"Dockerfile", "Containerfile", "Makefile", "Modelfile", "Procfile"})
# from the start of a run of id characters only: a long run without a slash is tried once
TOKEN = re.compile(r"(?<![\w.-])[A-Za-z0-9][\w.-]*(?:/[\w.-]+)+")
_ID = r"([A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)"
_Q = r"""\\?["']"""  # a quote (escaped inside a notebook's JSON strings)
# between the parenthesis and the id: white space, and (in a notebook's JSON) the escaped line
# breaks and the quotes that end one line of a cell's source and start the next
_BREAK = r"""(?:\s|\\[nrt]|"\s*,\s*")*"""
LOADING = re.compile(
    r"(?:from_pretrained|snapshot_download|hf_hub_download|pipeline|SentenceTransformer|"
    rf"InferenceClient|load_model)\s*\({_BREAK}(?:\w+\s*=\s*)?{_Q}{_ID}{_Q}"
)
KEYED = re.compile(
    r"(?i)(?<![\w-])(?:model|model_id|model_name|base_model|repo_id|\w+_model|\w+_model_id)"
    rf"{_Q}?\s*[:=]\s*{_Q}?{_ID}(?:{_Q}|\s|,|$)"
)
FILE_ENDINGS = (".py", ".json", ".yaml", ".yml", ".txt", ".bin", ".pt", ".pth", ".md", ".csv")


@dataclass(frozen=True, slots=True)
class Unread:
    file: str
    why: str

    def __post_init__(self) -> None:
        object.__setattr__(self, "file", path_text(self.file))  # a name that is not UTF-8


@dataclass(frozen=True, slots=True)
class Scan:
    mentions: tuple[Mention, ...]
    unread: tuple[Unread, ...]
    files: int  # files read
    binary: int = 0  # files of no text kind by name that hold binary data: not read
    skipped: tuple[Unread, ...] = ()  # folders not scanned by rule (a virtual environment...)


def hub_index(library: Library) -> dict[str, CatalogModel]:
    """The catalog's Hugging Face ids (aliases of the form org/name), lowercased."""
    index: dict[str, CatalogModel] = {}
    for model in library.models:
        for alias in model.aliases:
            if alias.count("/") == 1:
                index.setdefault(alias.lower(), model)
    return index


def scan(paths: Sequence[Path], library: Library, skip: frozenset[Path] = frozenset()) -> Scan:
    """Every mention of a model in the files under `paths` (files named are read whatever their
    name); `skip`: files not to read (the manifests themselves)."""
    index = hub_index(library)
    mentions: list[Mention] = []
    unread: list[Unread] = []
    skipped: list[Unread] = []
    files = binary = 0
    named = {_resolved(path) for path in paths if not path.is_dir()}
    for file in _files(paths, unread, skipped):
        if _resolved(file) in skip:
            continue
        if not _scanned(file.name) and _resolved(file) not in named and _binary(file):
            binary += 1  # an image, weights, an archive: no text to read
            continue
        try:
            text = _read(file)
        except InputError as exc:
            unread.extend(Unread(d.file, d.message) for d in exc.diagnostics)
            continue
        files += 1
        structured = _structured(file, text, library, unread)
        # a BOM's or card's own reading of a line says more than the plain id found there
        said = {(m.line, m.id.lower()) for m in structured}
        mentions += [
            m for m in _in_text(text, str(file), index) if (m.line, m.id.lower()) not in said
        ]
        mentions += structured
    return Scan(tuple(mentions), tuple(unread), files, binary, tuple(skipped))


def _resolved(path: Path) -> Path:
    """`path` resolved, or as it is where it cannot be (a symlink loop: Python 3.11 raises
    RuntimeError); the reading then says why it cannot be read."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def _files(paths: Sequence[Path], unread: list[Unread], skipped: list[Unread]) -> Iterator[Path]:
    for path in paths:
        if path.is_dir():  # a folder named is scanned whatever it is (a virtual environment too)
            yield from _walk(path, unread, skipped)
        elif path.exists():
            yield path
        else:
            broken = path.is_symlink()  # dangling, or a loop (which `resolve` cannot follow)
            why = "a broken symlink, or a symlink loop" if broken else "no such file or folder"
            raise InputError([Diagnostic(str(path), 0, 0, why)])


def _skipped_folder(entry: os.DirEntry[str]) -> str | None:
    """Why a folder under a scanned one is not scanned, or None."""
    if entry.name in SKIP_FOLDERS:
        return _SKIP_WHY.get(entry.name, "a cache or installed packages")
    if os.path.lexists(os.path.join(entry.path, "pyvenv.cfg")):
        return "a virtual environment (it holds a pyvenv.cfg)"
    return None


_SKIP_WHY = {
    **dict.fromkeys((".git", ".hg", ".svn"), "version control"),
    **dict.fromkeys((".venv", "venv", ".tox", ".nox"), "a virtual environment"),
    "node_modules": "installed packages",
}


def _walk(folder: Path, unread: list[Unread], skipped: list[Unread]) -> Iterator[Path]:
    """The files under `folder` in name order, a subfolder's where its name falls, with a stack
    of our own (a tree deeper than Python's recursion limit is scanned as any other)."""
    pending = [iter(_entries(folder, unread))]
    while pending:
        entry = next(pending[-1], None)
        if entry is None:
            pending.pop()
            continue
        path = Path(entry.path)
        if entry.is_dir(follow_symlinks=False):
            why = _skipped_folder(entry)
            if why is None:
                pending.append(iter(_entries(path, unread)))
            else:
                skipped.append(Unread(str(path), why))
        elif entry.is_symlink() and _is_dir(entry) and entry.name not in SKIP_FOLDERS:
            why = "a symlinked folder: not followed (name its target to scan it)"
            unread.append(Unread(str(path), why))
        else:
            try:
                mode = os.stat(path).st_mode
            except OSError as exc:
                unread.append(Unread(str(path), f"cannot be read: {exc.strerror or exc}"))
                continue
            if stat.S_ISREG(mode):
                yield path
            elif _scanned(entry.name):  # a FIFO named app.py: a file that should be read
                unread.append(Unread(str(path), f"is {special_kind(mode)}, not a regular file"))


def _entries(folder: Path, unread: list[Unread]) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder) as listing:
            return sorted(listing, key=lambda entry: entry.name)
    except OSError as exc:
        unread.append(Unread(str(folder), f"cannot read the folder: {exc.strerror or exc}"))
        return []


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """Whether `entry` leads to a folder (False for a symlink loop: its reading says why)."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _scanned(name: str) -> bool:
    return (
        Path(name).suffix.lower() in SUFFIXES
        or name in NAMES
        or name.startswith((".env", "Dockerfile"))
    )


def _binary(file: Path) -> bool:
    """Whether the file's first 8 KiB hold a NUL byte (False where it cannot be opened: the
    reading then says why)."""
    try:
        with file.open("rb") as stream:
            return b"\x00" in stream.read(8192)
    except OSError:
        return False


def _read(file: Path) -> str:
    raw = read_bytes(file, str(file), MAX_SCAN_BYTES)
    if b"\x00" in raw[:8192]:
        raise fail(str(file), 0, 0, "binary data: not scanned")
    return raw.decode("utf-8", errors="replace")


def _loading_calls(text: str) -> dict[int, list[str]]:
    """The ids given to loading calls, by the line the id is on (a call may span lines)."""
    calls: dict[int, list[str]] = {}
    for match in LOADING.finditer(text):
        number = text.count("\n", 0, match.start(1)) + 1
        calls.setdefault(number, []).append(match.group(1))
    return calls


def _in_text(text: str, file: str, index: dict[str, CatalogModel]) -> Iterator[Mention]:
    """Catalog Hub ids anywhere; uncatalogued ids where code loads a model or a key names one."""
    calls = _loading_calls(text)
    for number, line in enumerate(text.splitlines(), 1):
        if "/" not in line:
            continue
        seen: set[str] = set()
        for token in TOKEN.findall(line):
            parts = token.split("/")
            for org, name in pairwise(parts):
                name = name.rstrip(".").removesuffix(".git")
                model = index.get(f"{org}/{name}".lower())
                if model is not None and f"{org}/{name}" not in seen:
                    seen.add(f"{org}/{name}")
                    yield Mention(f"{org}/{name}", file, number, "hub id", model)
        named = [(found, "loading call") for found in calls.get(number, [])]
        named += [(found, "model key") for found in KEYED.findall(line)]
        for found, how in named:
            if found.lower() not in index and found not in seen and _plausible(found):
                seen.add(found)
                yield Mention(found, file, number, how, None)


def _plausible(found: str) -> bool:
    """Not a file path by its look (a file name's ending)."""
    return not found.lower().endswith(FILE_ENDINGS)


def _structured(file: Path, text: str, library: Library, unread: list[Unread]) -> list[Mention]:
    """The Hub ids of a CycloneDX BOM's models, or of a model card's `base_model`."""
    try:
        if file.suffix.lower() == ".json" and '"bomFormat"' in text and "CycloneDX" in text:
            return bom_models(file, text, library)
        if file.suffix.lower() == ".md" and text.lstrip("\ufeff").startswith("---"):
            return card_bases(file, library)
    except InputError as exc:
        unread.extend(Unread(f"{d.file}:{d.line}" if d.line else d.file, d.message)
                      for d in exc.diagnostics)  # fmt: skip
    return []
