"""`licheck audit-cards`' cards, each imported where it is judged: a `CardJob` says where a
card is and where its manifest goes; `CardLoader` is the portfolio's load step for them (in the
worker processes of a large run): the card imported as `licheck import hf` imports it, the
manifest text written to its file, and loaded from that text as `check` would load the file,
the same manifest, positions and problems, without reading it back.  A card that cannot be read
raises `InputError` whose problems say so (`CARD_NOT_READ`), located in the card."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from licheck.core.diagnostics import Diagnostic, InputError
from licheck.files import yamlsafe
from licheck.importers import hf
from licheck.importers.skeleton import Written
from licheck.inputs.manifest import Manifest
from licheck.library.compiled import Library
from licheck.loading.documents import parse_manifest

CARD_NOT_READ = "card not read: "  # what each problem of a card not read begins with


@dataclass(frozen=True, slots=True)
class CardJob:
    """One card of the run: the file, its name in the report, its repository id (the derived
    model's name: `--model-id`), and the manifest file made from it."""

    card: Path
    name: str
    repo_id: str | None
    manifest: Path


def manifest_text(job: CardJob, library: Library, written: Written | None = None) -> str:
    """The card's manifest, as `licheck import hf CARD --model-id REPO` writes it; `InputError`
    (each problem `CARD_NOT_READ`) when the card cannot be read.  `written`: the run's memo of
    the skeleton text written (`skeleton.Written`)."""
    card = job.card, job.name
    try:
        return hf.to_manifest(hf.read(*card), library, job.name, job.repo_id, written)
    except InputError as exc:
        raise InputError([not_read(d) for d in exc.diagnostics]) from None
    except (OSError, UnicodeError, ValueError) as exc:
        raise InputError([not_read(Diagnostic(job.name, 0, 0, str(exc)))]) from None


def not_read(d: Diagnostic) -> Diagnostic:
    """A card's problem as the report lists it."""
    return Diagnostic(d.file, d.line, d.column, CARD_NOT_READ + d.message, d.hint)


class CardLoader:
    """The portfolio's `Loader` over the jobs' manifest paths (picklable: sent to workers)."""

    def __init__(self, jobs: Sequence[CardJob]) -> None:
        self.jobs = {job.manifest: job for job in jobs}
        self.written = Written()  # each process's own copy: the memo of the text it wrote

    def __call__(self, path: Path, library: Library) -> tuple[Manifest, yamlsafe.Document]:
        text = manifest_text(self.jobs[path], library, self.written)
        path.write_bytes(text.encode())  # (the bytes `write_text` writes, without its wrapper)
        return parse_manifest(text, str(path))
