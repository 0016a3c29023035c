"""SARIF's help link per rule: every rule's `helpUri` is a page of docs/ on the repository the
package names, at this version's tag, and its anchor a heading of that page as GitHub makes
anchors; docs/rules.md (every license and clause) is generated and kept up to date."""

from __future__ import annotations

import json
import re
from collections import Counter
from email.message import Message
from importlib import metadata
from pathlib import Path

import pytest

from licheck._version import __version__
from licheck.api import check
from licheck.library.compiled import load_library
from licheck.outputs import Format, render
from licheck.outputs.rulesdoc import (
    LAYERED,
    POLICY,
    REFUSALS,
    REPLACED,
    RULES_PAGE,
    anchor,
    link,
    rule_link,
    rules_page,
)
from licheck.outputs.summary import UNKNOWN_RULES
from licheck.report.view import LibraryOut, ReplacementOut
from tests.conftest import PRODUCTS, REFERENCE, ROOT

HOME = "https://github.com/licheck-test/licheck"  # a stand-in: the package names no repository
SARIF_SCHEMA = REFERENCE / "schemas" / "sarif-schema-2.1.0.json"


def headings(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of a markdown page (outside code blocks; a second
    heading of one anchor gets `-1`, as GitHub numbers them)."""
    seen: Counter[str] = Counter()
    found = set()
    fenced = False
    for line in page.read_text("utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else re.match(r"#{1,6} (.+)", line)
        if match:
            base = anchor(match.group(1))
            found.add(base if not seen[base] else f"{base}-{seen[base]}")
            seen[base] += 1
    return found


def assert_in_docs(page_link: str) -> None:
    page, _, fragment = page_link.partition("#")
    assert page.startswith("docs/") and (ROOT / page).is_file(), page_link
    assert fragment in headings(ROOT / page), f"{page_link}: no heading has that anchor"


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch) -> str:
    """The package as if its metadata named a repository."""
    message = Message()
    message["Project-URL"] = f"Repository, {HOME}"
    monkeypatch.setattr(metadata, "metadata", lambda name: message)
    return HOME


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("What licheck refuses, and why", "what-licheck-refuses-and-why"),
        ("apache-2.0 / license-copy", "apache-20--license-copy"),
        (
            "Licenses: Stable Diffusion 1.x / SDXL, FLUX.1 [dev]",
            "licenses-stable-diffusion-1x--sdxl-flux1-dev",
        ),
        ("The `licenses` commands", "the-licenses-commands"),
        ("snake_case and UPPER", "snake_case-and-upper"),
    ],
)
def test_anchor_is_githubs(heading: str, expected: str) -> None:
    assert anchor(heading) == expected


def test_the_rules_page_is_up_to_date(update_golden: bool) -> None:
    text = rules_page(load_library(), UNKNOWN_RULES)
    path = ROOT / RULES_PAGE
    if update_golden:
        path.write_text(text, encoding="utf-8", newline="")
        return
    assert text == path.read_text("utf-8"), f"{RULES_PAGE} is stale: run pytest --update-golden"


def test_the_rules_page_has_one_anchor_per_heading() -> None:
    """GitHub would number a repeated anchor: no two headings of the page may share one."""
    lines = (ROOT / RULES_PAGE).read_text("utf-8").splitlines()
    anchors = [anchor(line.lstrip("#")) for line in lines if line.startswith("#")]
    assert [a for a, n in Counter(anchors).items() if n > 1] == []


def test_every_clause_of_the_library_links_to_its_heading() -> None:
    library = load_library()
    found = headings(ROOT / RULES_PAGE)
    links = [
        rule_link(license_id, clause.id)
        for license_id in library.licenses
        for clause in library.licenses[license_id].license.clauses
    ]
    links += [rule_link("unknown", clause) for clause in UNKNOWN_RULES]
    assert len(links) > 500
    assert [x for x in links if x.partition("#")[2] not in found] == []


@pytest.mark.parametrize("page", [REFUSALS, POLICY, LAYERED, REPLACED])
def test_the_other_pages_linked_have_their_heading(page: tuple[str, str]) -> None:
    assert_in_docs(link(*page))


def _sarif(*paths: Path) -> dict[str, object]:
    return dict(json.loads(render(check(list(paths)), Format.SARIF)))


def _rules(log: dict[str, object]) -> list[dict[str, object]]:
    run = log["runs"][0]  # type: ignore[index]
    return list(run["tool"]["driver"]["rules"])


def test_every_rule_of_a_portfolio_links_into_the_docs(home: str, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("format: 2\nproduct: [\n", encoding="utf-8")
    log = _sarif(*sorted(PRODUCTS.glob("*.yaml")), broken)
    rules = _rules(log)
    assert any(r["id"] == "licheck/manifest-not-read" for r in rules)
    assert any(str(r["id"]).startswith("unknown/") for r in rules)
    prefix = f"{home}/blob/v{__version__}/"
    for rule in rules:
        uri = str(rule["helpUri"])
        assert uri.startswith(prefix), uri
        assert_in_docs(uri.removeprefix(prefix))
        assert uri.removeprefix(prefix) in str(rule["help"]["markdown"])  # type: ignore[index]
    unread = next(r for r in rules if r["id"] == "licheck/manifest-not-read")
    assert str(unread["helpUri"]).endswith(link(*REFUSALS))
    if SARIF_SCHEMA.is_file():
        from jsonschema import Draft4Validator, FormatChecker

        schema = json.loads(SARIF_SCHEMA.read_text("utf-8"))
        validator = Draft4Validator(schema, format_checker=FormatChecker())
        assert list(validator.iter_errors(log)) == []


def test_without_a_repository_no_help_uri_but_the_page_named() -> None:
    """The package names no repository yet: no address is made up, the markdown names the page."""
    rules = _rules(_sarif(PRODUCTS / "composer2.yaml"))
    assert rules and all("helpUri" not in r for r in rules)
    for rule in rules:
        named = re.search(r"`(docs/[^`]+)`\.$", str(rule["help"]["markdown"]))  # type: ignore[index]
        assert named is not None
        assert_in_docs(named.group(1))


def test_a_layer_replaced_or_own_license_links_to_the_layered_page() -> None:
    from licheck.outputs.sarif import Docs

    replaced = ReplacementOut(kind="license", id="mit", file="x.yaml", replaced="built-in mit")
    docs = Docs(LibraryOut(builtin=True, layers=["layer"], replaced=[replaced]))
    assert docs.page("mit", "copyright-notice") == link(*REPLACED)
    assert docs.page("acme-internal", "no-resale") == link(*LAYERED)
    assert docs.page("apache-2.0", "license-copy") == rule_link("apache-2.0", "license-copy")
    assert docs.page("policy/acme", "approved") == link(*POLICY)
    alone = Docs(LibraryOut(builtin=False, layers=["layer"], replaced=[]))
    assert alone.page("apache-2.0", "license-copy") == link(*LAYERED)
    assert Docs(None).page("mit", "copyright-notice") == rule_link("mit", "copyright-notice")
