"""The HTML report's size for a large portfolio: `licheck check DIR --format html` over a
generated portfolio (bench/gen_portfolio.py, seed 7), with what repeats on the page.

    python bench/html_size.py [--count 200] [--dir /tmp/licheck-html-size]

Prints the page's bytes beside the goal (under 1.5 MB for 200 products) and the figures before
(issue 25: 6,221,218 bytes for these 200 products, the clause's words, why and what would settle
each finding written out in every finding, and a table of findings beside them; 3,848,462 once
shared texts were written once, before products' bodies were stored compressed), what the
compressed parts take, the part each kind of element takes of what they inflate to, and how
often the clause text that occurs most is written (once: at the end of the page, each finding
linking to it).
"""

from __future__ import annotations

import argparse
import base64
import re
import subprocess
import sys
import zlib
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
BEFORE = {200: 6_221_218}  # bytes, measured on main before the change (same seed)
SHARED_ONCE = {200: 3_848_462}  # bytes, with shared texts once, before bodies were compressed
GOAL = {200: 1_500_000}  # bytes (issue 25: "a page that stays small")
BLOB = re.compile(r'<script type="application/octet-stream" data-deflate-raw>([^<]*)</script>')
STORED = {
    "stored product bodies": r'<section class="product.*?</section>',
    "stored shared texts": r'<section class="shared">.*?</section>',
}
PARTS = {
    "lineage pictures": r'<figure class="picture"><svg class="lineage".*?</figure>',
    "evidence timelines": r"<details><summary>Evidence timeline.*?</details>",
    "tables of facts": r'<table class="facts">.*?</table>',
    "findings": r"<article.*?</article>",
    "shared texts": r'<section class="shared">.*?</section>',
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/licheck-html-size"))
    args = parser.parse_args()
    folder = args.dir / str(args.count)
    if not folder.is_dir():
        subprocess.run(
            [sys.executable, str(HERE / "gen_portfolio.py"), str(folder), "--count",
             str(args.count), "--seed", "7"],
            check=True, stdout=subprocess.DEVNULL,
        )  # fmt: skip
    out = args.dir / f"{args.count}.html"
    subprocess.run(
        [sys.executable, "-m", "licheck", "check", str(folder), "--format", "html", "-o",
         str(out), "--fail-on", "never"],
        check=True,
    )  # fmt: skip
    page = out.read_text("utf-8")
    size = len(page.encode("utf-8"))
    before, once, goal = (figures.get(args.count) for figures in (BEFORE, SHARED_ONCE, GOAL))
    print(f"{args.count} products: {size:,} bytes ({size / 2**20:.2f} MiB)", end="")
    print(f", goal under {goal:,}: {'met' if size < goal else 'NOT met'}" if goal else "")
    if before and once:
        print(f"  before {before:,} bytes: {size / before:.2f}x; shared texts once {once:,}: "
              f"{size / once:.2f}x")  # fmt: skip
    for name, pattern in STORED.items():
        part = sum(len(b) for m in re.findall(pattern, page, re.S) for b in BLOB.findall(m))
        print(f"  {name:20} {part:>10,} bytes  {part / size:5.1%}  (deflated, base64)")
    inflated = BLOB.sub(lambda m: zlib.decompress(base64.b64decode(m[1]), -15).decode(), page)
    opened = len(inflated.encode("utf-8"))
    print(f"  opened: {opened:,} bytes (each stored part inflated in place); of which:")
    page, size = inflated, opened
    for name, pattern in PARTS.items():
        part = sum(len(m.encode("utf-8")) for m in re.findall(pattern, page, re.S))
        print(f"  {name:20} {part:>10,} bytes  {part / size:5.1%}")
    quotes = Counter(re.findall(r"<blockquote>(.*?)</blockquote>", page, re.S))
    findings = page.count('<article class="finding')
    most = max(quotes.values(), default=0)
    print(f"  {findings} findings, {len(quotes)} clause texts, each written {most}x at most")


if __name__ == "__main__":
    main()
