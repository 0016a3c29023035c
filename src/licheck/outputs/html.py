"""One self-contained HTML page a person reads: the verdict first, then each product with its
lineage drawn, every finding with the clause's words and why, and the evidence on a timeline.

Self-contained: inline CSS and inline SVG only — no script, no stylesheet, font or image
fetched; a Content-Security-Policy says so to the browser too.  The only URLs are plain links to
evidence sources (http and https only).  Every piece of manifest text is escaped: it is data,
never markup.  The page follows the reader's light or dark scheme and prints on white.

A large portfolio's page stays small: each finding is folded to its line, and the texts that
findings repeat word for word (the clause's words; the facts read and why; what would settle it;
what would make it firm) are holes in the product's piece (`Shared`), filled in place where one
finding of the page has the text, else with a link to its one copy after the products.  Above
`LAZY_ABOVE` products, each product's body (all below its heading) is stored compressed in the
page and opened on demand by the one inline script the page then has (`LAZY_SCRIPT`, let through
by its hash); at or below it the page runs no script.
"""

from __future__ import annotations

import base64
import hashlib
import json
import zlib
from collections import Counter
from typing import Any

from licheck.core.verdicts import Verdict
from licheck.files.jsontext import Hole, join
from licheck.outputs.cards import TITLE, table_rows
from licheck.outputs.document import Piece, Plain
from licheck.outputs.html_style import CSS, LAZY_CSS
from licheck.outputs.html_svg import evidence_of, lineage_svg, timeline_svg
from licheck.outputs.summary import (
    baseline_lines,
    baseline_tag,
    counts_line,
    gate_line,
    library_lines,
    plural,
    settings_lines,
    unread,
    waiver_lines,
    written_figures,
)
from licheck.outputs.unread import message, where
from licheck.report.view import (
    EvidenceOut,
    FactOut,
    FailOn,
    FindingOut,
    MissingFactOut,
    OutcomeCondition,
    ProductOut,
    Report,
    gate_fails,
)
from licheck.text.escape import xml_text as esc

ORDER = (Verdict.VIOLATION, Verdict.GOVERNANCE_RISK, Verdict.SATISFIED, Verdict.NOT_APPLICABLE)
CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"

# Above this many products on a page, each product's body (everything below its heading: the
# lineage, findings, facts and timeline) is stored deflated (raw deflate, base64) in an inert
# `<script type="application/octet-stream">` and opened on demand (`LAZY_SCRIPT`): a page of 200
# generated products goes from 3.8 MB to about 1 MB.  At or below it the page is as before.
LAZY_ABOVE = 25
# The page's one script, above `LAZY_ABOVE` products: a product's body is inflated with the
# browser's own `DecompressionStream` and put in place of its folded line when the reader opens
# it (the `<details>`, or a link to the product); printing opens them all.  Allowed by its hash.
LAZY_SCRIPT = """
(() => {
  const grow = (d) => {
    if (d.dataset.state) return d.grown;
    d.dataset.state = "opening";
    const data = d.querySelector("script[data-deflate-raw]").textContent;
    const bytes = Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
    const raw = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    d.grown = new Response(raw).text().then((html) => {
      const t = document.createElement("template");
      t.innerHTML = html;
      d.replaceWith(t.content);
    });
    return d.grown;
  };
  const lazy = (el) => (el ? el.querySelector(":scope > details.lazy") : null);
  addEventListener("toggle", (e) => {
    if (e.target.matches && e.target.matches("details.lazy") && e.target.open) grow(e.target);
  }, true);
  const go = async () => {
    let id = location.hash.slice(1);
    try { id = decodeURIComponent(id); } catch { return; }
    if (!id) return;
    let target = document.getElementById(id);
    const shared = document.querySelector("section.shared > details.lazy");
    if (!target && shared) {  // a text several findings share: in the one stored copy
      await grow(shared);
      target = document.getElementById(id);
    }
    const d = lazy(target);
    if (d) await grow(d);
    // what was stored is in place now: follow the link again, to scroll to it and outline it
    if (target && (d || shared !== document.querySelector("section.shared > details.lazy")))
      location.replace(location.hash);
  };
  addEventListener("hashchange", go);
  addEventListener("beforeprint", () => document.querySelectorAll("details.lazy").forEach(grow));
  go();
})();
"""
LAZY_HASH = base64.b64encode(hashlib.sha256(LAZY_SCRIPT.encode("utf-8")).digest()).decode()
LAZY_CSP = f"{CSP}; script-src 'sha256-{LAZY_HASH}'"
BODY = "body:"  # the hole of a product's body: the name carries it (`HtmlDocument._body`)


def badge(verdict: Verdict, waived: bool = False) -> str:
    extra = " (waived)" if waived else ""
    return f'<b class="badge v-{verdict.value}">{esc(verdict.label.upper())}{extra}</b>'


def compared(finding: FindingOut) -> str:
    """How the finding compares with the baseline, as every format says it ("" without one)."""
    tag = baseline_tag(finding)
    return f' <span class="baseline">[{esc(tag)}]</span>' if tag else ""


def anchor(product: ProductOut) -> str:
    """A stable id for a product's section (its file, hashed: safe in an attribute)."""
    return "p-" + hashlib.sha256(product.file.encode("utf-8")).hexdigest()[:12]


def link(url: str | None, text: str) -> str:
    """A plain link for http(s) URLs; anything else (javascript:, data:) stays text."""
    if url and url.lower().startswith(("https://", "http://")):
        return f'<a href="{esc(url)}" rel="noreferrer noopener">{esc(text)}</a>'
    return esc(text)


def page(title: str, body: str, lazy: bool = False) -> str:
    """A whole page around `body` (`lazy`: its policy lets `LAZY_SCRIPT` run)."""
    policy, css = (LAZY_CSP, CSS + LAZY_CSS) if lazy else (CSP, CSS)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f"<title>{esc(title)}</title>\n<style>{css}</style>\n</head>\n<body>\n"
        f"{body}</body>\n</html>\n"
    )


# The texts a finding may share with others on the page (`Shared`): a hole in the product's
# piece, filled in place where only one finding of the page has it, else a link to the one copy
# at the end of the page.  Each kind: its heading there, and the link a finding has instead.
SHARED_KINDS = ("q", "w", "s", "m")  # the clause's words, why, what would settle it, firm
SHARED_LINKS = {
    "q": '<p class="ref"><a href="#{name}">The clause\'s words</a></p>',
    "w": '<p class="ref"><a href="#{name}">The facts it reads, and why</a></p>',
    "s": '<p class="ref"><a href="#{name}">What would settle it</a></p>',
    "m": '<p class="ref"><a href="#{name}">What would make it firm</a></p>',
}
SHARED_HEADINGS = {
    "q": "The words of {label}",
    "w": "The facts it reads, and why: {label} and others",
    "s": "What would settle it: {label} and others",
    "m": "What would make it firm: {label} and others",
}


ALONE = "open-alone"  # the hole of a governance risk's `open`: only on a page of one product


class Shared:
    """The texts of a product's findings that other findings may repeat word for word (the
    clause's words; why, what would settle it and make it firm): each a hole named by its kind
    and a hash of its text, kept with a label (the first finding's clause) for the page's end."""

    def __init__(self) -> None:
        self.texts: dict[str, tuple[str, str, int]] = {}  # name -> (label, html, findings)

    def hole(self, kind: str, label: str, html: str) -> Hole:
        name = f"{kind}-{hashlib.sha256(html.encode('utf-8')).hexdigest()[:10]}"
        first, _, uses = self.texts.get(name, (label, html, 0))
        self.texts[name] = (first, html, uses + 1)
        return Hole(name)


class HtmlDocument(Plain):
    """The page, product by product; the head (verdict, gate, contents) is written last, and
    after the products the texts several findings share, each once (`Shared`).  Each product's
    body is a hole too (`BODY`): above `lazy_above` products it is written compressed."""

    def __init__(self, fail_on: FailOn, lazy_above: int | None = None) -> None:
        self.fail_on = fail_on
        self.lazy_above = LAZY_ABOVE if lazy_above is None else lazy_above
        self._contents: list[tuple[int, str, str, str]] = []
        self._texts: dict[str, tuple[int, str, str]] = {}  # name -> (first product, label, html)
        self._uses: Counter[str] = Counter()  # name -> the findings on the page that have it

    @property
    def lazy(self) -> bool:
        """Whether the products' bodies are written compressed (once every piece was taken)."""
        return len(self._contents) > self.lazy_above

    def piece(self, product: ProductOut) -> Piece:
        shared = Shared()
        heading, body = _product(product, shared)
        inner = join(lines(body))
        # the body travels in its hole's name: whether it is compressed only the totals know
        folded = json.dumps([_folded(product), inner.text, inner.holes], ensure_ascii=False)
        text = join([*lines(heading), "\n", Hole(BODY + folded), "\n</section>\n"])
        extra = (product.product, product.verdict.value, anchor(product), shared.texts)
        return Piece(text.text, extra, text.holes)

    def take(self, index: int, extra: Any) -> None:
        name, verdict, ident, texts = extra
        self._contents.append((index, name, verdict, ident))
        for hole, (label, html, uses) in texts.items():
            self._uses[hole] += uses
            if hole not in self._texts or index < self._texts[hole][0]:
                self._texts[hole] = (index, label, html)

    def fill(self, name: str) -> str:
        if name == ALONE:  # a governance risk unfolded where the page has one product
            return " open" if len(self._contents) <= 1 else ""
        if name.startswith(BODY):
            return self._body(name[len(BODY) :])
        _, _, html = self._texts[name]
        uses = self._uses[name]
        if uses <= 1:
            return html
        return SHARED_LINKS[name[0]].format(name=name, n=uses)

    def _body(self, folded: str) -> str:
        """A product's body, its holes filled: as is, or (`lazy`) deflated in an inert element
        under a folded line with the product's counts, for `LAZY_SCRIPT` to open."""
        summary, text, holes = json.loads(folded)
        body = Piece(text, None, tuple((at, name) for at, name in holes)).filled(self)
        return _stored(summary, body) if self.lazy else body

    def head(self, top: Report, pieces: int) -> str:
        whole = page(f"licheck report — {_subject(top, self._contents)}", "", self.lazy)
        opening = whole[: whole.index("</body>")]
        policy = f"evidence policy {top.evidence_policy}"
        if top.as_of:
            policy += f"; evidence as of {top.as_of}"
        out = [
            opening,
            '<header class="top">',
            f"<h1>licheck report {badge(top.verdict)}</h1>",
            f"<p>{esc(counts_line(top))}</p>",
            _gate(top, self.fail_on),
            *(f'<p class="gate settings">{esc(text)}</p>' for text in settings_lines(top)),
            f'<p class="meta">{esc(policy)} · licheck {esc(top.tool_version)}</p>',
        ]
        if self.lazy:
            out.append(_noscript(self.lazy_above))
        notes = waiver_lines(top)
        if notes:
            out.append('<ul class="waivers">' + "".join(f"<li>{esc(n)}</li>" for n in notes))
            out.append("</ul>")
        out += _unread_and_baseline(top)
        if len(self._contents) > 1:
            out.append(_filter(self._contents))
            out.append(_contents(sorted(self._contents, key=_worst_first)))
        out.append('</header>\n<main class="products">\n')
        return "\n".join(out)

    def tail(self, top: Report, pieces: int) -> str:
        script = f"<script>{LAZY_SCRIPT}</script>\n" if self.lazy else ""
        end = self._shared() + _cards_section(top) + script
        return "</main>\n" + end + "</body>\n</html>\n"

    def _shared(self) -> str:
        """The texts several findings share, each once, by kind then where first used."""
        names = sorted(
            (name for name in self._texts if self._uses[name] > 1),
            key=lambda name: (SHARED_KINDS.index(name[0]), self._texts[name][0], name),
        )
        if not names:
            return ""
        out = []
        for name in names:
            _, label, html = self._texts[name]
            uses = self._uses[name]
            heading = SHARED_HEADINGS[name[0]].format(label=esc(label)) + f" ({uses} findings)"
            out.append(f'<div class="shared-text" id="{name}"><h4>{heading}</h4>\n{html}</div>')
        texts = "\n".join(out)
        if self.lazy:  # compressed once, opened with the first link followed to one of them
            texts = _stored(f"{len(names)} texts", texts)
        heading = "<h2>Texts several findings share</h2>"
        return f'<section class="shared">{heading}\n{texts}\n</section>\n'


def deflated(text: str) -> str:
    """`text` as raw deflate (what `DecompressionStream('deflate-raw')` reads), base64."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    data = deflate.compress(text.encode("utf-8")) + deflate.flush()
    return base64.b64encode(data).decode("ascii")


def _stored(summary: str, html: str) -> str:
    """`html` deflated in an inert element under a folded line (`summary`), for `LAZY_SCRIPT`
    to inflate and put in place of the fold when it is opened."""
    return (
        f'<details class="lazy"><summary>{summary}</summary>'
        "<noscript><p>The details need JavaScript (see the top of the page).</p></noscript>"
        f'<script type="application/octet-stream" data-deflate-raw>{deflated(html)}'
        "</script></details>"
    )


def _folded(product: ProductOut) -> str:
    """A compressed product's folded line: its counts, which open its details."""
    c = product.counts
    found = [
        (c.violation, plural(c.violation, "violation")),
        (c.governance_risk, plural(c.governance_risk, "governance risk")),
        (c.satisfied, f"{c.satisfied} satisfied"),
        (c.not_applicable, f"{c.not_applicable} not applicable"),
    ]
    said = ", ".join(text for n, text in found if n)
    total = len(product.findings)
    what = f"{total} finding{'s' if total != 1 else ''}" + (f": {said}" if said else "")
    return f"Details — {esc(what)}"


def _noscript(lazy_above: int) -> str:
    """What a reader without JavaScript is told: the products' details need it, and how else."""
    return (
        '<noscript><p class="gate settings">Each product\'s details are stored compressed on '
        "this page and open with JavaScript, which is off. Without it: "
        "<code>--format markdown</code>, <code>--format json</code>, or the same command over "
        f"{lazy_above} products or fewer (a page that needs no script).</p></noscript>"
    )


def _cards_section(top: Report) -> str:
    """audit-cards' summary table, after the products ('' in other reports)."""
    rows = table_rows(top)
    if not rows:
        return ""
    body = "".join(f"<tr><th>{esc(t)}</th><td>{esc(n)}</td><td>{c}</td></tr>" for t, n, c in rows)
    head = "<tr><th>Table</th><th>Name</th><th>Cards</th></tr>"
    return (
        f'<section class="cards"><h2>{esc(TITLE)}</h2>'
        f"<table><thead>{head}</thead><tbody>{body}</tbody></table></section>\n"
    )


def _unread_and_baseline(top: Report) -> list[str]:
    """The manifests that could not be read (located), and the comparison with a baseline."""
    out = []
    if top.errors:
        items = "".join(
            f"<li><code>{esc(where(e))}</code>: {esc(message(e))}</li>" for e in top.errors
        )
        heading = f"{unread(top)} (the others were evaluated; exit 2)"
        out.append(f'<section class="unread"><h2>{esc(heading)}</h2><ul>{items}</ul></section>')
    for css, lines in (("library", library_lines(top)), ("baseline", baseline_lines(top))):
        if lines:
            items = "".join(f"<li>{esc(text.strip())}</li>" for text in lines)
            out.append(f'<ul class="{css}">{items}</ul>')
    return out


def _gate(top: Report, fail_on: FailOn) -> str:
    """The gate line, as visible as the verdict: red when it fails, green when it passes."""
    fails = bool(top.errors) or (fail_on is not FailOn.NEVER and gate_fails(top.summary, fail_on))
    result = "fails" if fails else "passes"
    return f'<p class="gate {result}"><strong>{esc(gate_line(top, fail_on))}</strong></p>'


def _worst_first(entry: tuple[int, str, str, str]) -> tuple[int, int]:
    """Contents and products worst first, then in the order they were given."""
    return ORDER.index(Verdict(entry[2])), entry[0]


def _filter(entries: list[tuple[int, str, str, str]]) -> str:
    """Show only the products of one verdict: radio buttons the stylesheet reads (`:has`), no
    script.  The counts say how many products each choice shows."""
    counts = {v: sum(1 for e in entries if e[2] == v.value) for v in ORDER}
    choices = [("all", f"all {len(entries)}", True)] + [
        (v.value, f"{v.label} {n}", False) for v, n in counts.items() if n
    ]
    inputs = "".join(
        f'<label><input type="radio" name="show" id="show-{value}"'
        + (" checked" if checked else "")
        + f"> {esc(label)}</label> "
        for value, label, checked in choices
    )
    return f'<p class="filter">Show products: {inputs.rstrip()}</p>'


def _subject(top: Report, contents: list[tuple[int, str, str, str]]) -> str:
    if len(contents) == 1:
        return contents[0][1]
    return f"{top.summary.products} products"


def _contents(entries: list[tuple[int, str, str, str]]) -> str:
    rows = "".join(
        f'<li><a href="#{ident}">{esc(name)}</a> {badge(Verdict(verdict))}</li>'
        for _, name, verdict, ident in entries
    )
    return f'<nav><h2>Products</h2><ol class="contents">{rows}</ol></nav>'


def _product(product: ProductOut, shared: Shared) -> tuple[list[Line], list[Line]]:
    """The product's section: its heading and its body (without `</section>`), with a hole for
    each text its findings may share (`Shared`)."""
    findings = sorted(product.findings, key=lambda f: ORDER.index(f.verdict))
    dated, undated = evidence_of(product)
    heading: list[Line] = [
        f'<section class="product v-{product.verdict.value}" id="{anchor(product)}">',
        f"<h2>{esc(product.product)} {badge(product.verdict)}</h2>",
        f'<p class="meta">{esc(product.owner)} · <code>{esc(product.file)}</code></p>',
    ]
    out: list[Line] = []
    if not findings:
        out.append("<p>No license of the lineage has a clause to judge.</p>")
    picture = lineage_svg(product)
    if picture:
        out += ["<h3>Lineage</h3>", f'<figure class="picture">{picture}</figure>']
    rows = _fact_rows(findings)
    if findings:
        out.append("<h3>Findings</h3>")
    problems = [f for f in findings if f.verdict in ORDER[:2]]
    decided = [f for f in findings if f.verdict not in ORDER[:2]]
    for f in problems:
        out += _finding(f, product.file, shared)
    if decided:  # on demand: what holds or does not apply is rarely what a reader opens
        out.append(f"<details><summary>{len(decided)} satisfied or not applicable</summary>")
        for f in decided:
            out += _finding(f, product.file, shared)
        out.append("</details>")
    if rows:
        out.append("<h3>Facts the findings read</h3>")
        out.append(_facts(list(rows.values())))
    out.append("<details><summary>Evidence timeline</summary>")
    out.append(_evidence(dated, undated))
    out.append("</details>")
    return heading, out


Line = str | Hole | tuple[str | Hole, ...]  # a tuple: parts of one line


def lines(parts: list[Line]) -> list[str | Hole]:
    """The parts one a line (a shared text's hole is filled with whole lines)."""
    out: list[str | Hole] = []
    for part in parts:
        if out:
            out.append("\n")
        out += part if isinstance(part, tuple) else [part]
    return out


def _fact_key(fact: FactOut) -> str:
    return fact.model_dump_json()


def _fact_rows(findings: list[FindingOut]) -> dict[str, FactOut]:
    """Each distinct fact the findings read (as a clause reads it: the whole value), once per
    product."""
    rows: dict[str, FactOut] = {}
    for f in findings:
        for fact in f.facts:
            rows.setdefault(_fact_key(fact), fact)
    return rows


def _finding_id(f: FindingOut) -> str:
    key = "\0".join((f.location.file, f.component, f.model, f.license, f.clause))
    return "f-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:12]


def _finding(f: FindingOut, product_file: str, shared: Shared) -> list[Line]:
    """A finding folded to its one line (verdict, clause, what it asks, component and model),
    a violation unfolded; the clause's words and the reasoning are holes (`Shared`)."""
    # the product's own file goes without saying (its heading names it)
    line, column = f.location.line, f.location.column
    where = (
        f"line {line}, column {column}"
        if f.location.file == product_file
        else f"{f.location.file}:{line}:{column}"
    )
    label = f"{f.license} / {f.clause}"
    # a violation unfolded; a governance risk too on a page of one product (`HtmlDocument.fill`)
    unfolded: str | Hole = " open" if f.verdict is Verdict.VIOLATION else ""
    if f.verdict is Verdict.GOVERNANCE_RISK:
        unfolded = Hole(ALONE)
    out: list[Line] = [
        (
            f'<article class="finding v-{f.verdict.value}" id="{_finding_id(f)}"><details',
            unfolded,
            "><summary>",
        ),
        f"<h4>{badge(f.verdict, f.waived)}{compared(f)} {esc(label)}</h4>",
        f'<span class="title">{esc(f.title)}</span></summary>',
        f'<p class="meta"><code>{esc(where)}</code> · {esc(f.component)} built on '
        f"{esc(f.model_name)} · {esc(f.license_name)} · {esc(f.kind)}</p>",
    ]
    if f.quote:  # the clause's words: written once on the page however many findings quote it
        words = f"{label} — {f.title}"
        out.append(shared.hole("q", words, f"<blockquote>{esc(f.quote)}</blockquote>"))
    out += [shared.hole(kind, label, html) for kind, html in _reasoning(f)]
    if f.waiver is not None:
        out.append(f'<p class="waiver">Waiver: {esc(f.waiver.message)}</p>')
    out.append("</details></article>")
    return out


def _reads(facts: list[FactOut]) -> str:
    """The facts a finding reads, by status (coloured as in the product's table of facts)."""
    by_status: dict[str, list[str]] = {}
    for fact in facts:
        by_status.setdefault(fact.status, []).append(fact.name)
    return "; ".join(
        f'<span class="s-{esc(status)}">{esc(status)}</span> {esc(", ".join(names))}'
        for status, names in by_status.items()
    )


def _reasoning(f: FindingOut) -> list[tuple[str, str]]:
    """Why, what would settle it and what would make it firm, each with its kind of `Shared`
    text: findings of one clause over the same facts share them word for word."""
    why = f'<p class="why"><strong>Why:</strong> {esc(f.explanation)}</p>'
    if f.facts:  # each fact's value and evidence: in the product's table
        why = f'<p class="reads">Reads: {_reads(f.facts)}</p>\n{why}'
    out = [("w", why)]
    if f.missing_facts:
        written = written_figures(f)
        items = "".join(_missing(m, written) for m in f.missing_facts)
        heading = "<h5>What would settle it (each fact alone, the others as they are)</h5>"
        out.append(("s", f"{heading}\n<ul>{items}</ul>"))
    said = {  # a fact alone that makes the verdict firm is said there already
        (m.fact, o.when, o.verdict) for m in f.missing_facts for o in m.outcomes
    }
    together = [
        s for s in f.settled_by if not (len(s.when) == 1 and _alone(s.when[0], s.verdict) in said)
    ]
    if together:
        heading = "What would make it firm (smallest sets of facts, together"
        if len(together) < len(f.settled_by):
            heading += "; a fact alone is above"
        firm = [f"<h5>{heading})</h5><ul>"]
        for s in together:
            when = " and ".join(f"<code>{esc(c.fact)}</code> {esc(c.value)}" for c in s.when)
            firm.append(f"<li>{badge(s.verdict)} if {when}</li>")
        out.append(("m", "\n".join([*firm, "</ul>"])))
    return out


def _alone(condition: OutcomeCondition, verdict: Verdict) -> tuple[str, str, Verdict]:
    return condition.fact, condition.value, verdict


def _missing(m: MissingFactOut, written: dict[str, str]) -> str:
    likely = ""
    if m.likely:  # and the figure as the user wrote it, beside the normalised one
        as_written = f"; as written: {esc(written[m.fact])}" if m.fact in written else ""
        likely = f" (likely {esc(m.likely)}{as_written})"
    if m.decides_alone:
        outcomes = " · ".join(f"if {esc(o.when)} → {badge(o.verdict)}" for o in m.outcomes)
    else:
        cells = ", ".join(esc(o.when) for o in m.outcomes)
        outcomes = f"settles nothing on its own ({cells}); it matters with the others"
    return f"<li><code>{esc(m.fact)}</code>{likely}: {outcomes}</li>"


def _value(fact: FactOut) -> str:
    """As the text report shows it: what counts when established, else what is stated."""
    value = fact.stated if fact.status != "established" else fact.value
    if fact.likely and fact.status != "likely":
        value += f" (likely {fact.likely})"
    if fact.written:  # the figure in the user's units, beside the normalised one
        value += f" (as written: {fact.written})"
    return value


def _facts(facts: list[FactOut]) -> str:
    rows = "".join(
        f"<tr><td><code>{esc(fact.name)}</code></td>"
        f'<td class="s-{esc(fact.status)}">{esc(fact.status)}</td><td>{esc(_value(fact))}</td>'
        f"<td>{_evidence_list(fact)}</td></tr>"
        for fact in facts
    )
    return (
        '<table class="facts"><thead><tr><th>Fact</th><th>Status</th><th>Value</th>'
        f"<th>Evidence</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _evidence_list(fact: FactOut) -> str:
    if not fact.evidence:
        return "—"
    return "<ul>" + "".join(f"<li>{_piece(p)}</li>" for p in fact.evidence) + "</ul>"


def _piece(p: EvidenceOut) -> str:
    when = f" {esc(p.date)}" if p.date else ""
    text = f"{esc(p.kind.replace('_', ' '))}{when}: {link(p.url, p.source)}"
    if p.retracted_on:
        text += f' <span class="retracted">retracted {esc(p.retracted_on)}</span>'
    if p.counted.startswith("ignored"):
        text += f' <span class="ignored">[{esc(p.counted)}]</span>'
    return text


def _evidence(dated: list[Any], undated: list[EvidenceOut]) -> str:
    out = []
    picture = timeline_svg(dated)
    if picture:
        out.append(
            f'<figure class="picture">{picture}<figcaption>{_legend()}</figcaption></figure>'
        )
    else:
        out.append("<p>No evidence of this product is dated.</p>")
    if undated:  # each is in the table of facts already, beside the fact it is evidence for
        out.append(
            f"<p>{len(undated)} undated piece{'s' if len(undated) != 1 else ''} of evidence "
            "(counted on every date): in the table of facts.</p>"
        )
    return "\n".join(out)


def _legend() -> str:
    return (
        '<span class="key establishes">●</span> establishes a fact · '
        '<span class="key suggests">○</span> makes it likely · '
        '<span class="key ignored">●</span> does not count · '
        '<span class="key retracted">✕</span> retracted · a bar: dated by month or year only'
    )
