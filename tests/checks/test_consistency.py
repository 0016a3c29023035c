"""Facts stated per model or per license: a model, license or fact that cannot be scoped there
is a located error (exit 2), never a silent skip."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BAD = """\
product: P
owner: O
facts:
  derivative: {by_license: {apache-2.0: false}}
components:
  - id: c
    name: C
    delivery: [weights]
    lineage: {base: llama-3.1-8b, steps: [fine_tuning]}
    facts:
      derivative: {by_license: {mit: false}, by_model: {qwen3: true}}
      mau: {by_license: {llama-3.1-community: 5}}
"""


def test_scopes_outside_the_lineage_are_located_errors(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(BAD, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "licheck", "evaluate", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2
    out = result.stdout + result.stderr
    assert "bad.yaml:4:16: error: fact 'derivative': by_license" in out
    assert "bad.yaml:11:38: error: license 'mit' is not in this component's lineage" in out
    assert "bad.yaml:11:64: error: model 'qwen3' is not in this component's lineage" in out
    assert "bad.yaml:12:13: error: fact 'mau': by_license" in out
