"""docs/manifests.md's "Manifest format 2: what changed" is one section, and what it shows is read
as it says: each YAML snippet in it is a valid manifest fragment (completed with the keys it leaves
out, then evaluated), its inline `monthly_revenue:` values are read, and the first example too."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from licheck.inputs.manifest import FORMAT_SECTION
from tests.clirun import run
from tests.conftest import ROOT

MANIFESTS = (ROOT / "docs" / "manifests.md").read_text(encoding="utf-8")
HEADING = f"## {FORMAT_SECTION}\n"
SECTION = MANIFESTS.partition(HEADING)[2].partition("\n## ")[0]
FENCE = re.compile(r"^(?P<indent> *)```yaml\n(?P<body>.*?)^(?P=indent)```$", re.M | re.S)
# What a fragment leaves out, so that it is a whole manifest.
DEFAULTS = {
    "product": "product: Fragment\n",
    "owner": "owner: Acme\n",
    "components": "components:\n  - {id: c, name: C, lineage: {base: glm-4.6}}\n",
}


def _snippets(text: str) -> list[str]:
    return [textwrap.dedent(m["body"]) for m in FENCE.finditer(text)]


SNIPPETS = _snippets(SECTION)


def _evaluate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str
) -> tuple[int, str, str]:
    path = tmp_path / "fragment.yaml"
    path.write_text(text, encoding="utf-8")
    return run(capsys, "evaluate", str(path), "--format", "compact")


def _complete(fragment: str) -> str:
    keys = set(re.findall(r"^([a-z_]+):", fragment, re.M))
    return fragment + "".join(text for key, text in DEFAULTS.items() if key not in keys)


def test_one_section() -> None:
    assert MANIFESTS.count(HEADING) == 1
    assert len(SNIPPETS) >= 6


@pytest.mark.parametrize("snippet", SNIPPETS, ids=[s.split("\n")[0] for s in SNIPPETS])
def test_each_snippet_is_a_valid_manifest_fragment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], snippet: str
) -> None:
    code, out, err = _evaluate(tmp_path, capsys, "format: 2\n" + _complete(snippet))
    assert code in (0, 1), f"{snippet}\n{out}{err}"
    assert "error:" not in err


REVENUES = sorted({" ".join(v.split()) for v in re.findall(r"`monthly_revenue: ([^`]+)`", SECTION)})


@pytest.mark.parametrize("value", REVENUES)
def test_inline_revenue_values_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    fragment = f"facts:\n  monthly_revenue: {value}\n"
    code, out, err = _evaluate(tmp_path, capsys, _complete(fragment))
    assert code in (0, 1), f"{value}\n{out}{err}"


def test_scientific_notation_is_refused_as_the_section_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "scientific notation (`2e7`)" in SECTION
    code, _, err = _evaluate(tmp_path, capsys, _complete("facts:\n  monthly_revenue: 2e7\n"))
    assert code == 2 and "scientific notation" in err


def test_format_1_is_refused_as_the_section_says(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "`format: 1`" in SECTION
    code, _, err = _evaluate(tmp_path, capsys, "format: 1\n" + _complete(""))
    assert code == 2 and FORMAT_SECTION in err


def test_the_manifests_example_is_a_valid_format_2_manifest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    example = _snippets(MANIFESTS.partition("## Writing a manifest\n")[2].partition("\n## ")[0])[0]
    assert example.startswith("format: 2 ")
    code, out, err = _evaluate(tmp_path, capsys, example)
    assert code in (0, 1), out + err


# -- "How to say it" (issue 24) ------------------------------------------------------------------

HOW_TO_SAY = MANIFESTS.partition("\n## How to say it\n")[2].partition("\n## ")[0]
SAYINGS = _snippets(HOW_TO_SAY)


def test_the_how_to_say_table_has_its_examples() -> None:
    assert len(SAYINGS) == 2
    for construct in ("base: none", "license: acme-open-license-v1", "none: true", "paid: true"):
        assert construct in HOW_TO_SAY and any(construct in s for s in SAYINGS), construct


@pytest.mark.parametrize("snippet", SAYINGS, ids=[s.split("\n")[0] for s in SAYINGS])
def test_each_way_to_say_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], snippet: str
) -> None:
    code, out, err = _evaluate(tmp_path, capsys, "format: 2\n" + _complete(snippet))
    assert code in (0, 1), f"{snippet}\n{out}{err}"
    assert "error:" not in err and "warning:" not in err
