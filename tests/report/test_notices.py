"""`licheck notices`: the artefacts the duties ask for, derived from findings and rule files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from licheck.library.compiled import load_library
from licheck.library.textcheck import normalise, read_canonical, text_sha256
from licheck.report.notices import _parts
from tests.clirun import run
from tests.conftest import PRODUCTS, REFERENCE_TEXTS, needs_reference

HEAD = """format: 2
product: {product}
owner: Example Corp
sources:
  own: {{title: Our own figures, kind: observed, date: 2026-01-10}}
"""
LLAMA = """facts:
  commercial: {value: true, evidence: [{source: own}]}
  licensee_mau: {value: 5M, evidence: [{source: own}]}
components:
  - id: helper
    name: Helper
    delivery: [hosted_service, weights]
    lineage:
      base: {model: llama-3.1-8b, evidence: [{source: own}]}
      steps: [{kind: fine_tuning, evidence: [{source: own}]}]
"""
KIMI_AT_SCALE = """facts:
  commercial: {value: true, evidence: [{source: own}]}
  mau: {value: 200M, evidence: [{source: own}]}
  monthly_revenue: {value: unknown}
  ui_attribution: {includes: [Kimi K2.5], evidence: [{source: own}]}
agreements: none
components:
  - id: chat
    name: Chat
    delivery: [hosted_service]
    lineage:
      base: {model: kimi-k2.5, evidence: [{source: own}]}
"""


def _manifest(folder: Path, name: str, product: str, body: str) -> Path:
    path = folder / name
    path.write_text(HEAD.format(product=product) + body, encoding="utf-8")
    return path


def _duties(capsys: pytest.CaptureFixture[str], *paths: Path) -> dict[str, Any]:
    code, out, err = run(capsys, "notices", *map(str, paths), "-f", "json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def _by_clause(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        f"{d['license']}/{d['clause']}": d
        for p in data["products"]
        for c in p["components"]
        for d in c["duties"]
    }


def test_a_llama_product_carries_built_with_llama(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    duties = _by_clause(_duties(capsys, _manifest(tmp_path, "a.yaml", "Helper", LLAMA)))
    display = duties["llama-3.1-community/built-with-llama"]
    assert display["kind"] == "display" and display["strings"] == ["Built with Llama"]
    assert display["status"] == "required"
    assert "the user interface" in display["places"] and len(display["places"]) == 2
    assert display["met"] == "unknown"  # the manifest does not say what is displayed
    assert display["settle"] == ["attribution_elsewhere", "ui_attribution"]
    # the Notice text, word for word from the rule file's quote
    notice = duties["llama-3.1-community/notice-file"]
    assert notice["text"] == (
        "Llama 3.1 is licensed under the Llama 3.1 Community License, Copyright © Meta "
        "Platforms, Inc. All Rights Reserved."
    )
    assert notice["text"] in " ".join(notice["quote"].split())
    # the license copy: id, source and SHA-256 of the rule file's canonical text
    copy = duties["llama-3.1-community/agreement-copy"]["copy"]
    text = load_library().licenses["llama-3.1-community"].license.text
    assert copy["sha256"] == text.sha256 and copy["file"] == text.file
    assert text.repo is not None and copy["source"].startswith(text.repo)
    assert duties["llama-3.1-community/model-name-prefix"]["strings"] == ["Llama"]


def test_kimi_over_the_thresholds_displays_kimi_k25(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _manifest(tmp_path, "k.yaml", "Kimi App", KIMI_AT_SCALE)
    duty = _by_clause(_duties(capsys, path))["kimi-k2.5-modified-mit/ui-attribution"]
    assert (duty["status"], duty["met"], duty["strings"]) == ("required", "yes", ["Kimi K2.5"])
    assert duty["places"] == ["the user interface"]
    # not displayed: still required, and not met
    hidden = KIMI_AT_SCALE.replace("includes: [Kimi K2.5]", "excludes: [Kimi K2.5]")
    duty = _by_clause(_duties(capsys, _manifest(tmp_path, "k.yaml", "Kimi App", hidden)))[
        "kimi-k2.5-modified-mit/ui-attribution"
    ]
    assert (duty["status"], duty["met"]) == ("required", "no")
    code, out, _ = run(capsys, "notices", str(tmp_path / "k.yaml"))
    assert code == 0
    assert (
        "- [ ] **Display “Kimi K2.5” prominently on the user interface** — required, **not met**"
        in out
    )


def test_a_near_match_displayed_is_named_for_a_person_to_judge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`KIMI K2.5` on the UI is neither met nor unmet: the duty names the near-match, and does
    not ask to state a fact the manifest states."""
    caps = KIMI_AT_SCALE.replace("includes: [Kimi K2.5]", "includes: [KIMI K2.5]")
    path = _manifest(tmp_path, "k.yaml", "Kimi App", caps)
    duty = _by_clause(_duties(capsys, path))["kimi-k2.5-modified-mit/ui-attribution"]
    assert (duty["status"], duty["met"]) == ("required", "unknown")
    assert duty["near_matches"] == [
        "ui_attribution: 'KIMI K2.5' read as 'Kimi K2.5' (differs only in case: 'KIMI K2.5' vs "
        "'Kimi K2.5')"
    ]
    code, out, _ = run(capsys, "notices", str(path))
    assert code == 0
    assert "not known to be met — judge the near-match stated" in out
    assert "stated as a near-match, for a person to judge: ui\\_attribution: 'KIMI K2.5'" in out


def test_below_the_thresholds_kimi_asks_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    small = KIMI_AT_SCALE.replace("value: 200M", "value: 2M").replace(
        "monthly_revenue: {value: unknown}",
        "monthly_revenue: {value: 1M USD/month, evidence: [{source: own}]}",
    )
    data = _duties(capsys, _manifest(tmp_path, "k.yaml", "Kimi App", small))
    assert _by_clause(data) == {}
    code, out, _ = run(capsys, "notices", str(tmp_path / "k.yaml"))
    assert code == 0 and "Nothing to carry" in out


def test_composer2_may_have_to_display_kimi(capsys: pytest.CaptureFixture[str]) -> None:
    """A governance risk: the duty may be required, and the facts to settle are named."""
    duty = _by_clause(_duties(capsys, PRODUCTS / "composer2.yaml"))[
        "kimi-k2.5-modified-mit/ui-attribution"
    ]
    assert duty["status"] == "may_be_required"
    assert {"mau", "monthly_revenue", "agreement_waives"} <= set(duty["settle"])
    _, out, _ = run(capsys, "notices", str(PRODUCTS / "composer2.yaml"))
    assert "may be required — settle `agreement_waives`, `mau`, `monthly_revenue`" in out


def test_an_unknown_license_is_never_nothing_to_carry(capsys: pytest.CaptureFixture[str]) -> None:
    data = _duties(capsys, PRODUCTS / "composer1.yaml")
    component = data["products"][0]["components"][0]
    assert component["duties"] == [] and component["gaps"]
    _, out, _ = run(capsys, "notices", str(PRODUCTS / "composer1.yaml"))
    assert "Incomplete" in out and "Nothing to carry" not in out


def test_output_file_and_folders(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _manifest(tmp_path, "a.yaml", "Helper", LLAMA)
    out_file = tmp_path / "NOTICES.md"
    code, out, _ = run(capsys, "notices", str(tmp_path), "-o", str(out_file))
    assert code == 0 and out == ""
    assert "Built with Llama" in out_file.read_text(encoding="utf-8")
    # never over an input
    code, _, err = run(capsys, "notices", str(tmp_path / "a.yaml"), "-o", str(tmp_path / "a.yaml"))
    assert code == 2 and "a.yaml" in err
    assert "product: Helper" in (tmp_path / "a.yaml").read_text(encoding="utf-8")


def test_a_broken_manifest_is_a_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = _manifest(tmp_path, "b.yaml", "Broken", LLAMA.replace("weights]", "wheels]"))
    code, out, err = run(capsys, "notices", str(broken))
    # listed as unknown, never a checklist that reads as "nothing to carry"
    assert code == 2 and "## Broken" not in out and "Manifests not read" in out
    assert "b.yaml:" in err and "Traceback" not in err


def test_help_has_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "notices", "--help")
    assert code == 0 and "Example:" in out and "licheck notices " in out


GEMMA_WEIGHTS = """facts:
  commercial: {value: true, evidence: [{source: own}]}
components:
  - id: coder
    name: Coder
    delivery: [weights]
    lineage:
      base: {model: gemma-2, obtained: 2025-06-01, evidence: [{source: own}]}
"""


def test_the_gemma_notice_is_its_notice_not_the_words_between_quotes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The clause reads: a "Notice" text file that contains the following notice: "Gemma is
    provided under ...". The words between the two quoted passages are no notice."""
    path = _manifest(tmp_path, "g.yaml", "Gemma App", GEMMA_WEIGHTS)
    notice = _by_clause(_duties(capsys, path))["gemma-terms-of-use/notice-file"]
    assert notice["text"] == (
        "Gemma is provided under and subject to the Gemma Terms of Use found at "
        "ai.google.dev/gemma/terms"
    )


@needs_reference()
def test_every_notice_text_and_hash_matches_the_reference_texts() -> None:
    """Each notice text a duty quotes is in the license's canonical text, word for word, and
    each license copy's SHA-256 is that text's."""
    library = load_library()
    checked = 0
    for license_id, entry in sorted(library.licenses.items()):
        body = read_canonical(REFERENCE_TEXTS / entry.license.text.file)
        assert text_sha256(body) == entry.license.text.sha256, license_id
        for located in entry.clauses:
            clause = located.clause
            if clause.requirement is None:
                continue
            for part in _parts(clause.requirement, entry.license, clause.quote):
                if part.copy is not None:
                    assert part.copy.sha256 == text_sha256(body), license_id
                if part.text is not None:
                    assert normalise(part.text) in normalise(body), (license_id, part.text)
                    checked += 1
    assert checked >= 10  # the Llama, Gemma, Qwen, ... notice files


def test_a_stand_in_text_is_said_not_the_models_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """GLM-4.6's own MIT file was not read: the standard MIT text stands in. The checklist says
    to take the notice from the model's own file."""
    glm = GEMMA_WEIGHTS.replace("gemma-2", "glm-4.6")
    path = _manifest(tmp_path, "m.yaml", "GLM App", glm)
    duty = _by_clause(_duties(capsys, path))["mit/copyright-notice"]
    assert duty["caveat"] is not None and "STAND-IN" in duty["caveat"]
    assert "model's own license file" in duty["caveat"]
    _, out, _ = run(capsys, "notices", str(path))
    assert "⚠️ STAND-IN" in out
    llama = _by_clause(_duties(capsys, _manifest(tmp_path, "a.yaml", "Helper", LLAMA)))
    assert llama["llama-3.1-community/agreement-copy"]["caveat"] is None  # verbatim


def test_a_broken_manifest_is_listed_and_the_others_carry_on(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """As `check` does: every readable manifest gets its checklist, the broken one is listed
    (located) as unknown, and the run exits 2."""
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "composer2.yaml").write_text(
        (PRODUCTS / "composer2.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    (folder / "bad.yaml").write_text("format: 2\nproduct: [x\n", encoding="utf-8")
    code, out, err = run(capsys, "notices", str(folder))
    assert code == 2
    assert "## Composer 2" in out and "Kimi K2.5" in out
    assert "Manifests not read: what these products must carry is unknown" in out
    assert "bad.yaml:3:1: error:" in err and "could not be read" in err
    code, out, _ = run(capsys, "notices", str(folder), "-f", "json")
    report = json.loads(out)
    assert code == 2 and [p["product"] for p in report["products"]] == ["Composer 2"]
    assert [(e["file"].endswith("bad.yaml"), e["line"]) for e in report["errors"]] == [(True, 3)]
