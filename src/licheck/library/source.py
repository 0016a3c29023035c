"""Which rule libraries a run reads, and what the layers replaced: plain data, at the bottom.

The built-in library comes first (unless the user turns it off), then each folder named with
`--licenses` (or in the configuration), in order: a folder's rule files and catalog entries are
added, and one with an id already present replaces the earlier one, which the report says.
Loading lives in `licheck.library.layers`; this module only names things, so that the report, the
formats and the worker processes can carry them without importing the loader.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple


@dataclass(frozen=True, slots=True)
class LibrarySource:
    """The built-in library (unless `builtin` is off), then each folder in `folders`, in order,
    layered over what comes before.  Without the built-in library the first folder is the base,
    as `--licenses DIR --no-builtin-licenses` reads one folder alone."""

    folders: tuple[Path, ...] = ()
    builtin: bool = True
    policies: tuple[Path, ...] = ()  # organisation policy files (`licheck.library.orgpolicy`)

    @property
    def inputs(self) -> tuple[Path, ...]:
        """The files and folders the user named: no output may overwrite them."""
        return (*self.folders, *self.policies)

    @property
    def layered(self) -> bool:
        """Whether anything besides the built-in library alone is read."""
        return bool(self.folders) or not self.builtin or bool(self.policies)


@dataclass(frozen=True, slots=True)
class Replacement:
    """An entry of a layer that replaced one with the same id from the library below it."""

    kind: Literal["license", "model"]
    id: str
    file: str  # the layer's file that defines it now
    replaced: str  # the file the replaced entry came from
    # a model's licenses (ids, or "" when not in the library) before and after, when its
    # replacement changes them: the change that moves verdicts
    licenses: tuple[str, str] | None = None


class Origin(NamedTuple):
    """Where a loaded library came from: its source and what its layers replaced."""

    source: LibrarySource
    replacements: tuple[Replacement, ...] = ()
