"""Lazy command loading: `--version` and `--help` import no core module, and every registered
command loads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import click
import pytest

from licheck.cli import COMMANDS, cli, load_command
from tests.clirun import run
from tests.conftest import PRODUCTS, ROOT

PRODUCT = PRODUCTS / "composer2.yaml"

PROBE = """
import sys
from pathlib import Path
from licheck.cli import cli
from licheck.cli.common import run_guarded
run_guarded(cli, [{arg!r}])
heavy = ("pydantic", "yaml", "rich", "jsonschema", "licheck.inputs.rules", "licheck.engine.exact",
         "licheck.evaluation.evaluate", "licheck.report.view", "licheck.library.compiled")
print(sorted(m for m in sys.modules if m.startswith(heavy)), file=sys.stderr)
"""


@pytest.mark.parametrize("arg", ["--version", "--help"])
def test_version_and_help_import_no_core(arg: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(arg=arg)],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stderr.strip().splitlines()[-1] == "[]"
    assert done.stdout  # it did print the version or the help


def test_every_registered_command_loads() -> None:
    for name in COMMANDS:
        command = load_command(name)
        assert isinstance(command, click.Command)


def test_help_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    listed = out.split("Commands:")[1]
    for name in COMMANDS:
        assert f"  {name} " in listed


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "evalute")
    assert code == 2
    assert "No such command" in err
    assert cli.get_command(click.Context(cli), "evalute") is None


EVALUATE_PROBE = """
import io, contextlib, sys
from licheck.cli import cli
from licheck.cli.common import run_guarded
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = run_guarded(cli, ["evaluate", "products/composer2.yaml", "--format", "json"])
assert out.getvalue().startswith("{"), out.getvalue()[:200]
print(code, sorted(m for m in sys.modules if m.startswith(("rich", "jsonschema"))))
"""

# what a plain `evaluate` never needs: the features a run asks for by name
FEATURES = (
    "licheck.library.orgpolicy",
    "licheck.report.baseline",
    "licheck.report.notices",
    "licheck.timeline",
    "licheck.discover.modelscan",
    "licheck.outputs.html",
    "licheck.whatif",
    "licheck.config.configfile",
)


def test_evaluate_json_imports_neither_rich_nor_jsonschema() -> None:
    """A machine format pays for neither the terminal renderer nor the schema checker."""
    done = subprocess.run(
        [sys.executable, "-c", EVALUATE_PROBE],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    code, modules = done.stdout.strip().split(" ", 1)
    assert code in ("0", "1")
    assert modules == "[]", done.stdout


def test_a_plain_evaluate_loads_no_feature_it_was_not_asked_for(tmp_path: Path) -> None:
    """Policies, baselines, notices, timelines, discovery, html, what-if and configuration files
    cost nothing on a run that names none of them (no configuration file found either)."""
    probe = EVALUATE_PROBE.replace('"products/composer2.yaml"', repr(str(PRODUCT))).replace(
        'm.startswith(("rich", "jsonschema"))', f"m.startswith({FEATURES!r})"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=tmp_path,  # no configuration file from here up
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    code, modules = done.stdout.strip().split(" ", 1)
    assert code in ("0", "1")
    assert modules == "[]", done.stdout


WAIVER_PROBE = """
import io, contextlib, sys
from licheck.cli import cli
from licheck.cli.common import run_guarded
with contextlib.redirect_stdout(io.StringIO()) as out:
    code = run_guarded(cli, ["evaluate", {manifest!r}, "--format", "json"])
assert out.getvalue().startswith("{{"), out.getvalue()[:200]
print(code, "licheck.report.waivers" in sys.modules, "licheck.engine.exact" in sys.modules)
"""


def test_evaluate_without_a_waiver_file_imports_no_waiver_code(tmp_path: Path) -> None:
    """No --waivers and no .licheck-waivers.yaml here: the waiver models are never built."""
    manifest = str(ROOT / "products" / "composer2.yaml")
    done = subprocess.run(
        [sys.executable, "-c", WAIVER_PROBE.format(manifest=manifest)],
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    code, waivers, engine = done.stdout.split()
    assert code in ("0", "1")
    assert (waivers, engine) == ("False", "True")  # engine: the probe did reach the core


def test_a_default_waiver_file_is_still_found(tmp_path: Path) -> None:
    """The check before the import must not lose the default file."""
    (tmp_path / ".licheck-waivers.yaml").write_text("waivers: []\n", encoding="utf-8")
    manifest = str(ROOT / "products" / "composer2.yaml")
    done = subprocess.run(
        [sys.executable, "-c", WAIVER_PROBE.format(manifest=manifest)],
        cwd=tmp_path,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.split()[1] == "True"


UTF8_PROBE = """
import sys
from licheck.cli import cli
from licheck.cli.common import run_guarded
code = run_guarded(cli, ["evaluate", "products/composer2.yaml", "--format", "json"])
print(code, sorted(m for m in sys.modules if m in ("licheck.text.readable", "licheck.text.escape")),
      file=sys.stderr)
"""


def test_utf8_streams_need_no_stand_ins() -> None:
    """On UTF-8 streams (the usual case) the ASCII stand-ins and the escaping of messages are
    never loaded: a run that prints no error pays for neither."""
    done = subprocess.run(
        [sys.executable, "-c", UTF8_PROBE],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "", "PYTHONIOENCODING": "utf-8"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.startswith("{")
    code, modules = done.stderr.strip().splitlines()[-1].split(" ", 1)
    assert code in ("0", "1")
    assert modules == "[]", done.stderr
