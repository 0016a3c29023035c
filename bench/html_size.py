"""The HTML report's size for a large portfolio: `licheck check DIR --format html` over a
generated portfolio (bench/gen_portfolio.py, seed 7), with what repeats on the page.

    python bench/html_size.py [--count 200] [--dir /tmp/licheck-html-size]

Prints the page's bytes beside the figure before the page wrote shared texts once (issue 25:
6,221,218 bytes for these 200 products, the clause's words, why and what would settle each
finding written out in every finding, and a table of findings beside them), the part each kind
of element takes, and how often the clause text that occurs most is written (once: at the end
of the page, each finding linking to it).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
BEFORE = {200: 6_221_218}  # bytes, measured on main before the change (same seed)
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
    before = BEFORE.get(args.count)
    print(f"{args.count} products: {size:,} bytes ({size / 2**20:.2f} MiB)", end="")
    print(f", before {before:,} bytes: {size / before:.2f}x" if before else "")
    for name, pattern in PARTS.items():
        part = sum(len(m.encode("utf-8")) for m in re.findall(pattern, page, re.S))
        print(f"  {name:20} {part:>10,} bytes  {part / size:5.1%}")
    quotes = Counter(re.findall(r"<blockquote>(.*?)</blockquote>", page, re.S))
    findings = page.count('<article class="finding')
    most = max(quotes.values(), default=0)
    print(f"  {findings} findings, {len(quotes)} clause texts, each written {most}x at most")


if __name__ == "__main__":
    main()
