"""How `licheck timeline` grows with the number of evidence dates.

    python bench/timeline.py [--dates 100 300 1000 3000] [--write DIR]

Each manifest has one Kimi K2.5 component and N sources on N distinct days (some given as a
month), cited by the facts the display clause reads: MAU and revenue estimates that rise and
fall around the thresholds (MAU rises with every estimate, so the facts change on most days),
observations of what the interface shows, a few retracted posts and rumours.  The script
prints, for each N, the timeline's entries and its wall-clock time; the figures are for
reading, no test asserts them (tests/timeline/test_daily.py counts the work).
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
import time
from pathlib import Path
from typing import Any

import yaml

KINDS = ["observed", "official_statement", "press_report", "licensor_statement", "rumour"]


def manifest(dates: int) -> dict[str, Any]:
    """A manifest whose evidence falls on `dates` distinct days."""
    start = dt.date(2010, 1, 1)  # 3,000 days later is still in the past
    sources: dict[str, Any] = {}
    mau: list[dict[str, Any]] = []
    revenue: list[dict[str, Any]] = []
    shown: list[dict[str, Any]] = []
    for index in range(dates):
        day = start + dt.timedelta(days=index)
        key = f"s{index}"
        source: dict[str, Any] = {
            "title": f"Source {index}",
            "kind": KINDS[index % len(KINDS)],
            "date": day.isoformat(),
        }
        if index % 7 == 3:
            source["retracted_on"] = (day + dt.timedelta(days=5 + index % 11)).isoformat()
        sources[key] = source
        piece: dict[str, Any] = {"source": key}
        if index % 3 == 0:
            piece["at_least"] = str(60_000_000 + 20_000 * index)  # rising: a new fact each time
            mau.append(piece)
        elif index % 3 == 1:
            piece["value"] = f"{15 + index % 10}M USD/month"
            revenue.append(piece)
        else:
            piece["excludes"] = ["Kimi K2.5"] if index % 2 else ["Kimi"]
            shown.append(piece)
    return {
        "format": 2,
        "product": f"Timeline {dates}",
        "owner": "O",
        "sources": sources,
        "facts": {
            "commercial": {"value": True},
            "mau": {"value": "unknown", "evidence": mau},
            "monthly_revenue": {"value": "unknown", "evidence": revenue},
            "ui_attribution": {"value": "unknown", "evidence": shown},
        },
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


def write(folder: Path, dates: int) -> Path:
    path = folder / f"timeline-{dates}.yaml"
    path.write_text(yaml.safe_dump(manifest(dates), sort_keys=False), encoding="utf-8")
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dates", type=int, nargs="+", default=[100, 300, 1000, 3000])
    parser.add_argument("--write", type=Path, default=None, help="also keep the manifests here")
    args = parser.parse_args()

    from licheck.facts.evidencepolicy import POLICIES
    from licheck.library.compiled import load_library
    from licheck.loading.documents import load_manifest
    from licheck.timeline import build

    library = load_library()
    folder = args.write or Path(__import__("tempfile").mkdtemp(prefix="licheck-timeline-"))
    folder.mkdir(parents=True, exist_ok=True)
    print(f"{'dates':>6} {'entries':>8} {'seconds':>9} {'ms/date':>8}")
    for dates in args.dates:
        path = write(folder, dates)
        began = time.perf_counter()
        loaded, document = load_manifest(path, str(path))
        report = build(loaded, document, library, POLICIES["default"])
        took = time.perf_counter() - began
        print(f"{dates:>6} {len(report.entries):>8} {took:>9.2f} {1000 * took / dates:>8.2f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
