"""A manifest licheck writes earns no warning from licheck: `import hf` and `import cyclonedx`
state `format: 2` first, and a skeleton means under format 2 what it says: no reading that
changed from format 1 (docs/manifests.md, "Manifest format 2: what changed") falls on anything
a skeleton states but `unknown`, so the format line changes no verdict, only the lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from licheck.files import yamlsafe
from licheck.importers import cyclonedx, hf
from licheck.inputs.manifest import FORMAT
from licheck.library.compiled import Library, load_library
from licheck.loading import migration
from licheck.loading.documents import parse_manifest
from tests.clirun import run
from tests.conftest import REFERENCE, ROOT

DATA = ROOT / "tests" / "data" / "import"
CARDS = [*sorted((DATA / "cards").glob("*.md")), *sorted(DATA.glob("*-README.md"))]
EXAMPLES = REFERENCE / "schemas" / "examples"
BOMS = [DATA / "bom-kimi-1.6.json", *sorted(EXAMPLES.glob("cyclonedx-valid-machine-learning-*"))]


@pytest.fixture(scope="module")
def library() -> Library:
    return load_library()


def _skeletons(library: Library) -> list[tuple[str, str]]:
    made = [
        (
            card.name,
            hf.to_manifest(hf.read(card, card.name), library, card.name, f"org/{card.stem}"),
        )
        for card in CARDS
    ]
    made += [
        (bom.name, cyclonedx.to_manifest(cyclonedx.read(bom, bom.name), library)) for bom in BOMS
    ]
    return made


def test_every_skeleton_states_format_2_first(library: Library) -> None:
    skeletons = _skeletons(library)
    assert len(skeletons) > 25
    for name, text in skeletons:
        data = yamlsafe.parse(text, name).data
        assert next(iter(data)) == "format" and data["format"] == FORMAT, name
        assert not migration.may_lack_format(text), name


def _stated_at(document: yamlsafe.Document, line: int) -> list[Any]:
    """The values written at `line` (a mapping under a key: the key's line)."""
    found = []
    for path, (at, _) in document.positions.items():
        if at == line and path:
            value: Any = document.data
            for key in path:
                value = value[key]
            found.append(value)
    return found


def _unknown(value: Any) -> bool:
    return value == "unknown" or (isinstance(value, dict) and value.get("value") == "unknown")


def _from_a_bom(value: Any) -> bool:
    evidence = value.get("evidence", []) if isinstance(value, dict) else []
    return bool(evidence) and all(e["source"].startswith("CycloneDX") for e in evidence)


def test_no_reading_that_changed_falls_on_what_a_skeleton_states(library: Library) -> None:
    """Read without its format line (as format 1 manifests were), a skeleton's constructs whose
    reading changed are each left `unknown`; but the owner, which a BOM names (its
    manufacturer or supplier) by name only: format 2 reads a name-only owner as exactly that,
    no licensor (a licensor's own product needs its id, which no source gives the importer);
    and a fact a BOM states itself by a `licheck:fact:NAME` property, written in this
    licheck's fact vocabulary (docs/import.md), which format 2 reads as it is meant."""
    seen = set()
    for name, text in _skeletons(library):
        bare = text.replace(f"format: {FORMAT}\n", "", 1)
        assert migration.may_lack_format(bare)
        manifest, document = parse_manifest(bare, name)
        for change in migration.changes(manifest, document):
            seen.add(change.topic)
            stated = _stated_at(document, change.line)
            if change.topic == "owners":
                assert isinstance(document.data["owner"], str), (name, change)
                continue
            by_bom = name.endswith(".json") and all(_from_a_bom(v) for v in stated)
            assert stated and (by_bom or all(_unknown(v) for v in stated)), (name, change)
    assert seen  # the test reads some: owners, near-matches, restricted uses


def test_check_and_evaluate_do_not_warn_about_an_imported_manifest(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    card = DATA / "kimi-finetune-README.md"
    manifest = tmp_path / "m.yaml"
    assert (
        run(capsys, "import", "hf", str(card), "--model-id", "acme/x", "-o", str(manifest))[0] == 0
    )
    bom = tmp_path / "bom.yaml"
    assert run(capsys, "import", "cyclonedx", str(BOMS[0]), "-o", str(bom))[0] == 0
    for command in ("check", "evaluate"):
        code, _, err = run(capsys, command, str(manifest), str(bom), "-f", "json")
        assert code in (0, 1), err
        assert "no `format:`" not in err and "warning" not in err, err
    # the same manifest without its format line is warned about, as any other
    manifest.write_text(manifest.read_text().replace(f"format: {FORMAT}\n", ""))
    _, _, err = run(capsys, "check", str(manifest), "-f", "json")
    assert "no `format:`" in err
