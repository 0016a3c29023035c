"""Fuzzing: mutated manifests, rule files and catalogs, and plain garbage, through the CLI.

Whatever the input, licheck must answer with exit code 0, 1 or 2 — never 3 (an internal error),
never a traceback — and when it refuses a file (2) it names the file and prints nothing on
standard output.  The mutations start from the valid files shipped in the repository: delete a
key, swap a value's type, insert YAML 1.1 specials, duplicate or drop lines, truncate, splice in
random bytes.  The CLI runs in-process (`run_guarded`, as `licheck` itself does) for speed; the
number of cases is printed in pytest's terminal summary.  `bench/fuzz_long.py` runs many more.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import functools
import io
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from licheck.cli import cli
from licheck.cli.common import run_guarded
from licheck.files import yamlsafe

ROOT = Path(__file__).resolve().parents[2]
MINIMAL_MANIFEST = """\
product: Demo
owner: Acme
release_date: 2026-03-01
currency_rates: {CNY: "0.14"}
sources:
  blog: {title: Blog, kind: official_statement, date: 2026-03-01}
components:
  - id: demo
    name: Demo
    delivery: [weights, api]
    lineage:
      base: {model: kimi-k2.5, obtained: 2026-02-10, evidence: [{source: blog}]}
      steps:
        - fine_tuning
        - {kind: merge, parents: [glm-5]}
    facts:
      notice_included: {value: true, evidence: [{source: blog}]}
facts:
  commercial: true
  mau:
    at_least: 90M
    at_most: 120M
    evidence: [{source: press, kind: press_report, date: 2026-03-02}]
  monthly_revenue: 300M CNY/year
  ui_attribution: {excludes: [Kimi K2.5]}
  agreement_waives: []
"""
MANIFESTS = [MINIMAL_MANIFEST, (ROOT / "products" / "composer2.yaml").read_text("utf-8")]
RULE_FILES = [
    p.read_text("utf-8")
    for p in sorted((ROOT / "licenses").glob("*.yaml"))
    if p.name not in ("catalog.yaml", "set-aside.yaml")  # not rule files
]
CATALOG = (ROOT / "licenses" / "catalog.yaml").read_text("utf-8")

# Plain scalars YAML 1.1 reads differently, values of the wrong kind, and near misses.
SPECIALS = [
    "no",
    "on",
    "off",
    "yes",
    "y",
    "010",
    "0o17",
    "0x1F",
    "1:30",
    "~",
    "null",
    "",
    ".inf",
    "-.nan",
    "2026-02-30",
    "2026-13-01",
    "-5M",
    "100 millions",
    "1,5M",
    "1e999",
    "9" * 400,
    "unknown",
    "true",
    "[]",
    "{}",
    "[1, [2, {a: b}]]",
    "*nowhere",
    "&a x",
    "!!python/object/apply:os.system ['true']",
    "!custom x",
    "'",
    '"',
    "- item",
    "20M USD/fortnight",
    "300M XYZ/year",
    "kimi-k2.6",
    "merge",
    "weights",
    "<<",
    "\t",
    "é",
    "\u202e",
    "\x7f",
]
TEXT_OPS = (
    "special",
    "delete_line",
    "duplicate_line",
    "swap_lines",
    "indent",
    "truncate",
    "splice_bytes",
    "tag",
    "anchor_bomb",
    "second_document",
)
DATA_OPS = (
    "delete_key",
    "swap_type",
    "rename_key",
    "add_key",
    "duplicate_item",
    "empty_container",
    "special_value",
)


class FuzzCount:
    """Counts the cases run and reports them at the end of the session."""

    def __init__(self) -> None:
        self.cases: collections.Counter[str] = collections.Counter()
        self.codes: collections.Counter[int] = collections.Counter()

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.cases:
            kinds = ", ".join(f"{n} {k}" for k, n in sorted(self.cases.items()))
            codes = ", ".join(f"{n}× exit {c}" for c, n in sorted(self.codes.items()))
            terminalreporter.write_sep(
                "-", f"fuzz: {sum(self.cases.values())} cases ({kinds}); {codes}"
            )


COUNT = FuzzCount()


@pytest.fixture(autouse=True, scope="module")
def _count_cases(pytestconfig: pytest.Config) -> Iterator[None]:
    if not pytestconfig.pluginmanager.is_registered(COUNT):
        pytestconfig.pluginmanager.register(COUNT, "licheck-fuzz-count")
    yield


# -- mutations -------------------------------------------------------------------------------


def mutate_text(draw: Callable[..., Any], text: str) -> str:  # noqa: C901
    op = draw(st.sampled_from(TEXT_OPS))
    lines = text.split("\n")
    where = draw(st.integers(0, max(len(lines) - 1, 0)))
    if op == "special":
        line = lines[where]
        if ":" in line:
            head = line[: line.index(":") + 1]
            lines[where] = f"{head} {draw(st.sampled_from(SPECIALS))}"
        else:
            lines[where] = f"{line} {draw(st.sampled_from(SPECIALS))}"
    elif op == "delete_line":
        del lines[where]
    elif op == "duplicate_line":
        lines.insert(where, lines[where])
    elif op == "swap_lines":
        other = draw(st.integers(0, max(len(lines) - 1, 0)))
        lines[where], lines[other] = lines[other], lines[where]
    elif op == "indent":
        lines[where] = " " * draw(st.integers(1, 3)) + lines[where]
    elif op == "truncate":
        end: int = draw(st.integers(0, len(text)))
        return text[:end]
    elif op == "splice_bytes":
        cut = draw(st.integers(0, len(text)))
        junk: str = draw(st.binary(min_size=1, max_size=8)).decode("latin-1")
        return text[:cut] + junk + text[cut:]
    elif op == "tag":
        line = lines[where]
        if ": " in line:
            head, _, tail = line.partition(": ")
            tag = draw(
                st.sampled_from(
                    [
                        "!!python/name:os.system",
                        "!!binary",
                        "!!int",
                        "!!str",
                        "!x",
                        "!!set",
                        "!!timestamp",
                    ]
                )
            )
            lines[where] = f"{head}: {tag} {tail}"
    elif op == "anchor_bomb":
        bomb = ["bomb0: &b0 [x, x, x, x, x, x, x, x]"]
        bomb += [f"bomb{i}: &b{i} [{', '.join([f'*b{i - 1}'] * 8)}]" for i in range(1, 8)]
        lines[0:0] = bomb
    elif op == "second_document":
        lines.insert(where, "---")
    return "\n".join(lines)


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            found += _paths(value, (*prefix, index))
    return found


def _get(node: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        node = node[part]
    return node


def mutate_data(draw: Callable[..., Any], data: Any) -> Any:
    op = draw(st.sampled_from(DATA_OPS))
    paths = [p for p in _paths(data) if p]
    if not paths:
        return data
    path = draw(st.sampled_from(paths))
    parent, last = _get(data, path[:-1]), path[-1]
    if op == "delete_key":
        del parent[last]
    elif op == "swap_type":
        parent[last] = draw(
            st.one_of(
                st.integers(-(10**6), 10**12),
                st.floats(allow_nan=False),
                st.booleans(),
                st.none(),
                st.text(max_size=12),
                st.lists(st.integers(), max_size=3),
                st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
            )
        )
    elif op == "rename_key" and isinstance(parent, dict):
        value = parent.pop(last)
        parent[str(last)[:-1] or "x"] = value
    elif op == "add_key" and isinstance(parent, dict):
        parent[draw(st.sampled_from(["extra", "valu", "facts", "id", "kind", "is"]))] = 1
    elif op == "duplicate_item" and isinstance(parent, list):
        parent.insert(last, parent[last])
    elif op == "empty_container":
        parent[last] = draw(st.sampled_from([[], {}]))
    elif op == "special_value":
        parent[last] = draw(st.sampled_from(SPECIALS))
    return data


@functools.lru_cache(maxsize=64)
def _parsed(text: str) -> Any:
    return yamlsafe.parse(text, "seed").data


def dump(data: Any) -> str:
    """YAML text of `data` (libyaml's emitter where available: the pure one is slow)."""
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)
    return str(yaml.dump(data, Dumper=dumper, sort_keys=False, allow_unicode=True))


def mutated(seeds: list[str]) -> st.SearchStrategy[str]:
    @st.composite
    def build(draw: st.DrawFn) -> str:
        text = draw(st.sampled_from(seeds))
        for _ in range(draw(st.integers(1, 3))):
            if draw(st.booleans()):
                text = mutate_text(draw, text)
                continue
            try:
                data = copy.deepcopy(_parsed(text))
            except Exception:  # an earlier mutation broke it: keep mutating the text
                text = mutate_text(draw, text)
                continue
            text = dump(mutate_data(draw, data))
        return text

    return build()


# -- running ---------------------------------------------------------------------------------


def run_cli(content: str | bytes, argv: list[str], kind: str) -> int:
    """Run licheck on `content` written to a file; check the answer is a clean one."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.yaml"
        if isinstance(content, str):
            path.write_bytes(content.encode("utf-8", errors="surrogateescape"))
        else:
            path.write_bytes(content)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run_guarded(cli, [*argv, str(path)])
        stdout, stderr = out.getvalue(), err.getvalue()
    COUNT.cases[kind] += 1
    COUNT.codes[code] += 1
    assert code in (0, 1, 2), f"exit {code}:\n{stderr}"
    assert "Traceback" not in stderr + stdout
    if code == 2:
        assert str(path) in stderr, stderr
        assert stdout == ""
        assert "error" in stderr
    return code


def fuzz(cases: int) -> settings:
    return settings(
        max_examples=cases, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )


@pytest.mark.slow
@fuzz(1500)
@given(
    mutated(MANIFESTS),
    st.sampled_from(
        [
            ["validate"],
            ["evaluate", "--format", "json"],
            ["evaluate", "--evidence", "strict", "--format", "json"],
        ]
    ),
)
def test_mutated_manifests(text: str, argv: list[str]) -> None:
    run_cli(text, argv, "manifests")


@pytest.mark.slow
@fuzz(800)
@given(mutated(RULE_FILES))
def test_mutated_rule_files(text: str) -> None:
    run_cli(text, ["validate", "--kind", "license"], "rule files")


@pytest.mark.slow
@fuzz(200)
@given(mutated([CATALOG]))
def test_mutated_catalog(text: str) -> None:
    run_cli(text, ["validate", "--kind", "catalog"], "catalogs")


@pytest.mark.slow
@fuzz(300)
@given(
    st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)),
    st.sampled_from(["manifest", "license", "catalog"]),
)
def test_garbage(raw: bytes, kind: str) -> None:
    run_cli(raw, ["validate", "--kind", kind], "garbage")


@pytest.mark.slow
@fuzz(200)
@given(
    st.recursive(
        st.one_of(
            st.none(), st.booleans(), st.integers(), st.text(max_size=8), st.sampled_from(SPECIALS)
        ),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(
                st.sampled_from(
                    [
                        "product",
                        "owner",
                        "components",
                        "facts",
                        "id",
                        "name",
                        "lineage",
                        "base",
                        "steps",
                        "clauses",
                        "fact",
                        "all",
                        "any",
                        "not",
                        "models",
                        "value",
                        "evidence",
                    ]
                ),
                inner,
                max_size=4,
            ),
        ),
        max_leaves=20,
    )
)
def test_random_yaml_shapes(data: Any) -> None:
    run_cli(dump(data), ["validate"], "random shapes")


def test_the_seeds_are_valid() -> None:
    """The mutations start from valid files, so that they probe the checks one step away."""
    for text in MANIFESTS:
        assert run_cli(text, ["validate"], "seeds") == 0
    for text in RULE_FILES:
        assert run_cli(text, ["validate", "--kind", "license"], "seeds") == 0
    assert run_cli(CATALOG, ["validate", "--kind", "catalog"], "seeds") == 0
