"""Coverage: sentences and duty words, the overlap rule, `licenses coverage` and the `not_encoded`
checks of `licenses verify`."""

from __future__ import annotations

import itertools
import json
import shutil
from pathlib import Path

import pytest

from licheck.inputs.rules import License
from licheck.library import setaside
from licheck.library.compiled import load_library
from licheck.library.coverage import MIN_OVERLAP, Sentence, coverage, fold, quotes, sentences
from licheck.library.textcheck import canonical_body
from tests.clirun import run
from tests.conftest import LICENSES, REFERENCE_TEXTS, needs_reference

TEXT_SHA = "0" * 64


def _license(quotes_: list[str], entries: list[dict[str, str]] | None = None) -> License:
    return License.model_validate(
        {
            "id": "toy",
            "name": "Toy",
            "version": "1",
            "text": {"file": "toy.txt", "sha256": TEXT_SHA},
            "clauses": [
                {
                    "id": f"c{n}",
                    "kind": "notice",
                    "title": "t",
                    "quote": q,
                    "requirement": {"fact": "notice_included", "is": True},
                }
                for n, q in enumerate(quotes_)
            ],
            "not_encoded": entries or [],
        }
    )


# -- sentences ---------------------------------------------------------------------------------


def test_sentences_split_at_marks_blank_lines_and_list_items() -> None:
    text = (
        "1. Definitions. You must keep\n   the notice. See e.g. Section 2 of U.S. law.\n\n"
        "(a) You shall not sue;\n(b) You may not resell.\n* an item"
    )
    found = [s.text for s in sentences(text)]
    assert found == [
        "1. Definitions.",
        "You must keep the notice.",
        "See e.g. Section 2 of U.S. law.",
        "(a) You shall not sue;",
        "(b) You may not resell.",
        "* an item",
    ]
    folded = fold(text)
    assert all(folded[s.start : s.end] == s.text for s in sentences(text))


def test_duty_words_are_whole_words_in_any_case() -> None:
    text = (
        "You SHALL comply. Marshall may notice. It is required. It requires nothing. We agreed to. "
    )
    text += "You Will Not sell. You agree to pay. It must go. You may not-ice."
    duties = [s.text for s in sentences(text) if s.is_duty]
    assert duties == [
        "You SHALL comply.",
        "It is required.",
        "You Will Not sell.",
        "You agree to pay.",
        "It must go.",
        "You may not-ice.",
    ]


def test_duties_phrased_without_shall_or_must_are_duty_sentences() -> None:
    """The two a legal reviewer found (Llama 4, Gemma) and the other phrasings of a duty, a
    prohibition or a withheld right; "subject to", "does not" and "not obligated" mostly mark
    grants, disclaimers and absent duties, and are left out."""
    duties = [
        "You will comply with Meta's brand guidelines.",
        "Nothing in this Agreement grants you any rights to use Google's trademarks.",
        "You are not allowed to use any Logo.",
        "You may only use it for Non-Commercial Purposes.",
        "Such notices cannot be construed as modifying the License.",
        "You are solely responsible for Outputs.",
        "Use prohibited by law.",
        "Licensor claims no rights in the Output.",
        "Nothing in this License permits You to use the marks.",
        "You DO NOT receive payment.",
    ]
    others = [
        "Subject to the terms of this License, Licensor grants You a license.",
        "The UN Convention does not apply to this Agreement.",
        "We are not obligated to support the Model.",
        "Your willow is doable.",
    ]
    found = {s.text: s.is_duty for s in sentences(" ".join(duties + others))}
    assert found == {**dict.fromkeys(duties, True), **dict.fromkeys(others, False)}


def test_should_agree_not_to_commit_to_and_undertake_mark_duties() -> None:
    """Audit s3-B M-4: glm-4's duties are all phrased with "should", the Attachment A lists lead
    in with "agree not to", DeepSeek §9 says "commit to"; none of them was a duty sentence."""
    duties = [
        "You should comply with the applicable laws, regulations, policies, ethical standards.",
        "You agree not to use the Model or Derivatives of the Model: for military use.",
        "You commit to complying with applicable laws and regulations.",
        "The Licensee undertakes to keep the notices.",
        "You may distribute copies, provided that You meet the following conditions.",
    ]
    others = ["We shoulder the costs.", "They undertook nothing.", "You agree."]
    found = {s.text: s.is_duty for s in sentences(" ".join(duties + others))}
    assert found == {**dict.fromkeys(duties, True), **dict.fromkeys(others, False)}


@needs_reference()
def test_sentences_of_the_real_texts() -> None:
    """Every text splits into sentences that lie in its folded text; known sentences come out
    whole (a numbered item, a wrapped sentence, a sentence after an enumerator)."""
    library = load_library()
    for entry in library.licenses.values():
        body = canonical_body((REFERENCE_TEXTS / entry.license.text.file).read_bytes())
        folded = fold(body)
        found = sentences(body)
        assert found, entry.license.id
        assert all(folded[s.start : s.end] == s.text for s in found)
        assert all(a.end <= b.start for a, b in itertools.pairwise(found))
    apache = canonical_body((REFERENCE_TEXTS / "apache-2.0-standard.txt").read_bytes())
    texts = [s.text for s in sentences(apache)]
    assert (
        "(b) You must cause any modified files to carry prominent notices stating that You "
        "changed the files; and" in texts
    )
    assert "4. Redistribution." in texts
    mit = canonical_body((REFERENCE_TEXTS / "mit-standard.txt").read_bytes())
    duties = [s.text for s in sentences(mit) if s.is_duty]
    assert duties[0] == (
        "The above copyright notice and this permission notice shall be included in all copies "
        "or substantial portions of the Software."
    )
    assert len(duties) == 2  # and the liability disclaimer (IN NO EVENT SHALL ...)


# -- the overlap rule --------------------------------------------------------------------------


def _sentence(start: int, end: int, duties: tuple[tuple[int, int], ...] = ()) -> Sentence:
    return Sentence(start, end, "x" * (end - start), duties)


def test_half_the_sentence_is_enough() -> None:
    s = _sentence(100, 200)
    assert quotes(s, (100, 150))  # exactly half
    assert quotes(s, (150, 260))  # the second half, and beyond it
    assert not quotes(s, (100, 149))  # under half, under MIN_OVERLAP
    assert not quotes(s, (200, 300))  # touching is not overlapping


def test_a_long_sentence_needs_the_operative_words() -> None:
    s = _sentence(0, 1000, duties=((500, 504),))
    assert quotes(s, (480, 480 + MIN_OVERLAP))  # 60 characters that include the duty word
    assert not quotes(s, (480, 480 + MIN_OVERLAP - 1))  # too short
    assert not quotes(s, (0, 300))  # long, but not the operative part
    assert quotes(_sentence(0, 1000), (0, MIN_OVERLAP))  # no duty word: 60 characters do


def test_a_quote_spilling_into_the_next_sentence_does_not_quote_it() -> None:
    text = "You must keep the notice in every copy you make. You shall also register with us first."
    lic = _license(["You must keep the notice in every copy you make. You shall"])
    result = coverage(lic, text)
    assert [c.encoded for c in result.counted] == [True, False]


def test_counts_encoded_accounted_and_to_encode() -> None:
    text = (
        "You must keep the notice. You must mark modified files. The courts of X shall decide. "
        "If you sue us the licence ends. Nothing else here."
    )
    lic = _license(
        ["You must keep the notice."],
        [
            {"quote": "You must mark modified files.", "reason": "to encode: audit M3"},
            {"quote": "The courts of X shall decide.", "reason": "governing law"},
            {"quote": "If you sue us the licence ends.", "reason": "To encode: audit M4"},
        ],
    )
    result = coverage(lic, text)
    # the sentence without a duty word counts because an entry quotes it
    assert (result.total, result.encoded, result.accounted) == (4, 1, 4)
    assert (result.to_encode, result.nothing_to_encode) == (2, 1)
    assert result.unaccounted == ()
    bare = coverage(_license(["You must keep the notice."]), text)
    assert [s.text for s in bare.unaccounted] == [
        "You must mark modified files.",
        "The courts of X shall decide.",
    ]


# -- the command -------------------------------------------------------------------------------


@needs_reference()
def test_coverage_json_has_the_fractions_and_every_license(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys,
        "licenses",
        "coverage",
        "--texts",
        str(REFERENCE_TEXTS),
        "--format",
        "json",
        "--no-reach",
    )
    assert code == 0, err
    report = json.loads(out)
    # the reach is not measured, and says so: never a silent zero
    assert report["reach"] is None and all(r["reach"] is None for r in report["licenses"])
    assert "reach matrix was not measured" in err
    assert 0 <= report["encoded"] <= 1 and 0 <= report["accounted"] <= 1
    assert report["complete"] is True and report["missing_texts"] == []
    assert [r["id"] for r in report["licenses"]] == sorted(load_library().licenses)
    # every duty sentence of every encoded text is accounted for
    assert all(r["accounted"] == 1.0 for r in report["licenses"])
    # and the overall figure is 1.0 only when every text of the folder is accounted for (issue
    # 26 deliverable 4): a text without a rule file counts against it
    unaccounted = sum(t["counted"] for t in report["unaccounted_texts"])
    assert report["counted"] == sum(r["counted"] for r in report["licenses"]) + unaccounted
    assert (report["accounted"] == 1.0) == (report["unaccounted_texts"] == [])
    # every text of the reference folder is encoded or set aside (all three groups of issue 26
    # have landed)
    assert report["unaccounted_texts"] == [] and report["accounted"] == 1.0
    assert report["to_encode"] == 0  # every duty a product fact can decide is encoded
    counted = report["counted"]
    assert report["encoded"] == round(
        report["encoded_count"] / (counted - report["nothing_to_encode"]), 4
    )
    mit = next(r for r in report["licenses"] if r["id"] == "mit")
    assert (mit["counted"], mit["encoded_count"], mit["nothing_to_encode"]) == (2, 1, 1)


@needs_reference()
def test_coverage_lists_every_text_no_rule_file_encodes_nor_sets_aside(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Issue 26 deliverable 4: a text of the folder without a rule file was not counted at all,
    so `accounted` read 1.0 over a folder holding texts nobody had encoded."""
    texts = tmp_path / "texts"
    shutil.copytree(REFERENCE_TEXTS, texts)
    encoded = {entry.license.text.file for entry in load_library().licenses.values()}
    aside = {entry.text for entry in setaside.load([LICENSES])}
    assert aside and not aside & encoded
    others = sorted(p.name for p in texts.iterdir() if p.name not in encoded | aside)
    (texts / "zz-unencoded.txt").write_text("You must not do this. You shall do that.\n")
    (texts / "zz-no-duty.txt").write_text("A note about a model.\n")
    code, out, err = run(
        capsys, "licenses", "coverage", "--texts", str(texts), "-f", "json", "--no-reach"
    )
    assert code == 0, err
    report = json.loads(out)
    listed = {t["text"]: t["counted"] for t in report["unaccounted_texts"]}
    assert sorted(listed) == sorted([*others, "zz-no-duty.txt", "zz-unencoded.txt"])
    assert listed["zz-unencoded.txt"] == 2  # its duty sentences
    assert listed["zz-no-duty.txt"] == 1  # a text without duty words still counts once
    assert [t["text"] for t in report["set_aside"]] == sorted(aside)
    assert all(t["reason"] for t in report["set_aside"])
    assert report["accounted"] < 1.0
    assert "zz-unencoded.txt" in err and "no rule file encodes" in " ".join(err.split())
    for name in [*others, "zz-no-duty.txt", "zz-unencoded.txt"]:
        (texts / name).unlink()
    code, out, err = run(
        capsys, "licenses", "coverage", "--texts", str(texts), "-f", "json", "--no-reach"
    )
    report = json.loads(out)
    assert (code, report["unaccounted_texts"], report["accounted"]) == (0, [], 1.0), err
    code, out, _ = run(capsys, "licenses", "coverage", "--texts", str(texts), "--no-reach")
    assert "kimi-dev-license-note.txt: set aside: a README note" in " ".join(out.split())


@needs_reference()
def test_a_set_aside_text_without_its_entry_is_unaccounted(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    library = tmp_path / "licenses"
    shutil.copytree(LICENSES, library)
    (library / setaside.SET_ASIDE_FILE).unlink()
    code, out, err = run(
        capsys, "licenses", "coverage", "--no-builtin-licenses", "--licenses", str(library),
        "--texts", str(REFERENCE_TEXTS), "-f", "json",
    )  # fmt: skip
    assert code == 0, err
    report = json.loads(out)
    assert "kimi-dev-license-note.txt" in [t["text"] for t in report["unaccounted_texts"]]
    assert report["set_aside"] == [] and report["accounted"] < 1.0


@needs_reference()
def test_a_set_aside_entry_naming_an_encoded_text_is_refused_at_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    library = tmp_path / "licenses"
    shutil.copytree(LICENSES, library)
    path = library / setaside.SET_ASIDE_FILE
    path.write_text("texts:\n  - file: mit-standard.txt\n    reason: standard text\n")
    code, out, err = run(
        capsys, "licenses", "coverage", "--no-builtin-licenses", "--licenses", str(library),
        "--texts", str(REFERENCE_TEXTS),
    )  # fmt: skip
    assert code == 2 and "100%" not in out
    assert f"{path}:2:1" in err and "a rule file encodes it" in err


@needs_reference()
def test_coverage_text_shows_each_license_and_the_overall_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(
        capsys, "licenses", "coverage", "--texts", str(REFERENCE_TEXTS), "--no-reach"
    )
    assert code == 0
    assert "reach: not measured (--no-reach)" in out
    assert out.splitlines()[0].split()[:3] == ["license", "counted", "encoded"]
    assert any(line.startswith("apache-2.0 ") for line in out.splitlines())
    overall = next(line for line in out.splitlines() if line.startswith("overall "))
    # 100% accounted only when no text of the folder is left without a rule file
    assert overall.endswith("100%") == ("no rule file encodes" not in " ".join(err.split()))


@needs_reference()
def test_coverage_reports_each_licenses_reach_matrix_beside_its_sentences(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 23 (7): the matrix's cells, those a breach manifest exercises, their verdicts, and
    the contradictions (none), per license and overall."""
    chosen = ("gpt-oss-usage-policy", "llama-3.1-community", "mit")
    argv = [a for i in chosen for a in ("--only", i)]
    code, out, err = run(
        capsys, "licenses", "coverage", "--texts", str(REFERENCE_TEXTS), "-f", "json", *argv
    )
    assert code == 0, err
    report = json.loads(out)
    library = load_library()
    assert [r["id"] for r in report["licenses"]] == list(chosen)
    verdicts = ("violation", "governance_risk", "satisfied", "not_applicable")
    for entry in report["licenses"]:
        reach = entry["reach"]
        assert reach["cells"] == len(library.licenses[entry["id"]].clauses) * 9 * 3
        assert 0 < reach["tested"] <= reach["cells"]
        assert sum(reach[v] for v in verdicts) == reach["tested"]
        assert reach["contradictions"] == 0 and reach["contradicting_cells"] == []
    llama = next(r["reach"] for r in report["licenses"] if r["id"] == "llama-3.1-community")
    assert llama["violation"] > 0  # a breach the clause reaches is a violation
    assert llama["satisfied"] == 0  # a breach manifest is never satisfied
    overall = report["reach"]
    assert overall["tested"] == sum(r["reach"]["tested"] for r in report["licenses"])
    code, text, _ = run(capsys, "licenses", "coverage", "--texts", str(REFERENCE_TEXTS), *argv)
    assert code == 0
    lines = text.splitlines()
    header = next(
        n for n, line in enumerate(lines) if line.split()[:3] == ["reach", "cells", "tested"]
    )
    row = next(line for line in lines[header:] if line.startswith("mit "))
    mit = next(r["reach"] for r in report["licenses"] if r["id"] == "mit")
    assert row.split()[1:3] == [str(mit["cells"]), str(mit["tested"])]
    assert any(line.startswith("overall (--only: 3)") for line in lines)


@needs_reference()
def test_coverage_exits_1_on_a_cell_that_contradicts_the_matrix(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from licheck.core.verdicts import Verdict
    from licheck.evaluation import reachcells
    from licheck.inputs.rules import Relation

    def judged(library: object, license_id: str, context: object = None) -> object:
        cells = (
            reachcells.JudgedCell(
                license_id, "notice", Relation.SERVED, False, Verdict.SATISFIED, True, {}
            ),
        )
        return reachcells.LicenseReach(license_id, 27, cells, ())

    monkeypatch.setattr(reachcells, "license_reach", judged)
    code, out, err = run(
        capsys, "licenses", "coverage", "--texts", str(REFERENCE_TEXTS), "--only", "mit", "-fjson"
    )
    assert code == 1
    report = json.loads(out)
    assert report["reach"]["contradictions"] == 1
    assert report["reach"]["contradicting_cells"][0]["verdict"] == "satisfied"
    said = "mit/notice × served × derivative=False: satisfied where the matrix says it reaches"
    assert said in " ".join(err.split())


@needs_reference()
def test_coverage_only_an_unknown_license_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "licenses", "coverage", "--texts", str(REFERENCE_TEXTS), "--only", "nope"
    )
    assert code == 2 and out == ""
    assert "no license nope" in err


def test_coverage_without_texts_exits_2_and_reports_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for argv in (["--texts", str(tmp_path / "absent")], [], ["--format", "json"]):
        code, out, err = run(capsys, "licenses", "coverage", *argv)
        assert code == 2
        assert out == "" and "nothing was measured" in err
        assert "100%" not in out + err


@needs_reference()
def test_coverage_with_a_missing_text_exits_2_and_names_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    texts = tmp_path / "texts"
    shutil.copytree(REFERENCE_TEXTS, texts)
    (texts / "mit-standard.txt").unlink()
    code, out, err = run(
        capsys, "licenses", "coverage", "--texts", str(texts), "-f", "json", "--no-reach"
    )
    assert code == 2
    report = json.loads(out)
    assert report["complete"] is False
    assert report["missing_texts"] == [{"id": "mit", "text": "mit-standard.txt"}]
    assert "mit" not in [r["id"] for r in report["licenses"]]
    assert "mit-standard.txt" in err


# -- verify ------------------------------------------------------------------------------------


@needs_reference()
def test_verify_fails_on_a_not_encoded_quote_missing_from_the_text_at_its_location(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    library = tmp_path / "licenses"
    shutil.copytree(LICENSES, library)
    rule = library / "mit.yaml"
    text = rule.read_text("utf-8")
    assert "IN NO EVENT SHALL THE AUTHORS" in text
    rule.write_text(text.replace("IN NO EVENT SHALL THE AUTHORS", "IN NO EVENT SHALL AUTHORS"))
    code, _, err = run(
        capsys, "licenses", "verify", "--licenses", str(library), "--texts", str(REFERENCE_TEXTS)
    )
    assert code == 1
    lines = text.splitlines()
    entry = next(n for n, line in enumerate(lines, 1) if line.startswith("not_encoded:")) + 1
    column = lines[entry - 1].index("quote") + 1
    assert f"{rule}:{entry}:{column}: mit/not_encoded[0]: the quote does not occur" in err
    assert "Traceback" not in err


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
@needs_reference()
def test_verify_warns_on_an_unaccounted_duty_sentence_without_failing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    library = tmp_path / "licenses"
    shutil.copytree(LICENSES, library)
    rule = library / "mit.yaml"
    text = rule.read_text("utf-8")
    rule.write_text(text[: text.index("\n# Every other sentence")] + "\n", "utf-8")
    code, out, err = run(
        capsys, "licenses", "verify", "--licenses", str(library), "--texts", str(REFERENCE_TEXTS)
    )
    assert code == 0, err
    assert out.startswith("ok:") and "1 warning(s)" in out
    assert f"{rule}: warning: mit: a duty sentence of mit-standard.txt" in err
    assert "IN NO EVENT SHALL THE AUTHORS" in err


@needs_reference()
def test_the_shipped_library_verifies_without_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "licenses", "verify", "--texts", str(REFERENCE_TEXTS))
    assert code == 0, err
    assert "warning" not in out + err
