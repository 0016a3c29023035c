"""A manifest's fact names and closed-vocabulary members are checked once (`factchecks`), whether
the manifest passes its shape check or not: the same located message, with its did-you-mean and
hint, on both paths (`derivation`/`consistency` on a valid manifest, `loading.fact_problems` on
one with an unrelated schema error)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.clirun import run

MANIFEST = """\
product: P
owner: O
facts:
  maus: 5
  lineage: true
  restricted_uses: militray
  improves_other_models:
    includes: [lm, llm]
    excludes: [llm]
    evidence: [{source: s, kind: declared, value: [ohter]}]
components:
  - id: c
    name: C
    lineage: {base: kimi-k2.5}
    facts: {use_purpose: [research, reserch]}
"""
SCHEMA_ERROR = "colour: red\n"  # last, so that every other line keeps its number


def _problems(err: str) -> list[str]:
    """Each diagnostic with its hint, as one string (the warning of a manifest without
    `format:`, which names the readings that changed for it, is not one of the errors)."""
    blocks: list[str] = []
    in_format_warning = False
    for line in err.splitlines():
        if ": warning: no `format:`" in line:
            in_format_warning = True
            continue
        if in_format_warning and line.startswith("  "):
            continue
        in_format_warning = False
        if line.startswith("  hint: "):
            blocks[-1] += "\n" + line
        elif not line.startswith("licheck: "):
            blocks.append(line)
    return blocks


def _both_paths(
    capsys: pytest.CaptureFixture[str], folder: Path, command: str, text: str
) -> list[str]:
    """The problems of the manifest `text`, which the same manifest with an unrelated schema
    error (`colour:`) gets too, and nothing else but that error."""
    path = folder / "m.yaml"
    path.write_text(text, encoding="utf-8")
    code, _, err = run(capsys, command, str(path))
    assert code == 2 and "Traceback" not in err
    alone = _problems(err)
    path.write_text(text + SCHEMA_ERROR, encoding="utf-8")
    code, _, err = run(capsys, command, str(path))
    assert code == 2 and "Traceback" not in err
    beside = _problems(err)
    colour = f"{path}:{len(text.splitlines()) + 1}:1: error: unknown key 'colour'"
    assert [p for p in beside if not p.startswith(colour)] == alone
    assert len(beside) == len(alone) + 1
    return alone


@pytest.mark.usefixtures("unwrapped")
@pytest.mark.parametrize("command", ["validate", "evaluate"])
def test_an_unknown_fact_alone_reads_the_same_beside_a_schema_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    text = (
        "product: P\nowner: O\nfacts:\n  maus: 5\n"
        "components:\n  - {id: c, name: C, lineage: {base: kimi-k2.5}}\n"
    )
    assert _both_paths(capsys, tmp_path, command, text) == [
        f"{tmp_path / 'm.yaml'}:4:9: error: fact 'maus' is not in the fact vocabulary "
        "(did you mean 'mau'?)\n"
        "  hint: run `licheck facts` for the fact names, `licheck facts NAME` for one"
    ]


@pytest.mark.usefixtures("unwrapped")
@pytest.mark.parametrize("command", ["validate", "evaluate"])
def test_names_and_members_read_the_same_beside_a_schema_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    alone = _both_paths(capsys, tmp_path, command, MANIFEST)
    fact_hint = "  hint: run `licheck facts` for the fact names, `licheck facts NAME` for one"
    expected = [
        (4, f"fact 'maus' is not in the fact vocabulary (did you mean 'mau'?)\n{fact_hint}"),
        (5, f"fact 'lineage' is supplied by licheck from the lineage\n{fact_hint}"),
        (6, "restricted_uses: 'militray' is not one of"),
        (8, "'llm' is both included and excluded"),  # a value's problem, and a member's too
        (8, "improves_other_models: 'lm' is not one of foundation_model, llm, other"),
        (10, "improves_other_models: 'ohter' is not one of foundation_model, llm, other"),
        (15, "use_purpose: 'reserch' is not one of"),
    ]
    assert len(alone) == len(expected)
    for (line, words), problem in zip(expected, alone, strict=True):
        assert problem.startswith(f"{tmp_path / 'm.yaml'}:{line}:") and words in problem, problem
        if "is not one of" in problem:
            assert "(did you mean '" in problem and "for its allowed values" in problem, problem


@pytest.mark.usefixtures("unwrapped")
@pytest.mark.parametrize(
    ("where", "stated"),
    [
        ("product", "derivativ: {note: stated with a note alone}"),
        ("product", "derivativ: {by_model: {kimi-k2.5: true}}"),
        ("component", "derivativ: {by_model: {kimi-k2.5: true}}"),
        ("component", "derivativ: {by_license: {kimi-k2.5-modified-mit: true}}"),
    ],
)
def test_a_misspelt_fact_stated_per_model_or_with_a_note_is_named_as_misspelt(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, where: str, stated: str
) -> None:
    """Not skipped (a note alone), not an internal error (per model), and not a complaint about
    its scope: the name is the problem, on both paths."""
    product, component = (stated, "mau: 5") if where == "product" else ("mau: 5", stated)
    text = (
        f"product: P\nowner: O\nfacts: {{{product}}}\ncomponents:\n"
        f"  - {{id: c, name: C, lineage: {{base: kimi-k2.5}}, facts: {{{component}}}}}\n"
    )
    for command in ("validate", "evaluate"):
        (problem,) = _both_paths(capsys, tmp_path, command, text)
        line = 3 if where == "product" else 5
        assert problem.startswith(f"{tmp_path / 'm.yaml'}:{line}:"), problem
        assert "fact 'derivativ' is not in the fact vocabulary (did you mean 'derivative'?)" in (
            problem
        )
