"""Special files on the way in: discovery finds every possible manifest and skips what cannot be
one, reports what it cannot read (FIFOs, loops, dangling links) rather than skipping it, follows
a symlinked folder once; no command hangs on a special file, a FIFO swapped in is refused rather
than opened blocking, canonical texts are read bounded, and sniffing finds the top-level key as
the documented rule says."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from licheck.core.diagnostics import InputError
from licheck.files.discovery import discover
from tests.clirun import run

ROOT = Path(__file__).resolve().parents[2]


COMPOSER = ROOT / "products" / "composer2.yaml"


TIMEOUT = 60


BODY = COMPOSER.read_text(encoding="utf-8")


FOUND = {
    "bom": b"\xef\xbb\xbf" + BODY.encode(),
    "double-quoted": BODY.replace("product:", '"product":', 1).encode(),
    "single-quoted": BODY.replace("product:", "'product':", 1).encode(),
    "explicit-key": BODY.replace("product:", "? product\n:", 1).encode(),
    "key-spaced": BODY.replace("product:", "product   :", 1).encode(),
    "late-key": b"#" * (3 << 20) + b"\n" + BODY.encode(),
    "json-one-line": json.dumps({"product": "X", "owner": "Y"}).encode(),
    "json-indented": json.dumps({"owner": "Y", "product": "X"}, indent=2).encode(),
    "flow-after-marker": b"--- {owner: Y, product: X}\n",
    "flow-after-comment": b"# a comment\n{owner: Y,\n product: X}\n",
    "utf16": BODY.encode("utf-16"),
    "too-large": b"#" * (5 << 20),
}


NOT_FOUND = {
    "ci": b"on: [push]\njobs: {}\n",
    "nested-product": b"release:\n  product: X\n",
    "products-plural": b"products: [a]\n",
}


@pytest.mark.parametrize("name", FOUND)
def test_discovery_finds_every_possible_manifest(tmp_path: Path, name: str) -> None:
    (tmp_path / f"{name}.yaml").write_bytes(FOUND[name])
    assert [p.name for p in discover([tmp_path])] == [f"{name}.yaml"]


@pytest.mark.parametrize("name", NOT_FOUND)
def test_discovery_skips_what_cannot_be_a_manifest(tmp_path: Path, name: str) -> None:
    (tmp_path / f"{name}.yaml").write_bytes(NOT_FOUND[name])
    shutil.copy(COMPOSER, tmp_path / "z.yaml")
    assert [p.name for p in discover([tmp_path])] == ["z.yaml"]


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _parent_loop(folder: Path) -> None:
    (folder / "x").mkdir()
    (folder / "x" / "up").symlink_to("..")


REPORTED: dict[str, tuple[Callable[[Path], object] | None, str, str]] = {
    "fifo": (lambda d: _fifo(d / "p.yaml"), "p.yaml", "is a FIFO (named pipe), not a regular file"),
    "broken-link": (lambda d: (d / "b.yaml").symlink_to("gone.yaml"), "b.yaml", "cannot be read"),
    "self-link": (lambda d: (d / "s.yaml").symlink_to("s.yaml"), "s.yaml", "a symlink loop"),
    "folder-loop": (lambda d: (d / "sub").symlink_to("."), "sub", "a symlink loop"),
    "parent-loop": (
        lambda d: _parent_loop(d),
        "up",
        "a symlink loop",
    ),
    "socket": (None, "s.yaml", "is a socket"),
}


@pytest.mark.parametrize("case", REPORTED)
def test_discovery_reports_what_it_cannot_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str
) -> None:
    make, name, message = REPORTED[case]
    shutil.copy(COMPOSER, tmp_path / "ok.yaml")
    if make is None:
        import socket

        sock = socket.socket(socket.AF_UNIX)
        cleanup = sock.close
        # bound by a relative name: a socket's path is at most ~107 bytes, and pytest's
        # temporary folder may be longer than that
        monkeypatch.chdir(tmp_path)
        try:
            sock.bind(name)
        except OSError:
            sock.close()
            raise
    else:
        make(tmp_path)
        cleanup = lambda: None  # noqa: E731
    try:
        with pytest.raises(InputError) as caught:
            discover([tmp_path])
    finally:
        cleanup()
    (diagnostic,) = caught.value.diagnostics
    assert Path(diagnostic.file).name == name
    assert message in diagnostic.message


def test_symlinked_folder_is_followed_once(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir()
    shutil.copy(COMPOSER, real / "a.yaml")
    (tmp_path / "alias").symlink_to("real")
    assert [p.name for p in discover([tmp_path])] == ["a.yaml"]


@pytest.mark.parametrize("target", ["gone.yaml", "loop.yaml"])
def test_command_line_symlink_problems(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, target: str
) -> None:
    link = tmp_path / "loop.yaml"
    link.symlink_to(target)
    code, out, err = run(capsys, "check", str(link))
    assert (code, out) == (2, "")
    assert "a broken symlink, or a symlink loop" in err


def _licheck(
    *argv: str, env: dict[str, str] | None = None, **kw: object
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "licheck", *argv],
        capture_output=True,
        encoding="utf-8",
        errors="replace",
        timeout=TIMEOUT,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        **kw,
    )


HANGS = {
    "fifo-in-folder": (["check", "{d}"], "is a FIFO"),
    "fifo-manifest": (["check", "{d}/p.yaml"], "not a regular file"),
    "fifo-waivers": (["check", str(COMPOSER), "--waivers", "{d}/p.yaml"], "not a regular file"),
    "fifo-hf": (["import", "hf", "{d}/p.yaml"], "not a regular file"),
    "fifo-cyclonedx": (["import", "cyclonedx", "{d}/p.yaml"], "not a regular file"),
    "dev-zero-hf": (["import", "hf", "/dev/zero"], "is a device"),
    "dev-zero-cyclonedx": (["import", "cyclonedx", "/dev/zero"], "not a regular file"),
    "dev-zero-check": (["check", "/dev/zero"], "not a regular file"),
}


@pytest.mark.parametrize("case", HANGS)
def test_no_hang_on_special_files(tmp_path: Path, case: str) -> None:
    os.mkfifo(tmp_path / "p.yaml")
    argv, message = HANGS[case]
    result = _licheck(*(a.replace("{d}", str(tmp_path)) for a in argv))
    assert result.returncode == 2, result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def _swapped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A FIFO that the first look (`os.stat`) sees as a regular file, as if swapped in after."""
    import os
    import stat as stat_module

    fifo = tmp_path / "m.yaml"
    os.mkfifo(fifo)
    real_stat = os.stat
    regular = real_stat(COMPOSER)

    def lying(path: object, *args: object, **kwargs: object) -> os.stat_result:
        found = real_stat(path, *args, **kwargs)  # type: ignore[arg-type]
        return regular if stat_module.S_ISFIFO(found.st_mode) else found

    monkeypatch.setattr(os, "stat", lying)
    return fifo


def _within(seconds: float, work: Callable[[], object]) -> object:
    """`work()`'s result or exception, failing (not hanging) past `seconds`."""

    box: list[object] = []

    def target() -> None:
        try:
            box.append(work())
        except BaseException as exc:
            box.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert box, "hung"
    return box[0]


@pytest.mark.parametrize("reader", ["safeio", "yamlsafe", "hf"])
def test_fifo_swapped_in_is_refused_not_opened_blocking(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, reader: str
) -> None:
    from licheck.core.diagnostics import InputError
    from licheck.files import safeio, yamlsafe
    from licheck.importers import hf

    fifo = _swapped(monkeypatch, tmp_path)
    work: dict[str, Callable[[], object]] = {
        "safeio": lambda: safeio.read_bytes(fifo, "m.yaml", 1 << 20),
        "yamlsafe": lambda: yamlsafe.read_text(fifo, "m.yaml"),
        "hf": lambda: hf._read(fifo, "m.yaml"),
    }
    outcome = _within(10, work[reader])
    assert isinstance(outcome, InputError)
    assert outcome.diagnostics[0].message == "is a FIFO (named pipe), not a regular file"


SNIFFED = {
    "first-line": (b"product: X\n", True),
    "first-line-bom": (b"\xef\xbb\xbfproduct: X\n", True),
    "explicit-first": (b"? product\n: X\n", True),
    "crlf": (b"owner: Y\r\nproduct: X\r\n", True),
    "last-line-no-newline": (b"owner: Y\nproduct: X", True),
    "key-alone-last": (b"owner: Y\nproduct", True),
    "after-large-data": (b"k: v product\n" * 300_000 + b"product: X\n", True),
    "indented": (b"a:\n  product: X\n", False),
    "longer-key": (b"productx: 1\nproducts: 2\n", False),
    # not valid YAML (a tab cannot indent), but it may be a manifest: the loader says why
    "tab-first": (b"\tproduct: X\n", True),
    "large-data-only": (b"k: v, not a product key\n" * 150_000, False),
}


@pytest.mark.parametrize("case", SNIFFED)
def test_sniff_finds_the_top_level_key_as_the_documented_rule(tmp_path: Path, case: str) -> None:
    from licheck.files.discovery import is_manifest

    body, expected = SNIFFED[case]
    path = tmp_path / "x.yaml"
    path.write_bytes(body)
    assert is_manifest(path) is expected


@pytest.mark.parametrize("kind", ["fifo", "folder", "too-large"])
@pytest.mark.parametrize("command", ["verify", "coverage"])
def test_canonical_texts_are_read_bounded(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str, command: str
) -> None:
    import os

    texts = tmp_path / "texts"
    texts.mkdir()
    text = texts / "apache-2.0-standard.txt"
    if kind == "fifo":
        os.mkfifo(text)
    elif kind == "folder":
        text.mkdir()
    else:
        text.write_bytes(b"x" * (4 * 1024 * 1024 + 1))
    reason = {
        "fifo": "is a FIFO (named pipe), not a regular file",
        "folder": "is a directory, not a regular file",
        "too-large": "file is too large (4,194,305 bytes; the limit is 4,194,304)",
    }[kind]
    code, _, err = run(capsys, "licenses", command, "--texts", str(texts))
    assert "Traceback" not in err
    if command == "verify":
        assert code == 1
        shown = f"apache-2.0: canonical text apache-2.0-standard.txt in {texts} cannot be read: "
        assert shown + reason in err
    else:
        assert code == 2
        assert f"{text}: error: {reason}" in err
