"""The public Python API (`licheck.api`, docs/api.md): exactly the curated names, each documented
and with a docstring, no internal type in a signature, options by keyword only, re-exported
lazily from `licheck`, the documentation's example run as written, and answers equal to the
command line's."""

from __future__ import annotations

import dataclasses
import datetime as dt
import inspect
import json
import os
import re
import subprocess
import sys
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import licheck
import licheck.api
from licheck.whatif.report import to_json
from tests.clirun import report_json as cli_report
from tests.clirun import run
from tests.conftest import PRODUCTS, ROOT

API = [
    "Diagnostic",
    "FindingOut",
    "InputError",
    "Library",
    "LicheckError",
    "ProductOut",
    "Report",
    "Verdict",
    "WhatIfReport",
    "check",
    "evaluate",
    "load_library",
    "what_if",
]
FUNCTIONS = ["check", "evaluate", "load_library", "what_if"]
PAGE = ROOT / "docs" / "api.md"
# where a type in a public signature may come from besides the API itself
STANDARD = {"builtins", "collections.abc", "datetime", "os", "pathlib", "types", "typing"}


def _page() -> str:
    return PAGE.read_text(encoding="utf-8")


def test_all_is_exactly_the_curated_api() -> None:
    assert licheck.api.__all__ == API
    assert licheck.__all__ == ["__version__", *API]
    for name in API:
        assert hasattr(licheck.api, name), name


def test_each_name_is_documented_and_only_those() -> None:
    headings = re.findall(r"^### `(\w+)`$", _page(), re.M)
    assert sorted(headings) == sorted(API)


def test_each_name_has_its_own_docstring() -> None:
    for name in API:
        obj = getattr(licheck.api, name)
        doc = obj.__doc__  # a class's own: inspect.getdoc would inherit its base's
        assert doc and doc.strip(), name
        if dataclasses.is_dataclass(obj):  # not the signature dataclasses writes in its place
            assert not doc.startswith(f"{name}("), name


def _types_in(annotation: object) -> Iterator[object]:
    """Every class an annotation names, through unions, generics and literals."""
    if annotation is None or annotation is type(None):
        return
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return
    if origin is not None:
        if origin is not typing.Union and origin is not types.UnionType:
            yield origin
        for argument in typing.get_args(annotation):
            yield from _types_in(argument)
        return
    yield annotation


def test_no_internal_type_leaks_into_a_signature() -> None:
    public = {getattr(licheck.api, name) for name in API}
    for name in FUNCTIONS:
        hints = typing.get_type_hints(getattr(licheck.api, name))
        assert "return" in hints, name
        for where, annotation in hints.items():
            for kind in _types_in(annotation):
                module = getattr(kind, "__module__", "")
                assert kind in public or module in STANDARD, f"{name}({where}): {kind!r}"


def test_options_are_keyword_only() -> None:
    for name in FUNCTIONS:
        parameters = list(inspect.signature(getattr(licheck.api, name)).parameters.values())
        leading = [p for p in parameters if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        assert len(leading) == (0 if name == "load_library" else 1), name
        assert all(not p.name.startswith("_") for p in parameters), name
    with pytest.raises(TypeError):
        licheck.evaluate(PRODUCTS / "composer2.yaml", None)  # type: ignore[call-arg]


def test_licheck_reexports_the_api_lazily() -> None:
    for name in API:
        assert getattr(licheck, name) is getattr(licheck.api, name), name
    from licheck import evaluate

    assert evaluate is licheck.api.evaluate
    assert set(API) <= set(dir(licheck))
    with pytest.raises(AttributeError, match="no attribute 'evaluat'"):
        licheck.evaluat  # noqa: B018  (a misspelt name is an AttributeError, not an import)


def test_import_licheck_imports_nothing_else() -> None:
    probe = (
        "import sys, licheck; "
        "print(sorted(m for m in sys.modules if m.startswith(('licheck', 'pydantic', 'yaml'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    # the version's own module: one line, imported by every report too (docs/architecture.md)
    assert done.stdout.strip() == "['licheck', 'licheck._version']"


def _blocks(language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```$", _page(), re.M | re.S)


def test_the_documented_example_runs_as_written(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    example = _blocks("python")[0]
    printed = _page().partition("It prints:\n\n```text\n")[2].partition("```")[0]
    assert "licheck.evaluate(" in example and "licheck.what_if(" in example and printed
    monkeypatch.chdir(ROOT)
    exec(compile(example, str(PAGE), "exec"), {"__name__": "docs_api_example"})
    assert capsys.readouterr().out == printed


def test_the_documented_signatures_are_the_functions() -> None:
    """Each function's signature block in docs/api.md names its parameters, in order."""
    for name in FUNCTIONS:
        (block,) = [b for b in _blocks("python") if b.startswith(f"{name}(")]
        documented = re.findall(r"(\w+)=", block)
        parameters = list(inspect.signature(getattr(licheck.api, name)).parameters)
        assert documented == [p for p in parameters if p in documented], name
        assert set(parameters) - set(documented) <= {"manifests", "paths", "manifest"}, name


def _cli_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    code, out, err = run(capsys, *argv, "--format", "json")
    assert code in (0, 1), err
    data: dict[str, object] = cli_report(out)  # a report of schema 2.0: expanded to the model's
    return data


def _without_gate_settings(data: dict[str, object]) -> dict[str, object]:
    """The report as a program builds it: the command line adds the settings it ran with, and
    the digest is over what a baseline reads (these settings not among them)."""
    return {k: v for k, v in data.items() if k != "gate_settings"}


@pytest.mark.parametrize(
    ("argv", "call"),
    [
        (
            ["evaluate", str(PRODUCTS / "composer2.yaml"), "--as-of", "2026-03-19"],
            lambda: licheck.evaluate(PRODUCTS / "composer2.yaml", as_of=dt.date(2026, 3, 19)),
        ),
        (
            ["check", str(PRODUCTS), "--evidence", "strict"],
            lambda: licheck.check(str(PRODUCTS), evidence="strict"),
        ),
    ],
    ids=["evaluate", "check"],
)
def test_the_report_is_the_command_lines(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    argv: list[str],
    call: Callable[[], licheck.Report],
) -> None:
    from licheck.report.view import to_json as report_json

    monkeypatch.chdir(tmp_path)  # no configuration or waiver file found by the command line
    expected = _without_gate_settings(_cli_json(capsys, *argv))
    assert _without_gate_settings(json.loads(report_json(call()))) == expected


def test_what_if_is_the_command_lines(capsys: pytest.CaptureFixture[str]) -> None:
    manifest = PRODUCTS / "composer2.yaml"
    expected = _cli_json(
        capsys,
        "whatif",
        str(manifest),
        "--set",
        "mau=50M",
        "--sweep",
        "monthly_revenue=1M..100M",
        "--swap-base",
        "kimi-k2.5=glm-5",
    )
    answer = licheck.what_if(
        os.fspath(manifest),
        facts={"mau": "50M"},
        sweep={"monthly_revenue": "1M..100M"},
        swap_base={"kimi-k2.5": "glm-5"},
    )
    assert json.loads(to_json(answer)) == expected
    assert answer.changes  # the swap changes findings: the comparison is not of two empties


def test_errors_are_licheck_errors() -> None:
    with pytest.raises(licheck.LicheckError, match=r"^evidence: unknown evidence policy 'lax'"):
        licheck.evaluate(PRODUCTS / "composer2.yaml", evidence="lax")
    with pytest.raises(licheck.InputError) as raised:
        licheck.evaluate([PRODUCTS / "composer2.yaml", "no-such.yaml"])
    (problem,) = raised.value.diagnostics
    assert isinstance(problem, licheck.Diagnostic) and problem.file == "no-such.yaml"
    with pytest.raises(licheck.LicheckError, match="mau"):
        licheck.what_if(PRODUCTS / "composer2.yaml", facts={"mau": "lots"})


def test_attestations_are_read_as_the_command_line_reads_them(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from licheck.report.view import to_json as report_json
    from tests.report.test_attestations import MINI, attestation, file_of

    monkeypatch.chdir(tmp_path)
    manifest, attested = tmp_path / "mini.yaml", tmp_path / "att.yaml"
    manifest.write_text(MINI, encoding="utf-8")
    attested.write_text(file_of(attestation()), encoding="utf-8")
    day = "2026-06-01"
    argv = (str(manifest), "--attestations", str(attested))
    expected = _cli_json(capsys, "evaluate", *argv, "--today", day)
    report = licheck.evaluate(manifest, attestations=attested, today=dt.date.fromisoformat(day))
    assert _without_gate_settings(json.loads(report_json(report))) == (
        _without_gate_settings(expected)
    )
    assert report.summary.counts.to_attest == 0  # the attestation settled the conduct risks
    expected = _cli_json(capsys, "whatif", *argv, "--as-of", day, "--set", "mau=800M")
    answer = licheck.what_if(
        manifest, facts={"mau": "800M"}, attestations=attested, as_of=dt.date.fromisoformat(day)
    )
    assert json.loads(to_json(answer)) == expected
    unattested = licheck.what_if(manifest, facts={"mau": "800M"}, as_of=dt.date.fromisoformat(day))
    assert json.loads(to_json(unattested)) != expected  # the attestations did count
