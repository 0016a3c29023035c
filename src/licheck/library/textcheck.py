"""Verifying the rules against canonical license texts, and measuring their coverage.

`verify`: each text's SHA-256, each quoted clause and each `not_encoded` quote found in the text
(white space folded), and the duty sentences no entry quotes (warnings).  `measure`: the coverage
(`library.coverage`) of every license whose text is in the folder, and the texts that are not.
`licheck licenses verify` and `licenses coverage` read the texts through here and render what
these return; evaluating a manifest never reads them.  A rule's `text.file` names a file inside
the texts folder: an absolute name, a `..`, or a symlink that leads out of the folder is refused
(`text_path`), so a layer cannot make licheck read, and print the SHA-256 of, any file.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath
from typing import TYPE_CHECKING

from licheck.core.diagnostics import Diagnostic, InputError
from licheck.files import yamlsafe
from licheck.files.safeio import read_bytes
from licheck.library.coverage import Coverage, LibraryCoverage, UnaccountedText, coverage
from licheck.library.setaside import SetAside
from licheck.text.spacing import fold_space

if TYPE_CHECKING:  # a type only: reading a text does not load the library
    from licheck.library.compiled import Library, LicenseEntry

# White space folded to single spaces: line wrapping may differ, nothing else.
normalise = fold_space
SHORTENED = 160  # characters of an unquoted sentence that a warning shows


@dataclass(frozen=True, slots=True)
class VerifyProblem:
    license: str
    clause: str | None  # None: about the text as a whole; `not_encoded[N] (ID)` for an entry
    message: str
    file: str
    line: int
    column: int | None = None  # None: the problem is located by line only


@dataclass(frozen=True, slots=True)
class VerifyWarning:
    """A duty sentence of a license's text that no clause or `not_encoded` entry quotes."""

    license: str
    message: str
    file: str  # the rule file


@dataclass(frozen=True, slots=True)
class Verification:
    """What `verify` found, and how much it checked."""

    problems: tuple[VerifyProblem, ...]  # texts and clause quotes first, then not_encoded quotes
    warnings: tuple[VerifyWarning, ...]
    licenses: int  # licenses checked
    clauses: int  # quoted clauses checked
    not_encoded: int  # not_encoded quotes checked

    @property
    def ok(self) -> bool:
        return not self.problems


MAX_TEXT_BYTES = 4 * 1024 * 1024  # a license text; the longest canonical text is under 100 KB


def read_canonical(path: Path) -> str:
    """A canonical text's body (`canonical_body`), read through the bounded reader: a FIFO,
    device or folder named like a text, or a text over 4 MiB, is an `InputError`, never a hang
    or an endless read."""
    return canonical_body(read_bytes(path, str(path), MAX_TEXT_BYTES))


def canonical_body(raw: bytes) -> str:
    """A text as its licensor publishes it: without the 3-line provenance header (and the blank
    line after it) that the reference copies carry."""
    text = raw.decode("utf-8", errors="replace")
    lines = text.split("\n")
    if len(lines) > 4 and lines[0].startswith("source-repo:") and lines[3] == "":
        return "\n".join(lines[4:])
    return text


def text_sha256(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def text_path(texts: Path, entry: LicenseEntry) -> Path:
    """Where the license's canonical text is in `texts`; an `InputError` located at the rule
    file's `text.file` when that name is absolute, holds a `..`, or leads out of the folder
    through a symlink (the folder and the file resolved)."""
    name = entry.license.text.file
    path = texts / name
    folder = Path(os.path.realpath(texts))
    real = Path(os.path.realpath(path))
    pure = PurePath(name)
    if not pure.is_absolute() and ".." not in pure.parts and folder in real.parents:
        return path
    line, column = _located(entry, ("text", "file"))
    raise InputError(
        [
            Diagnostic(
                entry.file,
                line,
                column,
                f"text.file {name!r} is outside the texts folder {texts}: licheck reads a "
                "canonical text only from inside --texts",
                "name the text by its path inside the texts folder, without '..'",
            )
        ]
    )


def _located(entry: LicenseEntry, key: tuple[str, ...]) -> tuple[int, int]:
    """Where `key` is in the entry's rule file; (0, 0) when it cannot be read again."""
    try:
        return yamlsafe.load(Path(entry.file)).locate(key)
    except (InputError, OSError):
        return (0, 0)


def text_paths(library: Library, texts: Path) -> dict[str, Path]:
    """`text_path` of every license, by id; every name that leads out of `texts` at once."""
    paths: dict[str, Path] = {}
    refused: list[Diagnostic] = []
    for license_id, entry in sorted(library.licenses.items()):
        try:
            paths[license_id] = text_path(texts, entry)
        except InputError as exc:
            refused.extend(exc.diagnostics)
    if refused:
        raise InputError(refused)
    return paths


def verify(library: Library, texts: Path) -> Verification:
    """Check every rule file against its text in `texts`: the text's hash, every clause quote and
    every `not_encoded` quote (problems), and every duty sentence accounted for (warnings).  Each
    text is read once; a `text.file` outside `texts` is an `InputError` (`text_path`)."""
    problems: list[VerifyProblem] = []
    later: list[VerifyProblem] = []  # not_encoded quotes: listed after every text and clause
    warnings: list[VerifyWarning] = []
    paths = text_paths(library, texts)
    for license_id, entry in sorted(library.licenses.items()):
        body = _read_text(license_id, entry, paths[license_id], texts, problems)
        if body is None:
            continue
        problems.extend(_text_and_clauses(license_id, entry, body))
        result = coverage(entry.license, body)
        later.extend(_missing_quotes(license_id, entry, result))
        warnings.extend(_unquoted(license_id, entry, result))
    return Verification(
        tuple(problems + later),
        tuple(warnings),
        len(library.licenses),
        sum(len(e.clauses) for e in library.licenses.values()),
        sum(len(e.license.not_encoded) for e in library.licenses.values()),
    )


def _missing_quotes(license_id: str, entry: LicenseEntry, result: Coverage) -> list[VerifyProblem]:
    """The `not_encoded` entries whose quote is not in the text, each at its place in the rule
    file."""
    if not result.missing_quotes:
        return []

    document = yamlsafe.load(Path(entry.file))
    problems = []
    for index in result.missing_quotes:
        line, column = document.locate(("not_encoded", index))
        named = entry.license.not_encoded[index].id
        label = f"not_encoded[{index}]" + (f" ({named})" if named else "")
        message = f"the quote does not occur in {entry.license.text.file}"
        problems.append(VerifyProblem(license_id, label, message, entry.file, line, column))
    return problems


def _unquoted(license_id: str, entry: LicenseEntry, result: Coverage) -> list[VerifyWarning]:
    return [
        VerifyWarning(
            license_id,
            f"a duty sentence of {entry.license.text.file} that no clause or not_encoded entry "
            f"quotes: “{shorten(sentence.text)}”",
            entry.file,
        )
        for sentence in result.unaccounted
    ]


def shorten(text: str, limit: int = SHORTENED) -> str:
    """`text`, cut to `limit` characters with an ellipsis when longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def measure(library: Library, texts: Path, set_aside: Sequence[SetAside] = ()) -> LibraryCoverage:
    """The coverage of every license whose text is in `texts`, the licenses whose text is
    absent (not measured), and every other text of the folder: set aside (an entry of
    `set_aside`) or unaccounted.  A text that cannot be read, a `text.file` outside `texts`, or
    a set-aside entry naming a text a rule file encodes, is an `InputError`."""
    results: list[Coverage] = []
    missing: list[tuple[str, str]] = []
    paths = text_paths(library, texts)
    for license_id, entry in sorted(library.licenses.items()):
        text_path = paths[license_id]
        if not os.path.lexists(text_path):
            missing.append((license_id, entry.license.text.file))
            continue
        results.append(coverage(entry.license, read_canonical(text_path)))
    encoded = {_name(path, texts) for path in paths.values()}
    _refuse_encoded_set_aside(set_aside, encoded)
    reasons = {entry.text: entry.reason for entry in set_aside}
    others = [name for name in folder_texts(texts) if name not in encoded]
    unaccounted = tuple(_unaccounted(texts, name) for name in others if name not in reasons)
    aside = tuple((name, reasons[name]) for name in others if name in reasons)
    return LibraryCoverage(tuple(results), tuple(missing), unaccounted, aside)


def _unaccounted(texts: Path, name: str) -> UnaccountedText:
    """A text no rule accounts for, its duty sentences counted; one that leads out of the
    folder (a symlink) is not read, and counts as one unaccounted sentence."""
    path = texts / name
    if Path(os.path.realpath(texts)) not in Path(os.path.realpath(path)).parents:
        return UnaccountedText(name, 1)
    return UnaccountedText.of(name, read_canonical(path))


def folder_texts(texts: Path) -> list[str]:
    """The name (inside `texts`, `/`-separated) of every file in the folder, at any depth;
    hidden files (a name starting with `.`) are not texts."""
    return sorted(
        _name(path, texts)
        for path in texts.rglob("*")
        if path.is_file() and not any(p.startswith(".") for p in path.relative_to(texts).parts)
    )


def _name(path: Path, texts: Path) -> str:
    return PurePath(os.path.relpath(path, texts)).as_posix()


def _refuse_encoded_set_aside(set_aside: Sequence[SetAside], encoded: set[str]) -> None:
    """A text is encoded or set aside, never both: the set-aside entry would hide nothing and
    say something false."""
    if clashes := [entry for entry in set_aside if entry.text in encoded]:
        raise InputError(
            [
                Diagnostic(
                    entry.file,
                    entry.line,
                    1,
                    f"{entry.text} is set aside, but a rule file encodes it",
                    "remove the set-aside entry (an encoded text is accounted for by its rules)",
                )
                for entry in clashes
            ]
        )


def _read_text(
    license_id: str,
    entry: LicenseEntry,
    text_path: Path,
    texts: Path,
    problems: list[VerifyProblem],
) -> str | None:
    """The license's canonical text, at `text_path` in `texts`; None, with the problem said,
    where it is missing, special or unreadable."""
    source = entry.license.text
    if not os.path.lexists(text_path):
        message = f"canonical text {source.file} not found in {texts}"
        problems.append(VerifyProblem(license_id, None, message, entry.file, 1))
        return None
    try:
        return read_canonical(text_path)
    except InputError as exc:
        reason = exc.diagnostics[0].message
        message = f"canonical text {source.file} in {texts} cannot be read: {reason}"
        problems.append(VerifyProblem(license_id, None, message, entry.file, 1))
        return None


def _text_and_clauses(license_id: str, entry: LicenseEntry, body_text: str) -> list[VerifyProblem]:
    """The text's hash and every clause quote against the text."""
    source = entry.license.text
    problems: list[VerifyProblem] = []
    digest = text_sha256(body_text)
    if digest != source.sha256:
        problems.append(
            VerifyProblem(
                license_id,
                None,
                f"{source.file} has changed: SHA-256 {digest}, the rules encode {source.sha256}",
                entry.file,
                1,
            )
        )
    body = normalise(body_text)
    problems.extend(
        VerifyProblem(
            license_id,
            compiled.clause.id,
            f"the quote of clause {compiled.clause.id!r} does not occur in {source.file}",
            compiled.file,
            compiled.line,
        )
        for compiled in entry.clauses
        if normalise(compiled.clause.quote) not in body
    )
    problems.extend(_definition_quotes(license_id, entry, body))
    return problems


def _definition_quotes(license_id: str, entry: LicenseEntry, body: str) -> list[VerifyProblem]:
    """Every definition quote (`definitions:`) against the (normalised) text, located."""
    definitions = entry.license.definitions
    found = [
        (name, definition)
        for name in ("derivative", "use", "distribute")
        if (definition := getattr(definitions, name)) is not None
        and definition.quote is not None
        and normalise(definition.quote) not in body
    ]
    if not found:
        return []
    document = yamlsafe.load(Path(entry.file))
    problems = []
    for name, definition in found:
        line, column = document.locate(("definitions", name, "quote"))
        message = (
            f"the quote of the definition of {definition.term or name!r} does not occur in "
            f"{entry.license.text.file}"
        )
        problems.append(
            VerifyProblem(license_id, f"definitions.{name}", message, entry.file, line, column)
        )
    return problems
