"""`licheck timeline`: the verdicts as of every day the evidence changed.

The Composer 2 expectations are worked out from shared/seeds/facts.md, not copied from output:
- 2026-03-19: the release post (official), the model path (community inference), the
  pretraining lead's post and the two employees' "no authorization" (licensor statements) exist.
  A licensor statement establishes the Kimi base, so there is no lineage finding; the employees'
  statement establishes that no agreement waives the display duty.  The seed article (the
  observation that the UI shows no Kimi name) and the ARR estimate are dated 2026-03-20: mau,
  revenue and the UI attribution are all unknown, so the display duty is a governance risk open on
  exactly those three.
- 2026-03-20: both staff posts are gone (retracted that day); Moonshot's official account speaks of
  an "authorized commercial partnership" whose terms are unknown, so whether an agreement waives
  the duty is open; the article observes the UI without Kimi's name (established); the ARR is a
  press estimate (likely only).  Still a governance risk, now open on agreement_waives, mau and
  monthly_revenue — the article's conclusion.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from licheck.api import evaluate
from licheck.core.verdicts import Verdict
from licheck.facts.evidencepolicy import POLICIES
from licheck.library.compiled import load_library
from licheck.loading.documents import load_manifest
from licheck.timeline import TimelineReport, build
from tests.clirun import run
from tests.conftest import PRODUCTS, ROOT
from tests.golden_files import assert_golden

DISPLAY = "composer-2/kimi-k2.5/kimi-k2.5-modified-mit/ui-attribution"
NOTICE = "composer-2/kimi-k2.5/kimi-k2.5-modified-mit/copyright-notice"
GR, NA, VIOLATION = Verdict.GOVERNANCE_RISK, Verdict.NOT_APPLICABLE, Verdict.VIOLATION


def timeline_of(path: Path) -> TimelineReport:
    manifest, document = load_manifest(path, str(path))
    return build(manifest, document, load_library(), POLICIES["default"])


def write_manifest(tmp_path: Path, data: dict[str, Any]) -> Path:
    path = tmp_path / "product.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def kimi_product(facts: dict[str, Any]) -> dict[str, Any]:
    return {
        "format": 2,
        "product": "P",
        "owner": "O",
        "facts": facts,
        "agreements": [],
        "components": [
            {
                "id": "c",
                "name": "C",
                "delivery": ["hosted_service"],
                "lineage": {"base": "kimi-k2.5"},
            }
        ],
    }


@pytest.fixture(scope="module")
def composer2() -> TimelineReport:
    return timeline_of(PRODUCTS / "composer2.yaml")


def test_composer2_days_are_the_release_and_the_article(composer2: TimelineReport) -> None:
    assert [e.date for e in composer2.entries] == ["2026-03-19", "2026-03-20"]
    # every other statement is sourced and dated; the list of agreements is declared complete
    assert [(u.what, u.where) for u in composer2.undated] == [
        ("every agreement is listed", "agreements")
    ]


def test_composer2_on_2026_03_19(composer2: TimelineReport) -> None:
    entry = composer2.entries[0]
    assert entry.verdict is GR and entry.previous is None
    states = {c.finding: c for c in entry.changes}
    assert set(states) == {DISPLAY, NOTICE}  # no lineage finding: a licensor statement names Kimi
    assert states[DISPLAY].verdict is GR
    assert states[DISPLAY].open_facts == ["mau", "monthly_revenue", "ui_attribution"]
    assert states[NOTICE].verdict is NA  # hosted, not distributed
    assert {e.kind for e in entry.events} == {"dated"}


def test_composer2_on_2026_03_20(composer2: TimelineReport) -> None:
    entry = composer2.entries[1]
    assert (entry.verdict, entry.previous) == (GR, GR)
    retracted = {e.what for e in entry.events if e.kind == "retracted"}
    assert len(retracted) == 2 and all("Moonshot" in what for what in retracted)
    (change,) = entry.changes  # the notice duty did not change: only the display duty is shown
    assert change.finding == DISPLAY
    assert (change.verdict, change.previous) == (GR, GR)
    assert change.open_facts == ["agreement_waives", "mau", "monthly_revenue"]
    assert change.previous_open_facts == ["mau", "monthly_revenue", "ui_attribution"]


def test_each_day_is_what_evaluate_as_of_that_day_says(composer2: TimelineReport) -> None:
    for entry in composer2.entries:
        day = dt.date.fromisoformat(entry.date)
        report = evaluate(PRODUCTS / "composer2.yaml", as_of=day)
        assert report.products[0].verdict is entry.verdict


def test_a_retraction_alone_turns_a_violation_into_a_risk(tmp_path: Path) -> None:
    audit = {"source": "audit", "kind": "observed", "date": "2026-01-10"}
    facts = {
        "commercial": True,
        "ui_attribution": {"excludes": ["Kimi K2.5"]},
        "monthly_revenue": {"at_most": "1M USD/month"},
        "mau": {"value": "150M", "evidence": [{**audit, "retracted_on": "2026-02-01"}]},
    }
    report = timeline_of(write_manifest(tmp_path, kimi_product(facts)))
    assert [(e.date, e.verdict, e.previous) for e in report.entries] == [
        ("2026-01-10", VIOLATION, None),
        ("2026-02-01", GR, VIOLATION),
    ]
    (change,) = [c for c in report.entries[1].changes if c.finding.endswith("ui-attribution")]
    assert "mau" in change.open_facts and change.previous_open_facts == []
    # the facts stated without evidence count from the start, and are listed
    assert {u.where for u in report.undated} == {
        "facts.commercial",
        "facts.ui_attribution",
        "facts.monthly_revenue",
        "components.0.lineage.base",
        "agreements",
    }


def test_a_month_counts_as_likely_from_its_first_day_and_in_full_from_its_last(
    tmp_path: Path,
) -> None:
    facts = {
        "mau": {
            "value": "150M",
            "evidence": [{"source": "s", "kind": "observed", "date": "2026-02"}],
        }
    }
    report = timeline_of(write_manifest(tmp_path, kimi_product(facts)))
    assert [e.date for e in report.entries] == ["2026-02-01", "2026-02-28"]
    assert [[ev.partly for ev in e.events] for e in report.entries] == [[True], [False]]


def test_a_license_text_coming_into_force_is_a_day(tmp_path: Path) -> None:
    data = kimi_product(
        {
            "commercial": {
                "value": True,
                "evidence": [{"source": "s", "kind": "observed", "date": "2025-10-30"}],
            }
        }
    )
    data["components"][0]["lineage"] = {"base": "minimax-m2"}
    report = timeline_of(write_manifest(tmp_path, data))
    days = {e.date: e for e in report.entries}
    # the first text now starts on the release date, 2025-10-27 (audit 2026-12-s3 B m-4)
    assert list(days) == ["2025-10-27", "2025-10-30", "2025-11-13"]
    (event,) = days["2025-11-13"].events
    assert event.kind == "license" and "minimax-m2-modified-mit" in event.what


def test_the_weights_dated_leave_the_license_history_off(tmp_path: Path) -> None:
    data = kimi_product({"commercial": True})
    data["components"][0]["lineage"] = {"base": {"model": "minimax-m2", "obtained": "2025-10-30"}}
    report = timeline_of(write_manifest(tmp_path, data))
    assert report.entries == []  # nothing dated: the verdict never changed
    # obtained before 2025-11-13: the plain MIT text, whose notice duty a hosted service does
    # not trigger
    assert report.verdict is NA


@pytest.fixture
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.mark.usefixtures("_in_root")
def test_cli_text_golden(capsys: pytest.CaptureFixture[str], update_golden: bool) -> None:
    code, out, err = run(capsys, "timeline", "products/composer2.yaml")
    assert code == 0, err
    assert "2026-03-19" in out and "2026-03-20" in out and "retracted" in out
    assert_golden("composer2.timeline.txt", out, update_golden)


@pytest.mark.usefixtures("_in_root")
def test_cli_json_follows_the_published_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "timeline", "products/composer2.yaml", "--format", "json")
    assert code == 0, err
    code, schema, _ = run(capsys, "schema", "timeline")
    assert code == 0
    data = json.loads(out)
    jsonschema.validate(data, json.loads(schema))
    assert [e["date"] for e in data["entries"]] == ["2026-03-19", "2026-03-20"]


def test_cli_output_file_and_never_an_input(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = tmp_path / "m.yaml"
    manifest.write_bytes((PRODUCTS / "composer2.yaml").read_bytes())
    out_file = tmp_path / "t.json"
    code, _, err = run(capsys, "timeline", str(manifest), "-f", "json", "-o", str(out_file))
    assert code == 0, err
    assert json.loads(out_file.read_text(encoding="utf-8"))["product"] == "Composer 2"
    before = manifest.read_bytes()
    code, _, err = run(capsys, "timeline", str(manifest), "-o", str(manifest))
    assert code == 2 and manifest.read_bytes() == before


def test_cli_bad_input_is_located(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    bad = write_manifest(tmp_path, {**kimi_product({"mau": "lots"})})
    code, _, err = run(capsys, "timeline", str(bad))
    assert code == 2 and "Traceback" not in err
    assert f"{bad}:" in err
    code, _, err = run(capsys, "timeline", str(tmp_path / "missing.yaml"))
    assert code == 2 and "Traceback" not in err
    code, _, err = run(capsys, "timeline", str(bad), "--evidence", "gossip")
    assert code == 2 and "evidence policy" in err


def test_titles_cannot_drive_the_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    facts = {
        "mau": {
            "value": "150M",
            "evidence": [
                {"source": "x\x1b[31m[bold]red", "kind": "observed", "date": "2026-01-10"}
            ],
        }
    }
    path = write_manifest(tmp_path, kimi_product(facts))
    code, out, err = run(capsys, "timeline", str(path))
    assert code == 0, err
    assert "\x1b" not in out and "x\\e[31m[bold]red" in out


def test_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "timeline", "--help")
    assert code == 0 and "Example:" in out and "licheck timeline products/composer2.yaml" in out


def _states_as_of(path: Path, day: dt.date, policy: str) -> dict[str, tuple[Verdict, list[str]]]:
    """Each finding's verdict and open facts as `evaluate --as-of DAY` gives them."""
    report = evaluate(path, evidence=policy, as_of=day)
    return {
        f"{f.component}/{f.model}/{f.license}/{f.clause}": (
            f.verdict,
            sorted({m.fact for m in f.missing_facts}),
        )
        for f in report.products[0].findings
    }


def _assert_each_day_matches_evaluate(path: Path, policy: str = "default") -> None:
    """Every finding on every day of the timeline, carried over the days it did not change, is
    what `evaluate --as-of` that day says: verdict and open facts."""
    manifest, document = load_manifest(path, str(path))
    report = build(manifest, document, load_library(), POLICIES[policy])
    assert report.entries
    states: dict[str, tuple[Verdict | None, list[str]]] = {}
    for entry in report.entries:
        for change in entry.changes:
            states[change.finding] = (change.verdict, change.open_facts)
        day = dt.date.fromisoformat(entry.date)
        assert {k: v for k, v in states.items() if v[0] is not None} == _states_as_of(
            path, day, policy
        )


@pytest.mark.parametrize("policy", ["default", "strict", "estimates"])
def test_composer2_each_finding_each_day_is_evaluate_as_of(policy: str) -> None:
    _assert_each_day_matches_evaluate(PRODUCTS / "composer2.yaml", policy)


def test_month_year_and_same_day_dates_match_evaluate(tmp_path: Path) -> None:
    sources = {
        "year": {"title": "Year only", "kind": "observed", "date": "2025"},
        "month": {"title": "A month", "kind": "observed", "date": "2026-01"},
        "gone": {"title": "Gone", "kind": "observed", "date": "2026-03-19",
                 "retracted_on": "2026-03"},
        "same": {"title": "Same day", "kind": "observed", "date": "2026-04-01",
                 "retracted_on": "2026-04-01"},
    }  # fmt: skip
    facts = {
        "commercial": {"value": True, "evidence": [{"source": "year"}]},
        "mau": {"value": "200M", "evidence": [{"source": "gone"}, {"source": "same"}]},
        "ui_attribution": {"excludes": ["Kimi K2.5"], "evidence": [{"source": "month"}]},
    }
    data = {**kimi_product(facts), "sources": sources}
    path = write_manifest(tmp_path, data)
    _assert_each_day_matches_evaluate(path)
    report = timeline_of(path)
    # a retraction known only by month is not on the timeline before the source exists
    retracted = [e.date for e in report.entries for ev in e.events if ev.kind == "retracted"]
    assert retracted == ["2026-03-19", "2026-03-31", "2026-04-01"]
