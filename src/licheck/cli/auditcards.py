"""`licheck audit-cards DIR...`: import a folder of Hugging Face model cards and judge them all
in one process, as `check` judges manifests.

Each card (`README.md`, any case, or a `.md` file named on the command line) is imported as
`licheck import hf` imports it, into a manifest in `--manifests DIR` (a temporary folder by
default); the card's repository id is its folder's path under the folder searched when that is
`ORG/NAME` (the Hub's own layout, `huggingface-cli download --local-dir ORG/NAME`), and is then
the derived model's name.  A card that cannot be read is listed with the reason, located, and
never stops the run (the run exits 2 at the end, as `check` does for a manifest not read).  The
manifests are then judged by `check` (one evaluation), with every report format and option of
it; the cards not read are among the report's errors, and the summary — cards by base family,
by verdict, the most common findings, the cards not read — is in the report itself (its
`cards`, `licheck.report.cards`), in every format that draws tables (docs/import.md), and
`--summary FILE` writes it alone as JSON.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from licheck.cli.common import PathParam, refuse_outputs, say
from licheck.cli.request import ReportRequest, compare_baseline, load_baseline, request_options

if TYPE_CHECKING:
    from licheck.core.diagnostics import Diagnostic
    from licheck.report.view import ErrorOut, Report

CARD_NAME = "readme.md"


def cards_in(paths: tuple[Path, ...]) -> list[tuple[Path, Path]]:
    """(card, the folder it was found under) for each card, in a stable order: a `.md` file
    named itself, and every `README.md` (any case) below a folder, hidden folders skipped."""
    found: list[tuple[Path, Path]] = []
    for path in paths:
        if path.is_file():
            found.append((path, path.parent))
            continue
        for card in sorted(path.rglob("*")):
            hidden = any(part.startswith(".") for part in card.relative_to(path).parts)
            if card.is_file() and card.name.lower() == CARD_NAME and not hidden:
                found.append((card, path))
    return found


def repo_id(card: Path, root: Path) -> str | None:
    """ORG/NAME when the card sits in `root/ORG/NAME/`, else None."""
    parts = card.parent.relative_to(root).parts if card.parent != root else ()
    return "/".join(parts) if len(parts) == 2 else None


def _manifest_name(card: Path, root: Path, taken: set[str]) -> str:
    """A file name for the card's manifest: its folder path, "/" as "__"; unique."""
    relative = card.parent.relative_to(root).parts if card.parent != root else ()
    stem = "__".join(relative) or card.stem
    name, n = f"{stem}.yaml", 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}.yaml"
    taken.add(name)
    return name


@click.command(name="audit-cards")
@click.argument("paths", nargs=-1, required=True, type=PathParam(exists=True, path_type=Path))
@click.option(
    "--manifests",
    "manifests_dir",
    type=PathParam(file_okay=False, path_type=Path),
    help="Keep the manifests made from the cards in this folder (created; default: a temporary "
    "folder, removed after the run).",
)
@click.option(
    "--summary",
    "summary_file",
    type=PathParam(dir_okay=False, path_type=Path),
    help="Also write the summary (cards by base family, by verdict, the most common findings) "
    "as JSON to this file.",
)
@request_options("Text: detail each finding (as `check -v`).", count=True)
def audit_cards(
    paths: tuple[Path, ...],
    manifests_dir: Path | None,
    summary_file: Path | None,
    request: ReportRequest,
) -> None:
    """Audit a folder of Hugging Face model cards: import each card (as `licheck import hf`)
    and judge them all in one run, as `licheck check` judges manifests.

    A card is a README.md below the folders given (ORG/NAME/README.md gives the repository
    id ORG/NAME, the derived model's name), or a .md file named itself.  A card that cannot
    be read is listed with the reason and the others are judged (exit 2 at the end).  Every
    option and format of `check` applies; the report holds the summary (cards by base
    family, by verdict, the most common findings, the cards not read).

    \b
    Example:
      licheck audit-cards cards/ --fail-on risk
      licheck audit-cards cards/ --format json \\
        -o audit.json --manifests audit-manifests/
    """
    from licheck.library.layers import load as load_library

    library = load_library(request.licenses_dir)
    cards = cards_in(paths)
    if not cards:
        raise click.UsageError(f"no model cards (README.md) in {', '.join(map(str, paths))}")
    with tempfile.TemporaryDirectory(prefix="licheck-cards-") as scratch:
        folder = manifests_dir or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        written, unread = _import_all(cards, library, folder)
        outputs = [("--output", request.output), ("--summary", summary_file)]
        read = (*paths, *(card for card, _ in cards))  # every card: never written over
        report, inputs = _judged(folder, written, unread, len(cards), request, read, outputs)
        if summary_file is not None:
            assert report.cards is not None  # (set by _judged)
            summary_file.write_text(report.cards.model_dump_json(indent=2) + "\n")
        say(
            f"licheck: audit-cards: {len(cards)} cards, {len(written)} judged, "
            f"{len(cards) - len(written)} not read"
        )
        request.emit(report, inputs, summary=True)


def _import_all(
    cards: list[tuple[Path, Path]], library: Any, folder: Path
) -> tuple[dict[str, str], list[ErrorOut]]:
    """Each card imported into a manifest in `folder`: {manifest file: card}, and the
    problems of the cards not read, located."""
    from licheck.core.diagnostics import Diagnostic, InputError, path_text
    from licheck.importers import hf as importer

    written: dict[str, str] = {}
    unread: list[ErrorOut] = []
    taken: set[str] = set()
    for card, root in cards:
        name = path_text(str(card))
        try:
            text = importer.to_manifest(
                importer.read(card, name), library, name, repo_id(card, root)
            )
        except InputError as exc:
            unread += [_not_read(d) for d in exc.diagnostics]
            continue
        except (OSError, UnicodeError, ValueError) as exc:
            unread.append(_not_read(Diagnostic(name, 0, 0, str(exc))))
            continue
        target = folder / _manifest_name(card, root, taken)
        target.write_text(text, encoding="utf-8")
        written[target.name] = name
    return written, unread


def _not_read(d: Diagnostic) -> ErrorOut:
    """A card's problem as the report lists it."""
    from licheck.report.view import ErrorOut

    return ErrorOut(
        file=d.file,
        line=d.line,
        column=d.column,
        message=f"card not read: {d.message}",
        hint=d.hint or None,
    )


def _judged(
    folder: Path,
    written: dict[str, str],
    unread: list[ErrorOut],
    found: int,
    request: ReportRequest,
    paths: tuple[Path, ...],  # the run's inputs: the folders given and every card
    outputs: list[tuple[str, Path | None]],
) -> tuple[Report, tuple[Path | None, ...]]:
    """The report of `check` over the manifests (one evaluation, held: the summary is counted
    from it), the cards not read among its errors, and the summary as its `cards`."""
    from licheck.cli.configuring import with_config
    from licheck.portfolio.runs import check_report
    from licheck.report.cards import cards_summary
    from licheck.report.view import assemble

    waivers = request.waivers()
    inputs = request.inputs(paths, waivers)
    refuse_outputs(outputs, inputs)  # before any evaluation: no input is written over
    baseline = load_baseline(request.baseline_file)
    if written:
        report = check_report(
            [folder],
            request.policy(),
            as_of=request.as_of,
            library=request.licenses_dir,
            waivers=waivers,
            today=request.today,
            attestations=request.attestations(),
        )
    else:
        report = assemble([], request.policy().name, request.as_of)
    errors = sorted([*report.errors, *unread], key=lambda e: (e.file, e.line, e.column))
    report = report.model_copy(
        update={"errors": errors, "cards": cards_summary(report, found, unread)}
    )
    return with_config(compare_baseline(report, baseline)), inputs
