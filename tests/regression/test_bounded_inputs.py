"""Issue 21, "Crashes and noise" (bounded): hostile BOMs and baselines, `--set`/`--sweep`
values and waiver pins, kept as data.  Each case is one run of the CLI: bad input is a located
error (file:line:column, or the option it came from) with exit 2, never a traceback or exit 3;
good input is accepted with the right value.

A case: the files it writes (`{dir}` in argv is the case's folder; `BASELINE:OLD|NEW` is the
report licheck writes for composer2.yaml with OLD replaced by NEW once), the argv, the exit code,
and what stderr and stdout must say (regular expressions, white space folded)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.clirun import run
from tests.conftest import PRODUCTS


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


MANIFEST_EUR = """\
format: 2
product: P
owner: O
currency_rates: {EUR: 1.08}
facts:
  commercial: {value: true}
  monthly_revenue: {value: 200M EUR/year}
  mau: {value: 150M}
  ui_attribution: {excludes: [Kimi K2.5]}
agreements: []
components:
  - id: c
    name: C
    delivery: [hosted_service]
    lineage: {base: kimi-k2.5}
"""


def waivers(pin: str) -> str:
    return f"""\
waivers:
  - id: w1
    product: P
    license: kimi-k2.5-modified-mit
    clause: ui-attribution
    reason: facts_pending
    comment: asking the licensor
    owner: legal@example.com
    expires: 2099-06-30
    pins:
      {pin}
"""


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]
    code: int
    err: tuple[str, ...] = ()  # each in stderr (a regular expression)
    out: tuple[str, ...] = ()  # each in stdout (a regular expression)
    files: dict[str, str] = field(default_factory=dict)


IMPORT = ("import", "cyclonedx", "{dir}/bom.json")
WHATIF = ("whatif", str(PRODUCTS / "composer2.yaml"))
PIN = ("check", "{dir}/m.yaml", "--waivers", "{dir}/w.yaml")
COMPOSER = str(PRODUCTS / "composer2.yaml")
LOCATED = r"bom\.json:8:16: error: invalid JSON: "


CASES = [
    # -- CycloneDX BOMs: JSON that json.loads takes, or refuses without a place -----------------
    Case(
        "bom lone high surrogate",
        IMPORT,
        2,
        (LOCATED + r"\\ud800 is half",),
        files={"bom.json": bom("\\ud800")},
    ),
    Case(
        "bom lone low surrogate",
        IMPORT,
        2,
        (LOCATED + r"\\udc00 is half",),
        files={"bom.json": bom("\\udc00x")},
    ),
    Case(
        "bom high then a letter",
        IMPORT,
        2,
        (LOCATED + r"\\ud83d is half",),
        files={"bom.json": bom("\\ud83d\\u0041")},
    ),
    Case(
        "bom reversed pair",
        IMPORT,
        2,
        (LOCATED + r"\\ude00 is half",),
        files={"bom.json": bom("\\ude00\\ud83d")},
    ),
    Case(
        "bom surrogate in a key",
        IMPORT,
        2,
        (r"bom\.json:8:21: error: invalid JSON: \\udbff is half",),
        files={"bom.json": bom("X", ' "\\udbff": 1,')},
    ),
    Case(
        "bom surrogate pair is one character",
        IMPORT,
        0,
        out=(r'name: "Acme \\U0001F600"',),
        files={"bom.json": bom("Acme \\ud83d\\ude00")},
    ),
    Case(
        "bom escaped backslash is no escape",
        IMPORT,
        0,
        out=(r"\\ud800",),
        files={"bom.json": bom("a\\\\ud800")},
    ),
    Case(
        "bom 5,000-digit integer",
        IMPORT,
        2,
        (r"bom\.json:8:31: error: invalid JSON: an integer of 5,000 digits \(at most 4,300\)",),
        files={"bom.json": bom("X", ' "version": ' + "7" * 5000 + ",")},
    ),
    Case(
        "bom negative 5,000-digit integer",
        IMPORT,
        2,
        (r"bom\.json:8:31: error: .*5,000 digits",),
        files={"bom.json": bom("X", ' "version": -' + "7" * 5000 + ",")},
    ),
    Case(
        "bom 4,300-digit integer is read",
        IMPORT,
        0,
        out=("Kimi K2.5|kimi-k2.5",),
        files={"bom.json": bom("X", ' "version": ' + "7" * 4300 + ",")},
    ),
    Case(
        "bom digits inside a string are text",
        IMPORT,
        0,
        out=("kimi-k2.5",),
        files={"bom.json": bom("X", ' "version": "' + "7" * 5000 + '",')},
    ),
    Case(
        "bom nested deeper than the parser follows",
        IMPORT,
        2,
        (r"bom\.json:1:100000: error: invalid JSON: nested 100,000 levels deep",),
        files={"bom.json": "[" * 100_000 + "]" * 100_000},
    ),
    Case(
        "bom nested deep, brackets in a string not counted",
        IMPORT,
        2,
        (r"bom\.json:1:5018: error: invalid JSON: nested 5,001 levels deep",),
        files={"bom.json": '{"a": "[[[[", "b":' + "[" * 5000 + "]" * 5000 + "}"},
    ),
    # -- baselines: the other JSON input --------------------------------------------------------
    Case(
        "baseline lone surrogate",
        ("check", COMPOSER, "--baseline", "{dir}/b.json"),
        2,
        (r"b\.json:\d+:\d+: error: not valid JSON \(\\ud800 is half",),
        files={"b.json": "BASELINE:Composer 2|Composer \\ud800"},
    ),
    Case(
        "baseline 5,000-digit integer",
        ("check", COMPOSER, "--baseline", "{dir}/b.json"),
        2,
        (r"b\.json:\d+:\d+: error: not valid JSON \(an integer of 5,000 digits",),
        files={"b.json": 'BASELINE:"findings": 2|"findings": ' + "2" * 5000},
    ),
    # -- --set and --sweep: a value typed wrongly is refused at the option ----------------------
    Case(
        "set unterminated quote",
        (*WHATIF, "--set", 'ui_attribution=["unterminated]'),
        2,
        ("--set ui_attribution: the quote that opens",),
    ),
    Case(
        "set bracket too many",
        (*WHATIF, "--set", "ui_attribution=[Kimi K2.5]]"),
        2,
        (r"--set ui_attribution: '\]' after the list",),
    ),
    Case(
        "set list never closed",
        (*WHATIF, "--set", "ui_attribution=[Kimi K2.5, Cursor"),
        2,
        ("--set ui_attribution: the list .* is never closed",),
    ),
    Case(
        "set empty name",
        (*WHATIF, "--set", "ui_attribution=[Kimi K2.5,,Cursor]"),
        2,
        ("--set ui_attribution: an empty name",),
    ),
    Case(
        "set two clauses without ;",
        (*WHATIF, "--set", "ui_attribution=includes [a] excludes [b]"),
        2,
        ("--set ui_attribution: expected ; or the end",),
    ),
    Case(
        "set bare name with a bracket",
        (*WHATIF, "--set", "ui_attribution=Kimi K2.5]"),
        2,
        ("--set ui_attribution: .* is neither a list in brackets nor a plain name",),
    ),
    Case(
        "set quote inside a plain name",
        (*WHATIF, "--set", 'ui_attribution=[Kimi "K2.5"]'),
        2,
        ("--set ui_attribution: .* inside the name",),
    ),
    Case(
        "set quoted name is read whole",
        (*WHATIF, "--set", 'ui_attribution=["Kimi K2.5"]'),
        0,
        out=(r"ui_attribution = \[Kimi K2.5\]", "SATISFIED"),
    ),
    Case(
        "set quoted comma and quote",
        (*WHATIF, "--set", 'attribution_elsewhere=["Kimi, K2.5", "say ""hi"""]'),
        0,
        out=(r'Scenario: attribution_elsewhere = \[Kimi, K2.5, say "hi"\]',),
    ),
    Case("sweep with two ranges", (*WHATIF, "--sweep", "mau=1M..2M..3M"), 2, ("--sweep mau: ",)),
    Case(
        "sweep backwards",
        (*WHATIF, "--sweep", "mau=3M..1M"),
        2,
        ("--sweep mau: FROM must be less than TO",),
    ),
    # -- waiver pins ----------------------------------------------------------------------------
    Case(
        "pin in the manifest's currency",
        PIN,
        2,
        (r"w\.yaml:11:24: error: pin monthly_revenue: written in EUR\..*216M USD/year",),
        files={"m.yaml": MANIFEST_EUR, "w.yaml": waivers("monthly_revenue: 200M EUR/year")},
    ),
    Case(
        "pin in USD at the manifest's rate applies",
        PIN,
        0,
        out=(r"VIOLATION \(waived: w1\)", r"note: waived by w1"),
        files={"m.yaml": MANIFEST_EUR, "w.yaml": waivers("monthly_revenue: 216M USD/year")},
    ),
    Case(
        "a month pinned for a year's figure lapses",  # only the average month is known
        PIN,
        1,
        out=(r"waiver w1 no longer applies", r"monthly_revenue\s+was\s+18M USD/month,"),
        files={"m.yaml": MANIFEST_EUR, "w.yaml": waivers("monthly_revenue: 18M USD/month")},
    ),
    Case(
        "pin off by a dollar lapses",
        PIN,
        1,
        out=(r"waiver w1 no longer applies", r"monthly_revenue\s+was\s+≈18M USD/month on"),
        files={"m.yaml": MANIFEST_EUR, "w.yaml": waivers("monthly_revenue: 216000012 USD/year")},
    ),
    Case(
        "pin of an unknown currency",
        PIN,
        2,
        (r"w\.yaml:11:24: error: pin monthly_revenue: written in XYZ",),
        files={"m.yaml": MANIFEST_EUR, "w.yaml": waivers("monthly_revenue: 5M XYZ/month")},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bounded_inputs(case: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
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
