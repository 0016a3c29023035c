"""The library cache: a hit gives the library a fresh load gives; any edit misses; a corrupt,
foreign or unsafe cache file is ignored and rewritten; no usable cache folder still works."""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from licheck import libcache, library, yamlsafe
from licheck.diagnostics import InputError
from licheck.library import load_library
from tests.conftest import LICENSES, REFERENCE_TEXTS, needs_reference


@pytest.fixture
def lib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A copy of the rule library, and a cache folder of the test's own."""
    folder = tmp_path / "licenses"
    shutil.copytree(LICENSES, folder, ignore=shutil.ignore_patterns("tests"))
    monkeypatch.setenv("LICHECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("LICHECK_NO_CACHE", raising=False)
    load_library.cache_clear()
    yield folder
    load_library.cache_clear()


def cache_files(tmp_path: Path) -> list[Path]:
    return sorted((tmp_path / "cache").glob("library-*.json"))


def fresh(folder: Path, monkeypatch: pytest.MonkeyPatch) -> library.Library:
    with monkeypatch.context() as patch:
        patch.setenv("LICHECK_NO_CACHE", "1")
        load_library.cache_clear()
        result = load_library(folder)
    load_library.cache_clear()
    return result


def reading_no_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("a cache hit reads no YAML")

    monkeypatch.setattr(yamlsafe, "load", refuse)


def test_a_hit_equals_a_fresh_load(
    lib: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load_library(lib)
    assert len(cache_files(tmp_path)) == 1
    expected = fresh(lib, monkeypatch)
    assert first == expected
    with monkeypatch.context() as patch:
        reading_no_yaml(patch)
        hit = load_library(lib)
    assert hit == expected
    assert hit is not first
    # what later diagnostics need survives: each clause's file and line (`verify`, SARIF)
    for license_id, entry in expected.licenses.items():
        assert [(c.file, c.line) for c in hit.licenses[license_id].clauses] == [
            (c.file, c.line) for c in entry.clauses
        ]
        assert hit.licenses[license_id].file == entry.file
    assert hit.model("kimi-k2.5") == expected.model("kimi-k2.5")


def test_an_edited_rule_file_misses(
    lib: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = load_library(lib)
    load_library.cache_clear()
    path = sorted(p for p in lib.glob("*.yaml") if p.name != "catalog.yaml")[0]
    text = path.read_text("utf-8")
    entry = next(e for e in before.licenses.values() if e.file == str(path))
    old = entry.license.name
    path.write_text(text.replace(f"name: {old}", f"name: {old} (edited)", 1), "utf-8")
    after = load_library(lib)
    assert after.licenses[entry.license.id].license.name == f"{old} (edited)"
    assert after == fresh(lib, monkeypatch)


def test_a_broken_rule_file_fails_every_time(lib: Path, tmp_path: Path) -> None:
    load_library(lib)
    load_library.cache_clear()
    path = sorted(p for p in lib.glob("*.yaml") if p.name != "catalog.yaml")[0]
    path.write_text(path.read_text("utf-8") + "\nbogus_key: 1\n", "utf-8")
    for _ in range(2):
        with pytest.raises(InputError) as caught:
            load_library(lib)
        load_library.cache_clear()
        assert any("bogus_key" in d.message for d in caught.value.diagnostics)


def test_a_new_rule_file_misses(lib: Path, tmp_path: Path) -> None:
    load_library(lib)
    load_library.cache_clear()
    source = sorted(p for p in lib.glob("*.yaml") if p.name != "catalog.yaml")[0]
    (lib / "zz-copy.yaml").write_text(source.read_text("utf-8"), "utf-8")
    with pytest.raises(InputError) as caught:  # the same license id twice
        load_library(lib)
    assert any("also defined" in d.message for d in caught.value.diagnostics)


@pytest.mark.parametrize(
    "content",
    [
        b"not json at all",
        b"",
        b"[1, 2, 3]",
        b'{"format": 1, "key": "0000", "licenses": [], "catalog": null}',
        b'{"format": 999}',
    ],
)
def test_a_corrupt_or_foreign_cache_file_is_rewritten(
    lib: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: bytes
) -> None:
    expected = load_library(lib)
    load_library.cache_clear()
    [cached] = cache_files(tmp_path)
    cached.write_bytes(content)
    assert load_library(lib) == expected
    load_library.cache_clear()
    assert json.loads(cached.read_bytes())["format"] == libcache.FORMAT
    with monkeypatch.context() as patch:
        reading_no_yaml(patch)
        assert load_library(lib) == expected


def test_tampered_data_under_the_right_key_is_ignored(
    lib: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Cached data still goes through the checks of a fresh load: what they would refuse is a
    miss, never a library."""
    expected = load_library(lib)
    load_library.cache_clear()
    [cached] = cache_files(tmp_path)
    stored = json.loads(cached.read_bytes())
    stored["licenses"][0]["data"]["clauses"][0]["kind"] = "not-a-kind"
    cached.write_text(json.dumps(stored), "utf-8")
    os.chmod(cached, 0o600)
    assert load_library(lib) == expected


def test_a_cache_file_others_can_write_is_ignored(
    lib: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    expected = load_library(lib)
    load_library.cache_clear()
    [cached] = cache_files(tmp_path)
    os.chmod(cached, 0o666)
    with monkeypatch.context() as patch:
        patch.setattr(library, "_load", lambda *a: (_ for _ in ()).throw(AssertionError("miss")))
        with pytest.raises(AssertionError, match="miss"):
            load_library(lib)
    load_library.cache_clear()
    assert load_library(lib) == expected
    assert not stat.S_IMODE(cache_files(tmp_path)[0].stat().st_mode) & 0o022  # rewritten, ours


def test_no_writable_cache_folder_still_works(
    lib: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("x", "utf-8")
    monkeypatch.setenv("LICHECK_CACHE_DIR", str(blocker / "cache"))  # under a file: unusable
    assert load_library(lib) == fresh(lib, monkeypatch)
    assert blocker.read_text("utf-8") == "x"


def test_the_cache_can_be_turned_off(
    lib: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LICHECK_NO_CACHE", "1")
    load_library(lib)
    assert not (tmp_path / "cache").exists()
    assert libcache.directory() is None


def test_where_the_cache_lives(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("LICHECK_NO_CACHE", raising=False)
    monkeypatch.setenv("LICHECK_CACHE_DIR", str(tmp_path / "explicit"))
    assert libcache.directory() == tmp_path / "explicit"
    monkeypatch.delenv("LICHECK_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert libcache.directory() == tmp_path / "xdg" / "licheck"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # not absolute: ignored, as XDG says
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert libcache.directory() == tmp_path / "home" / ".cache" / "licheck"
    monkeypatch.setenv("LICHECK_NO_CACHE", "0")
    assert libcache.directory() is not None


def test_the_cache_holds_data_not_code(lib: Path, tmp_path: Path) -> None:
    load_library(lib)
    [cached] = cache_files(tmp_path)
    stored = json.loads(cached.read_bytes())  # plain JSON: nothing to unpickle
    assert stored["format"] == libcache.FORMAT
    assert len(stored["licenses"]) == len(list(lib.glob("*.yaml"))) - 1
    assert stat.S_IMODE(cached.stat().st_mode) == 0o600


def _cli(args: list[str], env: dict[str, str]) -> bytes:
    import subprocess
    import sys

    from tests.conftest import ROOT

    done = subprocess.run(
        [sys.executable, "-m", "licheck", *args],
        cwd=ROOT,
        capture_output=True,
        check=False,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "", "NO_COLOR": "1", **env},
    )
    assert done.returncode in (0, 1), done.stderr.decode()
    return done.stdout


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_output_is_the_same_with_and_without_the_cache(tmp_path: Path, fmt: str) -> None:
    """Byte for byte: no cache, a miss (which writes it) and a hit."""
    args = ["evaluate", "products/composer2.yaml", "products/composer1.5.yaml", "--format", fmt]
    cache = {"LICHECK_CACHE_DIR": str(tmp_path / "cache")}
    without = _cli(args, {"LICHECK_NO_CACHE": "1"})
    assert without
    assert _cli(args, cache) == without  # a miss
    assert cache_files(tmp_path)
    assert _cli(args, cache) == without  # a hit


@needs_reference()
def test_verify_names_the_same_lines_from_the_cache(
    lib: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`verify` reports a drifted quote at its clause's file and line: from a hit as from a
    fresh load."""
    path = lib / "kimi-k2.5-modified-mit.yaml"
    text = path.read_text("utf-8")
    assert "quote: " in text
    path.write_text(text.replace("quote: ", "quote: NOT IN THE TEXT ", 1), "utf-8")
    expected = library.verify(fresh(lib, monkeypatch), REFERENCE_TEXTS)
    assert any(p.clause and p.line > 1 for p in expected)
    load_library(lib)  # a miss: writes the cache
    load_library.cache_clear()
    with monkeypatch.context() as patch:
        reading_no_yaml(patch)
        hit = load_library(lib)
    assert library.verify(hit, REFERENCE_TEXTS) == expected
