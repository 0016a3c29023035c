"""Safety: inputs are data (never executed), no network, inputs never modified, atomic reports."""

from __future__ import annotations

import ast
import hashlib
import os
import shutil
import socket
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from licheck.cli import cli
from licheck.cli.common import run_guarded, write_output
from tests.conftest import LICENSES, PRODUCTS, REFERENCE_TEXTS, ROOT

SOURCE = ROOT / "src" / "licheck"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = run_guarded(cli, list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# -- rule files and manifests are data -------------------------------------------------------

PAYLOADS = [
    "!!python/object/apply:os.system ['touch {marker}']",
    "!!python/object/new:subprocess.Popen [['touch', '{marker}']]",
    "!!python/name:os.system",
    "!!python/module:os",
    '!!python/object/apply:builtins.exec [\'open("{marker}", "w")\']',
]


@pytest.mark.parametrize("payload", PAYLOADS)
@pytest.mark.parametrize("target", ["manifest", "rule file"])
def test_yaml_tags_never_construct_or_run_anything(
    payload: str, target: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "executed"
    code_text = payload.format(marker=marker)
    if target == "manifest":
        text = (
            (PRODUCTS / "composer2.yaml")
            .read_text("utf-8")
            .replace("product: Composer 2", f"product: {code_text}")
        )
        path = tmp_path / "m.yaml"
        path.write_text(text, "utf-8")
        code, out, err = run(capsys, "evaluate", str(path))
    else:
        library = tmp_path / "licenses"
        shutil.copytree(LICENSES, library)
        rule = library / "mit.yaml"
        rule.write_text(
            rule.read_text("utf-8").replace("name: MIT License", f"name: {code_text}"), "utf-8"
        )
        code, out, err = run(capsys, "licenses", "list", "--licenses", str(library))
    assert code == 2 and out == ""
    assert "tag" in err and "not allowed" in err
    assert not marker.exists()


def _calls_and_imports(root: Path = SOURCE) -> Iterator[tuple[Path, int, str]]:
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text("utf-8"), str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name):
                    yield path, node.lineno, func.id
                elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
                    yield path, node.lineno, f"{func.value.id}.{func.attr}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    yield path, node.lineno, f"import {alias.name}"
            elif isinstance(node, ast.ImportFrom):
                yield path, node.lineno, f"import {node.module}"


FORBIDDEN_CALLS = {
    "eval",
    "exec",
    "compile",
    "__import__",
    "yaml.load",
    "yaml.unsafe_load",
    "yaml.full_load",
    "yaml.load_all",
    "yaml.unsafe_load_all",
    "pickle.loads",
    "marshal.loads",
    "os.system",
    "os.popen",
    "importlib.import_module",
}
FORBIDDEN_IMPORTS = {
    "import socket",
    "import urllib",
    "import urllib.request",
    "import http",
    "import http.client",
    "import requests",
    "import httpx",
    "import ftplib",
    "import smtplib",
    "import subprocess",
    "import pickle",
    "import marshal",
    "import ssl",
    "import asyncio",
}


def test_the_source_never_evaluates_code_or_opens_connections() -> None:
    """Nothing in licheck can turn input into code or reach the network: no eval/exec, no
    unsafe YAML loader, no pickle, no subprocess, no socket or HTTP library."""
    assert _forbidden(SOURCE) == []
    assert len(list(SOURCE.rglob("*.py"))) > 20  # the scan did look at the package


def _forbidden(root: Path) -> list[str]:
    return [
        f"{p.name}:{line}: {what}"
        for p, line, what in _calls_and_imports(root)
        if what in FORBIDDEN_CALLS or what in FORBIDDEN_IMPORTS
    ]


def test_the_scan_would_see_a_forbidden_call(tmp_path: Path) -> None:
    """The static scan above is not vacuous: it finds what it looks for."""
    (tmp_path / "bad.py").write_text(
        "import socket\nfrom urllib import request\nimport yaml\nyaml.load(x)\neval('1')\n", "utf-8"
    )
    assert _forbidden(tmp_path) == [
        "bad.py:1: import socket",
        "bad.py:2: import urllib",
        "bad.py:4: yaml.load",
        "bad.py:5: eval",
    ]


# -- no network ------------------------------------------------------------------------------


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    attempts: list[str] = []

    def refuse(*args: object, **_kwargs: object) -> object:
        attempts.append(repr(args))
        raise OSError("network access attempted in a test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket, "getaddrinfo", refuse)
    return attempts


def test_commands_run_without_network(
    no_network: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = str(PRODUCTS / "composer2.yaml")
    commands = [
        ["evaluate", manifest],
        ["evaluate", manifest, "--format", "json", "--as-of", "2026-03-19"],
        ["evaluate", manifest, "--output", str(tmp_path / "report.json"), "-f", "json"],
        ["validate", manifest, *(str(p) for p in sorted(LICENSES.glob("*.yaml")))],
        ["licenses", "list"],
        ["licenses", "models"],
        ["licenses", "show", "mit"],
        ["schema", "manifest"],
    ]
    if REFERENCE_TEXTS.is_dir():
        commands.append(["licenses", "verify", "--texts", str(REFERENCE_TEXTS)])
    for argv in commands:
        code, _, err = run(capsys, *argv)
        assert code in (0, 1), (argv, err)
    assert no_network == []


# -- inputs never modified -------------------------------------------------------------------


def _fingerprint(paths: list[Path]) -> dict[str, tuple[str, int, int]]:
    result = {}
    for path in paths:
        info = path.stat()
        result[str(path)] = (
            hashlib.sha256(path.read_bytes()).hexdigest(),
            info.st_mtime_ns,
            stat.S_IMODE(info.st_mode),
        )
    return result


def test_inputs_are_never_modified(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    library = tmp_path / "licenses"
    shutil.copytree(LICENSES, library)
    manifest = tmp_path / "composer2.yaml"
    shutil.copy(PRODUCTS / "composer2.yaml", manifest)
    bad = tmp_path / "bad.yaml"
    bad.write_text("product: X\nproduct: Y\n", "utf-8")
    inputs = [manifest, bad, *sorted(library.rglob("*.yaml"))]
    before = _fingerprint(inputs)
    for argv in (
        ["evaluate", str(manifest), "--licenses", str(library)],
        [
            "evaluate",
            str(manifest),
            "--licenses",
            str(library),
            "-f",
            "json",
            "-o",
            str(tmp_path / "out.json"),
        ],
        ["evaluate", str(manifest), str(bad), "--licenses", str(library)],
        ["validate", str(manifest), str(bad), *(str(p) for p in inputs[2:])],
        ["licenses", "list", "--licenses", str(library)],
    ):
        run(capsys, *argv)
    assert _fingerprint(inputs) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["bad.yaml", "composer2.yaml", "licenses", "out.json"]
    )  # nothing else was written


def test_output_never_overwrites_an_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = tmp_path / "composer2.yaml"
    shutil.copy(PRODUCTS / "composer2.yaml", manifest)
    before = manifest.read_bytes()
    code, out, err = run(capsys, "evaluate", str(manifest), "-o", str(manifest))
    assert out == ""
    assert code == 2 and "never overwrites its inputs" in err
    assert manifest.read_bytes() == before


# -- atomic reports --------------------------------------------------------------------------


def test_output_file_matches_standard_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    manifest = str(PRODUCTS / "composer2.yaml")
    target = tmp_path / "report.json"
    code, printed, _ = run(capsys, "evaluate", manifest, "-f", "json")
    code_file, out, _ = run(capsys, "evaluate", manifest, "-f", "json", "-o", str(target))
    assert code == code_file and out == ""
    assert target.read_text("utf-8") == printed
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]  # no temporary file left


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
def test_a_failed_write_leaves_the_previous_report_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "report.json"
    target.write_text("previous report", "utf-8")

    def disk_full(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    code, _, err = run(capsys, "evaluate", str(PRODUCTS / "composer2.yaml"), "-o", str(target))
    assert code == 2 and "No space left on device" in err and "Traceback" not in err
    assert target.read_text("utf-8") == "previous report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]


def test_an_interrupted_write_leaves_no_trace(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "report.txt"
    target.write_text("previous report", "utf-8")

    def interrupted(*_args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_output("new report", target)
    assert target.read_text("utf-8") == "previous report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.txt"]


def test_the_report_appears_whole_in_one_rename(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Until the rename, readers see the old report; the new one is complete before it."""
    target = tmp_path / "report.txt"
    target.write_text("old", "utf-8")
    seen: list[tuple[str, str]] = []
    real_replace = os.replace

    def watching(source: str, destination: Path) -> None:
        seen.append((target.read_text("utf-8"), Path(source).read_text("utf-8")))
        assert Path(source).parent == target.parent  # same file system: rename is atomic
        real_replace(source, destination)

    monkeypatch.setattr(os, "replace", watching)
    write_output("new report\n" * 1000, target)
    assert seen == [("old", "new report\n" * 1000)]
    assert target.read_text("utf-8") == "new report\n" * 1000


def test_report_permissions(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.txt"
    write_output("x", fresh)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask  # not mkstemp's private 0600
    kept = tmp_path / "kept.txt"
    kept.write_text("old", "utf-8")
    kept.chmod(0o640)
    write_output("new", kept)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o640


@pytest.mark.parametrize("where", ["missing-folder", "a-folder"])
def test_bad_output_paths_exit_2(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "nowhere" / "r.json" if where == "missing-folder" else tmp_path
    code, out, err = run(capsys, "evaluate", str(PRODUCTS / "composer2.yaml"), "-o", str(target))
    assert code == 2 and out == "" and "Traceback" not in err
    assert "--output" in err or "output" in err.lower()
