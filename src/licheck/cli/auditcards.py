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
from typing import TYPE_CHECKING

import click

from licheck.cli.common import PathParam, refuse_outputs, say
from licheck.cli.request import ReportRequest, compare_baseline, load_baseline, request_options

if TYPE_CHECKING:
    from licheck.importers.cardjobs import CardJob
    from licheck.report.view import CardsOut
    from licheck.report.waivers import Waivers

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
    cards = cards_in(paths)
    if not cards:
        raise click.UsageError(f"no model cards (README.md) in {', '.join(map(str, paths))}")
    with tempfile.TemporaryDirectory(prefix="licheck-cards-") as scratch:
        folder = manifests_dir or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        jobs = card_jobs(cards, folder)
        outputs = [("--output", request.output), ("--summary", summary_file)]
        read = (*paths, *(card for card, _ in cards))  # every card: never written over
        waivers = request.waivers()
        inputs = request.inputs(read, waivers)
        refuse_outputs(outputs, inputs)  # before any card is imported: no input is written over
        if request.baseline_file is not None:  # (a baseline compares the whole report)
            _audit_once(jobs, request, waivers, inputs, summary_file)
        else:
            _audit_streamed(jobs, request, waivers, inputs, summary_file)


def card_jobs(cards: list[tuple[Path, Path]], folder: Path) -> list[CardJob]:
    """Each card's job: its name in the report, its repository id, its manifest in `folder`
    (named by the card's folder path, unique in card order)."""
    from licheck.core.diagnostics import path_text
    from licheck.importers.cardjobs import CardJob

    taken: set[str] = set()
    return [
        CardJob(card, path_text(str(card)), repo_id(card, root),
                folder / _manifest_name(card, root, taken))
        for card, root in cards
    ]  # fmt: skip


def _said(cards: int, not_read: int) -> None:
    say(f"licheck: audit-cards: {cards} cards, {cards - not_read} judged, {not_read} not read")


def _audit_streamed(
    jobs: list[CardJob],
    request: ReportRequest,
    waivers: Waivers | None,
    inputs: tuple[Path | None, ...],
    summary_file: Path | None,
) -> None:
    """One format, streamed as `check` streams it: each card imported, judged and rendered
    in the worker that has it; the report is never held."""
    from licheck.cli.emit import emit_stream
    from licheck.outputs import Format
    from licheck.portfolio.cardruns import audit_stream

    streamed, not_read = audit_stream(
        jobs,
        request.policy(),
        Format(request.fmt),
        request.render_options(summary=True),
        **request.keywords(waivers),
    )
    with streamed:
        assert streamed.top is not None and streamed.top.cards is not None  # (audit_stream)
        _summary(summary_file, streamed.top.cards)
        _said(len(jobs), not_read)
        emit_stream(streamed, request.output, inputs=inputs)


def _audit_once(
    jobs: list[CardJob],
    request: ReportRequest,
    waivers: Waivers | None,
    inputs: tuple[Path | None, ...],
    summary_file: Path | None,
) -> None:
    """The report held, to compare it with `--baseline`."""
    from licheck.cli.configuring import with_config
    from licheck.portfolio.cardruns import audit_report

    baseline = load_baseline(request.baseline_file)
    report, not_read = audit_report(
        jobs,
        request.policy(),
        **request.keywords(waivers),
    )
    assert report.cards is not None  # (audit_report)
    _summary(summary_file, report.cards)
    _said(len(jobs), not_read)
    request.emit(with_config(compare_baseline(report, baseline)), inputs, summary=True)


def _summary(file: Path | None, cards: CardsOut) -> None:
    """`--summary FILE`: the summary alone, as JSON."""
    if file is not None:
        file.write_text(cards.model_dump_json(indent=2) + "\n")
