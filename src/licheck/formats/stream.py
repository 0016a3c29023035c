"""A portfolio's report, streamed: workers render each product's piece, the parent spills the
pieces to a temporary file in order while it counts, and writes the document at the end — the
totals where the format puts them, then the spilled body.  Memory does not grow with the number
of products: neither the parent nor a worker holds more than a product at a time (and the
handful of totals each format keeps).

Waivers: whether a waiver applies depends on every product it names (it stops applying if any
of its findings' pinned facts changed), so a product that an applicable-looking waiver names is
not rendered in the worker: its part of the report goes to a second spill file, and is marked
and rendered at the end, when every waiver's status is known.  Other products never change.
"""

from __future__ import annotations

import datetime as dt
import json
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import IO, Any

from licheck.diagnostics import Diagnostic, InputError
from licheck.evaluation import ProductResult
from licheck.formats import MARK, Context, Document, escape, open_document, resolve
from licheck.portfolio import Item
from licheck.report import Counts, ProductOut, Report, Summary, WaiverStatus, product_out
from licheck.verdicts import Verdict
from licheck.waivers import Hit, Ledger, Waivers, hits, mark, needs_marking

COPY_CHUNK = 1 << 18  # characters read back from the spill at a time
PIECE = MARK + "P" + MARK  # a piece follows (the separator goes before it unless it is first)
DEFERRED = MARK + "D" + MARK  # the next deferred product goes here


@dataclass(frozen=True, slots=True)
class Part:
    """What a worker sends back for one product: its piece and the few numbers the totals
    need, or (`deferred`) the product itself when waivers may change it."""

    verdict: Verdict
    findings: int
    counts: tuple[int, ...]  # in `Counts` field order
    gate: Verdict  # its worst finding that is not waived
    hits: tuple[Hit, ...]
    text: str
    extra: Any
    deferred: str | None = None  # the product as JSON


_DOCUMENTS: dict[Context, Document] = {}  # per process: a format's pieces are pure


def encode(product: ProductOut, context: Context, waivers: Waivers | None) -> Part:
    """One product's part of a streamed report."""
    found = tuple(hits(waivers, product)) if waivers is not None else ()
    counts = tuple(product.counts.model_dump().values())
    gate = _gate(product)
    if needs_marking(found):
        return Part(
            product.verdict,
            len(product.findings),
            counts,
            gate,
            found,
            "",
            None,
            product.model_dump_json(),
        )
    document = _DOCUMENTS.get(context)
    if document is None:
        document = _DOCUMENTS.setdefault(context, open_document(context))
    piece = document.piece(product)
    return Part(
        product.verdict,
        len(product.findings),
        counts,
        gate,
        found,
        escape(piece.text, document),
        piece.extra,
    )


def _gate(product: ProductOut) -> Verdict:
    gate = Verdict.NOT_APPLICABLE
    for finding in product.findings:
        if not finding.waived and finding.verdict.severity > gate.severity:
            gate = finding.verdict
    return gate


@dataclass(frozen=True, slots=True)
class Encoder:
    """The workers' transform: evaluate → the product's part of the report → its `Part`."""

    context: Context
    waivers: Waivers | None

    def __call__(self, result: ProductResult) -> Part:
        return encode(product_out(result), self.context, self.waivers)


def _spill() -> IO[str]:
    return tempfile.TemporaryFile("w+", encoding="utf-8", newline="")


class Stream:
    """The parent's side: `add` every item in order, `finish`, then `write` the document.
    Close it (or use it as a context manager) to drop the spill files."""

    def __init__(self, context: Context, waivers: Waivers | None, today: dt.date) -> None:
        self.context = context
        self.document = open_document(context)
        self.waivers = waivers
        self.today = today
        self.ledger = Ledger(waivers) if waivers is not None else None
        self.problems: list[Diagnostic] = []
        self.products = 0
        self.findings = 0
        self.pieces = 0  # non-empty pieces
        self.counts = [0] * len(Counts.model_fields)
        self.verdict = Verdict.NOT_APPLICABLE
        self.gate = Verdict.NOT_APPLICABLE
        self.deferred: list[int] = []  # the indexes of the deferred products, in order
        self._body = _spill()
        self._later = _spill()  # deferred products as JSON, one a line
        self._resolved: IO[str] | None = None  # their pieces, rendered by `finish`
        self._written = 0  # non-empty pieces written by `write` so far
        self.top: Report | None = None

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for spill in (self._body, self._later, self._resolved):
            if spill is not None:
                spill.close()

    def add(self, item: Item[Part]) -> None:
        part = item.result
        if part is None:
            self.problems.extend(item.problems)
            return
        if self.problems:  # no report will be written: only the problems matter now
            return
        index = self.products
        self.products += 1
        if self.ledger is not None:
            self.ledger.add(part.hits)
        if part.verdict.severity > self.verdict.severity:
            self.verdict = part.verdict
        if part.deferred is not None:
            self.deferred.append(index)
            self._later.write(part.deferred + "\n")
            self._body.write(DEFERRED)
            return
        self._count(part.findings, part.counts, part.gate)
        self.document.take(index, part.extra)
        if part.text:
            self.pieces += 1
            self._body.write(PIECE + part.text)

    def _count(self, findings: int, counts: Iterable[int], gate: Verdict) -> None:
        self.findings += findings
        for position, value in enumerate(counts):
            self.counts[position] += value
        if gate.severity > self.gate.severity:
            self.gate = gate

    def finish(self) -> Report:
        """Every waiver's status and the deferred products rendered; the report without its
        products (`top`: the totals).  `InputError` with every problem of every file, if any."""
        if self.problems:
            raise InputError(self.problems)
        statuses = self.ledger.statuses(self.today) if self.ledger is not None else []
        if self.deferred:
            self._resolve(statuses)
        self.top = Report(
            evidence_policy=self.context.evidence_policy,
            as_of=self.context.as_of,
            verdict=self.verdict,
            summary=Summary(
                products=self.products,
                findings=self.findings,
                counts=Counts(**dict(zip(Counts.model_fields, self.counts, strict=True))),
                gate_verdict=self.gate,
            ),
            products=[],
            waivers=statuses,
        )
        return self.top

    def _resolve(self, statuses: list[WaiverStatus]) -> None:
        assert self.waivers is not None
        self._later.seek(0)
        self._resolved = _spill()
        for index, line in zip(self.deferred, self._later, strict=True):
            product = mark(ProductOut.model_validate_json(line), self.waivers, statuses)
            self._count(len(product.findings), product.counts.model_dump().values(), _gate(product))
            piece = self.document.piece(product)
            self.document.take(index, piece.extra)
            self.pieces += bool(piece.text)
            self._resolved.write(json.dumps(escape(piece.text, self.document)) + "\n")
        self._resolved.seek(0)

    def write(self, write: Callable[[str], object]) -> None:
        """The document, in pieces: the body is read back about `COPY_CHUNK` characters at a
        time, cut after a line break (a terminal's escape sequences never span one)."""
        if self.top is None:
            raise RuntimeError("finish() first")
        write(self.document.head(self.top, self.pieces))
        self._body.seek(0)
        self._written = 0
        carry = ""
        while chunk := self._body.read(COPY_CHUNK):
            text = carry + chunk
            cut = text.rfind("\n") + 1  # a marker never holds a line break
            carry = text[cut:]
            self._copy(text[:cut] if cut < len(text) else text, write)
        self._copy(carry, write)
        write(self.document.tail(self.top, self.pieces))

    def _copy(self, text: str, write: Callable[[str], object]) -> None:
        if MARK not in text:
            if text:
                write(text)
            return
        tokens = text.split(MARK)
        write(tokens[0])
        for index in range(1, len(tokens), 2):
            name = tokens[index]
            if name == "P":
                if self._written:
                    write(self.document.separator)
                self._written += 1
            elif name == "D":
                assert self._resolved is not None
                piece = json.loads(self._resolved.readline())
                if piece:
                    if self._written:
                        write(self.document.separator)
                    write(resolve(piece, self.document))
                    self._written += 1
            else:
                write(MARK if name == "0" else self.document.marker(name))
            write(tokens[index + 1])


def stream(
    items: Iterable[Item[Part]], context: Context, waivers: Waivers | None, today: dt.date
) -> Stream:
    """Spill every item; `InputError` (and nothing kept) when any file had problems."""
    result = Stream(context, waivers, today)
    try:
        for item in items:
            result.add(item)
        result.finish()
    except BaseException:
        result.close()
        raise
    return result
