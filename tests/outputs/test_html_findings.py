"""The HTML page holds every finding of the JSON report: per product, the same findings (license,
clause, component), verdicts, waivers and baseline statuses — over the shipped products with a
waiver, a broken manifest and a baseline."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.clirun import run
from tests.conftest import PRODUCTS

WAIVERS = """waivers:
  - id: composer2-kimi
    product: Composer 2
    license: kimi-k2.5-modified-mit
    clause: ui-attribution
    reason: facts_pending
    comment: Asking Moonshot.
    owner: legal@example.com
    expires: 2099-12-31
"""


class Findings(HTMLParser):
    """Each product section's finding articles: (verdict, heading text, meta text)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.products: dict[str, list[dict[str, str]]] = {}
        self._product: str | None = None
        self._article: dict[str, str] | None = None
        self._part: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        classes = (found.get("class") or "").split()
        if tag == "section" and "product" in classes:
            self._product = found.get("id") or ""
            self.products[self._product] = []
        elif tag == "article" and "finding" in classes and self._product is not None:
            verdict = next(c[2:] for c in classes if c.startswith("v-"))
            self._article = {"verdict": verdict, "h4": "", "meta": ""}
            self.products[self._product].append(self._article)
        elif tag == "h4" and self._article is not None:
            self._part = "h4"
        elif tag == "p" and self._article is not None and "meta" in classes:
            self._part = "meta"

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h4", "p"):
            self._part = None
        elif tag == "article":
            self._article = None

    def handle_data(self, data: str) -> None:
        if self._article is not None and self._part is not None:
            self._article[self._part] += data


def _expected(finding: dict[str, Any]) -> tuple[str, str, str, bool, str]:
    baseline = finding["baseline"]["status"] if finding["baseline"] else ""
    clause = f"{finding['license']} / {finding['clause']}"
    return (finding["verdict"], clause, finding["component"], finding["waived"], baseline)


def _shown(article: dict[str, str], expected: tuple[str, str, str, bool, str]) -> bool:
    verdict, clause, component, waived, baseline = expected
    return (
        article["verdict"] == verdict
        and clause in article["h4"]
        and ("(waived)" in article["h4"]) == waived
        and f"· {component} built on" in article["meta"]
        and (not baseline or f"[{baseline}" in article["h4"])
    )


@pytest.fixture
def portfolio(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """The shipped products, a baseline of them without SWE-1.5, a waiver, a broken manifest."""
    folder = tmp_path / "products"
    shutil.copytree(PRODUCTS, folder)
    swe = (folder / "swe-1.5.yaml").read_text(encoding="utf-8")
    (folder / "swe-1.5.yaml").unlink()
    code, _, err = run(
        capsys, "check", str(folder), "-f", "json", "-o", str(tmp_path / "base.json"),
        "--fail-on", "never", "--no-waivers",
    )  # fmt: skip
    assert code == 0, err
    (folder / "swe-1.5.yaml").write_text(swe, encoding="utf-8")  # its findings are new
    (folder / "broken.yaml").write_text("format: 2\nproduct: [Broken\n", encoding="utf-8")
    (tmp_path / "waivers.yaml").write_text(WAIVERS, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("baseline", [True, False])  # without one, check streams the report
def test_every_json_finding_is_on_the_html_page(
    portfolio: Path, capsys: pytest.CaptureFixture[str], baseline: bool
) -> None:
    common = [
        "check", str(portfolio / "products"), "--waivers", str(portfolio / "waivers.yaml"),
        "--today", "2026-12-01",
    ]  # fmt: skip
    if baseline:
        common += ["--baseline", str(portfolio / "base.json")]
    code, out, err = run(capsys, *common, "-f", "json")
    assert code == 2, err  # the broken manifest
    report = json.loads(out)
    code, page, _ = run(capsys, *common, "-f", "html")
    assert code == 2
    parser = Findings()
    parser.feed(page)
    sections = list(parser.products.values())
    assert len(sections) == len(report["products"]) == 5
    statuses: Counter[str] = Counter()
    for product, articles in zip(report["products"], sections, strict=True):
        expected = [_expected(f) for f in product["findings"]]
        assert len(articles) == len(expected), product["product"]
        for want in expected:
            matches = [a for a in articles if _shown(a, want)]
            assert matches, (product["product"], want, articles)
            statuses[want[4]] += 1
        shown = Counter(a["verdict"] for a in articles)
        assert shown == Counter(f["verdict"] for f in product["findings"])
    # the setting holds what it should: waived, new and unchanged findings, and the broken file
    assert any(f["waived"] for p in report["products"] for f in p["findings"])
    assert (statuses["new"] and statuses["unchanged"]) if baseline else set(statuses) == {""}
    assert "broken.yaml" in page and report["errors"]
