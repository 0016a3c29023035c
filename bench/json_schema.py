"""The JSON report's size per product and `licheck check`'s time, schema 1.0 against 2.0.

    python bench/json_schema.py [--dir /tmp/licheck-json-schema] [--count 1000] [--runs 3]

A generated portfolio (bench/gen_portfolio.py, seed 7) is checked by `licheck check DIR --format
json` in a fresh process, once with `--json-schema 1.0` and once with the default 2.0, each run
`--runs` times (the best wall-clock time is printed); the two reports are checked equal once
expanded (`report.leaner.expanded`), so the figures compare the same information.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/licheck-json-schema"))
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    folder = args.dir / str(args.count)
    if not folder.is_dir():
        from gen_portfolio import generate

        generate(folder, args.count, 7)
    texts: dict[str, bytes] = {}
    best: dict[str, float] = {}
    for schema in ("1.0", "2.0"):
        argv = [sys.executable, "-m", "licheck", "check", str(folder), "-f", "json"]
        argv += ["--fail-on", "never", "--no-waivers", "--json-schema", schema]
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            done = subprocess.run(argv, capture_output=True, check=False)
            times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            sys.exit(done.stderr.decode())
        texts[schema], best[schema] = done.stdout, min(times)
    from licheck.files.jsontext import dumps
    from licheck.report.leaner import expanded

    same = dumps(expanded(json.loads(texts["2.0"]))).text + "\n" == texts["1.0"].decode()
    products = len(json.loads(texts["1.0"])["products"])
    old, new = len(texts["1.0"]), len(texts["2.0"])
    print(f"{products:,} products, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}")
    print(
        f"JSON size per product: 1.0 {old / products:,.0f} bytes, "
        f"2.0 {new / products:,.0f} bytes ({new / old:.2f}x); "
        f"check --format json: 1.0 {best['1.0']:.2f} s, 2.0 {best['2.0']:.2f} s "
        f"({best['2.0'] / best['1.0']:.2f}x); expanded 2.0 == 1.0: {same}"
    )


if __name__ == "__main__":
    main()
