"""`licheck audit-cards`: a folder of real model cards imported and judged in one run, the same
verdicts as `import hf` then `check` card by card; a card that cannot be read is listed with
its reason and never stops the run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.clirun import run
from tests.conftest import ROOT

CARDS = ROOT / "tests" / "data" / "import" / "cards"


def _hub(tmp_path: Path, names: list[str]) -> Path:
    """ORG/NAME/README.md for each card, as `huggingface-cli download` lays them out."""
    hub = tmp_path / "hub"
    for name in names:
        folder = hub / "org" / name
        folder.mkdir(parents=True)
        shutil.copy(CARDS / f"{name}.md", folder / "README.md")
    return hub


NAMES = sorted(p.stem for p in CARDS.glob("*.md"))[:8]


def test_every_card_is_judged_as_import_then_check_judges_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    hub = _hub(tmp_path, NAMES)
    kept = tmp_path / "manifests"
    summary = tmp_path / "summary.json"
    code, out, err = run(
        capsys, "audit-cards", str(hub), "-f", "json", "--manifests", str(kept),
        "--summary", str(summary),
    )  # fmt: skip
    assert code in (0, 1), err
    audited = {p["product"]: p["verdict"] for p in json.loads(out)["products"]}
    assert len(audited) == len(NAMES)
    # the same, card by card, through the commands a user would run
    alone = {}
    for name in NAMES:
        manifest = tmp_path / f"{name}.yaml"
        card = hub / "org" / name / "README.md"
        assert (
            run(
                capsys, "import", "hf", str(card), "--model-id", f"org/{name}", "-o", str(manifest)
            )[0]
            == 0
        )
        _, one, _ = run(capsys, "check", str(manifest), "-f", "json")
        (product,) = json.loads(one)["products"]
        alone[product["product"]] = product["verdict"]
    assert audited == alone
    data = json.loads(summary.read_text())
    assert data["judged"] == len(NAMES) and data["not_read"] == []
    assert sum(row["cards"] for row in data["by_verdict"]) == len(NAMES)
    assert data == json.loads(out)["cards"]  # the report's own summary, written alone
    assert sorted(p.name for p in kept.iterdir()) == sorted(f"org__{n}.yaml" for n in NAMES)
    assert "audit-cards: 8 cards, 8 judged, 0 not read" in " ".join(err.split())


def test_a_card_that_cannot_be_read_is_listed_and_the_rest_judged(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    hub = _hub(tmp_path, NAMES[:2])
    broken = hub / "org" / "broken"
    broken.mkdir()
    (broken / "README.md").write_text("# no front matter at all\n", encoding="utf-8")
    code, out, err = run(capsys, "audit-cards", str(hub), "-f", "json")
    assert code == 2  # what was not read cannot pass
    assert len(json.loads(out)["products"]) == 2
    said = " ".join(err.split())  # stderr wraps at the width: read it as words
    assert f"{broken / 'README.md'}:1:1: error: card not read" in said
    assert "3 cards, 2 judged, 1 not read" in said


def test_no_card_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    code, _, err = run(capsys, "audit-cards", str(tmp_path))
    assert code == 2 and "no model cards" in err


def test_the_summary_file_never_overwrites_a_card(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    hub = _hub(tmp_path, NAMES[:1])
    card = hub / "org" / NAMES[0] / "README.md"
    before = card.read_bytes()
    code, _, err = run(capsys, "audit-cards", str(hub), "--summary", str(card))
    assert code == 2 and "--summary" in err
    assert card.read_bytes() == before
