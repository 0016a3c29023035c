"""Every command's `--help` carries an example, for every command in the registry (a command
added later needs one too): an "Example:" paragraph whose lines click keeps as written, each a
`licheck` command line of that command whose options the command has (a long one continued on
the next line after a trailing ` \\`, as in a shell)."""

from __future__ import annotations

import shlex

import click
import pytest

from licheck.cli import COMMANDS, cli, load_command
from tests.clirun import run


def _walk(
    path: tuple[str, ...], command: click.Command
) -> list[tuple[tuple[str, ...], click.Command]]:
    found = [(path, command)]
    if isinstance(command, click.Group):
        for name, sub in sorted(command.commands.items()):
            found += _walk((*path, name), sub)
    return found


def _every_command() -> list[tuple[tuple[str, ...], click.Command]]:
    found: list[tuple[tuple[str, ...], click.Command]] = [((), cli)]
    for name in sorted(COMMANDS):
        found += _walk((name,), load_command(name))
    return found


EVERY = _every_command()


def _examples(text: str) -> list[str]:
    """The lines of the help's "Example:" paragraph."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == "Example:")
    found: list[str] = []
    continued = False  # the previous line ended with ` \`: this one goes on with it
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        if continued:
            found[-1] = found[-1].removesuffix("\\").rstrip() + " " + line.strip()
        else:
            found.append(line.strip())
        continued = line.rstrip().endswith(" \\")
    return found


def test_the_registry_is_walked() -> None:
    names = {path[0] for path, _ in EVERY if path}
    assert names == set(COMMANDS)
    assert ("licenses", "show") in {path for path, _ in EVERY}


@pytest.mark.parametrize(
    ("path", "command"), EVERY, ids=[" ".join(p) or "licheck" for p, _ in EVERY]
)
def test_help_has_an_example(
    capsys: pytest.CaptureFixture[str], path: tuple[str, ...], command: click.Command
) -> None:
    code, out, err = run(capsys, *path, "--help")
    assert code == 0, err
    assert "Example:" in out, f"licheck {' '.join(path)} --help has no example"
    examples = _examples(out)
    assert examples, out
    own = [line for line in examples if line.startswith(" ".join(("licheck", *path)))]
    assert own, f"no example runs licheck {' '.join(path)}: {examples}"
    for line in own:
        _check_options(command, path, line)


def _check_options(command: click.Command, path: tuple[str, ...], line: str) -> None:
    """The example's options are the command's own (for a group: the named subcommand's)."""
    words = shlex.split(line.split("  (")[0])[1 + len(path) :]
    target = command
    while isinstance(target, click.Group) and words:
        sub = target.get_command(click.Context(target), words[0])
        if sub is None:
            break
        target, words = sub, words[1:]
    known = {opt for param in target.params for opt in getattr(param, "opts", [])}
    known |= {"--help", "-h"}
    for word in words:
        if word.startswith("-"):
            assert word.split("=")[0] in known, f"{line}: {word} is not an option of {target.name}"
