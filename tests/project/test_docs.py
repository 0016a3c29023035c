"""The README stays short and true: at most 12 KiB, its two commands the ones CI runs, its tour's
commands giving the exit codes it states; every link of it and of docs/ resolves; snippets name
your own repository and pin a commit; and no message of licheck sends a user to the README."""

from __future__ import annotations

import ast
import json
import re
import shlex
from pathlib import Path

import click
import pytest

import licheck
from licheck.cli import cli
from tests.clirun import run
from tests.conftest import HIDE_REFERENCE, REFERENCE, ROOT

README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.M | re.S)
SHA_PLACEHOLDER = "COMMIT-SHA"


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_the_readme_is_at_most_12_kib() -> None:
    assert len(README.read_bytes()) <= 12 * 1024


def test_the_readme_commands_are_the_ones_ci_runs() -> None:
    readme, ci = _text(README), _text(ROOT / ".ci" / "run")
    install = "python3 -m venv .venv && .venv/bin/pip install . && "
    assert f"{install}.venv/bin/licheck evaluate products/composer2.yaml" in readme
    tests = "python3 -m venv .venv && .venv/bin/pip install '.[test]' && .venv/bin/python -m pytest"
    assert tests in readme
    assert ".venv/bin/licheck evaluate products/composer2.yaml" in ci
    assert ".venv/bin/python -m pytest" in ci


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    body = FENCE.sub("", _text(path))
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", body, re.M)}


def _links(path: Path) -> list[str]:
    return [m.group(1) for m in LINK.finditer(FENCE.sub("", _text(path)))]


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_link_resolves(page: Path) -> None:
    for link in _links(page):
        if re.match(r"[a-z]+:", link):
            continue  # a web address
        target, _, anchor = link.partition("#")
        resolved = (page.parent / target).resolve() if target else page
        assert resolved.exists(), f"{page.name}: {link}"
        if anchor:
            assert anchor in _anchors(resolved), f"{page.name}: {link}"


def test_every_docs_page_is_linked() -> None:
    linked = {
        (page.parent / link.partition("#")[0]).resolve()
        for page in (README, DOCS / "README.md")
        for link in _links(page)
    }
    for page in sorted(DOCS.glob("*.md")):
        if page.name != "README.md":
            assert page.resolve() in linked, f"{page.name} is not linked from docs/README.md"


def _tour() -> list[str]:
    """The `licheck` command lines of the README's tour."""
    section = _text(README).partition("## A five-minute tour")[2].partition("\n## ")[0]
    blocks = [m.group(2) for m in FENCE.finditer(section) if m.group(1) == "sh"]
    return [line for block in blocks for line in block.splitlines() if line.startswith("licheck")]


def test_the_tour_covers_what_it_promises() -> None:
    commands = " ".join(_tour())
    for part in (
        "licheck evaluate",
        "licheck check",
        "licheck whatif",
        "--waivers",
        "licheck facts",
    ):
        assert part in commands


@pytest.mark.parametrize("line", _tour())
def test_each_tour_command_runs_as_stated(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    line: str,
) -> None:
    command, _, comment = line.partition("#")
    argv = shlex.split(command)[1:]
    if "--waivers" in argv:
        waivers = re.search(r"```yaml\n(waivers:\n.*?)```", _text(README), re.S)
        assert waivers is not None
        (tmp_path / "waivers.yaml").write_text(waivers.group(1), encoding="utf-8")
        argv[argv.index("--waivers") + 1] = str(tmp_path / "waivers.yaml")
        argv += ["--today", "2026-12-01"]  # the README's waiver expires; the test must not
    if "-o" in argv:  # written into the test's folder, never into the checkout
        argv[argv.index("-o") + 1] = str(tmp_path / argv[argv.index("-o") + 1])
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, *argv)
    stated = re.search(r"exit (\d)", comment)
    assert code == (int(stated.group(1)) if stated else 0), out + err
    if "waived" in comment:
        assert "waived: composer2-kimi-attribution" in out  # the brief line names the waiver


def _snippet_pins(path: Path) -> list[str]:
    """What each `rev:` and each `uses: …/licheck@` in the page's YAML names."""
    yaml_blocks = "\n".join(m.group(2) for m in FENCE.finditer(_text(path)) if m.group(1) == "yaml")
    revs = re.findall(r"^\s*rev:\s*(\S+)", yaml_blocks, re.M)
    uses = re.findall(r"uses:\s*[\w.-]+/licheck@(\S+)", yaml_blocks)
    return revs + uses


@pytest.mark.parametrize("page", [README, DOCS / "ci.md"], ids=["README", "ci.md"])
def test_snippets_name_your_repository_and_pin_a_commit(page: Path) -> None:
    pins = _snippet_pins(page)
    assert len(pins) >= 2
    for pin in pins:
        assert pin == SHA_PLACEHOLDER or re.fullmatch(r"[0-9a-f]{40}", pin), pin
    text = _text(page)
    assert "YOUR-ORG/licheck" in text and "git rev-parse HEAD" in text
    assert "example.com/licheck" not in text and "@v0.1.0" not in text


def _user_facing_strings() -> list[tuple[str, str]]:
    """Every string constant in licheck's modules, and every description in its schemas."""
    package = Path(licheck.__file__).parent
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found += [
            (path.name, node.value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        ]
    for path in sorted((package / "schemas").glob("*.json")):
        found += [
            (path.name, text) for text in re.findall(r'"description": "([^"]*)"', _text(path))
        ]
    return found


def test_no_message_sends_the_user_to_the_readme() -> None:
    strings = _user_facing_strings()
    assert any("licheck facts" in text for _, text in strings)  # the walk reads the hints
    for where, text in strings:
        # "README.md" is a Hugging Face model card's file name (licheck import hf)
        assert not re.search(r"README(?!\.md)", text), f"{where}: {text!r}"


def test_the_format_hint_names_a_page_that_has_the_section(tmp_path: Path) -> None:
    from licheck.inputs.manifest import FORMAT_DOC, FORMAT_SECTION

    assert f"## {FORMAT_SECTION}\n" in _text(ROOT / FORMAT_DOC)
    schema = json.loads(
        (Path(licheck.__file__).parent / "schemas" / "manifest.schema.json").read_text()
    )
    assert FORMAT_DOC in json.dumps(schema)


# A documented command line is parsed, not run: the command and every option it names must exist.
PLACEHOLDERS = {
    # a word in capitals stands for what the reader supplies (`licheck check -v PATHS`)
    "PATHS": "products/",
    "FILE": "products/composer2.yaml",
}
UNPARSEABLE = {
    # generic forms that name no option: `licheck COMMAND ...` and `licheck --config FILE COMMAND`
    "COMMAND",
}


def _documented_commands() -> list[tuple[str, str]]:
    """(page:line, command) for each `licheck …` line of the pages' ```sh blocks (and `$ licheck`
    lines of ```console blocks), continuation lines joined and comments dropped."""
    found = []
    for page in PAGES:
        text = _text(page)
        for match in FENCE.finditer(text):
            if match.group(1) not in ("sh", "console"):
                continue
            first = text[: match.start(2)].count("\n") + 1
            body = match.group(2).replace("\\\n", " \n")  # keep the line count
            for offset, line in enumerate(body.splitlines()):
                line = line.removeprefix("$ ") if match.group(1) == "console" else line
                if line.startswith("licheck "):
                    command = line.partition("  #")[0].partition(" # ")[0]
                    found.append((f"{page.name}:{first + offset}", command.strip()))
    return found


def _parse(argv: list[str]) -> click.Context:
    """Parse `licheck ARGV` as click would, down to the leaf command, without running it.
    Raises click.UsageError (unknown command, unknown option, bad value)."""
    command: click.Command = cli
    name, parent, args = "licheck", None, argv
    while isinstance(command, click.Group):
        ctx = click.Context(command, info_name=name, parent=parent)
        rest = click.Command.parse_args(command, ctx, args)  # the group's own options only
        resolved, sub, args = command.resolve_command(ctx, rest)
        assert resolved is not None and sub is not None
        command, name, parent = sub, resolved, ctx
    return command.make_context(name, args, parent=parent)


def test_documented_commands_are_found() -> None:
    commands = dict(_documented_commands())
    assert any(c.startswith("licheck check ") for c in commands.values())
    assert any(c.startswith("licheck licenses ") for c in commands.values())


@pytest.mark.parametrize(("where", "command"), _documented_commands())
def test_each_documented_command_parses(
    monkeypatch: pytest.MonkeyPatch, where: str, command: str
) -> None:
    argv = [PLACEHOLDERS.get(word, word) for word in shlex.split(command)[1:]]
    if UNPARSEABLE & set(argv):
        pytest.skip(f"{where}: a generic form with a placeholder command: {command}")
    if any(word.startswith("../shared/") for word in argv) and not REFERENCE.is_dir():
        # click checks that the folder exists: absent on a fresh clone (or hidden)
        pytest.skip(
            f"{where}: names ../shared/reference, absent here or hidden by {HIDE_REFERENCE}"
        )
    monkeypatch.chdir(ROOT)  # the pages' paths are relative to the repository's root
    try:
        _parse(argv)
    except click.UsageError as error:
        pytest.fail(f"{where}: `{command}` does not parse: {error.format_message()}")


def test_the_parser_rejects_a_made_up_option_and_command() -> None:
    _parse(["check", "products/", "--fail-on", "risk", "-v"])
    with pytest.raises(click.NoSuchOption):
        _parse(["check", "products/", "--fail-when", "risk"])
    with pytest.raises(click.UsageError):
        _parse(["licenses", "shw", "kimi-k2.5-modified-mit"])
    with pytest.raises(click.BadParameter):
        _parse(["check", "products/", "--fail-on", "sometimes"])


def test_the_architecture_page_names_every_module() -> None:
    """docs/architecture.md has one row per package (and per module kept at the top) in its
    layer table, naming every module of the package in that row, and lists every command."""
    from licheck.cli import COMMANDS

    page = _text(DOCS / "architecture.md")
    package = Path(licheck.__file__).parent
    table = page.split("## The layers", 1)[1].split("\n## ", 1)[0]
    rows = {
        names[0]: row
        for row in table.splitlines()
        if row.startswith("| ") and (names := re.findall(r"^\| \d+ \| `([^`]+)`", row))
    }
    for path in sorted(package.glob("*.py")):
        assert path.name in rows, f"architecture.md's layer table has no row for {path.name}"
    for folder in sorted(p for p in package.iterdir() if (p / "__init__.py").exists()):
        row = rows.get(f"{folder.name}/")
        assert row is not None, f"architecture.md's layer table has no row for {folder.name}/"
        for module in sorted(folder.rglob("*.py")):
            named = module.relative_to(folder).as_posix()
            if module.name != "__init__.py":
                assert f"`{named}`" in row, f"architecture.md: the {folder.name}/ row lacks {named}"
    listed = re.search(r"^Commands \(`licheck --help`\): (.*?)\.$", page, re.M | re.S)
    assert listed is not None
    assert set(re.findall(r"`([\w-]+)`", listed.group(1))) == set(COMMANDS)
