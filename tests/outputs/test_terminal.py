"""The terminal report fits where users work: as wide as COLUMNS (no line wider, at 60 columns
and up), one line per finding from `check` unless -v, colour as --color / NO_COLOR /
FORCE_COLOR say, and readable text on a stdout that is not UTF-8."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

from licheck.cli.common import resolve_color, terminal_width
from licheck.outputs.brief import draw, wrap
from licheck.text.readable import readable
from tests.clirun import run
from tests.conftest import PRODUCTS, ROOT

WIDTHS = (60, 80, 100, 200)
PORTFOLIO = str(PRODUCTS)


def widest(text: str) -> int:
    return max(len(line) for line in text.splitlines())


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("verbosity", [(), ("-v",), ("-vv",)], ids=["brief", "v", "vv"])
def test_check_fits_the_width(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    width: int,
    verbosity: tuple[str, ...],
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = run(capsys, "check", PORTFOLIO, "--fail-on", "risk", *verbosity)
    assert (code, err) == (1, "")
    assert widest(out) <= width
    assert "Gate (--fail-on risk): FAILS" in " ".join(out.split())


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("manifest", sorted(p.name for p in PRODUCTS.glob("*.yaml")))
def test_evaluate_fits_the_width(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, width: int, manifest: str
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = run(capsys, "evaluate", str(PRODUCTS / manifest), "--verbose")
    assert code in (0, 1), err
    assert widest(out) <= width


def test_wide_terminal_never_cuts_ids(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    code, out, _ = run(capsys, "check", str(PRODUCTS / "composer2.yaml"), "-v")
    assert code == 0
    assert "…" not in out
    # folded at the width, every character of the id is there
    assert "kimi-k2.5-modified-mit" in "".join(out.split())


def test_check_prints_one_line_per_finding_and_the_summary(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    code, out, _ = run(capsys, "check", PORTFOLIO)
    assert code == 0  # governance risks only
    lines = out.splitlines()
    findings = [line for line in lines if ": GOVERNANCE RISK " in line or ": VIOLATION " in line]
    assert len(findings) == 5  # one per problem of the five products, nothing else about them
    assert lines[len(findings)] == ""
    assert lines[len(findings) + 1].startswith("Summary: 5 products:")
    assert len(lines) == len(findings) + 4  # blank, summary, gate, hint
    _, verbose, _ = run(capsys, "check", PORTFOLIO, "-v")
    assert len(verbose.splitlines()) >= 10 * len(lines)
    assert "Why:" in verbose and "Why:" not in out


def test_evaluate_stays_detailed(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "evaluate", str(PRODUCTS / "composer2.yaml"))
    assert code == 0
    assert "Why:" in out


def test_wrap_folds_a_word_longer_than_the_line() -> None:
    word = "x" * 50
    lines = wrap([("a", ""), (word, "")], 20)
    texts = ["".join(text for text, _ in line) for line in lines]
    assert all(len(text) <= 20 for text in texts)
    assert "".join(t.strip() for t in texts) == "a" + word  # folded, nothing cut


def test_draw_colours_only_when_asked() -> None:
    spans = [("path:1:2:", ""), ("VIOLATION", "1;31"), ("words", "")]
    assert "\x1b[1;31mVIOLATION\x1b[0m" in draw(spans, 80, True)
    assert "\x1b" not in draw(spans, 80, False)


# ----------------------------------------------------------------------------------- colour

COLOR_CASES = {
    # (args, environment) -> coloured?
    "always-beats-no-color": (("--color", "always"), {"NO_COLOR": "1"}, True),
    "never-beats-force-color": (("--color", "never"), {"FORCE_COLOR": "1"}, False),
    "force-color-when-piped": ((), {"FORCE_COLOR": "1"}, True),
    "no-color-beats-force-color": ((), {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False),
    "auto-piped": ((), {}, False),
}


@pytest.mark.parametrize("command", ["brief", "detailed", "evaluate", "timeline"])
@pytest.mark.parametrize("case", COLOR_CASES)
def test_color(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, case: str, command: str
) -> None:
    args, env, coloured = COLOR_CASES[case]
    monkeypatch.delenv("NO_COLOR", raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    manifest = str(PRODUCTS / "composer2.yaml")
    argv = {
        "brief": ("check", manifest),
        "detailed": ("check", manifest, "-v"),
        "evaluate": ("evaluate", manifest),
        "timeline": ("timeline", manifest),  # it colours verdicts, so it takes --color too
    }[command]
    code, out, err = run(capsys, *argv, *args)
    assert (code, err) == (0, "")
    assert ("\x1b[" in out) is coloured


def test_color_on_whatif_and_licenses(capsys: pytest.CaptureFixture[str]) -> None:
    manifest = str(PRODUCTS / "composer2.yaml")
    for argv in (("whatif", manifest, "--set", "mau=150M"), ("licenses", "list")):
        _, out, _ = run(capsys, *argv, "--color", "always")
        assert "\x1b[" in out, argv
        _, out, _ = run(capsys, *argv, "--color", "never")
        assert "\x1b[" not in out, argv


def test_color_into_a_file_only_when_asked(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    monkeypatch.delenv("NO_COLOR")
    target = os.path.join(str(tmp_path), "report.txt")
    run(capsys, "check", str(PRODUCTS / "composer2.yaml"), "-o", target)
    with open(target, encoding="utf-8") as report:
        assert "\x1b[" not in report.read()
    run(capsys, "check", str(PRODUCTS / "composer2.yaml"), "-o", target, "--color", "always")
    with open(target, encoding="utf-8") as report:
        assert "\x1b[" in report.read()


# -------------------------------------------------------------------------------- encodings


def test_stand_ins_are_readable() -> None:
    assert readable("≈166.67M → risk … “q” · ≤ 5") == '~166.67M -> risk ... "q" - <= 5'
    assert readable("┃━╇│─") == "|-+|-"
    assert readable("Café") == "Cafe"
    assert readable("🛑 violation — ⚠️ risk") == "[x] violation -- ! risk"  # Markdown's marks
    assert readable("模型") == "\\u6a21\\u578b"  # no stand-in: its escape, never "?"


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
@pytest.mark.parametrize("verbosity", [(), ("-v",)], ids=["brief-streamed", "detailed"])
def test_a_non_utf8_stdout_reads_correctly(encoding: str, verbosity: tuple[str, ...]) -> None:
    env = {
        **os.environ,
        "PYTHONIOENCODING": encoding,
        "NO_COLOR": "1",
        "COLUMNS": "100",
    }
    env.pop("PYTHONUTF8", None)
    for fail_on, expected in (("violation", 0), ("risk", 1)):
        done = subprocess.run(
            [sys.executable, "-m", "licheck", "check", "products/composer2.yaml", "--fail-on",
             fail_on, *verbosity],
            cwd=ROOT, env=env, capture_output=True, check=False, timeout=120,
        )  # fmt: skip
        assert done.returncode == expected, done.stderr
        assert done.stderr == b""
        text = done.stdout.decode(encoding)  # it is that encoding, not UTF-8 bytes
        assert "Composer 2" in text
        assert "?" not in text  # no "?" soup
        if encoding == "ascii":
            assert text.isascii()
            # the stand-ins: "—" of the brief line, "≈" and "→" of the details
            assert " -- Composer 2" in " ".join(text.split()) if not verbosity else True
        if verbosity:
            assert "166.67M USD/month" in text
            assert "~166.67M" in text  # "≈" is in neither encoding


@pytest.mark.parametrize(
    ("columns", "width"),
    [("80", 80), (" 120 ", 120), ("abc", 80), ("-5", 80), ("0", 80), ("", 80),
     ("10", 40), ("99999", 1000), ("1e3", 80)],
)  # fmt: skip
def test_terminal_width_from_columns(
    monkeypatch: pytest.MonkeyPatch, columns: str, width: int
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    assert terminal_width(io.StringIO()) == width  # not a terminal: COLUMNS or 100


def test_resolve_color() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("NO_COLOR", raising=False)
        patch.delenv("FORCE_COLOR", raising=False)
        assert resolve_color("auto", Terminal()) is True
        assert resolve_color("auto", io.StringIO()) is False
        assert resolve_color("never", Terminal()) is False
        assert resolve_color("always", io.StringIO()) is True
        patch.setenv("NO_COLOR", "1")
        assert resolve_color("auto", Terminal()) is False
        patch.setenv("NO_COLOR", "")  # empty: as if unset
        assert resolve_color("auto", Terminal()) is True
        patch.setenv("FORCE_COLOR", "1")
        assert resolve_color("auto", io.StringIO()) is True


@pytest.mark.parametrize("encoding", ["ascii", "cp1252"])
@pytest.mark.parametrize("width", [60, 80])
@pytest.mark.parametrize("brief", [True, False], ids=["brief", "detailed"])
def test_stand_ins_are_laid_out_within_the_width(encoding: str, width: int, brief: bool) -> None:
    """`→` shown as `->` is a column wider: the text is laid out with the stand-ins."""
    from licheck.api import evaluate
    from licheck.outputs import Format, RenderOptions, render

    report = evaluate(sorted(PRODUCTS.glob("*.yaml")))
    options = RenderOptions(summary=True, brief=brief, verbose=True, width=width, encoding=encoding)
    text = render(report, Format.TEXT, options)
    text.encode(encoding)  # nothing left that the encoding lacks
    assert widest(text) <= width
    if not brief:
        assert "≈" not in text and "~166.67M USD/month" in text


@pytest.mark.parametrize(
    "argv",
    [
        ("licenses", "list"),
        ("licenses", "show", "llama-3.1-community"),
        ("licenses", "show", "kimi-k2.5-modified-mit"),
        ("whatif", str(PRODUCTS / "composer2.yaml"), "--set", "mau=200M"),
        ("evaluate", "-v", str(PRODUCTS / "composer2.yaml")),
    ],
    ids=["list", "show-llama", "show-kimi", "whatif", "evaluate"],
)
def test_piped_text_fits_80_columns_without_trailing_spaces(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...]
) -> None:
    """Off a terminal with no COLUMNS, text is laid out in 80 columns: no line longer, none
    ending in a space, and no license or model id split across lines."""
    monkeypatch.delenv("COLUMNS", raising=False)
    _, out, _ = run(capsys, *argv, "--color", "never")
    lines = out.splitlines()
    assert lines
    assert [line for line in lines if len(line) > 80] == []
    assert [line for line in lines if line.endswith(" ")] == []
    if argv[:2] == ("licenses", "list"):
        from licheck.library.compiled import load_library

        ids = {entry.license.id for entry in load_library().licenses.values()}
        ids |= {model.id for model in load_library().models}
        words = {word.strip(",") for line in lines for word in line.split()}
        listed = {word for word in words if word in ids}
        assert len(listed) > len(ids) // 2  # every id whole, as a word of its own
