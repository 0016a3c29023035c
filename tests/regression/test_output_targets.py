"""Where outputs go: `-o` never writes over an input or into the installation, a symlink writes
its target, /dev/null and /dev/stdout stay devices, a FIFO is written through, a report written
twice keeps its permissions, an empty path is not the current folder, a name near the length
limit is written."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import licheck
from licheck.files.safeio import default_directory
from tests.clirun import run

ROOT = Path(__file__).resolve().parents[2]


COMPOSER = ROOT / "products" / "composer2.yaml"


WAIVERS = ROOT / "tests" / "data" / "waivers" / "composer2.yaml"


TIMEOUT = 60


def _digest(path: Path) -> bytes:
    return path.read_bytes()


def _setup(tmp_path: Path) -> dict[str, Path]:
    folder = tmp_path / "d"
    folder.mkdir()
    shutil.copy(COMPOSER, folder / "a.yaml")
    shutil.copy(COMPOSER, tmp_path / "m.yaml")
    shutil.copy(WAIVERS, tmp_path / "w.yaml")
    licenses = tmp_path / "lib"
    shutil.copytree(ROOT / "licenses", licenses)
    (tmp_path / "bom.json").write_text('{"bomFormat": "CycloneDX"}', encoding="utf-8")
    (tmp_path / "README.md").write_text("---\nlicense: mit\n---\n", encoding="utf-8")
    return {"d": folder, "m": tmp_path / "m.yaml", "w": tmp_path / "w.yaml", "lib": licenses}


OVERWRITES = [
    (["whatif", "m.yaml", "-o", "m.yaml"], "m.yaml", "is an input of this run"),
    (["check", "d", "-o", "d/a.yaml"], "d/a.yaml", "inside the input folder"),
    (["check", "d", "-o", "d/new.yaml"], None, "inside the input folder"),
    (["check", "m.yaml", "--waivers", "w.yaml", "-o", "w.yaml"], "w.yaml", "is an input"),
    (["evaluate", "m.yaml", "--waivers", "w.yaml", "-o", "w.yaml"], "w.yaml", "is an input"),
    (["evaluate", "m.yaml", "-o", "m.yaml"], "m.yaml", "is an input"),
    (["check", "m.yaml", "--licenses", "lib", "-o", "lib/mit.yaml"], "lib/mit.yaml", "inside"),
    (
        ["evaluate", "m.yaml", "--licenses", "lib", "-o", "lib/catalog.yaml"],
        "lib/catalog.yaml",
        "inside",
    ),
    (["import", "cyclonedx", "bom.json", "-o", "bom.json"], "bom.json", "is an input"),
    (["import", "hf", "README.md", "-o", "README.md"], "README.md", "is an input"),
    (
        ["whatif", "m.yaml", "--sweep", "mau=1..1000M", "--plot", "x.svg", "-o", "x.svg"],
        None,
        "the same file as",
    ),
    (["whatif", "m.yaml", "--sweep", "mau=1..1000M", "--plot", "m.yaml"], "m.yaml", "is an input"),
    (["check", "d", "-o", "d"], "d/a.yaml", "is a directory"),
]


@pytest.mark.parametrize(
    ("argv", "kept", "message"), OVERWRITES, ids=[" ".join(a) for a, _, _ in OVERWRITES]
)
def test_outputs_never_overwrite_inputs(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    kept: str | None,
    message: str,
) -> None:
    _setup(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = _digest(tmp_path / kept) if kept else None
    listing = sorted(p.name for p in tmp_path.rglob("*"))
    code, _, err = run(capsys, *argv)
    assert code == 2, err
    assert message in err
    assert "Traceback" not in err
    if kept:
        assert _digest(tmp_path / kept) == before
    assert sorted(p.name for p in tmp_path.rglob("*")) == listing  # nothing created, no temp


def test_symlinked_output_writes_its_target(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _setup(tmp_path)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.json").symlink_to("target.json")
    code, _, err = run(capsys, "check", "m.yaml", "-f", "json", "-o", "link.json")
    assert (code, err) == (0, "")
    assert (tmp_path / "link.json").is_symlink()
    json.loads((tmp_path / "target.json").read_text(encoding="utf-8"))


def test_dev_null_stays_a_device(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "check", str(COMPOSER), "-o", "/dev/null")
    assert (code, err) == (0, "")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_fifo_output_is_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = _licheck("check", str(COMPOSER), "-f", "json", "-o", str(fifo))
    reader.join(TIMEOUT)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert json.loads(received[0])["summary"]["products"] == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.fifo"]


def test_same_report_twice_keeps_permissions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = tmp_path / "r.txt"
    report.write_text("old", encoding="utf-8")
    report.chmod(0o640)
    assert run(capsys, "check", str(COMPOSER), "-o", str(report))[0] == 0
    assert stat.S_IMODE(report.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.txt"]


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


# Where licheck is installed: the checkout's src/ under an editable install, site-packages
# under CI's ordinary one.  Targeting the checkout instead would make a non-editable run write
# into the repository (it is not licheck's installation there, so nothing refuses it).
PACKAGE = Path(licheck.__file__).resolve().parent


RULES = default_directory().resolve()


IMPORT = ROOT / "tests" / "data" / "import"


OWN_FILES = {
    "library-json": PACKAGE / "library" / "library.json",
    "rule-file": RULES / "apache-2.0.yaml",
    "module": PACKAGE / "escape.py",
    "new-in-rules": RULES / "report.txt",
}


WRITERS = {
    "evaluate": ["evaluate", str(COMPOSER), "--no-waivers", "-o"],
    "check": ["check", str(COMPOSER), "--no-waivers", "-o"],
    "whatif": ["whatif", str(COMPOSER), "-o"],
    "whatif-plot": ["whatif", str(COMPOSER), "--sweep", "mau=1M..1000M", "--plot"],
    "import-hf": ["import", "hf", str(IMPORT / "kimi-finetune-README.md"), "-o"],
    "import-bom": ["import", "cyclonedx", str(IMPORT / "bom-kimi-1.6.json"), "-o"],
}


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
@pytest.mark.parametrize("target", OWN_FILES)
@pytest.mark.parametrize("writer", WRITERS)
def test_outputs_never_touch_the_installation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, writer: str, target: str
) -> None:
    path = OWN_FILES[target]
    before = path.read_bytes() if path.exists() else None
    link = tmp_path / "link.out"  # through a symlink too
    link.symlink_to(path)
    try:
        for output in (path, link):
            code, out, err = run(capsys, *WRITERS[writer], str(output))
            assert (code, out) == (2, "")
            assert "inside licheck's installation" in err and "never overwrites it" in err
        assert (path.read_bytes() if path.exists() else None) == before
    finally:  # a failing refusal must not leave the installation damaged for later tests
        if before is None:
            path.unlink(missing_ok=True)
        elif path.read_bytes() != before:
            path.write_bytes(before)


@pytest.mark.parametrize(
    "argv",
    [
        ["evaluate", str(COMPOSER), "--no-waivers", "-f", "json", "-o", "/dev/stdout"],
        ["check", str(COMPOSER), "--no-waivers", "-f", "json", "-o", "/dev/stdout"],
        ["whatif", str(COMPOSER), "--sweep", "mau=1M..1000M", "--plot", "/dev/stdout", "-o", "-"],
    ],
    ids=["evaluate", "check", "whatif-plot"],
)
def test_dev_stdout_as_output_is_written_through(tmp_path: Path, argv: list[str]) -> None:
    import os
    import subprocess
    import sys

    if not Path("/dev/stdout").exists():
        pytest.skip("no /dev/stdout")
    argv = [a if a != "-" else str(tmp_path / "report.txt") for a in argv]
    result = subprocess.run(
        [sys.executable, "-m", "licheck", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert (result.returncode, result.stderr) == (0, "")
    if argv[0] == "whatif":
        ET.fromstring(result.stdout)
    else:
        assert json.loads(result.stdout)["tool"] == "licheck"


EMPTY = {
    "check-path": ["check", ""],
    "evaluate-manifest": ["evaluate", ""],
    "evaluate-output": ["evaluate", str(COMPOSER), "-o", ""],
    "check-waivers": ["check", str(COMPOSER), "--waivers", ""],
    "check-licenses": ["check", str(COMPOSER), "--licenses", ""],
    "whatif-manifest": ["whatif", ""],
    "whatif-plot": ["whatif", str(COMPOSER), "--sweep", "mau=1..100M", "--plot", ""],
    "import-output": ["import", "hf", str(IMPORT / "kimi-finetune-README.md"), "-o", ""],
}


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
@pytest.mark.parametrize("case", EMPTY)
def test_an_empty_path_is_not_the_current_folder(
    capsys: pytest.CaptureFixture[str], case: str
) -> None:
    code, out, err = run(capsys, *EMPTY[case])
    assert (code, out) == (2, "")
    assert "an empty path (an unset variable?): name a file or folder" in err


@pytest.mark.parametrize("length", [200, 250, 255])
def test_an_output_name_near_the_limit_is_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, length: int
) -> None:
    output = tmp_path / ("r" * (length - 5) + ".json")
    code, _, err = run(
        capsys, "evaluate", str(COMPOSER), "--no-waivers", "-f", "json", "-o", str(output)
    )
    assert (code, err) == (0, "")
    assert json.loads(output.read_text(encoding="utf-8"))["tool"] == "licheck"
    assert [p.name for p in tmp_path.iterdir()] == [output.name]  # no temporary file left
