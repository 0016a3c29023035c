"""`licheck check` over a large portfolio, as a process: Ctrl-C exits 130 and stops every worker,
no worker outlives a killed parent, and a reader of standard output that goes away never turns a
failing gate into exit 0.  Each run is bounded by timeouts."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import PRODUCTS, ROOT

pytestmark = pytest.mark.skipif(
    not Path("/proc/self/task").is_dir() or (os.cpu_count() or 1) < 2,
    reason="needs Linux's /proc and two cores (workers)",
)
COPIES = 400  # × the shipped products: well above the parallel threshold, a few seconds' work


# Each case starts interpreters and worker pools and waits on signals: slow.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def portfolio_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("large")
    for source in sorted(PRODUCTS.glob("*.yaml")):
        for copy in range(COPIES):
            shutil.copy(source, folder / f"{copy:04}-{source.name}")
    return folder


def _start(folder: Path, *argv: str, stdout: int = subprocess.DEVNULL) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "NO_COLOR": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "licheck", "check", str(folder), "--no-waivers", *argv],
        stdout=stdout,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
        start_new_session=True,  # its own process group, as a shell gives a command
    )


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):
            found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _workers(process: subprocess.Popen[bytes], timeout: float = 30) -> list[int]:
    """The parent's worker processes, once they are running."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = _children(process.pid)
        if len(children) >= 2:
            return children
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        time.sleep(0.01)
    raise AssertionError("no workers started")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"  # a zombie has exited; only its entry waits for its parent


def _gone(pids: list[int], timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not any(_alive(pid) for pid in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    started: list[subprocess.Popen[bytes]] = []
    yield started
    for process in started:  # whatever a failing test left running
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=10)


@pytest.mark.parametrize("group", [True, False], ids=["terminal", "parent-only"])
def test_ctrl_c_exits_130_and_stops_every_worker(
    portfolio_dir: Path, processes: list[subprocess.Popen[bytes]], group: bool
) -> None:
    """Ctrl-C in a terminal signals the whole process group; `kill -INT` only the parent."""
    process = _start(portfolio_dir, "-f", "json")
    processes.append(process)
    workers = _workers(process)
    if group:
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 130, err
    assert b"Traceback" not in err
    assert _gone(workers)


def test_no_worker_outlives_a_killed_parent(
    portfolio_dir: Path, processes: list[subprocess.Popen[bytes]]
) -> None:
    process = _start(portfolio_dir, "-f", "json")
    processes.append(process)
    workers = _workers(process)
    process.kill()
    process.communicate(timeout=10)
    assert _gone(workers)


@pytest.mark.parametrize("fail_on", ["risk", "never"])
def test_a_closed_pipe_is_not_exit_0(
    portfolio_dir: Path, processes: list[subprocess.Popen[bytes]], fail_on: str
) -> None:
    """`licheck check ... | head`: the report is cut short, quietly, and the run exits 1 —
    whether the gate fails (it must never exit 0 then) or passes (nobody got the report)."""
    process = _start(portfolio_dir, "-f", "json", "--fail-on", fail_on, stdout=subprocess.PIPE)
    processes.append(process)
    assert process.stdout is not None
    assert process.stdout.read(100)
    process.stdout.close()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 1, err
    assert b"Traceback" not in err and b"Exception ignored" not in err, err


@pytest.mark.parametrize("group", [True, False], ids=["group", "parent-only"])
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_sigterm_and_sighup_stop_as_cleanly_as_ctrl_c(
    portfolio_dir: Path,
    processes: list[subprocess.Popen[bytes]],
    tmp_path: Path,
    name: str,
    group: bool,
) -> None:
    """`kill PID` (the parent alone) or a closed terminal (the whole group): no traceback from
    the parent or a worker, exit 128 + the signal, every worker gone, and the output file the
    run was to replace left as it was, with nothing half written beside it."""
    number = getattr(signal, name)
    output = tmp_path / "report.json"
    output.write_text("the previous report\n", encoding="utf-8")
    process = _start(portfolio_dir, "-f", "json", "-o", str(output))
    processes.append(process)
    workers = _workers(process)
    time.sleep(0.2)  # into the evaluation: chunks on their way back from the workers
    if group:
        os.killpg(process.pid, number)
    else:
        process.send_signal(number)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 128 + number, err
    assert b"Traceback" not in err and b"Error" not in err, err
    assert err.decode().strip() == "Terminated."
    assert _gone(workers)
    assert output.read_text(encoding="utf-8") == "the previous report\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json"]
