"""Before and after in one run: this tree's cold start and portfolio check beside other checkouts'.

    python bench/before_after.py --baseline DIR [--baseline DIR ...] [--runs 11] [--count 1000]

Each DIR is another checkout (say `git archive 2e5bcbe | tar -x -C /tmp/before`), run from its
own `src` with this interpreter and the same installed dependencies.  Two commands, each a
fresh process, interleaved round by round across the trees, so that a busy machine slows every
tree alike:

  evaluate   `licheck evaluate products/composer2.yaml --format json` (each tree's own manifest)
  check      `licheck check FOLDER --no-waivers --fail-on never --format json` over COUNT
             manifests written by the first baseline's bench/gen_portfolio.py (seed 7, on first
             use, under /tmp), less those that any tree refuses (a later tree refuses some an
             earlier one read, e.g. `commercial: false` beside revenue): the same work for all

Figures are medians of CPU time (user + system of the process and its workers: a shared machine
disturbs it less than wall-clock time) and of wall-clock time; the ratios are this tree's over
each baseline's (above 1.00: this tree is slower).  Issue 22 asked that the restructure not be
slower: before = 2e5bcbe, after = the restructured tree.  Nothing here is a test.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_once(argv: list[str], tree: Path, refused: set[Path] | None = None) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one run of `python -m licheck ARGV` from TREE's src."""
    env = dict(os.environ, PYTHONPATH=str(tree / "src"), NO_COLOR="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cpu, start = _cpu(), time.perf_counter()
    done = subprocess.run(
        [PY, "-m", "licheck", *argv],
        cwd=tree,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        check=False,
    )
    elapsed, used = time.perf_counter() - start, _cpu() - cpu
    if refused is not None and done.returncode == 2:
        for line in done.stderr.decode(errors="replace").splitlines():
            name, _, rest = line.partition(".yaml:")
            if rest and ": error:" in rest:
                refused.add(Path(name + ".yaml"))
        return elapsed, used
    if done.returncode not in (0, 1):  # exit 1 is a finding, a result
        raise SystemExit(f"{tree}: {argv} failed ({done.returncode}): {done.stderr[-500:]!r}")
    return elapsed, used


def portfolio(count: int, tree: Path) -> Path:
    folder = Path("/tmp/licheck-before-after") / tree.name / str(count)
    if len(list(folder.glob("*.yaml"))) != count:
        generator = tree / "bench" / "gen_portfolio.py"
        argv = [PY, str(generator), str(folder), "--count", str(count), "--seed", "7"]
        subprocess.run(argv, check=True)
    return folder


def drop_refused(folder: Path, argv: list[str], trees: list[Path]) -> int:
    """Remove the manifests any tree refuses, until every tree reads them all; how many remain."""
    while True:
        refused: set[Path] = set()
        for tree in trees:
            run_once(argv, tree, refused)
        if not refused:
            return len(list(folder.glob("*.yaml")))
        for path in refused:
            path.unlink(missing_ok=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, action="append", required=True, metavar="DIR")
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument("--count", type=int, default=1000, help="manifests in the portfolio")
    args = parser.parse_args()
    folder = portfolio(args.count, args.baseline[0].resolve())
    commands = {
        "evaluate": ["evaluate", "products/composer2.yaml", "--format", "json"],
        "check": ["check", str(folder), "--no-waivers", "--fail-on", "never", "--format", "json"],
    }
    trees = {"this tree": ROOT, **{str(d): d.resolve() for d in args.baseline}}
    count = drop_refused(folder, commands["check"], list(trees.values()))
    for tree in trees.values():  # warm-up: bytecode written
        for argv in commands.values():
            run_once(argv, tree)
    cpu: dict[tuple[str, str], list[float]] = {}
    wall: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.runs):
        for command, argv in commands.items():
            for name, tree in trees.items():
                elapsed, used = run_once(argv, tree)
                wall.setdefault((command, name), []).append(elapsed)
                cpu.setdefault((command, name), []).append(used)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"before and after, {args.runs} interleaved runs each, medians ({PY}, Python "
        f"{sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load}); "
        f"check over {count} manifests"
    )
    for command in commands:
        for name in trees:
            used = statistics.median(cpu[command, name]) * 1000
            elapsed = statistics.median(wall[command, name]) * 1000
            print(f"  {command:9s} {name:34s} CPU {used:8.1f} ms   wall {elapsed:8.1f} ms")
    print("this tree / baseline (CPU; wall):")
    for command in commands:
        mine_cpu = statistics.median(cpu[command, "this tree"])
        mine_wall = statistics.median(wall[command, "this tree"])
        for name in list(trees)[1:]:
            print(
                f"  {command:9s} / {name}: {mine_cpu / statistics.median(cpu[command, name]):.2f}x;"
                f" {mine_wall / statistics.median(wall[command, name]):.2f}x"
            )


if __name__ == "__main__":
    main()
