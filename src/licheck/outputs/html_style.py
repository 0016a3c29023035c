"""The HTML report's stylesheet, inlined into every page: light and dark schemes (the reader's
`prefers-color-scheme`), and print on white with findings kept whole on a page."""

from __future__ import annotations

CSS = """
:root {
  --bg: #ffffff; --fg: #1d1f23; --muted: #5c6370; --line: #d7dbe0; --panel: #f5f7f9;
  --violation: #c0392b; --violation-bg: #fbe3e0;
  --risk: #9a6700; --risk-bg: #fff3cd;
  --satisfied: #1e7b34; --satisfied-bg: #dcf5e3;
  --na: #5c6370; --na-bg: #eceef1;
  --link: #0b5cad;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #16181c; --fg: #e6e8eb; --muted: #9aa3ad; --line: #343a42; --panel: #1f232a;
    --violation: #ff7b6e; --violation-bg: #4a1f1b;
    --risk: #f2c14e; --risk-bg: #3d3214;
    --satisfied: #6fd48a; --satisfied-bg: #183a24;
    --na: #9aa3ad; --na-bg: #2a2f36;
    --link: #7cb7ff;
  }
}
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 24px 28px 48px; background: var(--bg);
  color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  overflow-wrap: break-word; /* an id or a URL longer than a phone's line wraps, never widens */ }
a { color: var(--link); }
h1 { font-size: 26px; margin: 0 0 8px; }
h2 { font-size: 21px; margin: 32px 0 4px; }
h3 { font-size: 17px; margin: 26px 0 8px; border-bottom: 1px solid var(--line);
  padding-bottom: 4px; }
h4 { font-size: 16px; margin: 0 0 4px; }
h5 { font-size: 14px; margin: 12px 0 4px; }
code { font: 13px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  overflow-wrap: anywhere; }
.meta { color: var(--muted); margin: 2px 0; }
.gate { margin: 6px 0; padding: 6px 10px; border-radius: 6px; border-left: 6px solid; }
.gate.fails { color: var(--violation); background: var(--violation-bg); }
.gate.passes { color: var(--satisfied); background: var(--satisfied-bg); }
.gate.settings { color: var(--muted); background: none; border: none; padding: 0 10px; }
.filter label { white-space: nowrap; margin-right: 10px; }
/* worst first whatever the order of the manifests: the page is written as they come */
main.products { display: flex; flex-direction: column; }
.product.v-violation { order: 0; } .product.v-governance_risk { order: 1; }
.product.v-satisfied { order: 2; } .product.v-not_applicable { order: 3; }
body:has(#show-violation:checked) .product:not(.v-violation),
body:has(#show-governance_risk:checked) .product:not(.v-governance_risk),
body:has(#show-satisfied:checked) .product:not(.v-satisfied),
body:has(#show-not_applicable:checked) .product:not(.v-not_applicable) { display: none; }
details > summary { cursor: pointer; color: var(--muted); margin: 10px 0; }
.reads { font-size: 14px; }
.top { border-bottom: 2px solid var(--line); padding-bottom: 12px; }
.badge { display: inline-block; font-size: 12px; font-weight: 700; letter-spacing: .03em;
  padding: 2px 8px; border-radius: 10px; vertical-align: middle; white-space: nowrap; }
.badge.v-violation { color: var(--violation); background: var(--violation-bg); }
.badge.v-governance_risk { color: var(--risk); background: var(--risk-bg); }
.badge.v-satisfied { color: var(--satisfied); background: var(--satisfied-bg); }
.badge.v-not_applicable { color: var(--na); background: var(--na-bg); }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 5px 8px;
  border-bottom: 1px solid var(--line); }
th { color: var(--muted); font-weight: 600; }
td ul { margin: 0; padding-left: 16px; }
.facts td:first-child code { white-space: nowrap; overflow-wrap: normal; }
.finding { border: 1px solid var(--line); border-left: 6px solid var(--na); border-radius: 6px;
  padding: 12px 16px; margin: 14px 0; background: var(--panel); break-inside: avoid; }
.finding.v-violation { border-left-color: var(--violation); }
.finding.v-governance_risk { border-left-color: var(--risk); }
.finding.v-satisfied { border-left-color: var(--satisfied); }
.finding .title { font-weight: 600; margin: 2px 0; }
/* a finding folded to its line: the verdict and clause, then what it asks */
.finding > details > summary { color: var(--fg); margin: 0; }
.finding summary h4 { display: inline; overflow-wrap: anywhere; }
.finding summary .title { display: block; }
.ref { margin: 6px 0; font-size: 14px; }
/* the texts several findings share, once at the end of the page */
.shared-text { border-top: 1px solid var(--line); padding: 8px 0; }
.shared-text:target { outline: 2px solid var(--link); outline-offset: 4px; }
blockquote { margin: 10px 0; padding: 6px 14px; border-left: 3px solid var(--line);
  font-family: Georgia, "Times New Roman", serif; font-style: italic; }
.why { margin: 8px 0; }
.s-established { color: var(--satisfied); }
.s-likely, .s-disputed { color: var(--risk); }
.s-unknown { color: var(--violation); }
.retracted { color: var(--violation); font-weight: 600; }
.ignored { color: var(--muted); }
.picture { margin: 8px 0; overflow-x: auto; }
.picture svg { max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: 13px; }
nav ol { padding-left: 20px; }
svg.lineage text, svg.timeline text { fill: var(--fg);
  font: 12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
svg text.name { font-weight: 700; }
svg text.meta, svg .edge-label, svg .tick-label { fill: var(--muted); font-size: 11px; }
svg .node rect { fill: var(--panel); stroke: var(--line); stroke-width: 1.5; }
svg .node.model rect { stroke-width: 2.5; }
svg .node.v-violation rect { stroke: var(--violation); fill: var(--violation-bg); }
svg .node.v-governance_risk rect { stroke: var(--risk); fill: var(--risk-bg); }
svg .node.v-satisfied rect { stroke: var(--satisfied); fill: var(--satisfied-bg); }
svg .node.unconfirmed rect { stroke-dasharray: 6 4; }
svg .node.component rect { stroke: var(--fg); }
svg .edge { fill: none; stroke: var(--muted); stroke-width: 1.5; }
svg .edge.dashed { stroke-dasharray: 6 4; }
svg .arrowhead { fill: var(--muted); }
svg .tick { stroke: var(--line); stroke-dasharray: 2 3; }
svg .ev-dot, svg .ev-span { stroke-width: 2; }
svg .establishes .ev-dot, svg .establishes .ev-span { fill: var(--fg); stroke: var(--fg); }
svg .suggests .ev-dot, svg .suggests .ev-span { fill: var(--bg); stroke: var(--fg); }
svg .ignored .ev-dot, svg .ignored .ev-span { fill: var(--line); stroke: var(--muted); }
svg .ignored text { fill: var(--muted); }
svg .ev-life { stroke: var(--muted); stroke-width: 2; }
svg .ev-retracted { stroke: var(--violation); stroke-width: 2.5; fill: none; }
.key { font-weight: 700; }
.key.establishes { color: var(--fg); }
.key.suggests { color: var(--muted); }
.key.ignored { color: var(--line); }
.key.retracted { color: var(--violation); }
@media (max-width: 640px) {
  /* a phone or a narrow pane: tables and pictures scroll inside their box, text stays legible */
  body { padding: 12px 12px 32px; font-size: 15px; }
  h1 { font-size: 22px; } h2 { font-size: 19px; }
  table { display: block; overflow-x: auto; max-width: 100%; }
  th, td { padding: 4px 6px; }
  .picture svg { max-width: none; }
  .finding { padding: 10px 10px; }
  blockquote { padding: 4px 10px; }
}
@media print {
  details > * { display: block; }
  :root {
    --bg: #ffffff; --fg: #000000; --muted: #444444; --line: #bbbbbb; --panel: #ffffff;
    --link: #000000;
  }
  body { max-width: none; padding: 0; font-size: 11pt; }
  a { text-decoration: none; }
  .badge, .finding, svg { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .picture { overflow: visible; }
  h2, h3 { break-after: avoid; }
  .product { break-before: page; }
  .product:first-of-type { break-before: auto; }
  .filter { display: none; }
  .product { display: block !important; }
}
"""

# Added to the stylesheet of a page whose products' bodies are stored compressed (more products
# than `html.LAZY_ABOVE`): the folded line that opens one, and its data never drawn nor printed.
LAZY_CSS = """
details.lazy { margin: 8px 0; }
details.lazy > summary { cursor: pointer; color: var(--link); }
details.lazy > script { display: none !important; }
"""
