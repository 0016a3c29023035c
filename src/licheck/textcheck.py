"""Verifying the rules against canonical license texts: each text's SHA-256 and each quoted
clause (and `not_encoded` quote) found in the text, white space folded.

`licheck licenses verify` and `licenses coverage` read the texts through here; evaluating a
manifest never does.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from licheck.diagnostics import InputError

if TYPE_CHECKING:  # a type only: `coverage` folds text without loading the library
    from licheck.library import Library

_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """White space folded to single spaces: line wrapping may differ, nothing else."""
    return _SPACE.sub(" ", text).strip()


@dataclass(frozen=True, slots=True)
class VerifyProblem:
    license: str
    clause: str | None  # None: about the text as a whole
    message: str
    file: str
    line: int


MAX_TEXT_BYTES = 4 * 1024 * 1024  # a license text; the longest canonical text is under 100 KB


def read_canonical(path: Path) -> str:
    """A canonical text's body (`canonical_body`), read through the bounded reader: a FIFO,
    device or folder named like a text, or a text over 4 MiB, is an `InputError`, never a hang
    or an endless read."""
    from licheck.safeio import read_bytes

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


def verify(library: Library, texts: Path) -> list[VerifyProblem]:
    """Check every license's text hash and quotes against the files in `texts`."""
    problems: list[VerifyProblem] = []
    for license_id, entry in sorted(library.licenses.items()):
        source = entry.license.text
        text_path = texts / source.file
        if not os.path.lexists(text_path):
            problems.append(
                VerifyProblem(
                    license_id,
                    None,
                    f"canonical text {source.file} not found in {texts}",
                    entry.file,
                    1,
                )
            )
            continue
        try:
            body_text = read_canonical(text_path)
        except InputError as exc:
            reason = exc.diagnostics[0].message
            message = f"canonical text {source.file} in {texts} cannot be read: {reason}"
            problems.append(VerifyProblem(license_id, None, message, entry.file, 1))
            continue
        digest = text_sha256(body_text)
        if digest != source.sha256:
            problems.append(
                VerifyProblem(
                    license_id,
                    None,
                    f"{source.file} has changed: SHA-256 {digest}, the rules "
                    f"encode {source.sha256}",
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
    return problems
