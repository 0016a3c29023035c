"""The HTML reports in a real browser (headless Chromium) at a phone's width (390 px) and a
desktop's (1280 px): the document never scrolls sideways, every table fits or scrolls inside a
box of its own, no picture's text is drawn below 9 px, and the gate line is not the muted grey.

Each page (the golden single-product, portfolio and audit-cards pages, a what-if page and a
generated portfolio's page, whose long ids once widened a phone's page by 2 px) is
copied to a temporary folder with a small script appended that opens every `<details>`,
measures and posts the figures to a wrapper page, which holds the report in an `<iframe>` of the
width under test (headless Chromium's window is never narrower than 500 px, an iframe is) and
writes them into its DOM; `chromium --dump-dom` prints that DOM.  The copy's
Content-Security-Policy lets that one inline script run (the report itself runs none).  Skips,
saying why, where /usr/bin/chromium is absent (`apt-get install chromium`)."""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from licheck.outputs.html import LAZY_ABOVE
from tests.clirun import report_json, run
from tests.conftest import GOLDEN, PRODUCTS, ROOT

CHROMIUM = Path("/usr/bin/chromium")
WIDTHS = (390, 1280)
MIN_SVG_TEXT = 9.0  # px, as drawn
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--virtual-time-budget=10000",  # the iframe's load and its message, before the dump
)
CSP = "default-src 'none';"
PROBE = """<script>
addEventListener("load", () => {
  for (const d of document.querySelectorAll("details")) d.open = true;
  const doc = document.documentElement, width = innerWidth;
  const out = {width, clientWidth: doc.clientWidth, scrollWidth: doc.scrollWidth, tables: [],
               svgText: [], gate: []};
  const scrolls = (el) => {
    for (; el && el !== doc; el = el.parentElement) {
      const o = getComputedStyle(el).overflowX;
      if ((o === "auto" || o === "scroll") && el.getBoundingClientRect().right <= width + 0.5)
        return true;
    }
    return false;
  };
  for (const t of document.querySelectorAll("table")) {
    const r = t.getBoundingClientRect();
    out.tables.push({fits: r.left >= -0.5 && r.right <= width + 0.5, scrolls: scrolls(t),
                     right: r.right, cls: t.className});
  }
  for (const t of document.querySelectorAll("svg text")) {
    const m = t.getScreenCTM();
    if (!m || t.getClientRects().length === 0) continue;
    const size = parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
    out.svgText.push({size: Math.round(size * 100) / 100, text: t.textContent});
  }
  const meta = document.querySelector(".meta");
  const muted = meta ? getComputedStyle(meta).color : "";
  for (const g of document.querySelectorAll(".gate.fails, .gate.passes"))
    out.gate.push({color: getComputedStyle(g).color, muted});
  parent.postMessage(JSON.stringify(out), "*");
});
</script>
"""
FRAME = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><style>body {{ margin: 0; }}
iframe {{ border: 0; width: {width}px; height: 900px; }}</style></head>
<body><pre id="result"></pre><iframe src="{page}"></iframe>
<script>addEventListener("message", (e) => {{
  document.getElementById("result").textContent = e.data; }});</script></body></html>
"""

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not CHROMIUM.is_file(),
        reason="/usr/bin/chromium is absent (Debian: apt-get install chromium): "
        "the browser check of the HTML reports is skipped",
    ),
]


def _whatif(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    out = tmp_path / "whatif-source.html"
    code, _, err = run(
        capsys, "whatif", str(PRODUCTS / "composer2.yaml"), "--set", "mau=50M",
        "--sweep", "monthly_revenue=1M..100M", "--format", "html", "-o", str(out),
    )  # fmt: skip
    assert code in (0, 1), err
    return out.read_text("utf-8")


def _generated(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """A generated portfolio's page (bench/gen_portfolio.py): long ids, URLs and lineages."""
    folder = tmp_path / "generated"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "gen_portfolio.py"), str(folder), "--count", "12"],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    out = tmp_path / "generated.html"
    code, _, err = run(
        capsys, "check", str(folder), "--format", "html", "-o", str(out), "--fail-on", "never"
    )
    assert code == 0, err
    return out.read_text("utf-8")


def measured(page: str, width: int, folder: Path, probe: str = PROBE) -> dict[str, Any]:
    """The probe's figures for `page` (HTML text) drawn `width` px wide."""
    assert CSP in page, "the page's Content-Security-Policy changed: update the probe"
    scripts = re.search(r"script-src ('sha256-[^']+')", page)
    if scripts:  # the page's own script, allowed by its hash: the probe's hash beside it
        script = probe.removeprefix("<script>").removesuffix("</script>\n")
        digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
        probed = page.replace(scripts.group(0), f"{scripts.group(0)} 'sha256-{digest}'", 1)
    else:
        probed = page.replace(CSP, CSP + " script-src 'unsafe-inline';", 1)
    probed = probed.replace("</body>", probe + "</body>", 1)
    (folder / "report.html").write_text(probed, encoding="utf-8")
    frame = folder / f"frame-{width}.html"
    frame.write_text(FRAME.format(width=width, page="report.html"), encoding="utf-8")
    done = subprocess.run(
        [
            str(CHROMIUM),
            *FLAGS,
            f"--user-data-dir={folder / f'profile-{width}'}",
            f"--window-size={width + 40},1000",
            "--dump-dom",
            frame.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    found = re.search(r'<pre id="result">([^<]*)</pre>', done.stdout)
    assert found and found.group(1), f"the probe reported nothing: {done.stderr[-2000:]}"
    result: dict[str, Any] = json.loads(html.unescape(found.group(1)))
    assert result["width"] == width
    return result


PAGES = ("composer2.html", "portfolio.html", "audit-cards.html", "whatif", "generated")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("name", PAGES)
def test_the_page_reads_well_at_the_width(
    name: str, width: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if name == "whatif":
        page = _whatif(tmp_path, capsys)
    elif name == "generated":
        page = _generated(tmp_path, capsys)
    else:
        page = (GOLDEN / name).read_text("utf-8")
    result = measured(page, width, tmp_path)
    # within the viewport less its scroll bar (innerWidth counts the bar): no sideways scroll
    assert result["scrollWidth"] <= result["clientWidth"] <= result["width"], "scrolls sideways"
    loose = [t for t in result["tables"] if not (t["fits"] or t["scrolls"])]
    assert loose == [], "a table runs off the page without a box that scrolls it"
    small = [t for t in result["svgText"] if t["size"] < MIN_SVG_TEXT]
    assert small == [], f"picture text drawn below {MIN_SVG_TEXT} px"
    if name != "whatif":
        assert result["svgText"] or name == "audit-cards.html", "no picture text was measured"
        assert result["gate"], "no gate line"
    for gate in result["gate"]:
        assert gate["color"] != gate["muted"], "the gate line is the muted grey"


def test_the_probe_sees_a_page_that_scrolls_sideways(tmp_path: Path) -> None:
    """The check can fail: a wide block and tiny picture text are caught."""
    page = (GOLDEN / "composer2.html").read_text("utf-8")
    wide = page.replace(
        "</main>",
        '<div style="width: 2000px">wide</div><svg width="100" height="20" viewBox="0 0 1000 200">'
        '<text x="0" y="100" style="font-size: 40px">tiny</text></svg></main>',
        1,
    )
    result = measured(wide, 390, tmp_path)
    assert result["scrollWidth"] > result["width"]
    assert min(t["size"] for t in result["svgText"]) < MIN_SVG_TEXT


# Before it measures: every product's stored body opened by the page's own script (each stored
# `<details>` opened, as a reader does), waiting until none is left; then the text it shows.
STORED_PROBE = PROBE.replace(
    'addEventListener("load", () => {',
    """addEventListener("load", async () => {
  const stored = () => document.querySelectorAll("details.lazy");
  const before = stored().length;
  for (const d of stored()) d.open = true;
  for (let i = 0; i < 200 && stored().length; i++) await new Promise((r) => setTimeout(r, 50));""",
    1,
).replace(
    "parent.postMessage(",
    """Object.assign(out, {before, left: stored().length, text: document.body.textContent,
                   findings: document.querySelectorAll("article.finding").length});
  parent.postMessage(""",
    1,
)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_large_portfolio_opens_each_product_and_reads_well(
    width: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """More products than `LAZY_ABOVE`: each product's body is stored compressed; the page's
    script (only it: the Content-Security-Policy lets it by its hash) opens every one, and the
    opened page shows every finding's texts and still fits a phone and a desktop."""
    count = LAZY_ABOVE + 5
    folder = tmp_path / "generated"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "gen_portfolio.py"), str(folder), "--count",
         str(count)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    common = ("check", str(folder), "--fail-on", "never")
    code, page, err = run(capsys, *common, "--format", "html")
    assert code == 0, err
    code, out, err = run(capsys, *common, "--format", "json")
    assert code == 0, err
    report = report_json(out)
    assert "unsafe-inline" not in page.split("script-src")[1].split('"')[0]
    result = measured(page, width, tmp_path, STORED_PROBE)
    assert result["before"] == count + 1  # each product's body and the shared texts
    assert result["left"] == 0, "a stored body was not opened"
    findings = [f for p in report["products"] for f in p["findings"]]
    assert result["findings"] == len(findings)
    for f in findings:
        assert f["title"] in result["text"]
        assert f["explanation"] in result["text"]
        assert f["quote"] is None or f["quote"] in result["text"]
    for p in report["products"]:
        for fact in {fact["name"] for f in p["findings"] for fact in f["facts"]}:
            assert fact in result["text"]
    assert result["scrollWidth"] <= result["clientWidth"] <= result["width"], "scrolls sideways"
    loose = [t for t in result["tables"] if not (t["fits"] or t["scrolls"])]
    assert loose == [], "a table runs off the page without a box that scrolls it"
    assert result["svgText"], "no picture text was measured"
    small = [t for t in result["svgText"] if t["size"] < MIN_SVG_TEXT]
    assert small == [], f"picture text drawn below {MIN_SVG_TEXT} px"
    for gate in result["gate"]:
        assert gate["color"] != gate["muted"], "the gate line is the muted grey"


LINK_PROBE = """<script>
addEventListener("load", async () => {
  const wait = async (done) => {
    for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 50));
    return done();
  };
  const first = document.querySelector("nav .contents a");
  const section = document.getElementById(first.getAttribute("href").slice(1));
  const folded = () => section.querySelector(":scope > details.lazy") !== null;
  const out = {folded: folded()};
  first.click();
  out.opened = await wait(() => !folded());
  const ref = section.querySelector('.ref a[href^="#"]');
  out.ref = ref ? ref.getAttribute("href").slice(1) : null;
  if (ref) {
    ref.click();
    out.shared = await wait(() => document.getElementById(out.ref) !== null);
    await wait(() => document.querySelector(":target") !== null);
    const target = document.querySelector(":target");
    out.target = target ? target.id : null;
  }
  parent.postMessage(JSON.stringify({width: innerWidth, ...out}), "*");
});
</script>
"""


def test_a_link_opens_a_stored_product_and_a_shared_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link to a folded product (the contents) opens it; a link from it to a text several
    findings share opens their one stored copy and lands on the text."""
    folder = tmp_path / "generated"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "gen_portfolio.py"), str(folder), "--count",
         str(LAZY_ABOVE + 5)],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    code, page, err = run(capsys, "check", str(folder), "--fail-on", "never", "--format", "html")
    assert code == 0, err
    result = measured(page, 1280, tmp_path, LINK_PROBE)
    assert result["folded"] and result["opened"], "the link did not open the product"
    assert result["ref"], "the first product links to no shared text"
    assert result["shared"] and result["target"] == result["ref"]
