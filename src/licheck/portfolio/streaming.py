"""A portfolio's report, streamed: `Encoder` turns each product into its part of the document
where it is evaluated (in a worker, for a large portfolio) — already UTF-8 bytes; the parent's
`Stream` only counts the totals and appends the bytes to a spill file, then writes the document:
the format's head, the spilled body copied as is, the tail.  Memory does not grow with the number
of products: neither the parent nor a worker holds more than a product at a time (and the handful
of totals each format keeps).

What the body cannot say until every product is in — a SARIF rule's index, a deferred product, a
separator whose need is not yet known — is a hole: its offset in the body and what goes there are
written to a second spill file, beside the text, never into it.

Waivers: whether a waiver applies depends on every product it names (it stops applying if any of
its findings' pinned facts changed), so a product that an applicable-looking waiver names is not
rendered in the worker: it is sent as JSON, kept in a third spill file, and marked and rendered
at the end, when every waiver's status is known.  Other products never change.
"""

from __future__ import annotations

import codecs
import datetime as dt
import json
import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, BinaryIO

from licheck.core.diagnostics import Diagnostic
from licheck.core.verdicts import Verdict, worst
from licheck.evaluation.evaluate import ProductResult
from licheck.outputs import Context, Document, Format, Piece, open_document
from licheck.outputs.jsonreport import product_bytes
from licheck.portfolio.workers import Item
from licheck.report.building import ReportMemo, product_data
from licheck.report.digest import product_digest
from licheck.report.leaner import SCHEMA_V1, Clauses, leaner_product
from licheck.report.view import (
    Counts,
    ProductOut,
    Report,
    Summary,
    WaiverStatus,
    errors_out,
    gate_kind,
)

if TYPE_CHECKING:  # licheck.report.waivers is imported only by a run that has waivers
    from licheck.report.waivers import Hit, Ledger, Waivers

COPY_CHUNK = 1 << 18  # bytes copied from the spill at a time
Holes = tuple[tuple[int, str], ...]  # (byte offset, name) in a part's body


@dataclass(frozen=True, slots=True)
class Part:
    """What a worker sends back for one product: its piece as bytes and the few numbers the
    totals need, or (`deferred`) the product itself as JSON when waivers may change it."""

    verdict: Verdict
    findings: int
    counts: tuple[int, ...]  # in `Counts` field order
    gate: Verdict  # its worst finding (none is waived yet)
    kinds: frozenset[str | None]  # its findings' risk kinds (`report.gate_kind`)
    hits: tuple[Hit, ...]
    body: bytes
    holes: Holes = ()
    extra: Any = None
    deferred: bytes | None = None


class Encoder:
    """The workers' transform: a result → the product's part of the report → its `Part`.  It
    owns the run's memo of report parts (one per process: a worker gets its own copy)."""

    def __init__(self, context: Context, waivers: Waivers | None) -> None:
        self.context = context
        self.waivers = waivers
        self.memo = ReportMemo()
        self._document: Document | None = None  # pieces are pure: one document serves all
        self._sent: set[tuple[str, str]] = set()  # schema 2.0: the clauses this process sent

    def _unsent(self, clauses: Clauses) -> Clauses:
        """The clause entries this process has not sent yet (the parent keeps every one)."""
        out: Clauses = {}
        for license, entries in clauses.items():
            for clause, entry in entries.items():
                if (license, clause) not in self._sent:
                    self._sent.add((license, clause))
                    out.setdefault(license, {})[clause] = entry
        return out

    def __call__(self, result: ProductResult) -> Part:
        return self.encode(result, product_data(result, self.memo))

    def encode(self, result: ProductResult, data: dict[str, Any]) -> Part:
        """The `Part` of `result`, whose report data (`product_data`, with this memo) is `data`."""
        counts = tuple(data["counts"].values())
        gate = worst([f.verdict for f in result.findings])  # none is waived yet
        kinds = frozenset(f["risk_kind"] for f in data["findings"])
        numbers = (result.verdict, len(result.findings), counts, gate, kinds)
        product = None
        found: tuple[Hit, ...] = ()
        if self.waivers is not None:
            from licheck.report.waivers import hits, needs_marking

            product = ProductOut.model_validate(data)
            found = tuple(hits(self.waivers, product))
            if needs_marking(found):
                return Part(*numbers, found, b"", deferred=product.model_dump_json().encode())
        if self.context.fmt is Format.JSON:  # the report's data as is: no model needed
            if self.context.options.json_schema == SCHEMA_V1:
                return Part(*numbers, found, product_bytes(data), extra=product_digest(data))
            leaner, clauses = leaner_product(data)
            extra = (product_digest(data), self._unsent(clauses))
            return Part(*numbers, found, product_bytes(leaner), extra=extra)
        if self._document is None:
            self._document = open_document(self.context)
        piece = self._document.piece(product or ProductOut.model_validate(data))
        body, holes = _bytes(piece)
        return Part(*numbers, found, body, holes, piece.extra)


def _bytes(piece: Piece) -> tuple[bytes, Holes]:
    """A piece's text as UTF-8, its holes' offsets counted in bytes."""
    if not piece.holes:
        return piece.text.encode(), ()
    body = bytearray()
    holes = []
    start = 0
    for offset, name in piece.holes:
        body += piece.text[start:offset].encode()
        holes.append((len(body), name))
        start = offset
    body += piece.text[start:].encode()
    return bytes(body), tuple(holes)


def _spill() -> IO[bytes]:
    return tempfile.TemporaryFile("w+b")


# Kinds of hole in the body (the spill of holes holds (offset, kind, detail) records):
FILL = "fill"  # a format's `fill(detail)`
SEPARATOR = "sep"  # the separator, if a deferred product before it turned out non-empty
DEFERRED = "deferred"  # the next deferred product; detail: the non-empty pieces before it


class Stream:
    """The parent's side: `add` every item in order, `finish`, then `write` the document.
    Close it (or use it as a context manager) to drop the spill files."""

    def __init__(self, context: Context, waivers: Waivers | None, today: dt.date) -> None:
        self.context = context
        self.document = open_document(context)
        self.waivers = waivers
        self.today = today
        self.ledger = _ledger(waivers)
        self.problems: list[Diagnostic] = []
        self.products = 0
        self.findings = 0
        self.pieces = 0  # non-empty pieces (of deferred products: once rendered)
        self.counts = [0] * len(Counts.model_fields)
        self.verdict = Verdict.NOT_APPLICABLE
        self.gate = Verdict.NOT_APPLICABLE
        self.kinds: set[str | None] = set()  # the risk kinds of findings that count
        self.deferred: list[int] = []  # the indexes of the deferred products, in order
        self._separator = self.document.separator.encode()
        self._body = _spill()
        self._size = 0  # bytes in the body
        self._holes = _spill()  # [offset, kind, detail] as JSON, one a line, in body order
        self._later = _spill()  # deferred products as JSON, one a line
        self._resolved: IO[bytes] | None = None  # their pieces ([text, holes]), by `finish`
        self.top: Report | None = None

    def __enter__(self) -> Stream:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        for spill in (self._body, self._holes, self._later, self._resolved):
            if spill is not None:
                spill.close()

    def add(self, item: Item[Part]) -> None:
        part = item.result
        if part is None:  # reported at the end; the other manifests are evaluated all the same
            self.problems.extend(item.problems)
            return
        index = self.products
        self.products += 1
        if self.ledger is not None:
            self.ledger.add(part.hits)
        if part.verdict.severity > self.verdict.severity:
            self.verdict = part.verdict
        if part.deferred is not None:
            self._hole(DEFERRED, self.pieces)
            self.deferred.append(index)
            self._later.write(part.deferred + b"\n")
            return
        self._count(part.findings, part.counts, part.gate, part.kinds)
        self.document.take(index, part.extra)
        if not part.body or not self.document.admits(index, part.extra):
            return
        if self.pieces:
            self._append(self._separator)
        elif self.deferred:  # a deferred product before it may turn out to show something
            self._hole(SEPARATOR, 0)
        self.pieces += 1
        start = self._size
        for offset, name in part.holes:
            self._hole(FILL, name, start + offset)
        self._append(part.body)

    def _append(self, data: bytes) -> None:
        self._body.write(data)
        self._size += len(data)

    def _hole(self, kind: str, detail: object, offset: int | None = None) -> None:
        at = self._size if offset is None else offset
        self._holes.write(json.dumps([at, kind, detail]).encode() + b"\n")

    def _count(
        self, findings: int, counts: Iterable[int], gate: Verdict, kinds: Iterable[str | None]
    ) -> None:
        self.findings += findings
        self.kinds.update(kinds)
        for position, value in enumerate(counts):
            self.counts[position] += value
        if gate.severity > self.gate.severity:
            self.gate = gate

    def finish(self) -> Report:
        """Every waiver's status and the deferred products rendered; the report without its
        products (`top`: the totals, and every problem of every manifest that could not be
        read)."""
        statuses = self.ledger.statuses(self.today) if self.ledger is not None else []
        errors = errors_out(self.problems)
        if self.deferred:
            self._resolve(statuses)
        if statuses:
            from licheck.report.waivers import noting_unread

            statuses = noting_unread(statuses, errors)
        self.top = Report(
            evidence_policy=self.context.evidence_policy,
            as_of=self.context.as_of,
            verdict=self.verdict,
            summary=Summary(
                products=self.products,
                findings=self.findings,
                counts=Counts(**dict(zip(Counts.model_fields, self.counts, strict=True))),
                gate_verdict=self.gate,
                gate_risk_kind=gate_kind(self.gate, self.kinds),
            ),
            products=[],
            waivers=statuses,
            errors=errors,
            library=self.context.library,
        )
        return self.top

    def _resolve(self, statuses: list[WaiverStatus]) -> None:
        from licheck.report.waivers import mark

        assert self.waivers is not None
        self._later.seek(0)
        self._resolved = _spill()
        for index, line in zip(self.deferred, self._later, strict=True):
            product = mark(ProductOut.model_validate_json(line), self.waivers, statuses)
            counts = product.counts.model_dump().values()
            gate = worst([f.verdict for f in product.findings if not f.waived])
            kinds = {f.risk_kind for f in product.findings if not f.waived}
            self._count(len(product.findings), counts, gate, kinds)
            piece = self.document.piece(product)
            self.document.take(index, piece.extra)
            if piece.text and not self.document.admits(index, piece.extra):
                piece = Piece("")
            self.pieces += bool(piece.text)
            self._resolved.write(json.dumps([piece.text, piece.holes]).encode() + b"\n")

    def write(self, out: BinaryIO) -> None:
        """The document: the head, the body copied from the spill with its holes filled, the
        tail."""
        if self.top is None:
            raise RuntimeError("finish() first")
        document = self.document
        out.write(document.head(self.top, self.pieces).encode())
        self._body.flush()
        self._body.seek(0)
        self._holes.seek(0)
        if self._resolved is not None:
            self._resolved.seek(0)
        position = 0
        shown = 0  # non-empty deferred pieces written so far
        for line in self._holes:
            offset, kind, detail = json.loads(line)
            _copy(self._body, out, offset - position)
            position = offset
            if kind == FILL:
                out.write(document.fill(detail).encode())
            elif kind == SEPARATOR:
                if shown:
                    out.write(self._separator)
            else:
                assert self._resolved is not None
                text, holes = json.loads(self._resolved.readline())
                piece = Piece(text, None, tuple((at, name) for at, name in holes))
                if piece.text:
                    if detail or shown:
                        out.write(self._separator)
                    out.write(piece.filled(document).encode())
                    shown += 1
        shutil.copyfileobj(self._body, out, COPY_CHUNK)
        out.write(document.tail(self.top, self.pieces).encode())

    def write_text(self, write: Callable[[str], object]) -> None:
        """As `write`, to a function that takes text."""
        self.write(_TextSink(write))  # type: ignore[arg-type]


def _ledger(waivers: Waivers | None) -> Ledger | None:
    if waivers is None:
        return None
    from licheck.report.waivers import Ledger

    return Ledger(waivers)


def _copy(source: IO[bytes], out: BinaryIO, size: int) -> None:
    while size > 0:
        chunk = source.read(min(size, COPY_CHUNK))
        if not chunk:  # pragma: no cover - the holes are within the body
            raise RuntimeError("spill ended early")
        out.write(chunk)
        size -= len(chunk)


class _TextSink:
    """A binary file's `write` over a function that takes text: UTF-8 decoded incrementally, as
    a chunk may end inside a character."""

    def __init__(self, write: Callable[[str], object]) -> None:
        self._write = write
        self._decoder = codecs.getincrementaldecoder("utf-8")()

    def write(self, data: bytes) -> int:
        text = self._decoder.decode(data)
        if text:
            self._write(text)
        return len(data)


def stream(
    items: Iterable[Item[Part]], context: Context, waivers: Waivers | None, today: dt.date
) -> Stream:
    """Spill every item (a manifest that could not be read is listed in the report's errors)."""
    result = Stream(context, waivers, today)
    try:
        for item in items:
            result.add(item)
        result.finish()
    except BaseException:
        result.close()
        raise
    return result
