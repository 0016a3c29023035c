"""The portfolio path: ordered, the same results in parallel, broken files reported in place, and
the clause-judgement caches change nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from licheck.core.context import EvaluationContext
from licheck.core.verdicts import Verdict
from licheck.evaluation.evaluate import Options, ProductResult
from licheck.evaluation.judging import JUDGED
from licheck.facts.evidencepolicy import POLICIES
from licheck.library.compiled import load_library
from licheck.portfolio import workers as portfolio
from licheck.portfolio.runs import evaluate_paths
from tests.conftest import PRODUCTS

OPTIONS = Options(POLICIES["default"])
MANIFESTS = sorted(PRODUCTS.glob("*.yaml"))


def _shape(result: ProductResult | None) -> object:
    assert result is not None
    return (
        result.product,
        result.verdict,
        [
            (f.key, f.verdict, f.likely_verdict, [m.fact.name for m in f.missing_facts], f.location)
            for f in result.findings
        ],
    )


@pytest.fixture
def forced_parallel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers even for a handful of files, one path per task, so order is really tested."""
    monkeypatch.setattr(portfolio, "PARALLEL_MIN", 1)
    monkeypatch.setattr(portfolio, "CHUNK", 1)
    monkeypatch.setattr(portfolio, "IN_FLIGHT_PER_JOB", 1)


def test_serial_matches_evaluate_paths() -> None:
    expected = evaluate_paths(MANIFESTS, OPTIONS, load_library())
    items = list(portfolio.iter_results(MANIFESTS, OPTIONS, load_library(), jobs=1))
    assert [i.path for i in items] == MANIFESTS
    assert [_shape(i.result) for i in items] == [_shape(r) for r in expected]


@pytest.mark.usefixtures("forced_parallel")
def test_parallel_matches_serial_in_order() -> None:
    paths = MANIFESTS * 3
    library = load_library()
    serial = [_shape(i.result) for i in portfolio.iter_results(paths, OPTIONS, library, jobs=1)]
    items = list(portfolio.iter_results(paths, OPTIONS, load_library(), jobs=2))
    assert [i.path for i in items] == paths
    assert [_shape(i.result) for i in items] == serial


@pytest.mark.usefixtures("forced_parallel")
def test_without_fork_workers_load_the_library(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the platform cannot fork (macOS, Windows), spawned workers load the library."""
    # the module `licheck.portfolio.workers` imports when it starts workers
    monkeypatch.setattr("multiprocessing.get_all_start_methods", lambda: ["spawn"])
    library = load_library()
    serial = [_shape(i.result) for i in portfolio.iter_results(MANIFESTS, OPTIONS, library, jobs=1)]
    items = list(portfolio.iter_results(MANIFESTS, OPTIONS, library, jobs=2))
    assert [_shape(i.result) for i in items] == serial


@pytest.mark.usefixtures("forced_parallel")
def test_broken_manifest_is_an_item_with_its_problems(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("product: x\nowner: y\ncomponents: []\nproduct: again\n", encoding="utf-8")
    paths = [MANIFESTS[0], broken, MANIFESTS[1]]
    items = list(portfolio.iter_results(paths, OPTIONS, load_library(), jobs=2))
    assert [i.path for i in items] == paths
    assert items[0].result is not None and items[2].result is not None
    assert items[1].result is None
    assert items[1].problems and items[1].problems[0].line == 4
    assert "duplicate key" in items[1].problems[0].message


def test_summarise_counts_without_keeping_products(tmp_path: Path) -> None:
    seen: list[Path] = []
    items = portfolio.iter_results(MANIFESTS, OPTIONS, load_library(), jobs=1)
    summary = portfolio.summarise(items, each=lambda item: seen.append(item.path))
    results = evaluate_paths(MANIFESTS, OPTIONS, load_library())
    assert seen == MANIFESTS
    assert summary.products == len(MANIFESTS) and summary.broken == 0
    assert sum(summary.product_verdicts.values()) == len(MANIFESTS)
    assert summary.finding_verdicts[Verdict.GOVERNANCE_RISK] == sum(
        f.verdict is Verdict.GOVERNANCE_RISK for r in results for f in r.findings
    )
    worst = max((r.verdict for r in results), key=lambda v: v.severity)
    assert summary.verdict is worst


def test_caches_change_nothing() -> None:
    """Cold caches, warm caches and caches emptied mid-way give identical findings."""
    library = load_library()
    context = EvaluationContext()
    cold = evaluate_paths(MANIFESTS, OPTIONS, library, context)
    assert context.table(JUDGED), "the judgement cache was not used"
    warm = evaluate_paths(MANIFESTS, OPTIONS, library, context)
    context.table(JUDGED).clear()
    again = evaluate_paths(MANIFESTS, OPTIONS, library, context)
    assert cold == warm == again


def test_cache_is_bounded() -> None:
    context = EvaluationContext(limit=2)
    evaluate_paths(MANIFESTS, OPTIONS, load_library(), context)
    assert len(context.table(JUDGED)) <= 2


@pytest.mark.usefixtures("forced_parallel")
def test_summarise_paths_in_workers_counts_the_same() -> None:
    library = load_library()
    direct = portfolio.summarise(portfolio.iter_results(MANIFESTS * 2, OPTIONS, library, jobs=1))
    tallied = portfolio.summarise_paths(MANIFESTS * 2, OPTIONS, library, jobs=2)
    assert tallied.products == direct.products == 2 * len(MANIFESTS)
    assert tallied.product_verdicts == direct.product_verdicts
    assert tallied.finding_verdicts == direct.finding_verdicts
    assert tallied.verdict is direct.verdict


def test_json_encoder_writes_what_json_dumps_wrote(tmp_path: Path) -> None:
    """report.to_json is byte for byte json.dumps(indent=2, ensure_ascii=False) of the dump
    with its digest last, including empty lists, non-ASCII text and a report without products."""
    import json

    from licheck.report.building import build
    from licheck.report.digest import product_digest, report_digest
    from licheck.report.view import assemble, to_json

    library = load_library()
    results = evaluate_paths(MANIFESTS, OPTIONS, library)
    for report in (build(results, "default", None), assemble([], "strict", None)):
        data = report.model_dump(mode="json")
        data["digest"] = report_digest(data, (product_digest(p) for p in data["products"]))
        expected = json.dumps(data, indent=2, ensure_ascii=False)
        assert to_json(report) == expected + "\n"
    assert "≤" in to_json(build(results, "default", None))  # non-ASCII kept as is
