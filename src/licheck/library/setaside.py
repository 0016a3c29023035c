"""Texts set aside: the files of a texts folder that no rule file encodes, on purpose.

`licenses coverage --texts DIR` accounts for every file in the folder: a text is encoded (a
rule file names it as its `text.file`), set aside (an entry of a library folder's
`set-aside.yaml`, with the reason no rule file encodes it), or unaccounted (listed, and its
duty sentences counted against the overall figure).  Only what is not license terms to encode
belongs here: a notes file, a repository's pointer to another license.  A license text nobody has
encoded yet is unaccounted, never set aside.

```yaml
texts:
  - file: kimi-dev-license-note.txt
    reason: a note pointing to the Qwen and MIT licenses, not terms of its own
```

A malformed file, or an entry without a file or a reason, is an `InputError` at its line and
column: a set-aside list that cannot be read never counts a text as accounted.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePath
from typing import NamedTuple

from licheck.core.diagnostics import Diagnostic, InputError
from licheck.files import yamlsafe

SET_ASIDE_FILE = "set-aside.yaml"


class SetAside(NamedTuple):
    """A text of the folder that no rule file encodes, and why."""

    text: str  # the file's name inside the texts folder
    reason: str
    file: str  # the set-aside file that says so
    line: int


def load(folders: Iterable[Path]) -> tuple[SetAside, ...]:
    """The entries of each folder's `set-aside.yaml` (a folder without one adds none)."""
    found: list[SetAside] = []
    problems: list[Diagnostic] = []
    for folder in folders:
        path = folder / SET_ASIDE_FILE
        if path.is_file():
            found += _entries(yamlsafe.load(path), problems)
    if problems:
        raise InputError(problems)
    return tuple(found)


def load_file(path: Path, display: str | None = None) -> tuple[SetAside, ...]:
    """One set-aside file's entries (`licheck validate`)."""
    problems: list[Diagnostic] = []
    found = _entries(yamlsafe.load(path, display), problems)
    if problems:
        raise InputError(problems)
    return tuple(found)


def _entries(document: yamlsafe.Document, problems: list[Diagnostic]) -> list[SetAside]:
    data = document.data
    if not isinstance(data, dict) or set(data) != {"texts"} or not isinstance(data["texts"], list):
        problems.append(
            document.error((), "a set-aside file holds one key, texts: a list of {file, reason}")
        )
        return []
    found: list[SetAside] = []
    for n, item in enumerate(data["texts"]):
        if entry := _entry(document, n, item, problems):
            found.append(entry)
    return found


def _entry(
    document: yamlsafe.Document, n: int, item: object, problems: list[Diagnostic]
) -> SetAside | None:
    where = ("texts", n)
    if not isinstance(item, dict) or set(item) != {"file", "reason"}:
        problems.append(document.error(where, "a set-aside entry has exactly file and reason"))
        return None
    name, reason = item["file"], item["reason"]
    if not isinstance(name, str) or not _inside(name):
        message = "file names a text inside the texts folder (no folder, no '..')"
        problems.append(document.error((*where, "file"), message))
        return None
    if not isinstance(reason, str) or not reason.strip():
        message = "reason says why no rule file encodes the text; it may not be empty"
        problems.append(document.error((*where, "reason"), message))
        return None
    line, _ = document.locate(where)
    return SetAside(name, reason.strip(), document.file, line)


def _inside(name: str) -> bool:
    pure = PurePath(name)
    return bool(name.strip()) and len(pure.parts) == 1 and name not in (".", "..")
