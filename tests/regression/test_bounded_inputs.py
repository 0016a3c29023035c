"""Issue 21, "Crashes and noise" (bounded): hostile BOMs and baselines, `--set`/`--sweep`
values and waiver pins, kept as data (tests/data/bounded_inputs/cases.yaml).  Each case is one
run of the CLI: bad input is a located error (file:line:column, or the option it came from) with
exit 2, never a traceback or exit 3; good input is accepted with the right value.

A case: the files it writes (`{dir}` in argv is the case's folder, `{root}` the project's;
`BASELINE:OLD|NEW` is the report licheck writes for composer2.yaml with OLD replaced by NEW
once), the argv, the exit code, and what stderr and stdout must say (regular expressions, white
space folded)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.clirun import run
from tests.conftest import PRODUCTS
from tests.regression.cases import table


def bom(name: str = "Acme Coder", extra: str = "") -> str:
    """A CycloneDX ML-BOM whose model's name is `name` as written (JSON escapes kept)."""
    return (
        "{\n"
        '  "bomFormat": "CycloneDX",\n'
        '  "specVersion": "1.6",\n'
        '  "metadata": {"component": {"type": "application", "name": "P"}},\n'
        '  "components": [\n'
        "    {\n"
        '      "type": "machine-learning-model",\n'
        f'      "name": "{name}",{extra}\n'
        '      "purl": "pkg:huggingface/moonshotai/Kimi-K2.5"\n'
        "    }\n"
        "  ]\n"
        "}\n"
    )


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]
    code: int
    err: tuple[str, ...] = ()  # each in stderr (a regular expression)
    out: tuple[str, ...] = ()  # each in stdout (a regular expression)
    files: dict[str, str] = field(default_factory=dict)


COMPOSER = str(PRODUCTS / "composer2.yaml")
CASES = table(Case, "bounded_inputs")


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bounded_inputs(
    case: Case,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # and folded: no message depends on the width
    for name, text in case.files.items():
        if text.startswith("BASELINE:"):  # the report licheck writes, edited once
            old, new = text.removeprefix("BASELINE:").split("|")
            _, report, _ = run(capsys, "check", COMPOSER, "--no-waivers", "-f", "json")
            assert old in report
            text = report.replace(old, new, 1)
        (tmp_path / name).write_text(text, encoding="utf-8")
    argv = [a.replace("{dir}", str(tmp_path)) for a in case.argv]
    code, out, err = run(capsys, *argv)
    assert "Traceback" not in err and "internal error" not in err, err
    assert code == case.code, (out, err)
    # the terminal's width wraps messages: matched with their white space folded
    for pattern in case.err:
        assert re.search(pattern, " ".join(err.split())), (pattern, err)
    for pattern in case.out:
        assert re.search(pattern, " ".join(out.split())), (pattern, out)


def test_the_table_is_well_formed() -> None:
    assert len(CASES) >= 15 and len({c.name for c in CASES}) == len(CASES)
    json.loads(bom())  # the BOM the cases edit is valid JSON
