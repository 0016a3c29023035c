"""The checks behind `licenses verify` and `licenses coverage`, called directly: what
`textcheck.verify` and `textcheck.measure` find in a toy library and its texts, as plain data."""

from __future__ import annotations

from pathlib import Path

import pytest

from licheck.library.compiled import Library, load_library
from licheck.library.coverage import totals
from licheck.library.textcheck import (
    SHORTENED,
    VerifyProblem,
    measure,
    shorten,
    text_sha256,
    verify,
)

NOTICE = "You must keep this notice in every copy."
LAW = "The courts of Ruritania shall decide every dispute."
TEXT = f"Toy License\n\n{NOTICE} {LAW}\n\nYou will not sue the authors.\n"

RULE = """\
id: toy
name: Toy License
version: "1"
text:
  file: toy.txt
  sha256: "{sha}"
clauses:
  - id: keep-notice
    kind: notice
    title: Keep the notice
    quote: {notice}
    requirement: {{fact: notice_included, is: true}}
not_encoded:
  - id: law
    quote: {law}
    reason: governing law
"""
CATALOG = "models:\n  - {id: toy-7b, name: Toy 7B, license: toy, source: test}\n"


def _library(tmp_path: Path, notice: str = NOTICE, law: str = LAW, text: str = TEXT) -> Library:
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "toy.yaml").write_text(
        RULE.format(sha=text_sha256(text), notice=notice, law=law), encoding="utf-8"
    )
    (rules / "catalog.yaml").write_text(CATALOG, encoding="utf-8")
    return load_library(rules)


def _texts(tmp_path: Path, text: str = TEXT) -> Path:
    texts = tmp_path / "texts"
    texts.mkdir()
    (texts / "toy.txt").write_text(text, encoding="utf-8")
    return texts


def test_verify_counts_what_it_checked_and_warns_of_an_unquoted_duty(tmp_path: Path) -> None:
    result = verify(_library(tmp_path), _texts(tmp_path))
    assert result.ok and result.problems == ()
    assert (result.licenses, result.clauses, result.not_encoded) == (1, 1, 1)
    # "You will not sue" has a duty word and no entry quotes it: a warning, not a problem
    assert [(w.license, w.file) for w in result.warnings] == [
        ("toy", str(tmp_path / "rules" / "toy.yaml"))
    ]
    assert result.warnings[0].message == (
        "a duty sentence of toy.txt that no clause or not_encoded entry quotes: "
        "“You will not sue the authors.”"
    )


def test_verify_locates_a_not_encoded_quote_missing_from_the_text(tmp_path: Path) -> None:
    result = verify(_library(tmp_path, law="The courts of Freedonia decide."), _texts(tmp_path))
    assert not result.ok
    rule = tmp_path / "rules" / "toy.yaml"
    lines = rule.read_text(encoding="utf-8").splitlines()
    line = lines.index("  - id: law") + 1
    column = lines[line - 1].index("id:") + 1  # the entry's first key
    assert result.problems == (
        VerifyProblem(
            "toy",
            "not_encoded[0] (law)",
            "the quote does not occur in toy.txt",
            str(rule),
            line,
            column,
        ),
    )


def test_verify_names_a_changed_quote_and_a_changed_text(tmp_path: Path) -> None:
    library = _library(tmp_path, notice="You must keep this notice in each copy.")
    texts = _texts(tmp_path, TEXT.replace("Toy License", "Toy Licence"))
    problems = verify(library, texts).problems
    assert [(p.license, p.clause, p.column) for p in problems] == [
        ("toy", None, None),  # the hash, about the text as a whole
        ("toy", "keep-notice", None),
    ]
    assert "toy.txt has changed" in problems[0].message
    assert problems[1].message == "the quote of clause 'keep-notice' does not occur in toy.txt"


def test_verify_names_a_missing_text_once(tmp_path: Path) -> None:
    """An absent text is one problem; its not_encoded quotes are not also reported missing."""
    texts = tmp_path / "texts"
    texts.mkdir()
    result = verify(_library(tmp_path), texts)
    assert [(p.license, p.clause, p.line) for p in result.problems] == [("toy", None, 1)]
    assert result.problems[0].message == f"canonical text toy.txt not found in {texts}"
    assert result.warnings == ()


def test_shorten_cuts_a_long_sentence_to_the_limit_with_an_ellipsis() -> None:
    exact = "x" * SHORTENED
    assert shorten(exact) == exact
    cut = shorten(exact + "y")
    assert len(cut) == SHORTENED and cut == "x" * (SHORTENED - 1) + "…"
    assert shorten("abcdef", limit=4) == "abc…"


def test_measure_reads_each_text_and_lists_the_absent_ones(tmp_path: Path) -> None:
    library = _library(tmp_path)
    measured = measure(library, _texts(tmp_path))
    assert measured.complete and measured.missing == ()
    [result] = measured.results
    assert (result.license, result.text) == ("toy", "toy.txt")
    # notice (encoded), law (nothing to encode), "will not sue" (unaccounted)
    overall = measured.overall
    assert (overall.total, overall.encoded, overall.accounted) == (3, 1, 2)
    assert (overall.nothing_to_encode, overall.unaccounted) == (1, 1)
    assert measured.each() == [(result, totals([result]))]


def test_measure_does_not_measure_an_absent_text(tmp_path: Path) -> None:
    empty = tmp_path / "none"
    empty.mkdir()
    measured = measure(_library(tmp_path), empty)
    assert not measured.complete
    assert measured.missing == (("toy", "toy.txt"),)
    assert measured.results == () and measured.overall.total == 0


def test_measure_refuses_a_folder_named_like_a_text(tmp_path: Path) -> None:
    """A text that cannot be read is an error, never a license quietly left out."""
    from licheck.core.diagnostics import InputError

    texts = tmp_path / "texts"
    (texts / "toy.txt").mkdir(parents=True)
    with pytest.raises(InputError):
        measure(_library(tmp_path), texts)
