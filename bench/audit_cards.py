"""`licheck audit-cards` throughput beside `licheck check` over the same manifests.

    python bench/audit_cards.py [--dir /tmp/licheck-cards] [--count 500] [--seed 7]

A folder of COUNT cards is generated on first use into DIR/COUNT/hub, laid out as the Hub's
ORG/NAME/README.md: the real public cards of tests/data/import/cards, drawn with the seed (the
same seed gives the same folder), each under a name of its own.  Two commands run, each in a
fresh process, end to end (start, imports, every file), to /dev/null, in JSON:

  audit-cards   import every card and judge the manifests (--manifests DIR/COUNT/manifests)
  check         judge the manifests audit-cards kept, nothing imported

and cards per second is COUNT / wall-clock seconds; CPU seconds (user + system, the command's
process and its workers) beside it, the steadier figure on a machine other jobs share.  Each
command runs --repeat times (default 3), alternating, and the best of each is kept.  The goal
(issue 28, deliverable 4): audit-cards as fast as check over the same manifests, within 1.1x of
its time; the difference is the import (each card read, its manifest built and written, then
judged from that text in the worker that imported it).  Write outside the repository (under
/tmp): the files are not committed.  Nothing here is a test: a machine's speed varies.
"""

from __future__ import annotations

import argparse
import random
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "tests" / "data" / "import" / "cards"


def generate(hub: Path, count: int, seed: int) -> None:
    """COUNT cards under hub/ORG/NAME/README.md, drawn from the sample cards by the seed."""
    rng = random.Random(seed)
    cards = sorted(CARDS.glob("*.md"))
    for index in range(count):
        card = rng.choice(cards)
        folder = hub / f"org{index % 10}" / f"{card.stem}-{index}"
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(card, folder / "README.md")


GOAL = 1.1  # audit-cards' time over check's, at most


def _cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(args: list[str]) -> tuple[float, float, int]:
    """Wall-clock and CPU seconds of `licheck ARGS` in a fresh process, and its exit code."""
    start, cpu = time.perf_counter(), _cpu()
    done = subprocess.run(
        [sys.executable, "-m", "licheck", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - start, _cpu() - cpu, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/licheck-cards"))
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    base = args.dir / str(args.count)
    hub, manifests = base / "hub", base / "manifests"
    if not hub.is_dir():
        generate(hub, args.count, args.seed)
    out = ["-f", "json", "--no-waivers"]  # the report to /dev/null (standard output)
    runs: dict[str, list[tuple[float, float, int]]] = {"audit-cards": [], "check": []}
    for _ in range(max(1, args.repeat)):
        shutil.rmtree(manifests, ignore_errors=True)
        audit = ["audit-cards", str(hub), "--manifests", str(manifests), *out]
        runs["audit-cards"].append(timed(audit))
        runs["check"].append(timed(["check", str(manifests), *out]))
    print(f"{args.count} cards ({hub}), best of {max(1, args.repeat)}")
    best = {}
    for name, done in runs.items():
        wall = min(w for w, _, _ in done)
        cpu = min(c for _, c, _ in done)
        codes = sorted({code for _, _, code in done})
        best[name] = (wall, cpu)
        print(
            f"  {name:<12} {wall:7.2f} s  {args.count / wall:8.1f} cards/s  "
            f"{cpu:6.2f} s CPU  exit {', '.join(map(str, codes))}"
        )
    wall_ratio = best["audit-cards"][0] / best["check"][0]
    cpu_ratio = best["audit-cards"][1] / best["check"][1]
    verdict = "meets" if wall_ratio <= GOAL else "misses"
    print(
        f"  audit-cards / check: {wall_ratio:.2f}x the time, {cpu_ratio:.2f}x the CPU "
        f"(goal: at most {GOAL}x the time: {verdict} it)"
    )


if __name__ == "__main__":
    main()
