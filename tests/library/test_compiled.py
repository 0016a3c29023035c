"""The shipped library (`licheck/library/library.json`) is the rule files, and nothing user-writable
but the inputs a user names decides a verdict: no cache is read or written, and an edited
`--licenses` folder is read afresh on the next run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from licheck.files.safeio import default_directory
from licheck.inputs.rules import Catalog, PartialDate
from licheck.library.compiled import SHIPPED, Library, load_library, shipped_data
from tests.clirun import run
from tests.conftest import LICENSES, PRODUCTS, ROOT

KIMI = "kimi-k2.5-modified-mit.yaml"
COMPOSER = PRODUCTS / "composer2.yaml"


def test_the_shipped_data_is_generated_from_the_rule_files() -> None:
    """`library.json` is exactly what `python -m licheck.library` makes of `licenses/` today."""
    assert SHIPPED.read_text(encoding="utf-8") == shipped_data(LICENSES), (
        "src/licheck/library/library.json is stale: run `python -m licheck.library`"
    )


def _same_models(a: Any, b: Any, where: str) -> None:
    """Equal, with the same fields set, all the way down."""
    assert type(a) is type(b), where
    if isinstance(a, BaseModel):
        assert a == b and a.model_fields_set == b.model_fields_set, where
        for name in type(a).model_fields:
            _same_models(getattr(a, name), getattr(b, name), f"{where}.{name}")
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same_models(x, y, f"{where}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            _same_models(a[key], b[key], f"{where}.{key}")
    elif isinstance(a, PartialDate):  # a month or a year: its range too, not only its last day
        assert (a, a.first, a.precision) == (b, b.first, b.precision), where
    else:
        assert a == b, where


def test_the_shipped_library_equals_the_rule_files() -> None:
    """Loaded from the package, the library is the very library the rule files compile to:
    licenses, compiled rules, files and clause lines, the catalog and its index."""
    installed = default_directory()  # the checkout's folder, or the wheel's copy of it (CI)
    shipped, fresh = load_library(), load_library(installed)
    assert shipped == fresh
    assert shipped.directory == fresh.directory == installed.resolve()
    for license_id, entry in fresh.licenses.items():
        _same_models(shipped.licenses[license_id].license, entry.license, license_id)
        assert [(c.file, c.line) for c in shipped.licenses[license_id].clauses] == [
            (c.file, c.line) for c in entry.clauses
        ]
    _same_models(list(shipped.models), list(fresh.models), "catalog")


def test_the_shipped_library_builds_no_validator() -> None:
    """Loading the shipped library and compiling every license rebuilds the models checked when
    `library.json` was written: no validator is built, nothing is checked again (a fresh
    process, so that no other test has built one)."""
    probe = (
        "from licheck.library.compiled import load_library, compile_all\n"
        "from licheck.inputs import rules\n"
        "library = load_library(); compile_all(library)\n"
        "assert len(library.models) > 100 and len(library.licenses) > 40\n"
        "print(sorted(n for n, c in vars(rules).items() if getattr(c, '__pydantic_complete__', 0)))"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout


def test_every_rule_file_and_the_catalog_thaw_to_what_was_checked() -> None:
    """`freeze` then `thaw` gives back each checked model, field for field, with the same
    fields set, months and years with their ranges (a round trip over every rule file and the
    catalog as read from the YAML, independent of `library.json`)."""
    from licheck.library.prebuilt import freeze, thaw

    fresh = load_library(default_directory())
    dated = 0
    for license_id, entry in fresh.licenses.items():
        _same_models(thaw(json.loads(json.dumps(freeze(entry.license)))), entry.license, license_id)
    catalog = Catalog(models=list(fresh.models))
    _same_models(thaw(json.loads(json.dumps(freeze(catalog)))), catalog, "catalog")
    for model in fresh.models:
        dated += sum(isinstance(d.from_, PartialDate) for d in model.license_history)
        dated += isinstance(model.release_date, PartialDate)
    assert dated > 0  # the catalog has months or years: the round trip above covered them


@pytest.mark.parametrize(
    "edit",
    [
        ('{"$": "TextSource"', '{"$": "BaseModel"'),  # a class that is not a rule model's
        ('{"$": "TextSource"', '{"$": "os.system"'),
        ('"kind": {"$": "ClauseKind", "v": "', '"kind": {"$": "ClauseKind", "v": "x'),
        ('"file": "apache-2.0-standard.txt"', '"no_such_field": "apache-2.0-standard.txt"'),
    ],
    ids=["not-a-rule-model", "not-a-class", "not-a-member", "not-a-field"],
)
def test_data_the_freezer_did_not_write_is_damage(edit: tuple[str, str], tmp_path: Path) -> None:
    """Even with its checksum made right, a library.json naming what `freeze` never writes
    is a located error on use, never a model built from it."""
    import zlib

    from licheck.core.diagnostics import InputError
    from licheck.library.compiled import _load_shipped

    body = SHIPPED.read_text(encoding="utf-8").rstrip("\n").rpartition("\n")[0] + "\n"
    edited = body.replace(*edit, 1)
    assert edited != body
    data = (edited + f"crc32 {zlib.crc32(edited.encode())}\n").encode()
    with pytest.raises(InputError) as raised:
        library = _load_shipped(data, default_directory())
        for license_id in library.licenses:
            library.licenses[license_id]
    assert "built-in license library is damaged" in str(raised.value.diagnostics[0].message)


def test_the_installed_rule_files_are_the_checkouts() -> None:
    """Under a non-editable install the package carries a copy of `licenses/`: the same files,
    byte for byte, so the test above speaks for the checkout's rule files too."""
    installed = default_directory().resolve()
    if installed == LICENSES.resolve():
        pytest.skip("an editable install reads the checkout's rule files themselves")
    names = sorted(p.name for p in LICENSES.glob("*.yaml"))
    assert names == sorted(p.name for p in installed.glob("*.yaml"))
    for name in names:
        assert (installed / name).read_bytes() == (LICENSES / name).read_bytes(), name


def test_each_load_is_a_new_library() -> None:
    """No hidden memo: the caller owns the library it loads."""
    first, second = load_library(), load_library()
    assert first == second and first is not second
    assert isinstance(first, Library)


# -- a --licenses folder is read afresh ----------------------------------------------------------


def _ui_attribution(capsys: pytest.CaptureFixture[str], folder: Path) -> tuple[int, str | None]:
    code, out, err = run(
        capsys, "evaluate", str(COMPOSER), "--licenses", str(folder), "--format", "json"
    )
    assert code in (0, 1), err
    findings = json.loads(out)["products"][0]["findings"]
    verdicts = [f["verdict"] for f in findings if f["clause"] == "ui-attribution"]
    return code, verdicts[0] if verdicts else None


PRODUCT = """\
product: Chat
owner: Someone
facts:
  commercial: true
  mau: 150M
  monthly_revenue: 1M USD/month
  ui_attribution: {excludes: [Kimi K2.5]}
  agreement_waives: {value: []}
components:
  - id: chat
    name: Chat
    lineage: {base: kimi-k2.5}
"""


def test_an_edited_threshold_changes_the_next_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Raising Kimi's user threshold in a `--licenses` copy turns a violation (exit 1) into a
    pass (exit 0) on the very next run, and restoring it restores the violation."""
    folder = tmp_path / "licenses"
    shutil.copytree(LICENSES, folder)
    product = tmp_path / "chat.yaml"
    product.write_text(PRODUCT, encoding="utf-8")

    def gate() -> tuple[int, str | None]:
        code, out, err = run(
            capsys, "check", str(product), "--licenses", str(folder), "--format", "json"
        )
        assert code in (0, 1), err
        findings = json.loads(out)["products"][0]["findings"]
        return code, next(f["verdict"] for f in findings if f["clause"] == "ui-attribution")

    assert gate() == (1, "violation")  # 150M users: more than 100 million
    rule = folder / KIMI
    text = rule.read_text(encoding="utf-8")
    assert text.count("more_than: 100M}") == 1
    rule.write_text(text.replace("more_than: 100M}", "more_than: 200M}"), encoding="utf-8")
    assert gate() == (0, "not_applicable")
    rule.write_text(text, encoding="utf-8")
    assert gate() == (1, "violation")  # nothing of the edited run is kept


def test_a_deleted_clause_is_gone_on_the_next_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "licenses"
    shutil.copytree(LICENSES, folder)
    assert _ui_attribution(capsys, folder)[1] is not None
    rule = folder / KIMI
    text = rule.read_text(encoding="utf-8")
    start = text.index("  - id: ui-attribution")
    end = text.index("  - id: copyright-notice")
    rule.write_text(text[:start] + text[end:], encoding="utf-8")
    assert _ui_attribution(capsys, folder)[1] is None
    assert _ui_attribution(capsys, LICENSES)[1] == "governance_risk"  # the shipped one stands


def test_a_broken_rule_file_fails_every_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "licenses"
    shutil.copytree(LICENSES, folder)
    _ui_attribution(capsys, folder)
    rule = folder / KIMI
    rule.write_text(rule.read_text(encoding="utf-8").replace("more_than: 100M}", "more_than: }"))
    for _ in range(2):
        code, _, err = run(capsys, "evaluate", str(COMPOSER), "--licenses", str(folder))
        assert code == 2 and str(rule) in err and "Traceback" not in err


# -- no cache -------------------------------------------------------------------------------------

PROBE = """
import os, sys
opened = []
def hook(event, args):
    if event == "open" and isinstance(args[0], (str, bytes, os.PathLike)):
        opened.append(os.fsdecode(args[0]))
    elif event in ("os.mkdir", "os.rename", "os.replace", "os.remove"):
        opened.append(os.fsdecode(args[0]))
sys.addaudithook(hook)
from licheck.cli import cli
from licheck.cli.common import run_guarded
code = run_guarded(cli, sys.argv[1:])
home = os.environ["HOME"]
touched = [p for p in opened if p.startswith(home)]
sys.stdout.flush()
print("\\nTOUCHED", repr(touched), file=sys.stderr)
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["evaluate", str(COMPOSER), "--format", "json"],
        ["check", str(PRODUCTS)],
        ["licenses", "list"],
        ["evaluate", str(COMPOSER), "--licenses", str(LICENSES)],
    ],
    ids=["evaluate", "check", "licenses-list", "evaluate-licenses"],
)
def test_no_cache_is_read_or_written(tmp_path: Path, argv: list[str]) -> None:
    """With HOME and XDG_CACHE_HOME in an empty folder, a run opens nothing there and leaves it
    empty (the old library cache lived in ~/.cache/licheck)."""
    home = tmp_path / "home"
    home.mkdir()
    env = {
        "PATH": os.environ.get("PATH", ""),
        "PYTHONPATH": str(ROOT / "src"),
        "HOME": str(home),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "NO_COLOR": "1",
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "TOUCHED [" in done.stderr, done.stderr[-2000:]
    assert done.stderr.rsplit("TOUCHED ", 1)[1].strip() == "[]", done.stderr[-2000:]
    assert list(home.iterdir()) == []


@pytest.mark.parametrize("damage", ["missing", "truncated", "edited"])
def test_a_damaged_shipped_library_is_an_error_not_a_traceback(
    damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import licheck.library.compiled

    data = SHIPPED.read_text(encoding="utf-8")
    broken = tmp_path / "library.json"
    if damage == "truncated":
        broken.write_text(data[: len(data) // 2], encoding="utf-8")
    elif damage == "edited":  # a threshold of the wrong type
        broken.write_text(data.replace('"more_than": "100M"', '"more_than": {}', 1))
        assert broken.read_text() != data
    monkeypatch.setattr(licheck.library.compiled, "SHIPPED", broken)
    code, out, err = run(capsys, "evaluate", str(COMPOSER))
    assert code == 2 and out == "" and "Traceback" not in err
    assert str(broken) in err and "built-in license library" in err


# -- checked and compiled when used ---------------------------------------------------------------


def test_a_stale_shipped_library_fails_the_comparison(tmp_path: Path) -> None:
    """Edit one threshold of a copy of the rule files: the generated text differs from the
    shipped one (so the staleness test above fails), and a library loaded from it judges with
    the edited threshold (the shipped data is what a run reads, not a decoration)."""
    folder = tmp_path / "licenses"
    shutil.copytree(LICENSES, folder)
    rule = folder / KIMI
    text = rule.read_text(encoding="utf-8")
    rule.write_text(text.replace("more_than: 100M}", "more_than: 200M}"), encoding="utf-8")
    edited = shipped_data(folder)
    assert edited != SHIPPED.read_text(encoding="utf-8")
    from licheck.library.compiled import _load_shipped

    library = _load_shipped(edited.encode(), folder)
    assert library == load_library(folder)
    tests = {
        str(t) for c in library.licenses["kimi-k2.5-modified-mit"].clauses for t in c.rule.tests()
    }
    assert any("200M" in t for t in tests) and not any("100M" in t for t in tests)


def test_each_rule_file_is_compiled_when_first_used(capsys: pytest.CaptureFixture[str]) -> None:
    """Loading compiles no rule file; evaluating Composer 2 compiles the licenses it is under
    (Kimi K2.5's) and not the other forty-odd; the results equal a fully compiled library's."""
    from licheck.evaluation.evaluate import Options
    from licheck.facts.evidencepolicy import POLICIES
    from licheck.library.compiled import ShippedLicenses
    from licheck.portfolio.runs import evaluate_paths

    shipped = load_library()
    licenses = shipped.licenses
    assert isinstance(licenses, ShippedLicenses)
    assert licenses.compiled == frozenset() and len(licenses) > 40
    assert "kimi-k2.5-modified-mit" in licenses and licenses.compiled == frozenset()
    options = Options(POLICIES["default"])
    lazily = evaluate_paths([COMPOSER], options, shipped)
    assert "kimi-k2.5-modified-mit" in licenses.compiled
    assert len(licenses.compiled) < len(licenses) // 4
    assert lazily == evaluate_paths([COMPOSER], options, load_library(default_directory()))


def test_licensors_come_from_the_index_as_from_the_rule_files() -> None:
    """Agreements read every license's licensor: the index gives them without compiling."""
    from licheck.library.compiled import ShippedLicenses

    shipped, fresh = load_library(), load_library(default_directory())
    assert shipped.licenses.licensors() == fresh.licenses.licensors()
    assert shipped.licenses.licensors()["kimi-k2.5-modified-mit"] == "moonshot-ai"
    assert isinstance(shipped.licenses, ShippedLicenses)
    assert shipped.licenses.compiled == frozenset()


def test_a_portfolio_compiles_every_license_before_its_workers_fork() -> None:
    """`compile_all` leaves nothing to compile in the workers; the entries are the same."""
    from licheck.library.compiled import ShippedLicenses, compile_all

    shipped = load_library()
    assert isinstance(shipped.licenses, ShippedLicenses)
    compile_all(shipped)
    assert shipped.licenses.compiled == frozenset(shipped.licenses)
    assert shipped == load_library(default_directory())
