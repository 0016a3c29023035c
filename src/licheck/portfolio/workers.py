"""Evaluating a portfolio: many manifests, streamed in order, on every core when it pays.

`iter_results` yields one `Item` per path, in the order of the paths, as soon as it and all before
it are done; a broken manifest gives an item with its problems instead of a result, so the caller
decides whether to stop.  Below `PARALLEL_MIN` paths (or with `jobs=1`) it runs in this process;
above, in worker processes over chunks of paths, with a bounded number of chunks in flight, so
memory does not grow with the portfolio when the caller does not keep what it receives.
`summarise_paths` is such a caller: the verdict counts and exit status of any number of products
in constant memory, the workers sending back a `Tally` of each product rather than its findings.
"""

from __future__ import annotations

import gc
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from licheck.core.diagnostics import Diagnostic, InputError
from licheck.core.verdicts import Verdict
from licheck.evaluation.evaluate import EvaluationContext, Options, ProductResult, evaluate_manifest
from licheck.files import yamlsafe
from licheck.files.safeio import STDIN
from licheck.inputs.manifest import Manifest
from licheck.library.compiled import Library, compile_all
from licheck.library.layers import load as load_layers
from licheck.library.layers import source_of
from licheck.library.source import LibrarySource
from licheck.loading.documents import load_manifest

PARALLEL_MIN = 200  # fewer manifests are done before worker processes would have started
CHUNK = 32  # paths per task: large enough to amortise the hand-off, small enough to balance
IN_FLIGHT_PER_JOB = 3  # chunks queued per worker: keeps workers busy, bounds memory


R = TypeVar("R")

Loader = Callable[[Path, Library], tuple[Manifest, yamlsafe.Document]]
"""How a path becomes the manifest evaluated (`InputError`, located, when it cannot): a file
read by default (`load_file`); audit-cards imports a model card there (`importers.cardjobs`).
Picklable, as the transform, to reach a worker."""


def load_file(path: Path, library: Library) -> tuple[Manifest, yamlsafe.Document]:
    """The manifest file at `path`, read (the default `Loader`)."""
    return load_manifest(path, str(path))


@dataclass(frozen=True, slots=True)
class Item(Generic[R]):
    """The outcome for one path: a result, or the problems that kept it from being evaluated."""

    path: Path
    result: R | None
    problems: tuple[Diagnostic, ...] = ()


def _same(result: ProductResult) -> ProductResult:
    return result


def evaluate_one(
    path: Path,
    options: Options,
    library: Library,
    transform: Callable[[ProductResult], R] = _same,  # type: ignore[assignment]
    context: EvaluationContext | None = None,
    load: Loader = load_file,
) -> Item[R]:
    """The one place a portfolio (and so a streamed report) loads and evaluates a manifest."""
    try:
        manifest, document = load(path, library)
        if options.attesting is not None:
            manifest = options.attesting.complete(manifest, document.file)
        result = evaluate_manifest(manifest, document, library, options, context)
    except InputError as exc:
        return Item(path, None, tuple(exc.diagnostics))
    return Item(path, transform(result))


def default_jobs() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def iter_results(
    paths: Sequence[Path],
    options: Options,
    library: Library,
    *,
    jobs: int | None = None,
) -> Iterator[Item[ProductResult]]:
    """One `Item` per path, in order; in parallel for large portfolios (`jobs`: worker count,
    default every available core; 1: in this process)."""
    return iter_mapped(paths, options, library, _same, jobs=jobs)


def iter_mapped(
    paths: Sequence[Path],
    options: Options,
    library: Library,
    transform: Callable[[ProductResult], R],
    *,
    jobs: int | None = None,
    load: Loader = load_file,
) -> Iterator[Item[R]]:
    """As `iter_results`, with `transform` applied to each result where it is made (in the
    workers: e.g. building the report's product there), and each path loaded by `load`.
    `transform` and `load` must be picklable (a module-level function, or an instance of a
    module-level class), so that they can be sent to a worker; each worker gets its own copy
    once."""
    jobs = default_jobs() if jobs is None else max(1, jobs)
    if jobs == 1 or len(paths) < PARALLEL_MIN or STDIN in paths:  # (workers have no stdin)
        context = EvaluationContext()
        for path in paths:
            yield evaluate_one(path, options, library, transform, context, load)
        return
    yield from _parallel(paths, options, library, transform, jobs, load)


# -- workers -----------------------------------------------------------------------------------
# A worker is told at its start what every task needs (options, library, transform), kept in one
# object owned by the worker's entry point; tasks then carry only paths.  Workers ignore Ctrl-C (the
# parent stops them) and exit on their own when the parent dies, so none outlives a killed run.


@dataclass(slots=True)
class _Worker:
    options: Options
    library: Library
    transform: Callable[[ProductResult], Any]
    context: EvaluationContext  # the worker's memo tables, for all its chunks
    load: Loader


_this_worker: _Worker | None = None  # set once by `_start_worker`, in a worker process only
PARENT_POLL = 0.5  # seconds between a worker's checks that its parent is alive


# The signals that stop a run (Ctrl-C; SIGTERM and SIGHUP, which the parent turns into
# `safeio.Terminated`): held back while workers are forked, until each has its own handlers.
_STOPPING = (
    signal.SIGINT,
    *(getattr(signal, n) for n in ("SIGTERM", "SIGHUP") if hasattr(signal, n)),
)


def _start_worker(
    options: Options,
    library: Library | None,
    source: LibrarySource,
    transform: Callable[[ProductResult], Any],
    load: Loader,
) -> None:
    """Forked workers inherit the parent's library; spawned ones load it again, once each."""
    global _this_worker
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the workers
    _obey_the_parent_only(os.getppid())
    if hasattr(signal, "pthread_sigmask"):  # blocked when it was forked: a pending Ctrl-C is
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # now dropped, ignored
    _watch_parent(os.getppid())
    library = library or load_layers(source)
    _this_worker = _Worker(options, library, transform, EvaluationContext(), load)
    # What a worker holds from its start (code, the library) lives as long as it does: keep it
    # out of the collector's scans, and collect less often, as a manifest's garbage is short-lived
    # and mostly free of cycles (the collector was the largest single cost left per manifest).
    gc.freeze()
    gc.set_threshold(10_000, 20, 10)


def _obey_the_parent_only(parent: int) -> None:
    """SIGTERM and SIGHUP sent to the whole process group (a closed terminal, `kill -- -PGID`,
    a CI runner cancelling the job) are the parent's to act on, as Ctrl-C is: it stops the
    pool.  A worker ended by one of them at any moment could die holding a lock of the pool's
    queues, and the parent's clean-up would wait for it forever.  So a worker ends only on the
    SIGTERM its parent's pool sends once it has taken those locks.  (Where a signal's sender
    cannot be told, as on macOS, the signals keep their default: they end the worker.)"""
    waited = set(_STOPPING[1:])
    for number in waited:  # not the parent's handlers, which a fork inherits
        signal.signal(number, signal.SIG_DFL)
    if not hasattr(signal, "sigwaitinfo"):  # pragma: no cover - not on Linux
        if hasattr(signal, "pthread_sigmask"):
            signal.pthread_sigmask(signal.SIG_UNBLOCK, waited)
        return

    def wait() -> None:  # the signals stay blocked in every thread: they come here, in order
        while True:
            info = signal.sigwaitinfo(waited)
            if info.si_signo == signal.SIGTERM and info.si_pid == parent:
                os._exit(128 + signal.SIGTERM)

    threading.Thread(target=wait, name="licheck-signals", daemon=True).start()


def _watch_parent(parent: int) -> None:
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL)
        os._exit(1)  # the parent is gone: nobody will read what this worker makes

    threading.Thread(target=watch, name="licheck-parent-watch", daemon=True).start()


def _hold_sigint() -> set[int | signal.Signals] | None:
    """Block the stopping signals in this thread (and so in processes it forks); the mask to
    restore."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - not on POSIX
        return None
    return signal.pthread_sigmask(signal.SIG_BLOCK, _STOPPING)


TERMINATE_GRACE = 10.0  # seconds the pool's own clean-up may take before its workers are killed


@contextmanager
def _terminated(pool: Any) -> Iterator[None]:
    """`with pool:` (the pool terminated on leaving), with a watchdog: a worker ends only on its
    parent's SIGTERM (`_obey_the_parent_only`), but a SIGTERM sent to the whole group that is
    still pending when the parent's arrives merges with it (a standard signal is not queued), so
    the worker never learns that its parent asked, and the clean-up would wait for it forever
    (rare, and likelier under heavy load).  A clean-up that has run this long is
    almost always waiting for such a worker (it takes the locks it shares with the workers
    first, in milliseconds), so the workers are killed then.  Not proof against every case: a
    worker killed while the pool's result thread reads its message can still leave that thread
    waiting (seen once in 100 group signals under heavy load; without it, twice in six)."""
    try:
        yield
    finally:
        watchdog = threading.Timer(TERMINATE_GRACE, _kill_workers)
        watchdog.daemon = True
        watchdog.start()
        try:
            pool.terminate()
        finally:
            watchdog.cancel()


def _kill_workers() -> None:
    import multiprocessing

    for child in multiprocessing.active_children():
        child.kill()


def _release_sigint(held: set[int | signal.Signals] | None) -> None:
    if held is not None:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _run_chunk(paths: list[Path]) -> list[Item[Any]]:
    worker = _this_worker
    assert worker is not None, "not in a worker process"
    return [
        evaluate_one(
            path, worker.options, worker.library, worker.transform, worker.context, worker.load
        )
        for path in paths
    ]


def _parallel(
    paths: Sequence[Path],
    options: Options,
    library: Library,
    transform: Callable[[ProductResult], R],
    jobs: int,
    load: Loader,
) -> Iterator[Item[R]]:
    import multiprocessing  # here: a portfolio below PARALLEL_MIN never starts a worker

    # fork where the platform has it: workers start in milliseconds, sharing the loaded code and
    # the library (nothing given to a forked worker is pickled); elsewhere the platform's default.
    fork = "fork" in multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if fork else None)
    chunks = (list(paths[i : i + CHUNK]) for i in range(0, len(paths), CHUNK))
    limit = jobs * IN_FLIGHT_PER_JOB
    start = (options, library if fork else None, source_of(library), transform, load)
    if fork:
        compile_all(library)  # once, shared by the workers (and frozen with their start)
    # Workers are made with Ctrl-C blocked (they inherit the mask) until their initializer
    # ignores it; here it is held back until the pool is in its block, then raised if it came.
    held = _hold_sigint()
    try:
        pool = context.Pool(jobs, _start_worker, start)
    except BaseException:
        _release_sigint(held)
        raise
    # Leaving the block (done, an error, Ctrl-C, the consumer closing the iterator) terminates
    # the workers.
    with _terminated(pool):
        _release_sigint(held)
        pending: deque[Any] = deque()
        for chunk in chunks:
            pending.append(pool.apply_async(_run_chunk, (chunk,)))
            if len(pending) >= limit:
                yield from pending.popleft().get()
        while pending:
            yield from pending.popleft().get()


# -- constant-memory consumers ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Tally:
    """What a summary needs of one product: a few numbers instead of its findings."""

    verdict: Verdict
    findings: tuple[tuple[Verdict, int], ...]


def tally(result: ProductResult) -> Tally:
    counts = dict.fromkeys(Verdict, 0)
    for finding in result.findings:
        counts[finding.verdict] += 1
    return Tally(result.verdict, tuple(counts.items()))


@dataclass(slots=True)
class Summary:
    """Verdict counts over a portfolio, kept without keeping the products."""

    products: int = 0
    broken: int = 0
    product_verdicts: dict[Verdict, int] = field(default_factory=lambda: dict.fromkeys(Verdict, 0))
    finding_verdicts: dict[Verdict, int] = field(default_factory=lambda: dict.fromkeys(Verdict, 0))
    problems: list[Diagnostic] = field(default_factory=list)

    def add(self, item: Item[ProductResult] | Item[Tally]) -> None:
        if item.result is None:
            self.broken += 1
            self.problems.extend(item.problems)
            return
        counted = item.result if isinstance(item.result, Tally) else tally(item.result)
        self.products += 1
        self.product_verdicts[counted.verdict] += 1
        for verdict, count in counted.findings:
            self.finding_verdicts[verdict] += count

    @property
    def verdict(self) -> Verdict:
        present = [v for v, n in self.product_verdicts.items() if n]
        return max(present, key=lambda v: v.severity, default=Verdict.NOT_APPLICABLE)


def summarise(
    items: Iterable[Item[ProductResult]] | Iterable[Item[Tally]],
    each: Callable[[Any], None] | None = None,
) -> Summary:
    """Count `items` as they stream past (`each` sees every one first, e.g. to print it)."""
    summary = Summary()
    for item in items:
        if each is not None:
            each(item)
        summary.add(item)
    return summary


def summarise_paths(
    paths: Sequence[Path], options: Options, library: Library, *, jobs: int | None = None
) -> Summary:
    """The verdict counts of a portfolio in constant memory: workers send back only a tally of
    each product."""
    return summarise(iter_mapped(paths, options, library, tally, jobs=jobs))
