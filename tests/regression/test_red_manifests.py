"""Red-team findings on product manifests: each input here was read wrongly once (a traceback, or
false comfort: a misspelt member or id matched nothing and a clause read as satisfied or not
applicable); now each is a located error (FILE:LINE:COL, exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clirun import run

LLAMA = """\
product: Demo
owner: Acme
components:
  - id: demo
    name: Demo
    delivery: [hosted_service]
    lineage: {base: llama-3.1-8b}
    facts:
      COMPONENT
facts:
  commercial: true
  PRODUCT
"""


def manifest(
    tmp_path: Path,
    product: str = "use_purpose: [commercial_product]",
    component: str = "derivative: true",
) -> Path:
    return written(tmp_path, LLAMA, PRODUCT=product, COMPONENT=component)


def written(tmp_path: Path, template: str, **words: str) -> Path:
    """`template` with each WORD replaced by its value, written to `m.yaml` in `tmp_path`."""
    for word, value in words.items():
        template = template.replace(word, value)
    path = tmp_path / "m.yaml"
    path.write_text(template, "utf-8")
    return path


def refused(capsys: pytest.CaptureFixture[str], path: Path, *argv: str) -> str:
    code, out, err = run(capsys, *(argv or ("evaluate",)), str(path))
    assert code == 2, out + err
    assert "Traceback" not in err
    return err


@pytest.mark.parametrize(
    ("fact", "written", "column"),
    [
        # Llama 3.1 reads licensor_marks_used for its own id: a misspelt one read as satisfied.
        ("licensor_marks_used", "[llama-3.1-comunity]", 25),
        ("licensor_endorsement_implied", "[llama-3.1-comunity]", 34),
        ("added_terms_conflict", "[llama-3.1-comunity]", 26),
        ("registered_with", "[stability-ai-comunity]", 21),
    ],
)
def test_a_license_id_set_names_licenses_of_the_library(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fact: str, written: str, column: int
) -> None:
    err = refused(capsys, manifest(tmp_path, f"{fact}: {written}"))
    assert f"m.yaml:12:{column}: error: {fact}: license " in err
    assert "is not in the library (did you mean" in err


def test_a_model_named_where_a_license_is_meant_says_which_license(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    err = refused(capsys, manifest(tmp_path, "licensor_marks_used: [llama-3.1-8b]"))
    assert "'llama-3.1-8b' is a model, not a license" in err


@pytest.mark.parametrize("fact", ["ip_claims", "group_ip_claims_against_licensor"])
@pytest.mark.parametrize("member", ["patents", "Patent", "trademark"])
def test_claims_are_a_closed_vocabulary(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fact: str, member: str
) -> None:
    # `ip_claims: [patents]` matched none of patent, copyright, other, outputs: the termination
    # gate read as not applicable.
    err = refused(capsys, manifest(tmp_path, f"{fact}: [{member}]"))
    assert f"m.yaml:12:{len(fact) + 6}: error: {fact}: {member!r} is not one of " in err


def test_the_checks_hold_per_model_and_per_license(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    component = (
        "ip_claims: {by_license: {llama-3.1-community: [patnt]}, "
        "by_model: {llama-3.1-8b: {includes: [copyrite]}}}"
    )
    err = refused(capsys, manifest(tmp_path, component=component))
    assert "m.yaml:9:54: error: ip_claims: 'patnt' is not one of" in err
    assert "error: ip_claims: 'copyrite' is not one of" in err


@pytest.mark.parametrize("command", [("validate",), ("check",), ("notices",), ("timeline",)])
def test_every_command_refuses_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: tuple[str, ...]
) -> None:
    err = refused(capsys, manifest(tmp_path, "ip_claims: [patents]"), *command)
    assert "ip_claims: 'patents' is not one of" in err


@pytest.mark.parametrize(
    ("assignment", "message"),
    [
        ("licensor_marks_used=[llama-3.1-comunity]", "is not in the library"),
        ("ip_claims=[patents]", "is not one of"),
    ],
)
def test_whatif_set_refuses_them(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, assignment: str, message: str
) -> None:
    code, out, err = run(capsys, "whatif", str(manifest(tmp_path)), "--set", assignment)
    assert code == 2, out + err
    assert message in err


RATED = """\
product: Demo
owner: Acme
currency_rates: RATES
components:
  - id: demo
    name: Demo
    lineage: {base: llama-3.1-8b}
facts:
  licensee_annual_revenue: 500M EUR/year
"""


@pytest.mark.parametrize(
    ("rates", "column", "message"),
    [
        # a boolean was read as the rate 1
        ("{EUR: true}", 23, "expected a number or a string, got"),
        # US dollars are the unit of every rate: a rate for them was ignored
        ("{EUR: '0.9', usd: 2}", 35, "a rate for USD"),
        # the same currency twice (keys are read case-insensitively): the last one won
        ("{EUR: '0.9', eur: '1.1'}", 35, "the rate of EUR is stated twice"),
    ],
)
def test_exchange_rates_are_read_one_way_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, rates: str, column: int, message: str
) -> None:
    path = written(tmp_path, RATED, RATES=rates)
    for command in ("validate", "evaluate"):
        err = refused(capsys, path, command)
        assert f"m.yaml:3:{column}: error: " in err
        assert message in err


SERIES = """\
product: Demo
owner: Acme
components:
  - id: demo
    name: Demo
    lineage: {base: llama-3.1-8b}
    facts:
      COMPONENT
facts:
  PRODUCT
"""


def series_manifest(tmp_path: Path, product: str, component: str = "derivative: true") -> Path:
    return written(tmp_path, SERIES, PRODUCT=product, COMPONENT=component)


@pytest.mark.parametrize(
    ("product", "column", "message"),
    [
        # YAML true was read as the count 1 (pydantic's lax int): licensee_mau at least 1
        ("licensee_mau: {at_least: true}", 28, "expected a number or a string, got a boolean"),
        ("licensee_mau: {at_most: false}", 27, "expected a number or a string, got a boolean"),
        (
            "licensee_mau: {series: {2024-07: {at_least: true}}}",
            47,
            "expected a number or a string, got a boolean",
        ),
        # a month stated per model was skipped in silence
        (
            "licensee_mau: {series: {2024-07: {by_model: {llama-3.1-8b: 800M}}}}",
            37,
            "a month of a series is one figure for the whole: by_model",
        ),
    ],
)
def test_amounts_and_months_are_read_one_way_only(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, product: str, column: int, message: str
) -> None:
    err = refused(capsys, series_manifest(tmp_path, product), "validate")
    assert f"m.yaml:10:{column}: error: " in err
    assert message in err


FUTURE = "{source: Doc, kind: observed, date: 9999-01-01}"


@pytest.mark.parametrize(
    ("product", "component"),
    [
        (f"licensee_mau: {{series: {{2024-07: {{value: 800M, evidence: [{FUTURE}]}}}}}}", ""),
        (
            "commercial: true",
            f"derivative: {{by_model: {{llama-3.1-8b: {{value: false, evidence: [{FUTURE}]}}}}}}",
        ),
        (
            "commercial: true",
            f"ip_claims: {{by_license: {{llama-3.1-community: "
            f"{{value: [], evidence: [{FUTURE}]}}}}}}",
        ),
    ],
)
def test_evidence_dated_in_the_future_is_refused_wherever_it_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, product: str, component: str
) -> None:
    err = refused(capsys, series_manifest(tmp_path, product, component or "derivative: true"))
    assert "error: evidence 'Doc' is dated 9999-01-01, in the future" in err


QWEN = """\
product: Demo
owner: Acme
components:
  - id: demo
    name: Demo
    lineage: {base: Qwen/Qwen2.5-3B}
facts:
  PRODUCT
"""


@pytest.mark.parametrize(
    ("product", "assignments", "message"),
    [
        # the manifest refuses commercial: true beside use_purpose [research]; as a what-if it
        # made Qwen's research-only grant satisfied for a commercial product
        ("commercial: true", ["use_purpose=[research]"], "commercial is true, but use_purpose"),
        (
            "use_purpose: [commercial_product]",
            ["commercial=false"],
            "use_purpose includes commercial_product, but commercial is false",
        ),
        ("commercial: false", ["commercial=true", "use_purpose=[evaluation]"], "commercial is"),
    ],
)
def test_whatif_values_that_contradict_each_other_are_refused(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    product: str,
    assignments: list[str],
    message: str,
) -> None:
    path = written(tmp_path, QWEN, PRODUCT=product)
    argv = [arg for assignment in assignments for arg in ("--set", assignment)]
    code, out, err = run(capsys, "whatif", str(path), *argv)
    assert code == 2, out + err
    assert message in " ".join(err.split())  # the message wraps
    assert "--set" in err


def test_whatif_may_change_both_together(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = written(tmp_path, QWEN, PRODUCT="commercial: true")
    code, out, err = run(
        capsys, "whatif", str(path), "--set", "commercial=false", "--set", "use_purpose=[research]"
    )
    assert code == 0, err
    assert "research-only" in out


CITED = """\
product: Demo
owner: Acme
sources:
  press: {title: A press report, kind: press_report, date: 2026-03-01}
  gone: {title: Retracted, kind: press_report, date: 2026-03-01, retracted_on: 2026-03-02}
components:
  - id: demo
    name: Demo
    lineage: {base: llama-3.1-8b}
facts:
  use_policy_followed: {value: true, evidence: [PIECE]}
"""


@pytest.mark.parametrize(
    ("piece", "column", "message"),
    [
        # a press report cited as an official statement: the piece's kind won, so the fact
        # counted as established under the default policy
        (
            "{source: press, kind: official_statement}",
            71,
            "evidence cites source 'press' (press_report) but says kind official_statement",
        ),
        (
            "{source: press, date: 2026-01-01}",
            71,
            "evidence cites source 'press' (dated 2026-03-01) but says date 2026-01-01, before it",
        ),
        (
            "{source: gone, retracted_on: 2026-03-05}",
            78,
            "evidence cites source 'gone' (retracted on 2026-03-02) but says retracted_on "
            "2026-03-05",
        ),
    ],
)
def test_a_cited_source_counts_for_no_more_than_it_does(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, piece: str, column: int, message: str
) -> None:
    path = written(tmp_path, CITED, PIECE=piece)
    err = refused(capsys, path, "validate")
    assert f"m.yaml:11:{column}: error: {message}" in " ".join(err.split())


@pytest.mark.parametrize(
    "piece",
    [
        "{source: press, kind: press_report, date: 2026-03-01}",
        "{source: press, date: 2026-03-05}",  # added to the document when it was updated
        "{source: press, retracted_on: 2026-03-02}",  # this claim alone retracted
        "{source: gone, retracted_on: 2026-03-01}",
    ],
)
def test_a_cited_source_may_be_described_again_or_narrowed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, piece: str
) -> None:
    path = written(tmp_path, CITED, PIECE=piece)
    code, _out, err = run(capsys, "validate", str(path))
    assert code == 0, err


@pytest.mark.parametrize("policy", ["rumour", "observed,rumour"])
@pytest.mark.parametrize("command", ["evaluate", "timeline"])
def test_rumours_are_not_an_evidence_policy(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, policy: str, command: str
) -> None:
    # `--evidence rumour` dropped the rumour in silence: nothing established anything
    code, _out, err = run(capsys, command, "--evidence", policy, str(manifest(tmp_path)))
    assert code == 2
    assert "rumours never establish a fact" in " ".join(err.split())


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("owner: Acme", f"owner: {{name: Acme, id: acme, evidence: [{FUTURE}]}}"),
        (
            "owner: Acme",
            f"owner: {{name: Acme, affiliates: [{{id: sub, evidence: [{FUTURE}]}}]}}",
        ),
        (
            "    name: Demo\n",
            f"    name: Demo\n    delivery: {{value: [api], evidence: [{FUTURE}]}}\n",
        ),
        (
            "lineage: {base: llama-3.1-8b}",
            f"lineage: {{base: llama-3.1-8b, trained_on_outputs_of: "
            f"[{{model: qwen3, evidence: [{FUTURE}]}}]}}",
        ),
    ],
)
def test_evidence_dated_in_the_future_is_refused_outside_facts_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, old: str, new: str
) -> None:
    path = series_manifest(tmp_path, "commercial: true")
    path.write_text(path.read_text("utf-8").replace(old, new, 1), "utf-8")
    err = refused(capsys, path, "validate")
    assert "error: evidence 'Doc' is dated 9999-01-01, in the future" in err


def test_a_month_of_a_series_in_the_future_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # a figure for a month to come is a typo or a forecast, as a future date is elsewhere
    path = series_manifest(tmp_path, "licensee_mau: {series: {2024-07: 5M, 9999-07: 800M}}")
    err = refused(capsys, path, "validate")
    assert "m.yaml:10:40: error: the month 9999-07 of licensee_mau is in the future" in err


def test_candidates_naming_one_model_twice_by_alias_are_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # "none twice" held for ids spelt alike only: an alias named the same model again
    path = series_manifest(tmp_path, "commercial: true")
    text = path.read_text("utf-8").replace(
        "lineage: {base: llama-3.1-8b}",
        "lineage: {base: {candidates: [llama-3.1-8b, meta-llama/Llama-3.1-8B]}}",
    )
    path.write_text(text, "utf-8")
    err = refused(capsys, path, "validate")
    assert "'meta-llama/Llama-3.1-8B' is llama-3.1-8b again" in err


FOLDER_MANIFEST = """\
KEY: A
owner: Acme
components:
  - {id: a, name: A, lineage: {base: llama-3.1-8b}}
"""


@pytest.mark.parametrize("key", ["Product", "prodcut", "name", "# product"])
def test_check_reads_a_manifest_whose_product_key_is_misspelt(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, key: str
) -> None:
    # the folder's only other file passed: the misspelt manifest was skipped unparsed, exit 0
    (tmp_path / "good.yaml").write_text(FOLDER_MANIFEST.replace("KEY", "product"), "utf-8")
    (tmp_path / "typo.yaml").write_text(FOLDER_MANIFEST.replace("KEY", key), "utf-8")
    code, _out, err = run(capsys, "check", str(tmp_path))
    assert code == 2
    assert "typo.yaml" in err and "product" in err


def test_check_still_skips_other_yaml_with_components(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "good.yaml").write_text(FOLDER_MANIFEST.replace("KEY", "product"), "utf-8")
    (tmp_path / "openapi.yaml").write_text("openapi: 3.1.0\ncomponents: {}\n", "utf-8")
    code, _out, err = run(capsys, "check", str(tmp_path))
    assert code == 0, err


@pytest.mark.parametrize(
    "component",
    [
        # the id and an alias of one model: the later one won in silence
        "derivative: {by_model: {llama-3.1-8b: false, meta-llama/Llama-3.1-8B: true}}",
        "derivative: {by_license: {llama-3.1-community: false, LLAMA-3.1-COMMUNITY: true}}",
    ],
)
def test_one_model_or_license_scoped_twice_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, component: str
) -> None:
    err = refused(capsys, manifest(tmp_path, component=component), "validate")
    assert "error: fact 'derivative' is stated twice for " in err


STEPPED = """\
product: Demo
owner: Acme
sources:
  blog: {title: Blog, kind: official_statement, date: 2026-01-01}
  forum: {title: A forum post, kind: rumour, date: 2026-01-01}
components:
  - id: demo
    name: Demo
    delivery: [weights]
    lineage:
      base: mistral-7b
      steps: [{kind: fine_tuning, evidence: EVIDENCE}]
    facts:
      modification_notices: false
"""


def stepped(tmp_path: Path, evidence: str) -> Path:
    return written(tmp_path, STEPPED, EVIDENCE=evidence)


@pytest.mark.parametrize(
    ("evidence", "verdict"),
    [
        ("[{source: blog}]", "violation"),
        # a step only a rumour speaks of was read as declared: modified established, a violation
        ("[{source: forum}]", "governance_risk"),
    ],
)
def test_a_step_is_as_certain_as_its_evidence(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, evidence: str, verdict: str
) -> None:
    code, out, err = run(capsys, "evaluate", "--format", "json", str(stepped(tmp_path, evidence)))
    assert code in (0, 1), err
    found = {
        f["clause"]: f["verdict"]
        for product in json.loads(out)["products"]
        for f in product["findings"]
        if f["license"] == "apache-2.0"
    }
    assert found["modified-files-notice"] == verdict


@pytest.mark.parametrize(
    ("evidence", "message"),
    [
        ("[{source: Some doc}]", "evidence 'Some doc' needs a kind"),
        ("[{source: Some doc, kind: observed}]", "evidence 'Some doc' needs a date"),
        ("[{source: blog, value: false}]", "evidence on a lineage step says"),
    ],
)
def test_a_steps_evidence_is_checked_as_a_facts_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, evidence: str, message: str
) -> None:
    # each was accepted without a word: the step's evidence was never read
    err = refused(capsys, stepped(tmp_path, evidence), "validate")
    assert "m.yaml:12:" in err
    assert message in err


DELIVERED = """\
product: Demo
owner: Acme
components:
  - id: demo
    name: Demo
    delivery: [api]
    lineage: {base: llama-3.1-8b, steps: [fine_tuning]}
    facts:
      FACT
"""


@pytest.mark.parametrize(
    ("fact", "message"),
    [
        # Llama's copy and "Built with Llama" duties read as not applicable for an API product
        (
            "made_available: false",
            "made_available is false, but component 'demo' is delivered as api",
        ),
        (
            "model_offered: false",
            "model_offered is false, but component 'demo' is delivered as api",
        ),
        (
            "modified: false",
            "modified is false, but component 'demo' has lineage steps (fine_tuning)",
        ),
        (
            "model_made_available: false",
            "model_made_available is false, but component 'demo' is delivered as api",
        ),
    ],
)
def test_a_derived_fact_stated_against_the_lineage_or_delivery_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fact: str, message: str
) -> None:
    path = written(tmp_path, DELIVERED, FACT=fact)
    err = refused(capsys, path, "validate")
    assert f"m.yaml:9:{len(fact.split(':')[0]) + 9}: error: {message}" in " ".join(err.split())


@pytest.mark.parametrize(
    "fact", ["made_available: true", "modified: true", "model_offered: true", "mau: 5M"]
)
def test_a_derived_fact_stated_as_derived_is_fine(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fact: str
) -> None:
    path = written(tmp_path, DELIVERED, FACT=fact)
    code, _out, err = run(capsys, "validate", str(path))
    assert code == 0, err


def test_a_month_or_year_that_has_begun_is_not_in_the_future(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # `2026` was read as its last day (2026-12-31) and refused as a future date all year long
    import datetime as dt

    today = dt.date.today()
    year, month = f"{today.year:04d}", f"{today.year:04d}-{today.month:02d}"
    path = series_manifest(
        tmp_path,
        f"commercial: {{value: true, evidence: [{{source: Doc, kind: observed, date: {month}}}]}}",
        f"derivative: {{value: true, evidence: [{{source: Doc, kind: observed, date: {year}}}]}}",
    )
    text = path.read_text("utf-8").replace(
        "lineage: {base: llama-3.1-8b}",
        f"lineage: {{base: {{model: mistral-7b, obtained: {year}}}}}",
    )
    path.write_text(text, "utf-8")
    code, _out, err = run(capsys, "validate", str(path))
    assert code == 0, err
    future = str(today.year + 1)
    path.write_text(text.replace(f"obtained: {year}", f"obtained: {future}"), "utf-8")
    assert "in the future" in refused(capsys, path, "validate")


def test_a_steps_evidence_is_checked_beside_training_on_outputs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = stepped(tmp_path, "[{source: Some doc}]")
    text = path.read_text("utf-8").replace(
        "      steps:", "      trained_on_outputs_of: [qwen3]\n      steps:"
    )
    path.write_text(text, "utf-8")
    assert "m.yaml:13:" in refused(capsys, path, "validate")


def test_an_agreement_with_no_licensor_of_the_library_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # `moonshot` for moonshot-ai: the agreement matched no license, so Kimi's display duty read
    # as if no agreement existed at all (a firm verdict from a typo)
    path = series_manifest(tmp_path, "commercial: true")
    text = "agreements: [{licensor: moonshot, terms: unknown}]\n" + path.read_text("utf-8")
    path.write_text(text, "utf-8")
    err = refused(capsys, path, "validate")
    assert "m.yaml:1:25: error: agreements: 'moonshot' is the licensor of no license" in err
    assert "did you mean 'moonshot-ai'?" in err


def test_a_deliverys_evidence_of_null_is_refused_as_a_facts_is(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # `delivery: {value: [api], evidence: null}` was read as no evidence (declared) in silence
    path = series_manifest(tmp_path, "mau: {value: 5M, evidence: null}")
    text = path.read_text("utf-8").replace(
        "    name: Demo\n", "    name: Demo\n    delivery: {value: [api], evidence: null}\n"
    )
    path.write_text(text, "utf-8")
    err = refused(capsys, path, "validate")
    assert "m.yaml:6:40: error: expected a list, got nothing (null) at components.0.delivery" in err
    assert "m.yaml:11:30: error: expected a list, got nothing (null) at facts.mau.evidence" in err


def test_owner_evidence_without_an_id_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # the evidence says the owner is an organisation, but names none: it was never read
    path = series_manifest(tmp_path, "commercial: true")
    text = path.read_text("utf-8").replace(
        "owner: Acme", "owner: {name: Meta, evidence: [{source: Doc, kind: observed, date: 2025}]}"
    )
    path.write_text(text, "utf-8")
    err = refused(capsys, path, "validate")
    assert "m.yaml:2:1: error: the owner's evidence is that it is the organisation `id`" in err


def test_a_source_retracted_before_its_date_is_refused_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """At the source, not again at each piece of evidence that cites it (review: one wrong date
    gave three errors)."""
    path = tmp_path / "m.yaml"
    text = CITED.replace("retracted_on: 2026-03-02", "retracted_on: 2026-02-01").replace(
        "[PIECE]", "[{source: gone}, {source: gone}]"
    )
    path.write_text(text, "utf-8")
    err = refused(capsys, path, "validate")
    assert err.count(": error: ") == 1, err
    assert "m.yaml:5:" in err  # the source's line


def test_a_series_month_in_the_future_is_refused_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A future month is in the future: not also "evidenced before the month was over"."""
    path = series_manifest(
        tmp_path,
        "licensee_mau: {series: {'2099-01': {value: 5M, evidence: "
        "[{source: Doc, kind: official_statement, date: 2026-01-01}]}}}",
    )
    err = refused(capsys, path, "validate")
    assert err.count(": error: ") == 1, err
    assert "in the future" in err
