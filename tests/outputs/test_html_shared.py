"""A large portfolio's page stays small: the texts findings share (the clause's words; the facts
read and why; what would settle it and make it firm) are written once on the page, and every
finding still reaches each of them: in place where it alone has it, else by a link to the one
copy at the end of the page, which the verdict filter never hides."""

from __future__ import annotations

import html
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest

from tests.clirun import report_json, run
from tests.conftest import PRODUCTS


@pytest.fixture
def pages(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[str, dict[str, object]]:
    """The shipped products and three more copies of each (same clauses, same facts): the HTML
    page and the JSON report of one run."""
    folder = tmp_path / "products"
    folder.mkdir()
    for manifest in sorted(PRODUCTS.glob("*.yaml")):
        for copy in range(4):
            shutil.copy(manifest, folder / f"{manifest.stem}-{copy}.yaml")
    common = ["check", str(folder), "--fail-on", "never", "--no-waivers"]
    code, page, err = run(capsys, *common, "-f", "html")
    assert code == 0, err
    code, out, err = run(capsys, *common, "-f", "json")
    assert code == 0, err
    return page, report_json(out)


def _main(page: str) -> str:
    return page[page.index("<main") : page.index("</main>")]


def test_each_clause_text_is_written_once(pages: tuple[str, dict[str, object]]) -> None:
    page, report = pages
    products = report["products"]
    assert isinstance(products, list)
    quotes = Counter(f["quote"] for p in products for f in p["findings"] if f["quote"])
    assert max(quotes.values()) >= 4  # the setting: each clause's words quoted by many findings
    written = Counter(html.unescape(q) for q in re.findall(r"<blockquote>(.*?)</blockquote>", page))
    assert set(written) == set(quotes)
    assert set(written.values()) == {1}
    assert "<blockquote>" not in _main(page)  # every one is shared: after the products


def test_every_finding_reaches_its_texts(pages: tuple[str, dict[str, object]]) -> None:
    """Each finding's quote and explanation are on the page (in place or shared), and each link
    to a shared text lands on one (`id` at the end of the page, outside the products)."""
    page, report = pages
    text = html.unescape(page)
    products = report["products"]
    assert isinstance(products, list)
    for product in products:
        for f in product["findings"]:
            assert f["explanation"] in text
            assert f["quote"] is None or f["quote"] in text
    shared = page[page.index("</main>") :]
    ids = set(re.findall(r'<div class="shared-text" id="([qwsm]-[0-9a-f]+)">', shared))
    links = re.findall(r'<p class="ref"><a href="#([qwsm]-[0-9a-f]+)">', _main(page))
    assert links and set(links) == ids  # a text is shared only when some finding links to it
    assert not re.search(r'id="[qwsm]-', _main(page))


def test_a_text_one_finding_has_stays_in_place(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """One product: nothing repeats across findings that is not shared by at least two."""
    code, page, _ = run(
        capsys, "evaluate", str(PRODUCTS / "composer2.yaml"), "-f", "html", "--fail-on", "never"
    )
    assert code == 0
    shared = page[page.index("</main>") :]
    for name in re.findall(r'<div class="shared-text" id="([qwsm]-[0-9a-f]+)">', shared):
        assert len(re.findall(f'href="#{name}"', page)) >= 2
    for quote in re.findall(r"<blockquote>(.*?)</blockquote>", page):
        assert page.count(f"<blockquote>{quote}</blockquote>") == 1
