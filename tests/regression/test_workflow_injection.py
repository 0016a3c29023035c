"""Injection and data (issue 21, deliverable 6), as a data table: nothing a manifest, a waiver
file, a file name or an argument holds becomes a CI workflow command in any output or on stderr
(`::name::` at a line start, and the runner's older `##[name]` anywhere in a line:
actions/runner `ActionCommand.cs`); no `-o` writes over an input or a file the configuration
names; the step summary is appended only to a regular file that is no input; `licenses verify`
reads no text outside `--texts`; a read-only report is not replaced; TERM=dumb gets no colour.

`CASES` is the table (data: tests/data/workflow_injection/cases.yaml), `test_case` the one test
over it; `test_generated_text_*` checks the command rule over generated strings in every format
(hypothesis)."""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.clirun import run
from tests.regression.cases import table

ROOT = Path(__file__).resolve().parents[2]
COMPOSER = ROOT / "products" / "composer2.yaml"
REFERENCE_TEXTS = ROOT.parent / "shared" / "reference" / "licenses"
CHECK_FORMATS = ("text", "json", "sarif", "junit", "markdown", "github", "compact", "html")

# every line break a runner or log viewer might split on (str.splitlines' set)
BREAKS = re.compile("\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
# licheck's own annotations (--format github): read by the runner as that command only
OWN_COMMAND = re.compile(r"::(error|warning|notice) (file|line|col|title)=[^:]*::")


def command_lines(text: str) -> list[str]:
    """The lines of `text` a GitHub runner would read as a workflow command not licheck's own:
    `::` first after white space, or `##[` anywhere."""
    return [
        line
        for line in BREAKS.split(text)
        if not OWN_COMMAND.match(line) and (line.lstrip().startswith("::") or "##[" in line)
    ]


def quoted(text: str) -> str:
    return json.dumps(text)  # a YAML double-quoted scalar too


def hostile_manifest(folder: Path, text: str, where: str, name: str = "m.yaml") -> Path:
    """Composer 2 with `text` in one place (`where`)."""
    body = COMPOSER.read_text(encoding="utf-8")
    swaps = {
        "product": ("product: Composer 2", f"product: {quoted(text)}"),
        "owner": ("owner: Cursor (Anysphere)", f"owner: {quoted(text)}"),
        "component": ("    name: Composer 2", f"    name: {quoted(text)}"),
        "shown-name": ("excludes: [Kimi K2.5]", f"excludes: [Kimi K2.5, {quoted(text)}]"),
        "source-title": (
            'title: "Seed article: Cursor\'s ARR estimated at about 2 billion USD"',
            f"title: {quoted(text)}",
        ),
        "fact-note": (
            "    note: No figure for Cursor's monthly active users (the whole service Composer 2 "
            "is used for, not Composer 2's share) is given.",
            f"    note: {quoted(text)}",
        ),
        "fact-name": ("  commercial:\n", f"  {quoted(text)}:\n    value: true\n  commercial:\n"),
        "evidence-kind": ("kind: press_report", f"kind: {quoted(text)}"),
        "file": ("", ""),
    }
    old, new = swaps[where]
    assert old in body
    path = folder / (text.replace("/", "_") + ".yaml" if where == "file" else name)
    path.write_text(body.replace(old, new, 1) if old else body, encoding="utf-8")
    return path


def waiver_file(folder: Path, text: str = "c", *, expires: str = "2026-06-30") -> Path:
    entry = {
        "id": "w1",
        "product": "Composer 2",
        "license": "kimi-k2.5-modified-mit",
        "clause": "ui-attribution",
        "reason": "facts_pending",
        "comment": text,
        "owner": text,
        "expires": expires,
    }
    body = "\n    ".join(f"{k}: {quoted(v)}" for k, v in entry.items())
    path = folder / "w.yaml"
    path.write_text(f"waivers:\n  - {body}\n", encoding="utf-8")
    return path


@dataclass(frozen=True)
class Case:
    """One adversarial case.  `kind`:
    - inject: `text` put at `where`, `argv` run (`{m}`: the manifest, `{w}`: the waiver file):
      no command line on stdout or stderr, and `seen` (when given) reaches one of them;
    - refuse: the configuration names `w.yaml` (waivers) and `p.yaml` (policy); `argv` with
      `-o {target}` exits 2 and leaves the target as it was;
    - summary: GITHUB_STEP_SUMMARY is `target` (`{fifo}`, `{dir}`, ...); check -f github keeps
      its gate's exit code `code`, warns, and writes nothing there;
    - verify: a layer's rule names its text `target`: exit 2, located at the rule's text.file;
    - colour: `env` set, `argv` on a terminal: coloured or not (`code` 1: coloured)."""

    name: str
    kind: str
    argv: tuple[str, ...] = ()
    text: str = ""
    where: str = "product"
    seen: str = ""
    target: str = ""
    code: int = 0
    env: dict[str, str] = field(default_factory=dict)


CASES = table(Case, "workflow_injection")


def _workspace(tmp_path: Path, case: Case) -> dict[str, str]:
    """The case's files in `tmp_path` (the working folder); the names for `argv`."""
    names: dict[str, str] = {}
    card = f"---\nlicense: mit\nbase_model: {quoted(case.text)}\n---\n# {case.text}\n"
    names["card"] = "card.md"
    (tmp_path / "card.md").write_text(card, "utf-8")
    bom = (ROOT / "tests" / "data" / "import" / "bom-kimi-1.6.json").read_text("utf-8")
    names["bom"] = "bom.json"
    (tmp_path / "bom.json").write_text(bom.replace('"Composer"', quoted(case.text)), "utf-8")
    if case.where == "waiver":
        manifest = hostile_manifest(tmp_path, "Composer 2", "product")
        names["w"] = waiver_file(tmp_path, case.text, expires="2026-06-30").name
    elif case.text and case.where not in ("card", "bom"):
        manifest = hostile_manifest(tmp_path, case.text, case.where)
    else:
        manifest = hostile_manifest(tmp_path, "Composer 2", "product")
    names["m"] = manifest.name
    return names


def _argv(case: Case, names: dict[str, str]) -> list[str]:
    return [arg.format(**names) for arg in case.argv]


def _inject(capsys: pytest.CaptureFixture[str], tmp_path: Path, case: Case) -> None:
    names = _workspace(tmp_path, case)
    code, out, err = run(capsys, *_argv(case, names))
    assert code in (0, 1, 2)
    assert command_lines(out) == [], out
    assert command_lines(err) == [], err
    if case.seen:
        assert case.seen in out + err  # the text did reach the output


def _configured(tmp_path: Path) -> None:
    """A configuration naming a waiver file and a policy file, and a model card to import."""
    waiver_file(tmp_path)
    shutil.copy(ROOT / "docs" / "policy-example.yaml", tmp_path / "p.yaml")
    (tmp_path / ".licheck.yaml").write_text("waivers: w.yaml\npolicy: [p.yaml]\n", "utf-8")
    (tmp_path / "card.md").write_text("---\nlicense: mit\n---\n# A model\n", "utf-8")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text('MODEL = "moonshotai/Kimi-K2.5"\n', "utf-8")
    read_only = tmp_path / "ro.json"
    read_only.write_text("{}\n", "utf-8")
    read_only.chmod(0o444)


def _refuse(capsys: pytest.CaptureFixture[str], tmp_path: Path, case: Case) -> None:
    names = _workspace(tmp_path, case)
    _configured(tmp_path)
    argv = _argv(case, names)
    if case.target:
        argv += ["-o", case.target.format(**names)]
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    code, out, err = run(capsys, *argv)
    assert code == 2, (out, err)
    assert "licheck: error:" in err and ("input" in err or "read-only" in err), err
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert after == before  # nothing written, nothing left behind


def _summary(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    case: Case,
) -> None:
    names = _workspace(tmp_path, case)
    _configured(tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    (tmp_path / "folder").mkdir()
    target = case.target.format(fifo=fifo.name, dir="folder", **names)
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", target)
    waivers = ["--waivers", "w.yaml"]
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    code, out, err = run(capsys, "check", names["m"], *waivers, "-f", "github", *case.argv)
    assert code == case.code, err  # the gate's own result
    assert "licheck: warning: the step summary is not written" in err
    assert "::warning " in out or "::error " in out  # the annotations are all there
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert after == before


def _verify(capsys: pytest.CaptureFixture[str], tmp_path: Path, case: Case) -> None:
    if not REFERENCE_TEXTS.is_dir():
        pytest.skip("../shared/reference/licenses is absent")
    texts = tmp_path / "texts"
    shutil.copytree(REFERENCE_TEXTS, texts)
    layer = tmp_path / "lay"
    layer.mkdir()
    rule = layer / "apache-2.0.yaml"
    body = (ROOT / "licenses" / "apache-2.0.yaml").read_text("utf-8")
    outside = tmp_path / "outside.txt"
    outside.write_text("not a license\n", "utf-8")
    (texts / "link.txt").symlink_to(outside)
    target = case.target.format(link="link.txt")
    body = re.sub(r"(?m)^  file: .*$", lambda _: f"  file: {quoted(target)}", body, count=1)
    rule.write_text(body, "utf-8")
    line = next(n for n, text in enumerate(body.split("\n"), 1) if text.startswith("  file: "))
    code, out, err = run(
        capsys, "licenses", *case.argv, "--texts", str(texts), "--licenses", str(layer)
    )
    assert code == 2, (out, err)
    assert f"apache-2.0.yaml:{line}:" in err and "outside the texts folder" in err
    assert "SHA-256" not in out + err


class Terminal:
    """A stand-in for a terminal standard output."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.encoding = "utf-8"

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)

    def flush(self) -> None:
        return None

    def fileno(self) -> int:
        raise OSError("no descriptor")


def _colour(monkeypatch: pytest.MonkeyPatch, case: Case) -> None:
    import sys

    from licheck.cli import cli
    from licheck.cli.common import run_guarded

    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    for key, value in case.env.items():
        monkeypatch.setenv(key, value)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stdout", terminal)
    assert run_guarded(cli, list(case.argv)) == 0
    coloured = "\x1b[" in "".join(terminal.parts)
    assert coloured is bool(case.code)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_case(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    case: Case,
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "60")  # wrapping brings text to the start of lines
    runs: dict[str, Callable[[], None]] = {
        "inject": lambda: _inject(capsys, tmp_path, case),
        "refuse": lambda: _refuse(capsys, tmp_path, case),
        "summary": lambda: _summary(capsys, monkeypatch, tmp_path, case),
        "verify": lambda: _verify(capsys, tmp_path, case),
        "colour": lambda: _colour(monkeypatch, case),
    }
    runs[case.kind]()


def test_the_table_is_large() -> None:
    assert len(CASES) >= 25
    assert {case.kind for case in CASES} == {"inject", "refuse", "summary", "verify", "colour"}


# ----------------------------------------------- generated strings, every format (hypothesis)

PIECES = st.sampled_from(
    [
        *(":", "::", "#", "##", "##[", "[", "]", " ", "\t", "\u00a0", "\u3000", "\n", "\r"),
        *("\r\n", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\x1c", "\x1e", "%", ",", "="),
        *("\\", ";", "error", "add-mask", "stop-commands", "set-output name=x", "group", "x3a"),
    ]
)
HOSTILE = st.lists(PIECES, min_size=1, max_size=12).map(lambda parts: "Q7" + "".join(parts))


@pytest.mark.slow
@pytest.mark.parametrize("fmt", CHECK_FORMATS)
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=HOSTILE, where=st.sampled_from(["product", "component", "owner", "source-title"]))
def test_generated_text_starts_no_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str, text: str, where: str
) -> None:
    """Whatever the text, wherever it stands, no line of any format or of stderr is a workflow
    command (licheck's own github annotations apart)."""
    manifest = hostile_manifest(tmp_path, text, where)
    code, out, err = run(capsys, "check", str(manifest), "--no-waivers", "-v", "-f", fmt)
    assert code in (0, 1, 2)
    assert command_lines(out) == []
    assert command_lines(err) == []


@settings(max_examples=200, deadline=None)
@given(text=st.text(st.sampled_from(":#[] \t\n\r\u2028\x85ab")) | HOSTILE)
def test_generated_text_escapes(text: str) -> None:
    """Each target's escape breaks every `::` and `##[` and keeps no raw line break, and a
    reader gets the text back: JSON exactly, terminal text with the escapes undone."""
    from licheck.text import escape

    for escaped in (escape.terminal(text), escape.markup(text), escape.markdown(text)):
        assert "::" not in escaped and "##[" not in escaped
        assert BREAKS.search(escaped) is None
    if "\\" not in text:  # (a backslash of the text's own would make undoing ambiguous)
        undone = escape.terminal(text).replace("\\x3a", ":").replace("\\x23", "#")
        assert undone == escape.controls(text)
    assert "::" not in escape.xml_text(text) and "##[" not in escape.xml_text(text)
    encoded = escape.json_text(json.dumps(text, ensure_ascii=False))
    assert json.loads(encoded) == text
    assert "::" not in encoded and "##[" not in encoded and BREAKS.search(encoded) is None


@pytest.mark.parametrize(("term", "drawn"), [("dumb", False), ("UNKNOWN", False), ("xterm", True)])
def test_progress_line_not_on_a_dumb_terminal(
    monkeypatch: pytest.MonkeyPatch, term: str, drawn: bool
) -> None:
    from licheck.cli.progress import Progress, for_terminal

    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("TERM", term)
    assert isinstance(for_terminal(Terminal()), Progress) is drawn  # type: ignore[arg-type]
