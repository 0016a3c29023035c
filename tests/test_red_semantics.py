"""Red-team pass over the semantics: places where a verdict (a timeline day, a what-if cell) was
firmer than some completion of the unknown facts or some reading of the evidence allows."""

from __future__ import annotations

from pathlib import Path

import yaml

from licheck.facts import POLICIES
from licheck.layers import load
from licheck.library import Library
from licheck.librarysource import LibrarySource
from licheck.loading import load_manifest
from licheck.timeline import build
from tests.test_timeline import kimi_product, write_manifest

# A model whose first text ended on 2024-03-31 and whose next began only on 2024-06-01: a copy
# obtained in April or May is under a text nobody knows.
GAPPED_CATALOG = {
    "models": [
        {
            "id": "acme-coder-7b",
            "name": "Acme Coder 7B",
            "family": "acme",
            "licensor": "acme",
            "license": "apache-2.0",
            "license_history": [
                {"license": "mit", "from": "2024-01-01", "until": "2024-03-31"},
                {"license": "apache-2.0", "from": "2024-06-01"},
            ],
            "release_date": "2024-01-01",
            "source": "a test model",
        }
    ]
}


def _gapped_library(tmp_path: Path) -> Library:
    layer = tmp_path / "layer"
    layer.mkdir()
    (layer / "catalog.yaml").write_text(yaml.safe_dump(GAPPED_CATALOG), encoding="utf-8")
    return load(LibrarySource(folders=(layer,)))


def test_timeline_has_the_day_a_license_history_stops_covering_copies(tmp_path: Path) -> None:
    """The day after a text's `until` with no next text yet: from then `evaluate --as-of` adds
    license-unknown (a governance risk), so the timeline must show that day, not carry the
    first text's clean verdict over it."""
    library = _gapped_library(tmp_path)
    data = kimi_product({"commercial": True})
    data["components"][0]["lineage"] = {"base": "acme-coder-7b"}
    path = write_manifest(tmp_path, data)
    manifest, document = load_manifest(path, str(path))
    report = build(manifest, document, library, POLICIES["default"])
    days = {entry.date: entry for entry in report.entries}
    assert "2024-04-01" in days
    unknown = [c for c in days["2024-04-01"].changes if "/unknown/" in c.finding]
    assert [c.verdict for c in unknown] == ["governance_risk"]
    assert [e.what for e in days["2024-04-01"].events] == ["unknown for Acme Coder 7B"]
