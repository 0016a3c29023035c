"""audit-cards' findings are those of `licheck import hf CARD --model-id ORG/NAME` followed by
`licheck evaluate` of the manifest it writes, card by card and finding by finding, over every
real card kept in tests/data/import (none written for the test): in this process and in worker
processes (where each card is imported, and its manifest judged from its text, never read
back), streamed and held.  In-process calls, so that the whole corpus takes seconds."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from licheck import api
from licheck.cli.auditcards import card_jobs, cards_in
from licheck.facts.evidencepolicy import policy_named
from licheck.importers import hf
from licheck.importers.cardjobs import CARD_NOT_READ, CardJob
from licheck.library.compiled import Library, load_library
from licheck.outputs import Format, RenderOptions
from licheck.portfolio import workers
from licheck.portfolio.cardruns import audit_report, audit_stream
from tests.clirun import report_json
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data" / "import"
CARDS = [*sorted((DATA / "cards").glob("*.md")), *sorted(DATA.glob("*-README.md"))]


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library()


def _hub(tmp_path: Path) -> Path:
    """Each card as the Hub lays it out (ORG/NAME/README.md), and one that cannot be read."""
    hub = tmp_path / "hub"
    for card in CARDS:
        folder = hub / "org" / card.name.removesuffix("-README.md").removesuffix(".md")
        folder.mkdir(parents=True)
        shutil.copy(card, folder / "README.md")
    (hub / "org" / "broken").mkdir()
    (hub / "org" / "broken" / "README.md").write_text("no front matter\n", encoding="utf-8")
    return hub


def _alone(job: CardJob, library: Library, folder: Path) -> list[dict[str, Any]] | None:
    """The card's findings through `import hf` then `evaluate` (None: the card is refused),
    its manifest written under `folder` with the name audit-cards gives it."""
    try:
        text = hf.to_manifest(hf.read(job.card, job.name), library, job.name, job.repo_id)
    except Exception:  # refused: audit-cards must list it as not read
        return None
    manifest = folder / job.manifest.name
    manifest.write_text(text, encoding="utf-8")
    (product,) = api.evaluate(manifest, library=library).model_dump(mode="json")["products"]
    return _located(product, folder)


def _located(product: dict[str, Any], folder: Path) -> list[dict[str, Any]]:
    """The product's findings, each manifest path relative to its folder."""
    text = json.dumps(product["findings"]).replace(str(folder) + "/", "")
    findings: list[dict[str, Any]] = report_json(text)
    return findings


def _products(report: dict[str, Any], folder: Path) -> dict[str, list[dict[str, Any]]]:
    return {Path(p["file"]).name: _located(p, folder) for p in report["products"]}


@pytest.mark.parametrize("parallel", [False, True], ids=["in-process", "workers"])
def test_audit_cards_judges_each_card_as_import_then_evaluate(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, parallel: bool
) -> None:
    if parallel:  # worker processes for a handful of cards, two to a chunk
        monkeypatch.setattr(workers, "PARALLEL_MIN", 1)
        monkeypatch.setattr(workers, "CHUNK", 2)
    hub = _hub(tmp_path)
    kept, alone = tmp_path / "kept", tmp_path / "alone"
    kept.mkdir()
    alone.mkdir()
    jobs = card_jobs(cards_in((hub,)), kept)
    expected = {job.manifest.name: _alone(job, library, alone) for job in jobs}
    refused = sorted(name for name, findings in expected.items() if findings is None)
    assert refused == ["org__broken.yaml"]  # every real card is read
    judged = {name: found for name, found in expected.items() if found is not None}
    assert all(judged.values())  # each card has findings to compare

    policy = policy_named("default")
    streamed, not_read = audit_stream(
        jobs, policy, Format.JSON, RenderOptions(), library=library, workers=2
    )
    with streamed:
        out = io.BytesIO()
        streamed.write(out)
    report = report_json(out.getvalue())
    held, held_not_read = audit_report(jobs, policy, library=library, workers=2)
    for given, unread in ((report, not_read), (held.model_dump(mode="json"), held_not_read)):
        assert _products(given, kept) == judged  # card by card, finding by finding
        assert [p["file"] for p in given["products"]] == sorted(
            p["file"] for p in given["products"]
        )  # as `check` finds the manifests in the folder
        assert unread == 1
        (error,) = given["errors"]
        assert error["file"].endswith("broken/README.md")
        assert error["message"].startswith(CARD_NOT_READ)
        assert given["cards"]["judged"] == len(judged) and given["cards"]["cards"] == len(jobs)
    assert report["cards"] == held.model_dump(mode="json")["cards"]
    # the manifests kept are the ones `import hf` writes, byte for byte
    for name in judged:
        assert (kept / name).read_bytes() == (alone / name).read_bytes()
