"""The timeline kept up to date from day to day (`licheck.timeline.daily`) says what evaluating
the manifest afresh as of every day says, and its work grows with the evidence, not its square.

The oracle is the plain definition: on each day of the timeline, `evaluate_manifest` with
`--as-of` that day and a fresh memo; the product's verdict and every finding's verdict and open
facts must be the ones the timeline's entries add up to.  The work is counted (`Work`), never
timed: `bench/timeline.py` prints the figures.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from licheck.core.diagnostics import InputError
from licheck.core.verdicts import Verdict
from licheck.evaluation.evaluate import EvaluationContext, Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.library.compiled import Library, load_library
from licheck.loading.documents import load_manifest
from licheck.timeline import TimelineReport, build
from licheck.timeline.daily import Work
from tests.conftest import ROOT

LIBRARY = load_library()


def _bench_manifest() -> Callable[[int], dict[str, Any]]:
    """`bench/timeline.py`'s manifest of N evidence dates (the benchmark times it)."""
    spec = importlib.util.spec_from_file_location("bench_timeline", ROOT / "bench" / "timeline.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made: Callable[[int], dict[str, Any]] = module.manifest
    return made


bench_manifest = _bench_manifest()
State = dict[str, tuple[Verdict | None, tuple[str, ...], str]]


def write(tmp_path: Path, data: dict[str, Any], name: str = "p.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def replayed(report: TimelineReport) -> list[tuple[str, Verdict, State]]:
    """Each entry's day, verdict and findings, the changes added up."""
    findings: State = {}
    days = []
    for entry in report.entries:
        for change in entry.changes:
            if change.verdict is None:
                findings.pop(change.finding, None)
            else:
                findings[change.finding] = (
                    change.verdict,
                    tuple(change.open_facts),
                    change.title,
                )
        days.append((entry.date, entry.verdict, dict(findings)))
    return days


def afresh(path: Path, days: list[str], policy: str, library: Library) -> list[Any]:
    manifest, document = load_manifest(path, str(path))
    found = []
    for day in days:
        options = Options(POLICIES[policy], as_of=dt.date.fromisoformat(day))
        result = evaluate_manifest(manifest, document, library, options, EvaluationContext())
        state = {
            "/".join(f.key): (
                f.verdict,
                tuple(sorted({m.fact.name for m in f.missing_facts})),
                f.title,
            )
            for f in result.findings
        }
        found.append((day, result.verdict, state))
    return found


def assert_as_afresh(path: Path, policy: str = "default") -> Work:
    manifest, document = load_manifest(path, str(path))
    work = Work()
    report = build(manifest, document, LIBRARY, POLICIES[policy], work)
    days = replayed(report)
    assert days == afresh(path, [d for d, _, _ in days], policy, LIBRARY)
    return work


# -- manifests of many shapes: every place evidence may sit, every kind of date -------------

DAY0 = dt.date(2023, 1, 1)
KINDS = ["observed", "official_statement", "licensor_statement", "press_report", "rumour"]


@st.composite
def dates(draw: st.DrawFn) -> str:
    day = DAY0 + dt.timedelta(days=draw(st.integers(0, 700)))
    precision = draw(st.sampled_from(["day", "day", "day", "month", "year"]))
    if precision == "month":
        return f"{day.year:04d}-{day.month:02d}"
    return str(day.year) if precision == "year" else day.isoformat()


@st.composite
def pieces(draw: st.DrawFn, claims: st.SearchStrategy[dict[str, Any]]) -> dict[str, Any]:
    piece: dict[str, Any] = {
        "source": f"s{draw(st.integers(0, 10**6))}",
        "kind": draw(st.sampled_from(KINDS)),
        "date": draw(dates()),
    }
    if draw(st.booleans()) and draw(st.booleans()):
        start = dt.date.fromisoformat(_first(piece["date"]))
        later = start + dt.timedelta(days=draw(st.integers(400, 800)))
        piece["retracted_on"] = later.isoformat()
    piece.update(draw(claims))
    return piece


def _first(date: str) -> str:
    return {4: f"{date}-12-31", 7: f"{date}-28"}.get(len(date), date)


MAU: st.SearchStrategy[dict[str, Any]] = st.one_of(
    st.builds(lambda n: {"at_least": f"{n}M"}, st.integers(50, 150)),
    st.builds(lambda n: {"at_most": f"{n}M"}, st.integers(50, 150)),
    st.builds(lambda n: {"value": f"{n}M"}, st.integers(50, 150)),
    st.just({}),
)
REVENUE: st.SearchStrategy[dict[str, Any]] = st.one_of(
    st.builds(lambda n: {"value": f"{n}M USD/month"}, st.integers(10, 30)),
    st.builds(lambda n: {"value": f"{12 * n}M USD/year"}, st.integers(10, 30)),
    st.builds(lambda n: {"at_least": f"{n}M USD/month"}, st.integers(10, 30)),
)
SHOWN: st.SearchStrategy[dict[str, Any]] = st.one_of(
    st.builds(lambda x: {"excludes": [x]}, st.sampled_from(["Kimi K2.5", "Kimi"])),
    st.builds(lambda x: {"includes": [x]}, st.sampled_from(["Kimi K2.5", "Kimi"])),
)


def fact(evidence: list[dict[str, Any]], value: Any = "unknown") -> dict[str, Any]:
    return {"value": value, "evidence": evidence} if evidence else {"value": value}


@st.composite
def manifests(draw: st.DrawFn) -> dict[str, Any]:
    facts: dict[str, Any] = {
        "commercial": fact(draw(st.lists(pieces(st.just({})), max_size=2)), True),
        "mau": fact(draw(st.lists(pieces(MAU), max_size=6))),
        "monthly_revenue": fact(draw(st.lists(pieces(REVENUE), max_size=5))),
        "ui_attribution": fact(draw(st.lists(pieces(SHOWN), max_size=4))),
    }
    lineage: dict[str, Any] = {"base": "kimi-k2.5"}
    base_evidence = draw(st.lists(pieces(st.just({})), max_size=2))
    if base_evidence:
        lineage = {"base": {"model": "kimi-k2.5", "evidence": base_evidence}}
    components = [
        {"id": "kimi", "name": "K", "delivery": ["hosted_service"], "lineage": lineage},
    ]
    if draw(st.booleans()):  # a Llama component: a series by month, its own facts
        months = {}
        for month in draw(st.sets(st.integers(1, 12), max_size=3)):
            months[f"2024-{month:02d}"] = {
                "value": f"{draw(st.sampled_from([600, 700, 800]))}M",
                "evidence": draw(st.lists(pieces(st.just({})), max_size=2)),
            }
        llama: dict[str, Any] = {
            "id": "llama",
            "name": "L",
            "delivery": ["weights"],
            "lineage": {"base": "llama-3.1-8b"},
            "facts": {"licensee_mau": {"series": months}} if months else {},
        }
        components.append(llama)
    data: dict[str, Any] = {
        "format": 2,
        "product": "P",
        "owner": "O",
        "release_date": "2024-09-01",
        "facts": facts,
        "components": components,
    }
    agreement = draw(st.sampled_from(["none", "empty", "evidenced"]))
    if agreement == "empty":
        data["agreements"] = []
    elif agreement == "evidenced":
        evidence = draw(st.lists(pieces(st.sampled_from([{}, {"value": False}])), max_size=3))
        data["agreements"] = [{"licensor": "moonshot-ai", "evidence": evidence}]
    return data


@pytest.mark.slow
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=manifests(), policy=st.sampled_from(["default", "estimates", "strict"]))
def test_the_timeline_says_what_evaluating_each_day_afresh_says(
    tmp_path: Path, data: dict[str, Any], policy: str
) -> None:
    path = write(tmp_path, data)
    try:
        manifest, document = load_manifest(path, str(path))
        evaluate_manifest(manifest, document, LIBRARY, Options(POLICIES[policy]))
    except InputError:
        return  # a manifest the generator got wrong: `evaluate` refuses it, so does timeline
    assert_as_afresh(path, policy)


def test_the_benchmark_manifest_as_afresh(tmp_path: Path) -> None:
    assert_as_afresh(write(tmp_path, bench_manifest(40)))


def test_composer2_as_afresh() -> None:
    assert_as_afresh(Path(__file__).parents[2] / "products" / "composer2.yaml")


# -- the work -----------------------------------------------------------------------------


def work_for(tmp_path: Path, dates: int) -> Work:
    path = write(tmp_path, bench_manifest(dates), f"t{dates}.yaml")
    manifest, document = load_manifest(path, str(path))
    work = Work()
    build(manifest, document, LIBRARY, POLICIES["default"], work)
    return work


@pytest.mark.slow
def test_the_work_grows_with_the_evidence_not_its_square(tmp_path: Path) -> None:
    small, large = work_for(tmp_path, 100), work_for(tmp_path, 400)
    # each piece's standing is worked out when its fact is read and on the few days it may
    # change (at most four: a date and a retraction, each a first and a last day)
    assert large.standings <= 5 * 400
    # each fact is read whole once, whatever the number of days
    assert large.facts_read == small.facts_read
    # at most one evaluation a day, each reading no evidence afresh
    assert large.evaluations <= 400 + 2
    # a change of standing costs a path up a fact's tree: a logarithm of its pieces
    assert large.meets <= 2 * large.standings * math.log2(400)
    # where evaluating afresh each day works out every standing every day: 400 * 400


def test_a_day_on_which_nothing_changed_is_not_evaluated_again(tmp_path: Path) -> None:
    data = bench_manifest(60)
    # every estimate the same: after the first of each kind, the facts stay as they were
    for name, claim in (
        ("mau", {"at_least": "120M"}),
        ("monthly_revenue", {"value": "25M USD/month"}),
    ):
        for piece in data["facts"][name]["evidence"]:
            piece.pop("at_least", None)
            piece.update(claim)
    for source in data["sources"].values():
        source.pop("retracted_on", None)
    path = write(tmp_path, data)
    work = assert_as_afresh(path)
    assert work.evaluations < 10
