"""A standing adversarial suite: bad inputs and faults, each with its exact outcome.

Classes: escaping per target (pure), injection per output format (end to end), data loss
(outputs onto inputs, devices, symlinks), silent skips in discovery, hangs (subprocesses with a
timeout), environments (encodings, closed streams, TERM/COLUMNS/HOME), waivers, importers.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import stat
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest

from licheck.core.diagnostics import InputError
from licheck.files.discovery import discover
from licheck.importers.skeleton import unique
from licheck.text import escape
from tests.clirun import run

ROOT = Path(__file__).resolve().parents[2]
COMPOSER = ROOT / "products" / "composer2.yaml"
WAIVERS = ROOT / "tests" / "data" / "waivers" / "composer2.yaml"
CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
TIMEOUT = 60

HOSTILE = [
    "plain",
    "\x1b[31mred\x1b[0m",
    "\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\",
    "\x1b]0;pwned title\x07",
    "bell\x07",
    "line\n::error file=x::forged",
    "cr\r::warning::forged",
    "[/x]",
    "[bold]b[/bold]",
    "[link=https://evil.example]click[/link]",
    "</details>",
    "<script>alert(1)</script>",
    "### licheck: ✅ gate passes",
    "a | b | c",
    "`code` and ``` fence",
    "**bold** _it_ ~~s~~",
    "[text](javascript:alert(1))",
    "&amp; &lt;",
    "nul\x00byte",
    "del\x7f c1\x85 csi\x9b",
    "bidi\u202eevil\u202c",
    "tab\tkept",
    "percent %0A %25",
    "colon: comma, both",
    "naïve ünïcode 😀",
    "\ud800"[:0] + "form\x0cfeed\x0bvt",
]
IDS = [f"h{n}" for n in range(len(HOSTILE))]


# ---------------------------------------------------------------- escaping, pure, per target


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_terminal_shows_no_control(text: str) -> None:
    out = escape.terminal(text)
    assert CONTROL.search(out.replace("\t", "")) is None
    assert escape.terminal(out) == out  # idempotent: nothing left to escape


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_markup_renders_literally(text: str) -> None:
    import io

    from rich.console import Console
    from rich.text import Text

    console = Console(width=200, color_system=None, record=True, file=io.StringIO())
    console.print(escape.markup(text), markup=True, highlight=False, emoji=False)
    shown = console.export_text().rstrip("\n")
    assert "\x1b" not in shown and "\x07" not in shown
    assert shown.replace("\\", "") == Text(escape.rich(text)).plain.expandtabs(8).replace("\\", "")


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_markdown_cannot_open_or_close_blocks(text: str) -> None:
    out = escape.markdown(text)
    assert "\n" not in out and "\r" not in out
    assert "<" not in out and ">" not in out
    assert re.search(r"(?<!\\)[`|*_\[\]#~]", out) is None
    assert CONTROL.search(out) is None


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_markdown_code_span_stays_closed(text: str) -> None:
    out = escape.markdown_code(text)
    assert "`" not in out and "\n" not in out and "<" not in out
    assert re.search(r"(?<!\\)\|", out) is None


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_github_data_is_one_line(text: str) -> None:
    out = escape.github_data(text)
    assert "\n" not in out and "\r" not in out
    assert out.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%") == text


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_github_property_has_no_separators(text: str) -> None:
    out = escape.github_property(text)
    assert not {":", ",", "\n", "\r"} & set(out)


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_xml_text_is_well_formed(text: str) -> None:
    ET.fromstring(f"<a b='{escape.xml_text(text)}'>{escape.xml_text(text)}</a>")


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_xml_chars_parse_through_elementtree(text: str) -> None:
    element = ET.Element("a", {"b": escape.xml_chars(text)})
    element.text = escape.xml_chars(text)
    ET.fromstring(ET.tostring(element, encoding="unicode"))


@pytest.mark.parametrize("text", HOSTILE, ids=IDS)
def test_yaml_comment_cannot_write_keys(text: str) -> None:
    import yaml

    document = f"# {escape.yaml_comment(text)}\nkey: 1\n"
    assert yaml.safe_load(document) == {"key": 1}


EXACT = [
    (escape.terminal, "\x1b[2J", "\\e[2J"),
    (escape.terminal, "a\nb", "a\\nb"),
    (escape.terminal, "a\x07", "a\\x07"),
    (escape.terminal, "\u202e", "\\u202e"),
    (escape.terminal, "tab\t", "tab\t"),
    (escape.markup, "[/x]", "\\[/x]"),
    (escape.markdown, "<b>", "&lt;b&gt;"),
    (escape.markdown, "a|b", "a\\|b"),
    (escape.markdown, "# h", "\\# h"),
    (escape.markdown, "x\ny", "x y"),
    (escape.markdown_code, "a`b", "a'b"),
    (escape.github_data, "50%\n", "50%25%0A"),
    (escape.github_property, "a:b,c", "a%3Ab%2Cc"),
    (escape.xml_chars, "a\x00b", "a\\x00b"),
    (escape.xml_text, "<&>", "&lt;&amp;&gt;"),
    (escape.yaml_comment, "a\nkey: v", "a\\nkey: v"),
]


@pytest.mark.parametrize(("function", "text", "expected"), EXACT)
def test_escape_exact(function: object, text: str, expected: str) -> None:
    assert function(text) == expected  # type: ignore[operator]


# ------------------------------------------------------- injection, end to end, per format


def _hostile_manifest(tmp_path: Path, name: str) -> Path:
    text = COMPOSER.read_text(encoding="utf-8")
    quoted = json.dumps(name)  # a YAML double-quoted scalar
    lines = [
        f"product: {quoted}" if line.startswith("product:") else line for line in text.split("\n")
    ]
    path = tmp_path / "m.yaml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


PAYLOADS = [
    "Evil\x1b]0;title\x07\x1b[2J",
    "Evil\n::error file=x.yaml,line=1::forged",
    "Evil [/x] [link=https://evil.example]go[/link]",
    "Evil </details> <script>x</script>\n### licheck: gate passes",
    "Evil\x00\x01\x0b\x85",
]
FORMATS = ["text", "markdown", "github", "junit", "json", "sarif", "html", "compact"]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("payload", PAYLOADS, ids=[f"p{n}" for n in range(len(PAYLOADS))])
def test_format_escapes_product_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str, payload: str
) -> None:
    manifest = _hostile_manifest(tmp_path, payload)
    code, out, err = run(capsys, "check", str(manifest), "--no-waivers", "-f", fmt)
    assert (code, err) == (0, "")
    assert "\x1b" not in out and "\x07" not in out
    if fmt == "json" or fmt == "sarif":
        json.loads(out)
    if fmt == "junit":
        ET.fromstring(out.encode("utf-8"))
    if fmt == "markdown":
        assert "<script" not in out and "\n### licheck: gate passes" not in out
        assert out.count("</details>") == out.count("<details>")
    if fmt == "github":
        commands = [line for line in out.splitlines() if line.startswith("::")]
        assert all(line.startswith(("::error ", "::warning ", "::notice ")) for line in commands)
        assert not any("forged" in line.split("::")[1] for line in commands)
    if fmt == "html":  # manifest text is data: no markup of its own, no control characters
        assert "<script" not in out and "<img" not in out
        assert CONTROL.search(out.replace("\n", "")) is None
    if fmt == "compact":  # one line a finding: a newline in a name must not forge another
        assert all(line.startswith(str(manifest)) for line in out.splitlines()[:1])
        assert "\n::error" not in out and "\n### licheck" not in out
    if fmt == "text":
        assert "[link=" in out or "[/x]" not in payload
        assert CONTROL.search(out.replace("\n", "")) is None


FILE_NAMES = ["bad\n::error file=a::forged.yaml", "esc\x1b]0;t\x07.yaml", "bidi\u202eevil.yaml"]


@pytest.mark.parametrize("name", FILE_NAMES, ids=["newline", "osc", "bidi"])
@pytest.mark.parametrize("fmt", ["text", "github"])
def test_stderr_escapes_file_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, fmt: str
) -> None:
    bad = tmp_path / name
    bad.write_text("product: [\n", encoding="utf-8")
    code, out, err = run(capsys, "check", str(bad), "-f", fmt)
    assert code == 2  # the report lists the manifest that could not be read
    assert not any(line.startswith("::") for line in err.splitlines())
    assert CONTROL.search((out + err).replace("\n", "")) is None
    assert "1 problem in the input: 1 manifest could not be read" in err
    commands = [line for line in out.splitlines() if line.startswith("::")]
    assert len(commands) == (1 if fmt == "github" else 0)  # licheck's own ::error, or none
    assert all(len(line.split("::")) == 3 for line in commands)  # the name forged nothing


# ------------------------------------------------------------------------------- data loss


def _digest(path: Path) -> bytes:
    return path.read_bytes()


def _setup(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "d"
    folder.mkdir()
    shutil.copy(COMPOSER, folder / "a.yaml")
    shutil.copy(COMPOSER, tmp_path / "m.yaml")
    shutil.copy(WAIVERS, tmp_path / "w.yaml")
    licenses = tmp_path / "lib"
    shutil.copytree(ROOT / "licenses", licenses)
    (tmp_path / "bom.json").write_text('{"bomFormat": "CycloneDX"}', encoding="utf-8")
    (tmp_path / "README.md").write_text("---\nlicense: mit\n---\n", encoding="utf-8")
    return {"d": folder, "m": tmp_path / "m.yaml", "w": tmp_path / "w.yaml", "lib": licenses}


OVERWRITES = [
    (["whatif", "m.yaml", "-o", "m.yaml"], "m.yaml", "is an input of this run"),
    (["check", "d", "-o", "d/a.yaml"], "d/a.yaml", "inside the input folder"),
    (["check", "d", "-o", "d/new.yaml"], None, "inside the input folder"),
    (["check", "m.yaml", "--waivers", "w.yaml", "-o", "w.yaml"], "w.yaml", "is an input"),
    (["evaluate", "m.yaml", "--waivers", "w.yaml", "-o", "w.yaml"], "w.yaml", "is an input"),
    (["evaluate", "m.yaml", "-o", "m.yaml"], "m.yaml", "is an input"),
    (["check", "m.yaml", "--licenses", "lib", "-o", "lib/mit.yaml"], "lib/mit.yaml", "inside"),
    (
        ["evaluate", "m.yaml", "--licenses", "lib", "-o", "lib/catalog.yaml"],
        "lib/catalog.yaml",
        "inside",
    ),
    (["import", "cyclonedx", "bom.json", "-o", "bom.json"], "bom.json", "is an input"),
    (["import", "hf", "README.md", "-o", "README.md"], "README.md", "is an input"),
    (
        ["whatif", "m.yaml", "--sweep", "mau=1..1000M", "--plot", "x.svg", "-o", "x.svg"],
        None,
        "the same file as",
    ),
    (["whatif", "m.yaml", "--sweep", "mau=1..1000M", "--plot", "m.yaml"], "m.yaml", "is an input"),
    (["check", "d", "-o", "d"], "d/a.yaml", "is a directory"),
]


@pytest.mark.parametrize(
    ("argv", "kept", "message"), OVERWRITES, ids=[" ".join(a) for a, _, _ in OVERWRITES]
)
def test_outputs_never_overwrite_inputs(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    kept: str | None,
    message: str,
) -> None:
    _setup(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = _digest(tmp_path / kept) if kept else None
    listing = sorted(p.name for p in tmp_path.rglob("*"))
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    assert message in err
    assert "Traceback" not in err
    if kept:
        assert _digest(tmp_path / kept) == before
    assert sorted(p.name for p in tmp_path.rglob("*")) == listing  # nothing created, no temp


def test_symlinked_output_writes_its_target(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _setup(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.json").symlink_to("target.json")
    code, _, err = run(capsys, "check", "m.yaml", "-f", "json", "-o", "link.json")
    assert (code, err) == (0, "")
    assert (tmp_path / "link.json").is_symlink()
    json.loads((tmp_path / "target.json").read_text(encoding="utf-8"))


def test_dev_null_stays_a_device(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "check", str(COMPOSER), "-o", "/dev/null")
    assert (code, err) == (0, "")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_fifo_output_is_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = _licheck("check", str(COMPOSER), "-f", "json", "-o", str(fifo))
    reader.join(TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert json.loads(received[0])["summary"]["products"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.fifo"]


def test_same_report_twice_keeps_permissions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = tmp_path / "r.txt"
    report.write_text("old", encoding="utf-8")
    report.chmod(0o640)
    assert run(capsys, "check", str(COMPOSER), "-o", str(report))[0] == 0
    assert stat.S_IMODE(report.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.txt"]


# ---------------------------------------------------------------------- silent skip (discovery)

BODY = COMPOSER.read_text(encoding="utf-8")
FOUND = {
    "bom": b"\xef\xbb\xbf" + BODY.encode(),
    "double-quoted": BODY.replace("product:", '"product":', 1).encode(),
    "single-quoted": BODY.replace("product:", "'product':", 1).encode(),
    "explicit-key": BODY.replace("product:", "? product\n:", 1).encode(),
    "key-spaced": BODY.replace("product:", "product   :", 1).encode(),
    "late-key": b"#" * (3 << 20) + b"\n" + BODY.encode(),
    "json-one-line": json.dumps({"product": "X", "owner": "Y"}).encode(),
    "json-indented": json.dumps({"owner": "Y", "product": "X"}, indent=2).encode(),
    "flow-after-marker": b"--- {owner: Y, product: X}\n",
    "flow-after-comment": b"# a comment\n{owner: Y,\n product: X}\n",
    "utf16": BODY.encode("utf-16"),
    "too-large": b"#" * (5 << 20),
}
NOT_FOUND = {
    "ci": b"on: [push]\njobs: {}\n",
    "nested-product": b"release:\n  product: X\n",
    "products-plural": b"products: [a]\n",
}


@pytest.mark.parametrize("name", FOUND)
def test_discovery_finds_every_possible_manifest(tmp_path: Path, name: str) -> None:
    (tmp_path / f"{name}.yaml").write_bytes(FOUND[name])
    assert [p.name for p in discover([tmp_path])] == [f"{name}.yaml"]


@pytest.mark.parametrize("name", NOT_FOUND)
def test_discovery_skips_what_cannot_be_a_manifest(tmp_path: Path, name: str) -> None:
    (tmp_path / f"{name}.yaml").write_bytes(NOT_FOUND[name])
    shutil.copy(COMPOSER, tmp_path / "z.yaml")
    assert [p.name for p in discover([tmp_path])] == ["z.yaml"]


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _parent_loop(folder: Path) -> None:
    (folder / "x").mkdir()
    (folder / "x" / "up").symlink_to("..")


REPORTED: dict[str, tuple[Callable[[Path], object] | None, str, str]] = {
    "fifo": (lambda d: _fifo(d / "p.yaml"), "p.yaml", "is a FIFO (named pipe), not a regular file"),
    "broken-link": (lambda d: (d / "b.yaml").symlink_to("gone.yaml"), "b.yaml", "cannot be read"),
    "self-link": (lambda d: (d / "s.yaml").symlink_to("s.yaml"), "s.yaml", "a symlink loop"),
    "folder-loop": (lambda d: (d / "sub").symlink_to("."), "sub", "a symlink loop"),
    "parent-loop": (
        lambda d: _parent_loop(d),
        "up",
        "a symlink loop",
    ),
    "socket": (None, "s.yaml", "is a socket"),
}


@pytest.mark.parametrize("case", REPORTED)
def test_discovery_reports_what_it_cannot_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    make, name, message = REPORTED[case]
    shutil.copy(COMPOSER, tmp_path / "ok.yaml")
    if make is None:
        import socket

        sock = socket.socket(socket.AF_UNIX)
        cleanup = sock.close
        # bound by a relative name: a socket's path is at most ~107 bytes, and pytest's
        # temporary folder may be longer than that
        monkeypatch.chdir(tmp_path)
        try:
            sock.bind(name)
        except OSError:
            sock.close()
            raise
    else:
        make(tmp_path)
        cleanup = lambda: None  # noqa: E731
    try:
        with pytest.raises(InputError) as caught:
            discover([tmp_path])
    finally:
        cleanup()
    (diagnostic,) = caught.value.diagnostics
    assert Path(diagnostic.file).name == name
    assert message in diagnostic.message


def test_symlinked_folder_is_followed_once(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    shutil.copy(COMPOSER, real / "a.yaml")
    (tmp_path / "alias").symlink_to("real")
    assert [p.name for p in discover([tmp_path])] == ["a.yaml"]


@pytest.mark.parametrize("target", ["gone.yaml", "loop.yaml"])
def test_command_line_symlink_problems(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, target: str
) -> None:
    link = tmp_path / "loop.yaml"
    link.symlink_to(target)
    code, out, err = run(capsys, "check", str(link))
    assert (code, out) == (2, "")
    assert "a broken symlink, or a symlink loop" in err


# ------------------------------------------------------------------- hangs (with a timeout)


def _licheck(
    *argv: str, env: dict[str, str] | None = None, **kw: object
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "licheck", *argv],
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        timeout=TIMEOUT,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        **kw,
    )


HANGS = {
    "fifo-in-folder": (["check", "{d}"], "is a FIFO"),
    "fifo-manifest": (["check", "{d}/p.yaml"], "not a regular file"),
    "fifo-waivers": (["check", str(COMPOSER), "--waivers", "{d}/p.yaml"], "not a regular file"),
    "fifo-hf": (["import", "hf", "{d}/p.yaml"], "not a regular file"),
    "fifo-cyclonedx": (["import", "cyclonedx", "{d}/p.yaml"], "not a regular file"),
    "dev-zero-hf": (["import", "hf", "/dev/zero"], "is a device"),
    "dev-zero-cyclonedx": (["import", "cyclonedx", "/dev/zero"], "not a regular file"),
    "dev-zero-check": (["check", "/dev/zero"], "not a regular file"),
}


@pytest.mark.parametrize("case", HANGS)
def test_no_hang_on_special_files(tmp_path: Path, case: str) -> None:
    os.mkfifo(tmp_path / "p.yaml")
    argv, message = HANGS[case]
    result = _licheck(*(a.replace("{d}", str(tmp_path)) for a in argv))
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_many_same_named_models_are_linear() -> None:
    taken: dict[str, int] = {}
    names = [unique("model", taken) for _ in range(40_000)]
    assert len(set(names)) == 40_000
    assert names[:3] == ["model", "model-2", "model-3"]
    assert unique("model-2", taken) == "model-2-2"


# ----------------------------------------------------------------------------- environments

ENVIRONMENTS = {
    "cp1252": {"PYTHONIOENCODING": "cp1252"},
    "ascii": {"PYTHONIOENCODING": "ascii"},
    "latin1-strict": {"PYTHONIOENCODING": "latin-1:strict"},
    "term-dumb": {"TERM": "dumb"},
    "columns-10": {"COLUMNS": "10"},
    "no-home": {"HOME": ""},
}


@pytest.mark.slow  # a new interpreter per case
@pytest.mark.parametrize("fmt", ["text", "markdown"])
@pytest.mark.parametrize("name", ENVIRONMENTS)
def test_environment_gives_output_not_traceback(name: str, fmt: str) -> None:
    env = dict(ENVIRONMENTS[name])
    result = _licheck("check", "products/composer2.yaml", "-f", fmt, "--fail-on", "risk", env=env)
    assert result.returncode == 1, result.stderr
    assert result.stderr == ""
    assert "Composer 2" in result.stdout


@pytest.mark.parametrize("fail_on", [("violation", 0), ("risk", 1)], ids=["passes", "fails"])
def test_closed_stdout_keeps_the_gate(fail_on: tuple[str, int]) -> None:
    flag, expected = fail_on
    result = subprocess.run(
        [
            "sh",
            "-c",
            f'"{sys.executable}" -m licheck check products/composer2.yaml --fail-on {flag} >&-',
        ],
        capture_output=False,
        stderr=subprocess.PIPE,
        text=True,
        timeout=TIMEOUT,
        cwd=ROOT,
    )
    assert result.returncode == expected
    assert "standard output is closed" in result.stderr
    assert "Traceback" not in result.stderr


# ---------------------------------------------------------------------------------- waivers


def _waiver(tmp_path: Path, **fields: str) -> Path:
    entry = {
        "id": "w1",
        "product": "Composer 2",
        "license": "kimi-k2.5-modified-mit",
        "clause": "ui-attribution",
        "reason": "facts_pending",
        "comment": "c",
        "owner": "o",
        "expires": "2026-06-30",
        **fields,
    }
    path = tmp_path / "w.yaml"
    path.write_text(
        "waivers:\n  - " + "\n    ".join(f"{k}: {json.dumps(v)}" for k, v in entry.items()) + "\n",
        encoding="utf-8",
    )
    return path


WAIVER_CASES = {
    "granted-after-expiry": ({"granted": "2026-07-01"}, 2, "after it expires"),
    "granted-in-future": ({"granted": "2026-05-01"}, 2, "a grant cannot be in the future"),
    "granted-ok": ({"granted": "2026-03-01"}, 0, ""),
    "no-grant": ({}, 0, ""),
    "expired": ({"expires": "2026-03-31"}, 1, ""),
    "injected-comment": ({"comment": "x\n::error::forged\x1b[2J"}, 0, ""),
}


@pytest.mark.parametrize("case", WAIVER_CASES)
def test_waiver_dates(capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str) -> None:
    fields, expected, message = WAIVER_CASES[case]
    waivers = _waiver(tmp_path, **fields)
    code, out, err = run(
        capsys,
        "check",
        str(COMPOSER),
        "--waivers",
        str(waivers),
        "--today",
        "2026-04-01",
        "--fail-on",
        "risk",
        "-f",
        "github",
    )
    assert code == expected, err
    assert message in err
    assert not any(line.startswith("::") for line in err.splitlines())
    assert all(line.startswith(("::", "licheck: ")) for line in out.splitlines() if line)


@pytest.mark.parametrize("by_path", [False, True], ids=["by-name", "by-path"])
def test_waiver_for_a_shared_product_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, by_path: bool
) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    shutil.copy(COMPOSER, folder / "a.yaml")
    shutil.copy(COMPOSER, folder / "b.yaml")
    product = str(folder / "a.yaml") if by_path else "Composer 2"
    waivers = _waiver(tmp_path, product=product)
    code, _, err = run(
        capsys,
        "check",
        str(folder),
        "--waivers",
        str(waivers),
        "--today",
        "2026-04-01",
        "--fail-on",
        "risk",
    )
    if by_path:
        assert (code, err) == (1, "")  # b.yaml still fails: the waiver names a.yaml only
    else:
        assert code == 2
        assert "which 2 manifests of this run share" in err


# -------------------------------------------------------------------------------- importers

BOMS = {
    "huge-int": (
        '{"bomFormat": "CycloneDX", "specVersion": "1.6", "x": ' + "9" * 5000 + "}",
        2,
        "invalid JSON",
    ),
    "deep": ("[" * 100_000 + "]" * 100_000, 2, ""),
    "not-bom": ('{"a": 1}', 2, "not a CycloneDX BOM"),
    "empty": ("", 2, ""),
}


@pytest.mark.parametrize("case", BOMS)
def test_bad_boms(capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str) -> None:
    text, expected, message = BOMS[case]
    bom = tmp_path / "bom.json"
    bom.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "import", "cyclonedx", str(bom))
    assert (code, out) == (expected, "")
    assert message in err and "internal error" not in err


@pytest.mark.parametrize(
    "name",
    ["a\nproduct: forged", "b\r\nowner: x", "c\x1b[2J", "d\u2028e"],
    ids=["lf", "crlf", "esc", "ls"],
)
def test_card_names_cannot_write_keys(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str
) -> None:
    import yaml

    card = tmp_path / "README.md"
    card.write_text(
        "---\nlicense: mit\nbase_model: " + json.dumps(name) + "\n---\n# card\n", encoding="utf-8"
    )
    code, out, err = run(capsys, "import", "hf", str(card), "--model-id", json.dumps(name)[1:-1])
    assert code == 0, err
    document = yaml.safe_load(out)
    assert "forged" not in json.dumps(list(document))
    assert all(
        line.startswith("#")
        for line in out.split("\n")
        if line and not line[0].isalpha() and line[0] not in " -"
    )
