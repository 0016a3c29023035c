"""`--format html`: one self-contained page — well-formed, no resource fetched, every piece of
manifest text inert, the lineage and the evidence drawn; optionally rendered in a real browser.

The golden files are in tests/outputs/test_golden.py (every format, `composer2.html`,
`portfolio.html`).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

from tests.clirun import run
from tests.conftest import PRODUCTS, ROOT

VOID = {"meta", "br", "img", "hr", "input", "link", "col", "source", "wbr", "area", "base"}


class Checker(HTMLParser):
    """Balanced tags, and what the page would load or run."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))  # <rect/>: opens and closes

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(page: str) -> Checker:
    checker = Checker()
    checker.feed(page)
    checker.close()
    assert checker.errors == [], checker.errors[:5]
    assert checker.stack == [], f"unclosed: {checker.stack}"
    return checker


def assert_self_contained(checker: Checker) -> None:
    """Nothing fetched or run: no script, stylesheet link, frame or object; no resource
    attribute pointing anywhere; links (<a href>) only to http(s) pages."""
    for tag, attrs in checker.tags:
        assert tag not in {"script", "link", "iframe", "object", "embed", "img", "base"}, tag
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name)  # no event handler
            if name in {"src", "srcset", "data", "poster", "action", "xlink:href"}:
                pytest.fail(f"<{tag} {name}={value!r}> loads a resource")
            if name == "href":
                if tag == "a":
                    assert value is not None and value.startswith(("https://", "http://", "#"))
                else:
                    pytest.fail(f"<{tag} href={value!r}>")
            if name == "style":
                pytest.fail(f"inline style attribute on <{tag}>")


def html_of(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code, out, err = run(capsys, *args, "--format", "html")
    assert code in (0, 1) and err == "", err
    return out


@pytest.fixture
def _in_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.mark.usefixtures("_in_root")
def test_composer2_page_is_well_formed_and_self_contained(
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = html_of(capsys, "evaluate", "products/composer2.yaml")
    checker = parse(page)
    assert_self_contained(checker)
    assert page.startswith("<!DOCTYPE html>")
    assert re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page) is None  # no resource
    assert "<style>" in page and "prefers-color-scheme: dark" in page and "@media print" in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page


@pytest.mark.usefixtures("_in_root")
def test_composer2_page_says_what_the_report_says(capsys: pytest.CaptureFixture[str]) -> None:
    page = html_of(capsys, "evaluate", "products/composer2.yaml")
    text = " ".join(parse(page).text)
    assert "GOVERNANCE RISK" in text
    assert "prominently display" in text  # the clause's own words
    assert "Why:" in text and "agreement_waives" in text
    # the lineage: Kimi K2.5 (its license) -> continued pretraining -> RL -> Composer 2
    lineage = page[page.index('<svg class="lineage"') : page.index("</svg>")]
    for shown in ("Kimi K2.5", "kimi-k2.5-modified-mit", "continued pretraining", "Composer 2"):
        assert shown in lineage, shown
    assert lineage.count('class="edge') == 3  # base -> step -> step -> component
    # the evidence on a timeline: both days, the two retractions crossed out
    timeline = page[page.index('<svg class="timeline"') :]
    timeline = timeline[: timeline.index("</svg>")]
    assert "2026-03-19" in timeline and "2026-03-20" in timeline
    assert timeline.count('class="ev-retracted"') == 2


HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>&amp;'


def _hostile(tmp_path: Path) -> Path:
    data = yaml.safe_load((PRODUCTS / "composer2.yaml").read_text(encoding="utf-8"))
    data["product"] = "Evil " + HOSTILE
    data["owner"] = "</title><script>x</script>"
    source = data["sources"]["composer2-blog"]
    source["title"] = "Blog " + HOSTILE
    source["url"] = "javascript:alert(1)"
    data["sources"]["seed-article"]["url"] = 'https://example.org/a"onmouseover="alert(1)'
    data["components"][0]["name"] = "Comp </svg><script>alert(2)</script>"
    path = tmp_path / "evil.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


def test_manifest_text_renders_inert(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = html_of(capsys, "evaluate", str(_hostile(tmp_path)))
    checker = parse(page)
    assert_self_contained(checker)  # no <script>, no <img>, no onerror, no javascript: link
    assert "<script" not in page and "<img" not in page
    text = "".join(checker.text)
    assert "Evil " + HOSTILE in text  # shown as the text it is
    assert "Blog " + HOSTILE in text
    # the URL with a quote stays inside its attribute
    hrefs = [a["href"] for tag, a in checker.tags if tag == "a" and "href" in a]
    assert 'https://example.org/a"onmouseover="alert(1)' in hrefs


def test_check_portfolio_page_has_contents(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for name in ("composer2.yaml", "swe-1.5.yaml", "composer1.yaml"):
        shutil.copy(PRODUCTS / name, tmp_path / name)
    out = tmp_path / "report.html"
    code, _, err = run(capsys, "check", str(tmp_path), "-f", "html", "-o", str(out))
    assert code == 0, err
    page = out.read_text(encoding="utf-8")
    checker = parse(page)
    assert_self_contained(checker)
    anchors = {a["href"] for tag, a in checker.tags if tag == "a" and "href" in a}
    ids = {a["id"] for _, a in checker.tags if "id" in a}
    local = {h[1:] for h in anchors if h and h.startswith("#")}
    assert local and local <= ids  # every contents link lands on a section or finding
    assert page.count('<section class="product') == 3
    # worst first in the contents (the stylesheet orders the sections the same way), and a
    # filter choice for each verdict present, "all" first and checked
    from licheck.core.verdicts import Verdict

    ranks = [v.value for v in Verdict]
    listed = re.findall(r'<li><a href="#p-[0-9a-f]+">[^<]*</a> <b class="badge v-(\w+)"', page)
    order = ["violation", "governance_risk", "satisfied", "not_applicable"]
    assert len(listed) == 3 and listed == sorted(listed, key=order.index)
    assert set(listed) <= set(ranks)
    radios = re.findall(r'<input type="radio" name="show" id="show-(\w+)"( checked)?>', page)
    assert radios[0] == ("all", " checked") and {r for r, _ in radios[1:]} == set(listed)
    for verdict in set(listed):  # the stylesheet hides every other product for each choice
        assert f"body:has(#show-{verdict}:checked) .product:not(.v-{verdict})" in page


def test_the_gate_line_shows_whether_it_fails(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out = tmp_path / "report.html"
    manifest = str(PRODUCTS / "composer2.yaml")
    for fail_on, result in (("risk", "fails"), ("never", "passes")):
        run(capsys, "evaluate", manifest, "-f", "html", "-o", str(out), "--fail-on", fail_on)
        page = out.read_text(encoding="utf-8")
        assert re.search(rf'<p class="gate {result}"><strong>Gate \(--fail-on {fail_on}', page)


def test_a_narrow_screen_scrolls_tables_and_pictures_inside_their_box() -> None:
    from licheck.outputs.html_style import CSS

    narrow = CSS[CSS.index("@media (max-width: 640px)") :]
    narrow = narrow[: narrow.index("\n}\n")]
    assert "table { display: block; overflow-x: auto;" in narrow
    assert ".picture svg { max-width: none; }" in narrow  # legible: scrolls, never shrinks
    assert ".picture { margin: 8px 0; overflow-x: auto; }" in CSS


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH: the browser check is optional")
def test_renders_in_a_headless_browser(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "report.html"
    code, _, err = run(
        capsys, "evaluate", str(PRODUCTS / "composer2.yaml"), "-f", "html", "-o", str(page)
    )
    assert code == 0, err
    shot = tmp_path / "shot.png"
    assert CHROMIUM is not None
    done = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            f"--screenshot={shot}",
            "--window-size=1200,2000",
            page.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert shot.is_file() and shot.stat().st_size > 10_000  # a picture, not a blank page


MERGED = """\
product: Merged
owner: Acme
components:
  - id: m
    name: M
    delivery: [weights]
    lineage:
      base: zai-org/GLM-4.6
      steps:
        - fine_tuning
        - kind: merge
          parents: [microsoft/Phi-3-mini-4k-instruct]
      trained_on_outputs_of:
        - {model: kimi-k2.5, role: teacher}
    facts:
      mau:
        value: 10M
        evidence: [{source: "A monthly count", kind: observed, date: 2025-06}]
"""


def test_lineage_draws_parents_at_their_step_and_outputs_dashed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = tmp_path / "merged.yaml"
    manifest.write_text(MERGED + "format: 2\n", encoding="utf-8")
    page = html_of(capsys, "evaluate", str(manifest))
    parse(page)
    lineage = page[page.index('<svg class="lineage"') :]
    lineage = lineage[: lineage.index("</svg>")]
    for shown in ("GLM-4.6", "Phi-3-mini", "Kimi K2.5", "merged in", "trained on outputs"):
        assert shown in lineage, shown
    # three models in, two steps, the component: five arrows; only the outputs one dashed
    assert lineage.count('class="edge') == 5 and lineage.count('class="edge dashed"') == 1
    # the merged-in parent enters the merge (the second step), not the first
    steps = re.findall(r'<g class="node step"><title>[^<]*</title><rect x="([\d.]+)"', lineage)
    ends = re.findall(r'd="M[^"]* ([\d.]+) [\d.]+" marker-end', lineage)
    assert len(steps) == 2 and float(steps[1]) - 2 in {float(e) for e in ends}
    # a month-only date is drawn as a bar over its days
    timeline = page[page.index('<svg class="timeline"') :]
    assert 'class="ev-span"' in timeline[: timeline.index("</svg>")]


@pytest.mark.usefixtures("_in_root")
def test_whatif_page_embeds_the_sweep(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("whatif", "products/composer2.yaml", "--set", "mau=50M")
    page = html_of(capsys, *args, "--sweep", "monthly_revenue=1M..100M")
    checker = parse(page)
    assert_self_contained(checker)
    assert page.count("<svg") == 1 and "20M USD/month" in page  # the threshold, drawn
    assert "mau = 50M" in " ".join(checker.text)
    plain = html_of(capsys, *args)  # no sweep: nothing to draw
    parse(plain)
    assert "<svg" not in plain
