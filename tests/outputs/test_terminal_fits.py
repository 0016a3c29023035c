"""Every command's terminal text fits the width: each command of the registry (and each
subcommand of a group), run with representative arguments and with `--help`, at COLUMNS 60, 80
and 120, prints no line wider on stdout or stderr.

Documents are not terminal text and are skipped by format: JSON, Markdown (`notices`' default),
SARIF, JUnit, HTML, CSV, GitHub workflow commands, and `compact`, whose one unwrapped
`file:line:col: level: ...` line per problem is what problem matchers read.  On stderr, the first
line of a located diagnostic (`FILE:LINE:COL: error: ...`) stays whole for the same reason (see
docs/terminal.md); its hint, and every other message, wraps.
"""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from licheck.cli import COMMANDS, cli, load_command
from tests.clirun import run
from tests.conftest import REFERENCE_TEXTS, ROOT

WIDTHS = (60, 80, 120)
DOCUMENTS = {"json", "markdown", "sarif", "junit", "html", "csv", "github", "compact"}
DOCUMENTS |= {"codequality"}
LOCATED = re.compile(r"\S+:\d+(:\d+)?: |\S+: error: ")  # a located first line: kept whole on stderr
MANIFEST = "products/composer2.yaml"
TEXTS = str(REFERENCE_TEXTS)

# A manifest with a located error and a hint; source naming a catalogued and an uncatalogued
# model (for `discover`); written into the test's folder as `bad.yaml` and `app/app.py`.
BAD = """\
product: Example
owner: Acme
components:
  - id: c
    name: C
    lineage: {base: glm-4.6}
    facts:
      monthly_revenu: 5M USD
"""
APP = """\
a = AutoModel.from_pretrained("moonshotai/Kimi-K2.5")
b = AutoModel.from_pretrained("some-organisation/an-uncatalogued-model-with-a-long-name-v2")
"""

# command path -> the argument lists it is run with (each also runs with --help)
CASES: dict[str, list[tuple[str, ...]]] = {
    "": [],
    "audit-cards": [("cards",)],
    "check": [("products",), ("products", "-v"), (MANIFEST, "-vv")],
    "config": [(), ("--fail-on", "risk", "--licenses", "licenses")],
    "discover": [("app", "--manifests", "products")],
    "evaluate": [(MANIFEST,), ("bad.yaml",)],
    "facts": [(), ("mau",), ("agreement_waives",), ("owner_is_licensor",), ("monthly_revenu",)],
    "import": [],
    "import cyclonedx": [],  # writes a manifest (a YAML document)
    "import hf": [],
    "licenses": [],
    "licenses coverage": [
        ("--texts", TEXTS, "--no-reach"),
        ("--texts", TEXTS, "--only", "mit", "--only", "creativeml-openrail-plus-plus-m"),
        (),
    ],
    "licenses list": [()],
    "licenses models": [()],
    "licenses show": [("kimi-k2.5-modified-mit",), ("moonshotai/Kimi-K2.5",), ("llama3.1",)],
    "licenses reach": [("gemma-terms-of-use",), ("meta-llama/Llama-3.1-8B",)],
    "licenses verify": [("--texts", TEXTS)],
    "migrate": [("bad.yaml",)],  # refused, located; a diff (--dry-run) is a document
    "notices": [],  # Markdown by default, else JSON: documents
    "schema": [],  # JSON Schemas
    "timeline": [(MANIFEST,)],
    "validate": [(MANIFEST, "bad.yaml")],
    "whatif": [(MANIFEST, "--set", "mau=150M"), (MANIFEST, "--sweep", "mau=1M..200M")],
}


def _walk(path: tuple[str, ...], command: click.Command) -> list[tuple[str, ...]]:
    found = [path]
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            found += _walk((*path, name), sub)
    return found


def _every_command() -> dict[str, click.Command]:
    paths: list[tuple[str, ...]] = [()]
    for name in sorted(COMMANDS):
        paths += _walk((name,), load_command(name))
    return {" ".join(path): _command(path) for path in paths}


def _command(path: tuple[str, ...]) -> click.Command:
    command: click.Command = cli
    for name in path:
        assert isinstance(command, click.Group)
        found = command.get_command(click.Context(command), name)
        assert found is not None, path
        command = found
    return command


EVERY = _every_command()


def _format_choices(command: click.Command) -> tuple[str, ...]:
    for param in command.params:
        if "--format" in getattr(param, "opts", ()) and isinstance(param.type, click.Choice):
            return tuple(str(choice) for choice in param.type.choices)
    return ()


def _format_of(command: click.Command, argv: tuple[str, ...]) -> str | None:
    choices = _format_choices(command)
    for flag in ("-f", "--format"):
        if flag in argv:
            return argv[argv.index(flag) + 1]
    return choices[0] if choices else None


def test_every_command_has_cases_and_every_text_format_is_run() -> None:
    assert set(CASES) == set(EVERY), "add the new command's representative arguments to CASES"
    for name, command in EVERY.items():
        formats = {_format_of(command, argv) for argv in CASES[name]}
        assert not formats & DOCUMENTS, f"{name}: a document is not terminal text"
        text_formats = set(_format_choices(command)) - DOCUMENTS
        assert text_formats <= formats, f"licheck {name}: run its {text_formats - formats}"


def _too_wide(text: str, width: int, *, stderr: bool) -> list[str]:
    return [
        line
        for line in text.splitlines()
        if len(line) > width and not (stderr and LOCATED.match(line))
    ]


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding the shipped products and licenses (relative paths, as a user types
    them), a manifest with an error and an app naming models."""
    for name in ("products", "licenses"):
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "bad.yaml").write_text(BAD, encoding="utf-8")
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "app.py").write_text(APP, encoding="utf-8")
    card = ROOT / "tests" / "data" / "import" / "cards" / "hermes-3-llama-3.1-8b.md"
    (tmp_path / "cards" / "NousResearch" / "Hermes-3-Llama-3.1-8B").mkdir(parents=True)
    (tmp_path / "cards" / "NousResearch" / "Hermes-3-Llama-3.1-8B" / "README.md").write_text(
        card.read_text(encoding="utf-8"), encoding="utf-8"
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", sorted(CASES), ids=lambda name: name or "licheck")
def test_no_line_is_wider_than_the_terminal(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    workdir: Path,
    name: str,
    width: int,
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    path = tuple(name.split())
    for argv in [("--help",), *CASES[name]]:
        if TEXTS in argv and not REFERENCE_TEXTS.is_dir():
            continue  # ../shared/reference/licenses is absent (CI has it)
        code, out, err = run(capsys, *path, *argv)
        shown = " ".join(("licheck", *path, *argv))
        assert code in (0, 1, 2), f"{shown}: exit {code}\n{err}"
        assert out or err, shown
        assert _too_wide(out, width, stderr=False) == [], f"{shown}: stdout wider than {width}"
        assert _too_wide(err, width, stderr=True) == [], f"{shown}: stderr wider than {width}"
