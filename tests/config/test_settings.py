"""The configuration file: found from the working folder up to the repository root, checked with
located errors, its settings the commands' defaults, options on the command line winning, and
`licheck config` saying where each setting came from."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import click
import pytest

from licheck.cli import cli, load_command
from licheck.config.settings import SETTINGS, find
from tests.clirun import run
from tests.conftest import PRODUCTS

COMPOSER = PRODUCTS / "composer2.yaml"  # a governance risk, no violation


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A repository (it has .git) with one manifest, the working folder a folder inside it."""
    (tmp_path / ".git").mkdir()
    (tmp_path / "products").mkdir()
    shutil.copy(COMPOSER, tmp_path / "products" / "composer2.yaml")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    monkeypatch.delenv("LICHECK_CONFIG", raising=False)
    return tmp_path


def _settings(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, tuple[object, str]]:
    code, out, err = run(capsys, *argv, "-f", "json")
    assert code == 0, err
    return {row["key"]: (row["value"], row["source"]) for row in json.loads(out)["settings"]}


def test_pyproject_settings_are_the_defaults_and_the_command_line_wins(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.licheck]\npaths = ["products"]\nfail-on = "risk"\n',
        encoding="utf-8",
    )
    code, out, err = run(capsys, "check")  # the paths and the gate from the file
    assert code == 1, err
    assert (
        "../products/composer2.yaml" in out
        and "Gate (--fail-on risk, set at ../pyproject.toml:6:1): FAILS" in out
    )
    code, out, err = run(capsys, "check", "--fail-on", "violation")
    assert code == 0, err
    code, _, err = run(capsys, "--no-config", "check")
    assert code == 2 and "Missing argument 'PATHS...'" in err


def test_licheck_config_names_each_source(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / ".licheck.yaml").write_text(
        "# team settings\nfail-on: risk\nlicenses: [rules]\nformat: json\n", encoding="utf-8"
    )
    (project / "rules").mkdir()
    settings = _settings(capsys, "config", "--evidence", "strict")
    assert settings["config"] == ("../.licheck.yaml", "found from the working folder up")
    assert settings["fail-on"] == ("risk", "../.licheck.yaml:2:1")
    assert settings["licenses"] == (["../rules"], "../.licheck.yaml:3:1")
    assert settings["format"] == ("json", "../.licheck.yaml:4:1")
    assert settings["evidence"] == ("strict", "command line")
    assert settings["annotations"] == (10, "default")
    assert settings["builtin-licenses"] == (True, "default")
    monkeypatch.setenv("LICHECK_CONFIG", str(project / ".licheck.yaml"))
    settings = _settings(capsys, "config")
    assert settings["config"][1] == "environment (LICHECK_CONFIG)"
    code, out, _ = run(capsys, "config")
    assert code == 0
    assert "fail-on           risk  (../.licheck.yaml:2:1)" in out


def test_config_text_lists_every_setting(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "config")
    assert code == 0, err
    keys = [line.split()[0] for line in out.splitlines()]
    assert keys == ["config", *(setting.key for setting in SETTINGS)]
    assert out.splitlines()[0].endswith("(none found from here up to the repository root)")


def test_paths_in_the_file_are_relative_to_its_folder(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "ci").mkdir()
    (project / "ci" / "waivers.yaml").write_text("waivers: []\n", encoding="utf-8")
    (project / "ci" / "licheck.yaml").write_text(
        "paths: ../products\nwaivers: waivers.yaml\n", encoding="utf-8"
    )
    settings = _settings(capsys, "--config", str(project / "ci" / "licheck.yaml"), "config")
    assert settings["paths"] == (["../products"], f"{Path('../ci/licheck.yaml')}:1:1")
    assert settings["waivers"][0] == str(Path("../ci/waivers.yaml"))


def test_the_search_stops_at_the_repository_root(tmp_path: Path) -> None:
    (tmp_path / ".licheck.yaml").write_text("fail-on: risk\n", encoding="utf-8")
    repository = tmp_path / "repo"
    (repository / ".git").mkdir(parents=True)
    (repository / "deep" / "er").mkdir(parents=True)
    assert find(repository / "deep" / "er") is None
    (repository / "deep" / ".licheck.yaml").write_text("", encoding="utf-8")
    assert find(repository / "deep" / "er") == repository / "deep" / ".licheck.yaml"
    assert find(tmp_path / "elsewhere") == tmp_path / ".licheck.yaml"


def test_a_pyproject_without_the_table_is_not_a_configuration(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "pyproject.toml").write_text(
        '[project]\nname = "licheck-user"\n[tool.ruff]\nline-length = 90\n', encoding="utf-8"
    )
    assert find(project / "sub") is None
    (project / "sub" / "pyproject.toml").write_text("[tool.licheck\n", encoding="utf-8")
    code, _, err = run(capsys, "config")
    assert code == 2 and "pyproject.toml:1:14: error: not valid TOML" in err


def test_both_files_in_one_folder_are_refused(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / ".licheck.yaml").write_text("fail-on: risk\n", encoding="utf-8")
    (project / "pyproject.toml").write_text('[tool.licheck]\nfail-on = "never"\n', "utf-8")
    code, out, err = run(capsys, "check", str(COMPOSER))
    assert code == 2 and out == ""
    assert "both .licheck.yaml and [tool.licheck] in pyproject.toml" in err
    code, _, err = run(capsys, "--config", str(project / "pyproject.toml"), "config")
    assert code == 0, err


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        (
            "pyproject.toml",
            '[tool.ruff]\nx = 1\n\n[tool.licheck]\n# gate\n  fail-on = "riks"\n',
            [
                "pyproject.toml:6:13: error: expected one of violation, evidence-risk, risk, never",
                "'risk'",
            ],
        ),
        (
            "pyproject.toml",
            '[tool.licheck]\nlicences = ["x"]\nannotations = -1\n',
            [
                "pyproject.toml:2:1: error: unknown key 'licences' (did you mean 'licenses'?)",
                "pyproject.toml:3:15: error: expected greater than or equal to 0",
            ],
        ),
        (
            ".licheck.yaml",
            "fail-on: risk\nverbos: true\nevidence: bogus\n",
            [
                ".licheck.yaml:2:1: error: unknown key 'verbos'",
                ".licheck.yaml:3:11: error: unknown evidence policy 'bogus'",
            ],
        ),
        (".licheck.yaml", "- a list\n", [".licheck.yaml:1:1: error: expected a mapping"]),
        (".licheck.yaml", "format: pdf\n", [".licheck.yaml:1:9: error: expected one of text"]),
        (".licheck.yaml", "verbose: yes\n", [".licheck.yaml:1:10: error:"]),
    ],
    ids=["toml-value", "toml-keys", "yaml-keys", "yaml-list", "yaml-format", "yaml-yes"],
)
def test_bad_settings_are_located(
    project: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, expected: list[str]
) -> None:
    (project / name).write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "evaluate", str(COMPOSER))
    assert code == 2 and out == ""
    for words in expected:
        assert f"../{words}" in err or words in err, err
    assert "Traceback" not in err


def test_a_toml_file_named_without_the_table(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "other.toml").write_text("[tool.other]\nx = 1\n", encoding="utf-8")
    code, _, err = run(capsys, "--config", str(project / "other.toml"), "config")
    assert code == 2 and "no [tool.licheck] table in other.toml" in err
    code, _, err = run(capsys, "--config", str(project / "missing.yaml"), "config")
    assert code == 2 and "missing.yaml" in err


def test_library_layers_from_the_file_reach_the_licenses_commands(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "rules").mkdir()
    (project / "rules" / "catalog.yaml").write_text(
        "models:\n  - {id: acme-7b, name: Acme 7B, license: mit, source: card}\n", "utf-8"
    )
    (project / "pyproject.toml").write_text('[tool.licheck]\nlicenses = "rules"\n', "utf-8")
    code, out, err = run(capsys, "licenses", "models", "-f", "json")
    assert code == 0, err
    assert "acme-7b" in out
    code, out, err = run(capsys, "--no-config", "licenses", "models", "-f", "json")
    assert code == 0 and "acme-7b" not in out
    (project / "pyproject.toml").write_text(
        '[tool.licheck]\nlicenses = "rules"\nbuiltin-licenses = false\n', "utf-8"
    )
    code, _, err = run(capsys, "licenses", "models")
    assert code == 2 and "'mit', which is not in the library" in err


def test_the_config_command_has_the_defaults_of_the_commands(project: Path) -> None:
    """`licheck config` shows a default for each setting: the one the commands really have."""
    shown = {p.name: p for p in load_command("config").params}
    for setting in SETTINGS:
        if setting.key == "format":
            continue
        for path in setting.commands:
            command: click.Command = cli
            for name in path:
                assert isinstance(command, click.Group)
                found = command.get_command(click.Context(command), name)
                assert found is not None, path
                command = found
            params = {p.name: p for p in command.params}
            assert setting.param in params, (setting.key, path)
            mine, theirs = shown[setting.param], params[setting.param]
            # the defaults as the commands see them (a flag's is False, a count's 0: both off)
            mine_default = mine.get_default(click.Context(load_command("config")))
            theirs_default = theirs.get_default(click.Context(command))
            assert (mine_default, mine.multiple, mine.nargs) == (
                theirs_default,
                theirs.multiple,
                theirs.nargs,
            ), (setting.key, path)


def _commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found: list[tuple[str, ...]] = []
    for name in group.list_commands(click.Context(group)):
        command = group.get_command(click.Context(group), name)
        assert command is not None
        if isinstance(command, click.Group):
            found += _commands(command, (*path, name))
        else:
            found.append((*path, name))
    return found


def _command(path: tuple[str, ...]) -> click.Command:
    command: click.Command = cli
    for name in path:
        assert isinstance(command, click.Group)
        found = command.get_command(click.Context(command), name)
        assert found is not None, path
        command = found
    return command


# Settings whose option means the same in every command that has it (unlike --format, whose
# choices differ from command to command).
SHARED = ("licenses", "builtin-licenses", "policy", "evidence", "waivers", "fail-on")


@pytest.mark.parametrize("key", SHARED)
def test_every_command_with_the_option_takes_the_setting(key: str) -> None:
    """A layer, a policy or an evidence policy set in the file reaches every command that has
    the option (`licheck notices` on another library than `licheck check` would mislead)."""
    setting = next(s for s in SETTINGS if s.key == key)
    having = [
        path
        for path in _commands(cli)
        if any(
            isinstance(p, click.Option) and p.name == setting.param for p in _command(path).params
        )
    ]
    assert having
    assert sorted(having) == sorted(setting.commands)


def test_an_empty_mapping_sets_nothing_and_an_empty_file_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / ".licheck.yaml").write_text("{}\n", encoding="utf-8")
    settings = _settings(capsys, "config")
    assert settings["config"][0] == "../.licheck.yaml"
    assert {source for key, (_, source) in settings.items() if key != "config"} == {"default"}
    (project / ".licheck.yaml").write_text("", encoding="utf-8")
    code, _, err = run(capsys, "config")
    assert code == 2 and "../.licheck.yaml:1:1: error: the file is empty" in err


def test_an_output_never_overwrites_the_configuration(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = project / ".licheck.yaml"
    config.write_text("fail-on: never\n", encoding="utf-8")
    for command in ("evaluate", "check"):
        code, _, err = run(capsys, command, str(COMPOSER), "-o", str(config))
        assert code == 2 and ".licheck.yaml" in err, err
        assert config.read_text(encoding="utf-8") == "fail-on: never\n"
    code, _, err = run(capsys, "whatif", str(COMPOSER), "-o", str(config))
    assert code == 2 and config.read_text(encoding="utf-8") == "fail-on: never\n"


def test_a_broken_file_still_lets_a_command_show_its_help(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / ".licheck.yaml").write_text("fail-on: riks\n", encoding="utf-8")
    code, out, _ = run(capsys, "check", "--help")
    assert code == 0 and "Usage: licheck check" in out
    code, _, err = run(capsys, "check", str(COMPOSER))
    assert code == 2 and "../.licheck.yaml:1:10: error:" in err


def test_a_path_the_file_names_that_does_not_exist_is_located_in_the_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every missing path is reported at its setting's line, not later as a path the user never
    typed (and not only the first)."""
    (project / ".licheck.yaml").write_text(
        "licenses: [nope]\nwaivers: missing.yaml\n", encoding="utf-8"
    )
    code, _, err = run(capsys, "check", "products")
    assert code == 2
    assert ".licheck.yaml:1:1: error: licenses: nope does not exist" in err
    assert ".licheck.yaml:2:1: error: waivers: missing.yaml does not exist" in err


@pytest.mark.parametrize(
    ("text", "configures"),
    [
        ('[tool.licheck]\nfail-on = "risk"\n', True),
        ('[tool]\nlicheck = {fail-on = "risk"}\n', True),
        ('tool.licheck.fail-on = "risk"\n', True),
        ('[project]\nname = "app"\ndependencies = ["licheck"]\n[tool.pytest]\nx = 1\n', False),
    ],
)
def test_a_pyproject_configures_licheck_only_through_its_table(
    tmp_path: Path, text: str, configures: bool
) -> None:
    """Only a `tool.licheck` table (or key) makes a pyproject.toml licheck's configuration; one
    that merely lists licheck as a dependency is not even parsed."""
    from licheck.config.settings import find

    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    assert (find(tmp_path) is not None) is configures
