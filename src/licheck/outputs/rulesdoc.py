"""The docs page of every rule (`docs/rules.md`: each license of the library and each of its
clauses under a heading of its own) and the place on it, or on another docs page, that explains
a rule: SARIF's `helpUri` links there.

A heading's anchor is GitHub's: the text lowercased, every character other than a letter, a
digit, a space, `-` or `_` dropped, each space a `-` (`apache-2.0 / license-copy` is
`#apache-20--license-copy`).  The page is generated (`rules_page`); `tests/outputs/
test_sarif_help.py` holds docs/rules.md to it (`pytest --update-golden` rewrites it) and every
link to a heading of its page."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from licheck.library.compiled import Library

RULES_PAGE = "docs/rules.md"
RULES_TITLE = "The rules: every license and clause"
UNKNOWN_LICENSE = "unknown"  # the license of the findings about licenses licheck cannot know
# the pages that explain the rules the rules page cannot list: (page, heading)
REFUSALS = ("docs/refusals.md", "What licheck refuses, and why")  # a manifest not read
POLICY = ("docs/policy.md", "Findings")  # an organisation policy's rules (policy/ORG/RULE)
LAYERED = ("docs/layered-library.md", "A layered rule library")  # a layer's own licenses
REPLACED = ("docs/layered-library.md", "Replacements are reported")  # a layer replaced it
POLICY_PREFIX = "policy/"

_DROPPED = re.compile(r"[^\w\- ]")


def anchor(heading: str) -> str:
    """The anchor GitHub gives a markdown heading."""
    return _DROPPED.sub("", heading.strip().lower()).replace(" ", "-")


def clause_heading(license_id: str, clause: str) -> str:
    return f"{license_id} / {clause}"


def link(page: str, heading: str) -> str:
    """A docs page and the anchor of one of its headings: `docs/page.md#anchor`."""
    return f"{page}#{anchor(heading)}"


def rule_link(license_id: str, clause: str, replaced: bool = False) -> str:
    """Where the docs explain a finding's rule: its clause on the rules page (a license a
    layer replaced: the page on replacements; a policy's rule: the page on policies)."""
    if license_id.startswith(POLICY_PREFIX):
        return link(*POLICY)
    if replaced:
        return link(*REPLACED)
    return link(RULES_PAGE, clause_heading(license_id, clause))


def rules_page(library: Library, unknown: Mapping[str, str]) -> str:
    """docs/rules.md: each license (by id) and its clauses, then the findings about licenses
    licheck cannot know (`unknown`: clause id -> what it means)."""
    lines = [
        f"# {RULES_TITLE}",
        "",
        "Generated from the shipped library (`tests/outputs/test_sarif_help.py` checks it; "
        "`pytest --update-golden` rewrites it): each license under its id, each clause under "
        "`LICENSE / CLAUSE`, the rule id a finding and a SARIF rule carry. SARIF's `helpUri` "
        "links here. `licheck licenses show LICENSE` shows a license's conditions too; "
        "[licenses.md](licenses.md) says how the library is written and checked.",
        "",
    ]
    for license_id in sorted(library.licenses):
        entry = library.licenses[license_id].license
        lines += [f"## {license_id}", "", f"{entry.name} (version {entry.version}).", ""]
        if entry.summary:
            lines += [entry.summary.strip(), ""]
        for clause in entry.clauses:
            lines += [
                f"### {clause_heading(license_id, clause.id)}",
                "",
                f"**{clause.title.strip()}** ({clause.kind}).",
                "",
                *(f"> {part}".rstrip() for part in clause.quote.strip().splitlines()),
                "",
            ]
            if clause.summary:
                lines += [clause.summary.strip(), ""]
    lines += [
        f"## {UNKNOWN_LICENSE}",
        "",
        "Findings about a license licheck cannot know: their license is `unknown`.",
        "",
    ]
    for clause_id, meaning in sorted(unknown.items()):
        lines += [f"### {clause_heading(UNKNOWN_LICENSE, clause_id)}", "", meaning, ""]
    return "\n".join(lines).rstrip() + "\n"
