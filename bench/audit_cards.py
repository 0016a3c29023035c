"""`licheck audit-cards` throughput beside `licheck check` over the same manifests.

    python bench/audit_cards.py [--dir /tmp/licheck-cards] [--count 500] [--seed 7]

A folder of COUNT cards is generated on first use into DIR/COUNT/hub, laid out as the Hub's
ORG/NAME/README.md: the real public cards of tests/data/import/cards, drawn with the seed (the
same seed gives the same folder), each under a name of its own.  Two commands run, each in a
fresh process, end to end (start, imports, every file), to /dev/null, in JSON:

  audit-cards   import every card and judge the manifests (--manifests DIR/COUNT/manifests)
  check         judge the manifests audit-cards kept, nothing imported

and cards per second is COUNT / wall-clock seconds.  The issue's goal (28, deliverable 4): as
fast as check, hundreds per second; the difference is the import.  Write outside the repository
(under /tmp): the files are not committed.  Nothing here is a test: a machine's speed varies.
"""

from __future__ import annotations

import argparse
import random
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


def timed(args: list[str]) -> tuple[float, int]:
    """Wall-clock seconds of `licheck ARGS` in a fresh process, and its exit code."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "licheck", *args], stdout=subprocess.DEVNULL, check=False
    )
    return time.perf_counter() - start, done.returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/licheck-cards"))
    parser.add_argument("--count", type=int, default=500)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    base = args.dir / str(args.count)
    hub, manifests = base / "hub", base / "manifests"
    if not hub.is_dir():
        generate(hub, args.count, args.seed)
    shutil.rmtree(manifests, ignore_errors=True)
    out = ["-f", "json", "--no-waivers"]  # the report to /dev/null (standard output)
    audit, audit_code = timed(["audit-cards", str(hub), "--manifests", str(manifests), *out])
    check, check_code = timed(["check", str(manifests), *out])
    print(f"{args.count} cards ({hub})")
    for name, seconds, code in (("audit-cards", audit, audit_code), ("check", check, check_code)):
        print(f"  {name:<12} {seconds:7.2f} s  {args.count / seconds:8.1f} cards/s  exit {code}")
    print(f"  audit-cards / check: {audit / check:.2f}x the time")


if __name__ == "__main__":
    main()
