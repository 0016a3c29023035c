"""Portfolio throughput and peak memory: licheck against the parse floor, a hand-written verdict
and the same rule in Rego (regopy), at 1k and 10k manifests, with the verdicts checked equal.

    python bench/portfolio.py [--dir /tmp/licheck-portfolio] [--sizes 1000 10000] [--skip-rego]

The portfolio is generated on first use (bench/gen_portfolio.py, seed 7) into DIR/10000, and its
first 1,000 files are copied into DIR/1000.  Every contender runs in a fresh process, end to end
(start, imports, every file); manifests per second are files / wall-clock seconds of that process.
Peak memory is the largest resident set of the process and, for licheck's parallel runs, of any
one worker.  The contenders:

  parse floor      every file loaded with PyYAML's C loader, nothing else (one core)
  hand-written     the floor plus the Kimi K2.5 attribution verdict written by hand (one core)
  rego (regopy)    the floor plus the same verdict in Rego, policy compiled once (one core)
  rego naive       a two-valued Rego rule ignoring evidence (NOT the same verdicts: engine speed)
  licheck api -j1  portfolio.workers over the files in one process (its verdicts are compared)
  licheck stream   portfolio.workers.summarise: counts and exit status only, every core, streamed
  licheck check    the command line: `licheck check DIR --format json` to /dev/null, every core

Goals (issue 27, deliverable 2): licheck check >= 0.6x the parse floor's throughput and >= 5x
regopy's, the streamed summary >= 0.8x the floor, the same verdicts, and peak memory that does not
grow with the portfolio.  Every ratio is printed with its goal beside it, in files per second
(wall clock) and in files per CPU-second (less disturbed on a shared machine), with the load
average before and after each size.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "src"))

CONTENDERS = [
    "parse floor",
    "hand-written",
    "rego (regopy)",
    "rego naive",
    "licheck api -j1",
    "licheck stream",
    "licheck check",
]
VERDICT_FILE = "verdicts-{name}-{size}.json"
CHECK_FORMAT = os.environ.get("LICHECK_BENCH_FORMAT", "json")


# -- inside one contender's process -------------------------------------------------------------


def _paths(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.yaml"))


def _licheck_check_argv(folder: Path) -> list[str]:
    from licheck.cli import COMMANDS

    if "check" in COMMANDS:
        return [
            "check",
            str(folder),
            "--no-waivers",
            "--fail-on",
            "never",
            "--format",
            CHECK_FORMAT,
        ]
    # Before `check` exists: `evaluate` over every file (it keeps the whole report).
    return ["evaluate", *map(str, _paths(folder)), "--fail-on", "never"]


def run_contender(name: str, folder: Path, out: Path) -> None:
    """Run one contender over `folder`, writing its verdicts (where it has any) to `out`."""
    import baselines

    verdicts: object = None
    if name == "parse floor":
        baselines.parse_floor(_paths(folder))
    elif name == "hand-written":
        verdicts = baselines.hand_verdicts(_paths(folder))
    elif name == "rego (regopy)":
        verdicts = baselines.rego_verdicts(_paths(folder))
    elif name == "rego naive":
        baselines.naive_rego(_paths(folder))
    elif name == "licheck api -j1":
        from licheck.evaluation.evaluate import Options
        from licheck.facts.evidencepolicy import POLICIES
        from licheck.library.compiled import load_library
        from licheck.portfolio.workers import iter_results

        found: list[tuple[str, str, str]] = []
        items = iter_results(_paths(folder), Options(POLICIES["default"]), load_library(), jobs=1)
        for item in items:  # kept: only this clause's verdicts, as the other scripts do
            found.extend(baselines.licheck_verdicts([item]))
        verdicts = found
    elif name == "licheck stream":
        from licheck.evaluation.evaluate import Options
        from licheck.facts.evidencepolicy import POLICIES
        from licheck.library.compiled import load_library
        from licheck.portfolio.workers import summarise_paths

        summary = summarise_paths(_paths(folder), Options(POLICIES["default"]), load_library())
        if summary.broken:
            raise SystemExit(f"{summary.broken} broken manifests")
    elif name == "licheck check":
        from licheck.cli import cli, tune_collector
        from licheck.cli.common import run_guarded

        tune_collector()  # as the console script does (which then exits at once: not here)
        with open(os.devnull, "w") as sink:
            saved, sys.stdout = sys.stdout, sink
            try:
                code = run_guarded(cli, _licheck_check_argv(folder))
            finally:
                sys.stdout = saved
        if code not in (0, 1):
            raise SystemExit(f"licheck exited {code}")
    else:
        raise SystemExit(f"unknown contender {name!r}")
    if verdicts is not None:
        out.write_text(json.dumps(sorted(verdicts)), encoding="utf-8")  # type: ignore[call-overload]
    import resource

    me = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = me.ru_utime + me.ru_stime + workers.ru_utime + workers.ru_stime
    print(
        json.dumps(
            {"rss_mb": me.ru_maxrss / 1024, "worker_rss_mb": workers.ru_maxrss / 1024, "cpu": cpu}
        )
    )


# -- the orchestrator ---------------------------------------------------------------------------


def prepare(base: Path, sizes: list[int]) -> dict[int, Path]:
    largest = max(sizes)
    source = base / str(largest)
    if len(list(source.glob("*.yaml"))) != largest:
        subprocess.run(
            [
                sys.executable,
                str(HERE / "gen_portfolio.py"),
                str(source),
                "--count",
                str(largest),
                "--seed",
                "7",
            ],
            check=True,
        )
    folders = {}
    everything = sorted(source.glob("*.yaml"))
    for size in sizes:
        folder = base / str(size)
        if size != largest and len(list(folder.glob("*.yaml"))) != size:
            folder.mkdir(parents=True, exist_ok=True)
            for path in everything[:size]:
                shutil.copyfile(path, folder / path.name)
        folders[size] = folder
    return folders


def measure(name: str, folder: Path, out: Path) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), NO_COLOR="1")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, __file__, "--contender", name, "--folder", str(folder), "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    stdout, stderr = process.communicate()
    seconds = time.perf_counter() - start
    if process.returncode != 0:
        raise SystemExit(f"{name} failed: {stderr[-2000:]}")
    figures: dict[str, float] = json.loads(stdout.strip().splitlines()[-1])
    figures["seconds"] = seconds
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/licheck-portfolio"))
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--skip-rego", action="store_true", help="the slowest contenders")
    parser.add_argument(
        "--only",
        nargs="+",
        choices=CONTENDERS,
        metavar="NAME",
        help="run only these contenders (quoted names, e.g. 'licheck check')",
    )
    parser.add_argument("--contender", help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.contender:
        run_contender(args.contender, args.folder, args.out)
        return
    folders = prepare(args.dir, args.sizes)
    names = [
        n
        for n in CONTENDERS
        if not (args.skip_rego and n.startswith("rego")) and (args.only is None or n in args.only)
    ]
    print(
        f"portfolio benchmark: {os.cpu_count()} CPUs, Python {sys.version.split()[0]}; "
        "end-to-end wall clock per process"
    )
    results: dict[int, dict[str, dict[str, float]]] = {}
    for size, folder in sorted(folders.items()):
        results[size] = {}
        print(f"\n{size:,} manifests ({folder}), load average {os.getloadavg()[0]:.2f}")
        print(
            f"  {'contender':18s} {'files/s':>8s} {'seconds':>8s} {'files/CPU-s':>11s} "
            f"{'peak RSS':>9s} {'worker RSS':>10s}"
        )
        for name in names:
            out = args.dir / VERDICT_FILE.format(name=name.split()[0], size=size)
            figures = measure(name, folder, out)
            figures["rate"] = size / figures["seconds"]
            results[size][name] = figures
            worker = (
                f"{figures['worker_rss_mb']:7.0f} MB"
                if name in ("licheck check", "licheck stream")
                else ""
            )
            print(
                f"  {name:18s} {figures['rate']:8.0f} {figures['seconds']:8.2f} "
                f"{size / figures['cpu']:11.0f} {figures['rss_mb']:6.0f} MB {worker:>10s}",
                flush=True,
            )
        check_verdicts(args.dir, size, names)
        print_ratios(results[size], size)
    if len(results) > 1:
        small, large = min(results), max(results)
        for name in names:
            grow = results[large][name]["rss_mb"] / results[small][name]["rss_mb"]
            line = f"peak RSS {large:,} / {small:,}: {name}: {grow:.2f}x"
            if name in ("licheck check", "licheck stream"):
                workers = (
                    results[large][name]["worker_rss_mb"] / results[small][name]["worker_rss_mb"]
                )
                line += f" (largest worker {workers:.2f}x)"
            print(line)


# Issue 27's goals: (contender, against, at least this many times its throughput).
GOALS = [
    ("licheck check", "parse floor", 0.6),
    ("licheck check", "rego (regopy)", 5.0),
    ("licheck stream", "parse floor", 0.8),
    ("licheck stream", "rego (regopy)", None),
    ("licheck api -j1", "parse floor", None),
]


def print_ratios(figures: dict[str, dict[str, float]], size: int) -> None:
    """Every ratio of issue 27, in wall-clock files/s and in files per CPU-second."""
    print(f"  ratios ({os.getloadavg()[0]:.2f} load average now)")
    for name, against, goal in GOALS:
        if name not in figures or against not in figures:
            continue
        wall = figures[name]["rate"] / figures[against]["rate"]
        cpu = figures[against]["cpu"] / figures[name]["cpu"]
        verdict = "" if goal is None else f"goal >= {goal}x: {'met' if wall >= goal else 'missed'}"
        print(f"  {name} / {against}: {wall:.2f}x (per CPU-second {cpu:.2f}x)  {verdict}")


def check_verdicts(base: Path, size: int, names: list[str]) -> None:
    """The hand-written script, Rego and licheck must agree on every verdict."""
    loaded = {}
    for name in ("hand-written", "rego (regopy)", "licheck api -j1"):
        path = base / VERDICT_FILE.format(name=name.split()[0], size=size)
        if name in names and path.exists():
            loaded[name] = json.loads(path.read_text(encoding="utf-8"))
    reference = loaded.get("licheck api -j1")
    if reference is None:
        return
    for name, verdicts in loaded.items():
        if name == "licheck api -j1":
            continue
        same = verdicts == reference
        counts: dict[str, int] = {}
        for _, _, verdict in reference:
            counts[verdict] = counts.get(verdict, 0) + 1
        print(
            f"  verdicts {name} == licheck: {same} ({len(reference)} Kimi K2.5 findings: {counts})"
        )
        if not same:
            raise SystemExit("verdicts differ")


if __name__ == "__main__":
    main()
