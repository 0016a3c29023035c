"""`licheck audit-cards`' runs: model cards imported and judged in one pass, each card in the
process that judges it (in worker processes for a large run: `importers.cardjobs.CardLoader`
imports the card, writes its manifest and evaluates that text without reading the file back),
as `check` judges the folder of those manifests: the same products in the same order (by the
manifests' names, as `check` finds them), the same findings and errors.  The summary of the
cards (`Report.cards`) is counted from each product's `CardRow`, sent beside its part of the
report in a streamed run; the cards not read are listed in card order, and among the errors.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, TypeVar

from licheck.core.diagnostics import Diagnostic
from licheck.evaluation.evaluate import ProductResult
from licheck.importers.cardjobs import CARD_NOT_READ, CardJob, CardLoader
from licheck.outputs import Context, Format, RenderOptions
from licheck.portfolio.runs import LibraryGiven, completed, loaded_library, run_options
from licheck.portfolio.streaming import Encoder, Part, Stream, stream
from licheck.portfolio.workers import Item, iter_mapped
from licheck.report.building import product_data, product_out
from licheck.report.cards import CardRow, data_row, product_row, summary_of
from licheck.report.layering import described
from licheck.report.view import ErrorOut, ProductOut, Report, assemble

if TYPE_CHECKING:
    from licheck.evaluation.findings import Options
    from licheck.facts.evidencepolicy import EvidencePolicy
    from licheck.library.compiled import Library
    from licheck.report.attestations import Attestations
    from licheck.report.waivers import Waivers

T = TypeVar("T")


def ordered(jobs: Sequence[CardJob]) -> list[CardJob]:
    """The jobs in the order `check` finds their manifests in one folder: by file name."""
    return sorted(jobs, key=lambda job: job.manifest.name)


def judged(
    jobs: Sequence[CardJob],
    run: Options,
    library: Library,
    transform: Callable[[ProductResult], T],
    workers: int | None,
) -> Iterator[Item[T]]:
    """Each card imported and judged where `transform` makes its product (in the workers of a
    large run), in `check`'s order of their manifests."""
    order = ordered(jobs)
    manifests = [job.manifest for job in order]
    return iter_mapped(manifests, run, library, transform, jobs=workers, load=CardLoader(order))


class RowEncoder:
    """The workers' transform of a streamed audit: a product's part of the report (`Encoder`)
    and its row of the cards' summary."""

    def __init__(self, encoder: Encoder) -> None:
        self.encoder = encoder

    def __call__(self, result: ProductResult) -> tuple[Part, CardRow]:
        data = product_data(result, self.encoder.memo)
        row = data_row(data)
        return self.encoder.encode(result, data), row


class _Cards:
    """The cards of a run not read, kept apart from the manifests' problems (by card order)."""

    def __init__(self, jobs: Sequence[CardJob]) -> None:
        self.found = len(jobs)
        self._index = {job.manifest: index for index, job in enumerate(jobs)}
        self._unread: dict[int, list[ErrorOut]] = {}

    def passing(self, items: Iterable[Item[T]]) -> Iterator[Item[T]]:
        """The items of the cards read (a product, or its manifest's problems)."""
        for item in items:
            if item.result is None and any(
                d.message.startswith(CARD_NOT_READ) for d in item.problems
            ):
                self._unread[self._index[item.path]] = [
                    ErrorOut(file=d.file, line=d.line, column=d.column, message=d.message,
                             hint=d.hint or None)
                    for d in item.problems
                ]  # fmt: skip
            else:
                yield item

    @property
    def not_read(self) -> int:
        """How many cards could not be read."""
        return len(self._unread)

    def completed(self, report: Report, rows: Sequence[CardRow]) -> Report:
        """The report with the cards not read among its errors, and the summary."""
        unread = [error for index in sorted(self._unread) for error in self._unread[index]]
        errors = sorted([*report.errors, *unread], key=lambda e: (e.file, e.line, e.column))
        summary = summary_of(rows, self.found, unread)
        return report.model_copy(update={"errors": errors, "cards": summary})


def audit_stream(
    jobs: Sequence[CardJob],
    policy: EvidencePolicy,
    fmt: Format,
    options: RenderOptions,
    *,
    as_of: dt.date | None = None,
    library: LibraryGiven = None,
    waivers: Waivers | None = None,
    today: dt.date | None = None,
    attestations: Attestations | None = None,
    workers: int | None = None,
) -> tuple[Stream, int]:
    """audit-cards streamed, as `check_stream` over the manifests of the cards (each product
    rendered in `fmt` where it is judged, the report never held); the stream finished, its
    report's top with the summary, and how many cards could not be read."""
    library = loaded_library(library)
    as_of_text = as_of.isoformat() if as_of else None
    context = Context(fmt, options, policy.name, as_of_text, described(library))
    cards = _Cards(jobs)
    rows: list[CardRow] = []
    run = run_options(policy, as_of, attestations, today, library)
    items = judged(jobs, run, library, RowEncoder(Encoder(context, waivers)), workers)
    streamed = stream(
        _parts(cards.passing(items), rows), context, waivers, today or dt.date.today()
    )
    assert streamed.top is not None  # (`stream` finished it)
    streamed.top = cards.completed(streamed.top, rows)
    return streamed, cards.not_read


def _parts(
    items: Iterable[Item[tuple[Part, CardRow]]], rows: list[CardRow]
) -> Iterator[Item[Part]]:
    """Each product's part for the stream, its row kept in `rows`."""
    for item in items:
        if item.result is None:
            yield Item(item.path, None, item.problems)
            continue
        part, row = item.result
        rows.append(row)
        yield Item(item.path, part)


def audit_report(
    jobs: Sequence[CardJob],
    policy: EvidencePolicy,
    *,
    as_of: dt.date | None = None,
    library: LibraryGiven = None,
    waivers: Waivers | None = None,
    today: dt.date | None = None,
    attestations: Attestations | None = None,
    workers: int | None = None,
) -> tuple[Report, int]:
    """audit-cards' report held (a `--baseline` compares the whole report), as `check_report`
    over the manifests of the cards, with the summary; and how many cards could not be read."""
    library = loaded_library(library)
    cards = _Cards(jobs)
    run = run_options(policy, as_of, attestations, today, library)
    items = judged(jobs, run, library, product_out, workers)
    products: list[ProductOut] = []
    problems: list[Diagnostic] = []
    for item in cards.passing(items):
        if item.result is None:
            problems.extend(item.problems)
        else:
            products.append(item.result)
    report = completed(assemble(products, policy.name, as_of), library, problems, waivers, today)
    return cards.completed(report, [product_row(p) for p in report.products]), cards.not_read
