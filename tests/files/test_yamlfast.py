"""The reader's fast path (libyaml's composer + a tree walk) against the event reader.

Whatever the text, the fast path either declines or gives exactly the event reader's Document:
the same data with the same Python types, the same positions and key positions, in the same
order.  `yamlsafe.parse` must therefore answer exactly as `yamlsafe.parse_events`, refusals
included.  Checked on every YAML file of the repository and of the generated portfolio, on the
fuzzer's mutations, and on shapes chosen to probe each reason to decline.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from licheck.core.diagnostics import InputError
from licheck.files import yamlfast, yamlsafe
from tests.conftest import LICENSES, PRODUCTS, ROOT
from tests.regression.test_fuzz import CATALOG, MANIFESTS, RULE_FILES, SPECIALS, dump, fuzz, mutated

PORTFOLIO = Path("/tmp/licheck-portfolio/1000")
REPO_FILES = sorted(
    p
    for folder in (ROOT / "tests", LICENSES, PRODUCTS)
    for p in folder.rglob("*")
    if p.suffix in (".yaml", ".yml") and p.is_file()
)


def fast(text: str) -> yamlsafe.Document | None:
    composed = yamlfast.compose(
        text,
        yamlsafe._plain_or_decline,
        max_depth=yamlsafe.MAX_DEPTH,
        max_scalar_chars=yamlsafe.MAX_SCALAR_CHARS,
        max_nodes=yamlsafe.MAX_NODES,
    )
    return None if composed is None else yamlsafe.Document("f.yaml", *composed)


def typed(value: Any) -> Any:
    """`value` with every type made visible: `1 == 1.0 == True` must not hide a difference."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    return (type(value).__name__, value)


def answer(read: Any, text: str) -> Any:
    """What a reader makes of `text`: its Document, every detail visible, or its diagnostics."""
    try:
        document = read(text, "f.yaml")
    except InputError as exc:
        return ("refused", exc.diagnostics)
    return (
        "read",
        typed(document.data),
        list(document.positions.items()),
        list(document.key_positions.items()),
        document.file,
    )


def check_same(text: str) -> bool:
    """Assert the fast path equals the event reader or declines; True when it did not decline."""
    reference = answer(yamlsafe.parse_events, text)
    assert answer(yamlsafe.parse, text) == reference
    document = fast(text)
    if document is None:
        return False
    assert reference[0] == "read", "the fast path accepted what the event reader refuses"
    assert answer(lambda _t, _d: document, text) == reference
    return True


def depth(text: str) -> int:
    """How deeply `text`'s collections nest, from libyaml's events."""
    deepest = level = 0
    for event in yaml.parse(text, Loader=yaml.CSafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            level += 1
            deepest = max(deepest, level)
        elif isinstance(event, yaml.CollectionEndEvent):
            level -= 1
    return deepest


# -- the files we have -------------------------------------------------------------------------


@pytest.mark.parametrize("path", REPO_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_repository_files(path: Path) -> None:
    raw = path.read_bytes()
    try:
        text = yamlsafe.decode(raw, "f.yaml")
    except InputError:
        return  # refused before parsing: neither reader sees it
    check_same(text)


def test_the_fast_path_reads_the_shipped_manifests_and_most_rule_files() -> None:
    """Declining is always safe, so make sure it is not what happens to ordinary files."""
    manifests = sorted(PRODUCTS.glob("*.yaml"))
    assert manifests
    for path in manifests:
        assert fast(path.read_text("utf-8")) is not None, path
    rules = sorted(LICENSES.glob("*.yaml"))
    taken = sum(fast(p.read_text("utf-8")) is not None for p in rules)
    assert taken >= len(rules) // 2  # those with anchors (`&quote`) decline


@pytest.mark.skipif(not PORTFOLIO.is_dir(), reason=f"{PORTFOLIO} absent: bench/gen_portfolio.py")
def test_portfolio_manifests() -> None:
    paths = sorted(PORTFOLIO.glob("*.yaml"))
    assert paths
    taken = sum(check_same(p.read_text("utf-8")) for p in paths)
    assert taken == len(paths)  # generated manifests hold nothing to decline


# -- mutations ---------------------------------------------------------------------------------


@pytest.mark.slow
@fuzz(600)
@given(mutated(MANIFESTS + RULE_FILES + [CATALOG]))
def test_mutations(text: str) -> None:
    check_same(text)
    assert_bound(text)


@pytest.mark.slow
@fuzz(300)
@given(
    st.recursive(
        st.one_of(
            st.none(),
            st.booleans(),
            st.integers(),
            st.floats(),
            st.text(max_size=8),
            st.sampled_from(SPECIALS),
        ),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)
        ),
        max_leaves=30,
    ),
    st.booleans(),
)
def test_random_shapes(data: Any, flow: bool) -> None:
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    text = yaml.dump({"root": data}, Dumper=dumper, default_flow_style=flow, allow_unicode=True)
    check_same(text)
    assert_bound(text)
    check_same(dump({"root": data}))


@pytest.mark.slow
@fuzz(600)
@given(
    st.text(alphabet=st.sampled_from(list("ab:-?[]{},&*!<'\" \n\t#|>\r\u2028.~01")), max_size=60)
)
def test_random_text(text: str) -> None:
    check_same(text)
    assert_bound(text)


def assert_bound(text: str) -> None:
    """The nesting bound holds, and every anchor, alias and tag is seen before composing."""
    try:
        events = list(yaml.parse(text, Loader=yaml.CSafeLoader))
    except yaml.YAMLError:
        events = []  # the fast path declines on any YAMLError anyway
    if events:
        assert yamlfast._nesting_bound(text) >= depth(text)
    for event in events:
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            assert yamlfast._ANCHOR_OR_ALIAS.search(text), event
        if getattr(event, "tag", None) is not None:
            assert "!" in text, event


# -- each reason to decline ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "a: &x 1\nb: *x\n",  # anchor and alias
        "a: [&x 1, *x]\n",
        "a: !!str 1\n",  # tag
        "a: !custom x\n",
        "base: {x: 1}\n<<: {y: 2}\n",  # merge key
        "a: 1\n---\nb: 2\n",  # several documents
        "- a\n- b\n",  # not a mapping
        "just text\n",
        "a: 1\na: 2\n",  # duplicate keys
        "a: {b: 1, 'b': 2}\n",
        "? [a, b]\n: c\n",  # a key that is not a scalar
        "a: " + "9" * 101 + "\n",  # a number out of range
        "a: 1e400\n",
        "a: " + "x" * (yamlsafe.MAX_SCALAR_CHARS + 1) + "\n",  # a long value
        "x" * (yamlsafe.MAX_SCALAR_CHARS + 1) + ": 1\n",  # a long key
        "a: " + "[" * yamlsafe.MAX_DEPTH + "]" * yamlsafe.MAX_DEPTH + "\n",  # too deep
        "a: [1, 2\n",  # a syntax error
        "a: \x07\n",  # a control character
    ],
)
def test_declines(text: str) -> None:
    assert fast(text) is None
    check_same(text)


@pytest.mark.parametrize(
    "text",
    [
        "a: " + "[" * (yamlsafe.MAX_DEPTH - 1) + "]" * (yamlsafe.MAX_DEPTH - 1) + "\n",  # deepest
        "a: mit/*\nb: x&y\nc: 'a*b&c<d'\n",  # `*`, `&` that are no alias or anchor
        "a: 1\r\nb:\r\n  - x\r\n  - {c: d}\r\n",  # CRLF
        "a: 1\rb: [2]\r",  # old Mac line breaks
        "a:\n- b:\n  - c: 1\n    d: [e, {f: g}]\n",  # indentless sequences
        "a:\n  - - - x\n    - y\n  -\n  - ''\n",  # compact nested sequences, empty and quoted
        'a: |\n  text\nb: >-\n  folded\nc: "010"\nd: 010\ne: 1:30\nf: ~\ng:\n',
        "? a\n: b\n",  # an explicit key
        "'1': x\n2: y\nnull: z\ntrue: w\n",  # keys stay the text written
    ],
)
def test_fast_path_taken_and_identical(text: str) -> None:
    assert check_same(text)


@pytest.mark.parametrize("limit", [32, 33])
def test_too_many_values_declines_where_the_event_reader_refuses(
    limit: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The event reader counts 33: the root once, the list twice, each of the ten values 3 times.
    monkeypatch.setattr(yamlsafe, "MAX_NODES", limit)
    text = "a: [" + ", ".join(["1"] * 10) + "]\n"
    assert (fast(text) is None) == (limit < 33)
    check_same(text)
    assert (answer(yamlsafe.parse, text)[0] == "refused") == (limit < 33)


@pytest.mark.parametrize(
    "text",
    [
        "a:\n- b:\n  - c:\n    - d:\n      - e\n",
        "- - - - - - x\n",
        "? - - a\n: - - b\n",
        "a: [[[{b: [[c]]}]]]\n",
        "a:\n  b:\n    c:\n      d: [e, [f]]\n",
        "\ufeff- - x\n",
    ],
)
def test_nesting_bound(text: str) -> None:
    assert yamlfast._nesting_bound(text) >= depth(text)
    assert_bound(text)


def test_deep_block_nesting_beyond_the_bound_declines_before_composing() -> None:
    levels = yamlfast.MAX_COMPOSE_DEPTH
    text = "".join("  " * i + f"k{i}:\n" for i in range(levels)) + "  " * levels + "v: 1\n"
    assert yamlfast._nesting_bound(text) > yamlfast.MAX_COMPOSE_DEPTH
    assert fast(text) is None
    check_same(text)  # the event reader refuses it at its own depth limit


def test_parse_takes_the_fast_path_and_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable(text: str, display: str) -> yamlsafe.Document:
        raise AssertionError("the event reader was used")

    manifest = (PRODUCTS / "composer2.yaml").read_text("utf-8")
    reference = answer(yamlsafe.parse_events, manifest)
    monkeypatch.setattr(yamlsafe, "parse_events", unavailable)
    assert answer(yamlsafe.parse, manifest) == reference
    with pytest.raises(AssertionError, match="event reader"):
        yamlsafe.parse("a: &x 1\n", "f.yaml")
