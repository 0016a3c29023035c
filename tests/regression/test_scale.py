"""Work that stays linear at scale: many models of the same name, and a 40000-model BOM imported
end to end."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from licheck.importers.skeleton import unique


def test_many_same_named_models_are_linear() -> None:
    taken: dict[str, int] = {}
    names = [unique("model", taken) for _ in range(40_000)]
    assert len(set(names)) == 40_000
    assert names[:3] == ["model", "model-2", "model-3"]
    assert unique("model-2", taken) == "model-2-2"


ROOT = Path(__file__).resolve().parents[2]


IMPORT = ROOT / "tests" / "data" / "import"


@pytest.mark.slow
def test_a_40000_model_bom_imports_end_to_end(tmp_path: Path) -> None:
    """Every component becomes one, same-named models included; a hang guard, no timing."""

    base = json.loads((IMPORT / "bom-kimi-1.6.json").read_text(encoding="utf-8"))
    base["components"] = [
        {"type": "machine-learning-model", "name": "model", "group": "acme"} for _ in range(40_000)
    ]
    bom = tmp_path / "bom.json"
    bom.write_text(json.dumps(base, separators=(",", ":")), encoding="utf-8")
    out = tmp_path / "m.yaml"
    result = subprocess.run(
        [sys.executable, "-m", "licheck", "import", "cyclonedx", str(bom), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert result.returncode == 0, result.stderr
    ids = re.findall(r"^- id: (\S+)$", out.read_text(encoding="utf-8"), re.M)
    assert len(ids) == len(set(ids)) == 40_000
    assert ids[:3] == ["model", "model-2", "model-3"]
