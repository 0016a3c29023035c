"""A large portfolio's page stores each product's body compressed (raw deflate, base64) and
opens it on demand: above `LAZY_ABOVE` products each stored blob inflates to exactly the body
the page would have written at or below it, the texts several findings share are stored once,
the one script the page runs is allowed by its hash and nothing broader, and the summary stays
readable without JavaScript.  (The script itself runs in tests/outputs/test_html_browser.py.)"""

from __future__ import annotations

import base64
import hashlib
import html
import re
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from licheck.outputs import html as html_page
from tests.clirun import report_json, run
from tests.conftest import PRODUCTS, ROOT
from tests.outputs.test_html import parse

COPIES = 6  # of each shipped product: 30 products
SECTION = re.compile(
    r'<section class="product v-\w+" id="(p-[0-9a-f]{12})">\n<h2>.*?</h2>\n'
    r'<p class="meta">.*?</p>\n(.*?)\n</section>\n',
    re.S,
)
BLOB = re.compile(r'<script type="application/octet-stream" data-deflate-raw>([^<]*)</script>')
SCRIPT = re.compile(r"<script>(.*?)</script>", re.S)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("lazy") / "products"
    out.mkdir()
    for manifest in sorted(PRODUCTS.glob("*.yaml")):
        for copy in range(COPIES):
            shutil.copy(manifest, out / f"{manifest.stem}-{copy}.yaml")
    return out


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """30 generated products (bench/gen_portfolio.py): texts only one finding has, in place."""
    out = tmp_path_factory.mktemp("lazy-generated") / "products"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "gen_portfolio.py"), str(out), "--count", "30"],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    return out


def _page(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    folder: Path,
    above: int,
    *extra: str,
) -> str:
    monkeypatch.setattr(html_page, "LAZY_ABOVE", above)
    code, out, err = run(capsys, "check", str(folder), "-f", "html", "--fail-on", "never", *extra)
    assert code == 0, err
    return out


def _inflate(blob: str) -> str:
    return zlib.decompress(base64.b64decode(blob), wbits=-15).decode("utf-8")


def _shared(page: str) -> str:
    start = page.index('<section class="shared">')
    return page[start : page.index("</section>", start)]


def _waived(folder: Path) -> tuple[str, ...]:
    """A waiver that applies, to one copy of composer2 (the golden tests' waiver, by path)."""
    text = (ROOT / "tests" / "data" / "waivers" / "composer2.yaml").read_text("utf-8")
    waivers = folder.parent / "waivers.yaml"
    waivers.write_text(text.replace("product: Composer 2", f"product: {folder}/composer2-0.yaml"))
    return ("--waivers", str(waivers), "--today", "2026-04-01")


@pytest.mark.parametrize("case", ["copies", "waived", "generated"])
def test_each_stored_body_is_the_body_the_plain_page_writes(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
    case: str,
) -> None:
    """Copies of the shipped products (their texts shared), with a waiver that applies (its
    product is rendered last: the streamed page's deferred products), and generated ones."""
    folder: Path = request.getfixturevalue("generated" if case == "generated" else "folder")
    waived = case == "waived"
    extra = _waived(folder) if waived else ()
    products = len(list(folder.glob("*.yaml")))
    plain = _page(capsys, monkeypatch, folder, products, *extra)  # at the threshold: as before
    lazy = _page(capsys, monkeypatch, folder, products - 1, *extra)  # one product more than it
    assert ('<p class="waiver">Waiver: ' in plain) is waived
    assert "<script" not in plain and "details.lazy" not in plain
    bodies = dict(SECTION.findall(plain))
    assert len(bodies) == products
    in_place = any("<strong>Why:</strong>" in body for body in bodies.values())
    assert in_place is (case == "generated")  # copies share every explanation
    stored = SECTION.findall(lazy)
    assert [ident for ident, _ in stored] == list(bodies)  # the same products, the same order
    for ident, body in stored:
        (blob,) = BLOB.findall(body)
        assert body.startswith('<details class="lazy"><summary>Details — ')
        assert _inflate(blob) == bodies[ident], ident
        parse(_inflate(blob))  # balanced on its own
    # the texts several findings share: the same texts, stored once
    (blob,) = BLOB.findall(_shared(lazy))
    plain_shared = _shared(plain)
    assert _inflate(blob) == plain_shared[plain_shared.index("\n") + 1 :].rstrip("\n")
    # what the plain page writes outside the products and shared texts is there as is
    products_and_shared = r'<main.*</main>|<section class="shared">.*?</section>'
    outside = re.sub(products_and_shared, "", plain, flags=re.S)
    for line in outside.splitlines():
        if "Content-Security-Policy" not in line and "</style>" not in line:
            assert line in lazy, line
    assert len(lazy.encode()) < 0.7 * len(plain.encode())  # copies: little left to compress


def test_the_page_runs_one_script_allowed_by_its_hash(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, folder: Path
) -> None:
    lazy = _page(capsys, monkeypatch, folder, 1)
    parse(lazy)
    (script,) = SCRIPT.findall(lazy)  # the data blocks are not scripts a browser runs
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    (policy,) = re.findall(r'http-equiv="Content-Security-Policy" content="([^"]*)"', lazy)
    assert policy == f"{html_page.CSP}; script-src 'sha256-{digest}'"
    assert "unsafe" not in policy.split("script-src")[1]
    tags = re.findall(r"<script\b[^>]*>", lazy)
    executable = [t for t in tags if "application/octet-stream" not in t]
    assert executable == ["<script>"]
    for tag in set(tags) - {"<script>"}:
        assert tag == '<script type="application/octet-stream" data-deflate-raw>'


def test_the_summary_reads_without_javascript(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, folder: Path
) -> None:
    lazy = _page(capsys, monkeypatch, folder, 25)
    report = report_json(run(capsys, "check", str(folder), "-f", "json", "--fail-on", "never")[1])
    # what a browser without JavaScript shows: no script's text, the <noscript> lines
    shown = html.unescape(re.sub(r"<script\b[^>]*>.*?</script>|<[^>]+>", " ", lazy, flags=re.S))
    shown = " ".join(shown.split())
    (noscript,) = re.findall(r'<noscript><p class="gate settings">(.*?)</p></noscript>', lazy)
    for alternative in ("--format markdown", "--format json", "25 products or fewer"):
        assert alternative in noscript
    assert "open with JavaScript, which is off" in noscript
    summary = report["summary"]
    assert f"{summary['products']} products" in shown
    (gate,) = re.findall(r'<p class="gate passes"><strong>(.*?)</strong></p>', lazy)
    assert html.unescape(gate) in shown
    folds = re.findall(r"<summary>Details — (\d+) finding", lazy)
    assert sorted(map(int, folds)) == sorted(len(p["findings"]) for p in report["products"])
    for product in report["products"]:
        assert html.unescape(html.escape(product["product"])) in shown
    # the filter and worst first: each section keeps its verdict's class, the contents its order
    assert 'id="show-all" checked' in lazy
    verdicts = re.findall(r'<section class="product v-(\w+)"', lazy)
    assert sorted(verdicts) == sorted(p["verdict"] for p in report["products"])
