"""Escaping end to end: hostile text in a product name, a file name, a model card, a rule file or
a what-if's input shown by every output format (and on stderr) without driving the terminal,
opening markup or starting a CI workflow command (`::` at a line start, also where wrapping or a
file name would put one)."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from licheck.text import escape
from tests.clirun import run

ROOT = Path(__file__).resolve().parents[2]


COMPOSER = ROOT / "products" / "composer2.yaml"


CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


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


HOSTILE = (
    "Evil\x1b]0;T\x07\x1b[2J [/x] [bold]B[/bold] [link=https://e.x]go[/link]\n::error::f \u202e"
)


COMMAND = re.compile(r"^\s*::", re.M)


@pytest.mark.parametrize(
    "text", ["::error::x", "a:::b", "x ::warning file=a::y", "std::vector", ":", "a: b"]
)
def test_rich_text_has_no_colon_pair(text: str) -> None:

    out = escape.rich(text)
    assert "::" not in out
    assert escape.rich(out) == out
    assert out.replace("\\x3a", ":") == text


def _named(tmp_path: Path, name: str, *, owner: str | None = None) -> Path:
    lines = COMPOSER.read_text(encoding="utf-8").split("\n")
    swap = {"product:": name, "owner:": owner if owner is not None else name}
    for n, line in enumerate(lines):
        for key, value in swap.items():
            if line.startswith(key):
                lines[n] = f"{key} {json.dumps(value)}"
    path = tmp_path / "m.yaml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


WHATIF_RUNS = {
    "plain": [],
    "sweep": ["--sweep", "mau=1M..1000M"],
    "map": ["--sweep", "mau=1M..1000M", "--sweep", "monthly_revenue=1M..100M"],
    "set-swap": ["--set", "mau=150M", "--set", "derivative=true"],
}


@pytest.mark.parametrize("case", WHATIF_RUNS)
def test_whatif_text_escapes_user_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str
) -> None:
    manifest = _named(tmp_path, HOSTILE)
    code, out, err = run(capsys, "whatif", str(manifest), *WHATIF_RUNS[case])
    assert (code, err) == (0, "")
    assert CONTROL.search(out.replace("\n", "")) is None
    assert COMMAND.search(out) is None
    assert "What-if: Evil\\e]0;T\\x07\\e[2J [/x] [bold]B[/bold] [link=https://e.x]go[/link]" in out


# A name whose `::` lands at the start of a wrapped line at one of these lengths.
WRAPPED = [("x" * n) + " ::error file=a::forged ::warning::w" for n in (60, 63, 66, 69, 84, 93)]


@pytest.mark.parametrize("name", WRAPPED, ids=[f"len{len(n)}" for n in WRAPPED])
@pytest.mark.parametrize(
    "argv",
    [["check", "--no-waivers"], ["whatif"], ["whatif", "--sweep", "mau=1M..1000M"]],
    ids=["check", "whatif", "whatif-sweep"],
)
def test_wrapping_never_starts_a_workflow_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, argv: list[str]
) -> None:
    manifest = _named(tmp_path, name, owner="Cursor")
    code, out, err = run(capsys, argv[0], str(manifest), *argv[1:])
    assert (code, err) == (0, "")
    assert COMMAND.search(out) is None
    assert ":\\x3aerror" in out and ":\\x3aforged" in out


def _hostile_library(tmp_path: Path) -> Path:

    library = tmp_path / "lib"
    shutil.copytree(ROOT / "licenses", library)
    rule = library / "apache-2.0.yaml"
    quoted = json.dumps(HOSTILE)
    text = rule.read_text(encoding="utf-8")
    text = text.replace("name: Apache License 2.0", f"name: {quoted}")
    text = text.replace("title: Give recipients a copy of the License", f"title: {quoted}")
    rule.write_text(text, encoding="utf-8")
    return library


@pytest.mark.parametrize(
    "argv", [["list"], ["show", "apache-2.0"], ["models"]], ids=["list", "show", "models"]
)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_licenses_escape_library_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], fmt: str
) -> None:
    library = _hostile_library(tmp_path)
    code, out, err = run(capsys, "licenses", *argv, "--licenses", str(library), "-f", fmt)
    # `show` notes on stderr that the layer's apache-2.0 replaces the built-in one
    noted = "licheck: note: license apache-2.0 comes from " if argv[0] == "show" else ""
    assert code == 0 and err.startswith(noted) and err.count("\n") == (1 if noted else 0), err
    assert "\x1b" not in err + out and "\x07" not in err + out
    assert COMMAND.search(out) is None
    if fmt == "json":
        json.loads(out)
    elif argv[0] == "show":
        assert "Evil\\e]0;T\\x07\\e[2J [/x] [bold]B[/bold]" in out.replace("\n", " ")


def _waiver_file(tmp_path: Path, product: str) -> Path:
    path = tmp_path / "w.yaml"
    entry = {
        "id": "w1",
        "product": product,
        "license": "kimi-k2.5-modified-mit",
        "clause": "ui-attribution",
        "reason": "facts_pending",
        "comment": "c",
        "owner": "o",
        "expires": "2026-06-30",
    }
    body = "\n    ".join(f"{k}: {json.dumps(v)}" for k, v in entry.items())
    path.write_text(f"waivers:\n  - {body}\n", encoding="utf-8")
    return path


RULE_TEXT = "Evil\x1b]0;T\x07 [bold]B[/bold] </details><script>x</script>\n::error::x \u202e ]]> &"


def _hostile_rules(tmp_path: Path) -> Path:

    library = tmp_path / "lib"
    shutil.copytree(ROOT / "licenses", library)
    rule = library / "kimi-k2.5-modified-mit.yaml"
    quoted = json.dumps(RULE_TEXT)
    text = rule.read_text("utf-8")
    text = re.sub(r"^name: .*$", lambda _: f"name: {quoted}", text, count=1, flags=re.M)
    text = re.sub(r"^(    title: ).*$", lambda m: m.group(1) + quoted, text, flags=re.M)
    rule.write_text(text, encoding="utf-8")
    return library


@pytest.mark.parametrize(
    "fmt", ["text", "markdown", "github", "junit", "json", "sarif", "html", "compact"]
)
def test_check_formats_escape_rule_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str
) -> None:
    library = _hostile_rules(tmp_path)
    argv = ["check", str(COMPOSER), "--no-waivers", "--licenses", str(library), "-f", fmt, "-v"]
    code, out, err = run(capsys, *argv, "--fail-on", "risk")
    assert (code, err) == (1, "")
    assert "\x1b" not in out and "\x07" not in out
    lines = out.splitlines()
    if fmt == "github":
        assert all(
            line.startswith(("::error ", "::warning ", "::notice "))
            for line in lines
            if line.lstrip().startswith("::")
        )
        assert not any("Evil" in line.split("::")[1] for line in lines if line.startswith("::"))
    else:
        assert COMMAND.search(out) is None
    if fmt in ("json", "sarif"):
        json.loads(out)
    else:
        assert "\u202e" not in out
    if fmt == "junit":
        ET.fromstring(out.encode("utf-8"))
    if fmt == "markdown":
        assert "<script" not in out and out.count("</details>") == out.count("<details>")
    if fmt == "html":
        assert "<script" not in out


@pytest.mark.parametrize(
    ("text", "expected"),
    [("a\u202eb", "a\\u202eb"), ("c1\x85", "c1\\x85"), ("del\x7f", "del\\x7f"), ("é ok", "é ok")],
)
def test_xml_chars_show_invisible_controls(text: str, expected: str) -> None:

    assert escape.xml_chars(text) == expected


@pytest.mark.parametrize("name", ["v\x1b[31mx.yaml", "v\x1b]0;t\x07.yaml", "bidi\u202e.yaml"])
def test_validate_escapes_file_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, unwrapped: None, name: str
) -> None:

    path = tmp_path / name
    path.write_bytes(COMPOSER.read_bytes())
    code, out, err = run(capsys, "validate", str(path))
    assert (code, err) == (0, "")
    assert out == f"ok: {escape.terminal(str(path))} (manifest)\n"


COMMAND_NAMES = ["::error::x.yaml", "::warning file=a::x.yaml", "  ::notice::x.yaml"]


@pytest.mark.parametrize("name", COMMAND_NAMES, ids=["error", "warning", "spaced"])
@pytest.mark.parametrize("command", ["check", "evaluate", "validate", "whatif"])
def test_a_file_name_cannot_start_a_workflow_command(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    name: str,
    command: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text("product: [\n", encoding="utf-8")
    code, out, err = run(capsys, command, name)
    assert code == 2
    assert COMMAND.search(out + err) is None
    assert ":\\x3a" in err


def test_a_waiver_file_name_cannot_start_a_workflow_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    waivers = _waiver_file(tmp_path, "Composer 2")
    named = tmp_path / "::error::w.yaml"
    named.write_text(
        waivers.read_text("utf-8").replace("2026-06-30", "2026-03-01"), encoding="utf-8"
    )
    argv = ["check", str(COMPOSER), "--waivers", named.name, "--today", "2026-04-01"]
    for fmt in ("text", "markdown", "github"):
        code, out, err = run(capsys, *argv, "-f", fmt)
        assert code == 0, err
        lines = (out + err).splitlines()
        assert all(
            line.startswith(("::warning ", "::notice ", "::error "))
            for line in lines
            if line.lstrip().startswith("::")
        )
        assert "expired on 2026-03-01" in out
