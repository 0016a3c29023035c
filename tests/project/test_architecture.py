"""The layer contract of docs/architecture.md, checked over every import of src/licheck.

The contract is data in one place, the page itself: its layer table places every package (and each
module kept directly in `src/licheck/`) on a floor; its table of lazy imports names each import
made inside a function, with the reason start-up needs it there; its table of temporary exceptions
names the one import cycle still being removed. Every import is read with `ast`: at the top of a
module, inside a function (lazy), under `if TYPE_CHECKING:`, and `importlib.import_module` of a
literal name. Checked:

(a) each import goes to its own package or to a lower floor;
(b) no import cycle between modules (strongly connected components, every kind of import);
(c) an import inside a function only where the contract names it, and no stale entry there;
(d) at most eight modules directly in `src/licheck/`;
(e) each package's `__init__` has a docstring whose first line says its one job.

Each failure names the file and line of the import, and the arrow.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.conftest import ROOT

SRC = ROOT / "src"
PACKAGE = "licheck"
CONTRACT = ROOT / "docs" / "architecture.md"
MAX_TOP_LEVEL_MODULES = 8


@dataclass(frozen=True)
class Import:
    """One arrow: `source` imports `target` (both dotted module names) at `path:line`."""

    source: str
    target: str
    path: Path
    line: int
    lazy: bool  # inside a function: runs when the function is called, not at import
    typing_only: bool  # under `if TYPE_CHECKING:`: never runs

    def where(self, base: Path) -> str:
        try:
            shown = self.path.relative_to(base)
        except ValueError:
            shown = self.path
        return f"{shown}:{self.line}"

    @property
    def kind(self) -> str:
        return " (lazy)" if self.lazy else " (TYPE_CHECKING)" if self.typing_only else ""


@dataclass(frozen=True)
class Tolerated:
    """A cycle the contract tolerates for now: its modules, and who removes it."""

    modules: frozenset[str]
    reason: str


@dataclass
class Contract:
    floors: dict[str, int] = field(default_factory=dict)  # `core/`, `api.py` -> floor
    lazy: dict[tuple[str, str], str] = field(default_factory=dict)  # (module, target) -> why
    exceptions: list[Tolerated] = field(default_factory=list)


# ---------------------------------------------------------------- reading the contract


def _section(text: str, title: str) -> str:
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert found is not None, f"the contract has no section '## {title}'"
    return found.group(1)


def _rows(section: str) -> Iterator[list[str]]:
    """The cells of each body row of the first table in a section."""
    lines = [line for line in section.splitlines() if line.startswith("|")]
    for line in lines[2:]:  # the header and its rule
        yield [cell.strip() for cell in line.strip().strip("|").split("|")]


def _names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def read_contract(text: str) -> Contract:
    contract = Contract()
    for cells in _rows(_section(text, "The layers")):
        floor = int(cells[0])
        for unit in _names(cells[1]):
            assert unit not in contract.floors, f"the layer table places {unit} twice"
            contract.floors[unit] = floor
    for cells in _rows(_section(text, "Lazy imports")):
        (module,) = _names(cells[0])
        reason = cells[2]
        assert reason, f"the lazy imports of {module} are listed without a reason"
        for target in _names(cells[1]):
            assert (module, target) not in contract.lazy, f"{module} -> {target} listed twice"
            contract.lazy[module, target] = reason
    for cells in _rows(_section(text, "Temporary exceptions")):
        contract.exceptions.append(Tolerated(frozenset(_names(cells[0])), cells[1]))
    return contract


# ---------------------------------------------------------------- reading the imports


def modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package at `root` (the folder holding its `__init__.py`)."""
    found: dict[str, Path] = {}
    for path in sorted(root.rglob("*.py")):
        parts = [package, *path.relative_to(root).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(
    node: ast.AST, lazy: bool = False, typing_only: bool = False
) -> Iterator[tuple[ast.AST, bool, bool]]:
    """Every node below `node`, with whether it sits in a function and under TYPE_CHECKING."""
    for child in ast.iter_child_nodes(node):
        yield child, lazy, typing_only
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield from _walk(child, True, typing_only)
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for stmt in child.body:
                yield stmt, lazy, True
                yield from _walk(stmt, lazy, True)
            for stmt in child.orelse:
                yield stmt, lazy, typing_only
                yield from _walk(stmt, lazy, typing_only)
        else:
            yield from _walk(child, lazy, typing_only)


def _named(name: str, known: Mapping[str, Path]) -> str:
    """The module a dotted name stands for: itself, or its longest known prefix."""
    while name not in known and "." in name:
        name = name.rsplit(".", 1)[0]
    return name


def imports(root: Path, package: str) -> list[Import]:
    known = modules(root, package)
    found: list[Import] = []
    seen: set[Import] = set()
    for source, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        here = source if path.name == "__init__.py" else source.rsplit(".", 1)[0]
        for node, lazy, typing_only in _walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in node.names:
                    whole = f"{base}.{alias.name}"
                    targets.append(whole if whole in known else base)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, (ast.Attribute, ast.Name))
                and (getattr(node.func, "attr", None) or getattr(node.func, "id", None))
                == "import_module"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                targets = [node.args[0].value]
            for target in targets:
                if target == package or target.startswith(package + "."):
                    line = getattr(node, "lineno", 0)
                    arrow = Import(source, _named(target, known), path, line, lazy, typing_only)
                    if arrow not in seen:  # `from x import a, b`: one arrow
                        seen.add(arrow)
                        found.append(arrow)
    return found


# ---------------------------------------------------------------- the rules


def units(root: Path, package: str) -> dict[str, str]:
    """Where the layer table places each module: `core/` for licheck.core and all below it,
    `api.py` for a module kept at the top, `__init__.py` for the package itself."""
    placed = {}
    for module, path in modules(root, package).items():
        parts = path.relative_to(root).parts
        placed[module] = f"{parts[0]}/" if len(parts) > 1 else parts[0]
    return placed


def _excepted(arrow: Import, contract: Contract) -> bool:
    return any({arrow.source, arrow.target} <= cycle.modules for cycle in contract.exceptions)


def unplaced(unit: Mapping[str, str], contract: Contract) -> list[str]:
    found, placed = set(unit.values()), set(contract.floors)
    problems = [f"{u} is on no floor of the layer table" for u in sorted(found - placed)]
    problems += [
        f"the layer table places {u}, which does not exist" for u in sorted(placed - found)
    ]
    return problems


def upward(
    arrows: Iterable[Import], unit: Mapping[str, str], contract: Contract, base: Path
) -> list[str]:
    problems = []
    for arrow in arrows:
        here, there = unit[arrow.source], unit[arrow.target]
        if here == there or here not in contract.floors or there not in contract.floors:
            continue
        if contract.floors[there] >= contract.floors[here] and not _excepted(arrow, contract):
            level = "the same floor" if contract.floors[there] == contract.floors[here] else "above"
            problems.append(
                f"{arrow.where(base)}: {arrow.source} -> {arrow.target}{arrow.kind}: {here} "
                f"(floor {contract.floors[here]}) imports {there} "
                f"(floor {contract.floors[there]}), {level}"
            )
    return problems


def strongly_connected(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """Tarjan's components of more than one module (or one that imports itself), iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1 or node in graph.get(node, ()):
                        found.append(sorted(component))
    return sorted(found)


def _a_cycle(component: list[str], by_pair: Mapping[tuple[str, str], Import]) -> list[Import]:
    """One cycle through the component's first module, as arrows (a shortest way back)."""
    members = set(component)
    start = component[0]
    came: dict[str, Import] = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for (source, target), arrow in sorted(by_pair.items()):
                if source != node or target not in members:
                    continue
                if target == start:
                    path = [arrow]
                    while path[0].source != start:
                        path.insert(0, came[path[0].source])
                    return path
                if target not in came:
                    came[target] = arrow
                    following.append(target)
        frontier = following
    raise AssertionError(f"no cycle through {start}")  # pragma: no cover: a component has one


def cycles(arrows: Iterable[Import], contract: Contract, base: Path) -> list[str]:
    graph: dict[str, set[str]] = defaultdict(set)
    by_pair: dict[tuple[str, str], Import] = {}
    for arrow in arrows:
        graph[arrow.source].add(arrow.target)
        by_pair.setdefault((arrow.source, arrow.target), arrow)
    problems = []
    components = strongly_connected(graph)
    for component in components:
        if any(frozenset(component) == cycle.modules for cycle in contract.exceptions):
            continue
        shown = "; ".join(
            f"{a.where(base)}: {a.source} -> {a.target}{a.kind}"
            for a in _a_cycle(component, by_pair)
        )
        problems.append(f"import cycle among {', '.join(component)}: {shown}")
    found = {frozenset(component) for component in components}
    problems += [
        f"stale temporary exception ({cycle.reason}): no cycle is exactly "
        f"{', '.join(sorted(cycle.modules))}"
        for cycle in contract.exceptions
        if cycle.modules not in found
    ]
    return problems


def lazy_imports(arrows: Iterable[Import], contract: Contract, base: Path) -> list[str]:
    made: dict[tuple[str, str], list[Import]] = defaultdict(list)
    for arrow in arrows:
        if arrow.lazy:
            made[arrow.source, arrow.target].append(arrow)
    problems = [
        f"{a.where(base)}: {a.source} -> {a.target} (lazy): an import inside a function that the "
        "contract does not name: move it to the top of the module, or name it with its reason"
        for pair, found in sorted(made.items())
        if pair not in contract.lazy
        for a in found
    ]
    problems += [
        f"stale lazy import in the contract: {source} -> {target} ({reason}) is not made "
        "inside a function"
        for (source, target), reason in sorted(contract.lazy.items())
        if (source, target) not in made
    ]
    return problems


def check(root: Path, package: str, contract: Contract) -> dict[str, list[str]]:
    """Every rule's problems, by rule, for the package at `root`."""
    base = root.parent
    unit = units(root, package)
    arrows = imports(root, package)
    return {
        "placed": unplaced(unit, contract),
        "upward": upward(arrows, unit, contract, base),
        "cycles": cycles(arrows, contract, base),
        "lazy": lazy_imports(arrows, contract, base),
        "top level": top_level(root),
        "docstrings": docstrings(root),
    }


def top_level(root: Path) -> list[str]:
    kept = sorted(path.name for path in root.glob("*.py"))
    if len(kept) <= MAX_TOP_LEVEL_MODULES:
        return []
    return [
        f"{len(kept)} modules directly in {root.name}/ (at most {MAX_TOP_LEVEL_MODULES}): {kept}"
    ]


def docstrings(root: Path) -> list[str]:
    problems = []
    for init in sorted(root.rglob("__init__.py")):
        where = init.relative_to(root.parent)
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")), clean=True)
        if not doc:
            problems.append(f"{where}: no docstring saying the package's one job")
            continue
        first, *rest = doc.split("\n")
        if not first.strip().endswith(".") or (rest and rest[0].strip()):
            problems.append(
                f"{where}: the docstring's first line is not one sentence saying the "
                f"package's one job: {first!r}"
            )
    return problems


# ---------------------------------------------------------------- the tests


@pytest.fixture(scope="module")
def problems() -> dict[str, list[str]]:
    return check(SRC / PACKAGE, PACKAGE, read_contract(CONTRACT.read_text(encoding="utf-8")))


@pytest.mark.parametrize("rule", ["placed", "upward", "cycles", "lazy", "top level", "docstrings"])
def test_the_layer_contract_holds(problems: dict[str, list[str]], rule: str) -> None:
    assert not problems[rule], "\n".join(problems[rule])


def test_the_contract_reads_every_kind_of_import() -> None:
    """The reader sees what the rules are about: lazy and TYPE_CHECKING imports are there."""
    arrows = imports(SRC / PACKAGE, PACKAGE)
    assert any(a.lazy for a in arrows)
    assert any(a.typing_only for a in arrows)
    assert len({a.source for a in arrows}) > 100


TOY_CONTRACT = """\
# toy

## The layers

| floor | package | its one job | modules |
|---|---|---|---|
| 0 | `__init__.py` | the root | |
| 1 | `low/` | below | `a`, `b` |
| 2 | `high/` | above | `c` |

## Lazy imports

| module | imports, inside a function | why |
|---|---|---|
{lazy}
## Temporary exceptions

| cycle | until |
|---|---|
{exceptions}"""
STALE = "| `toy.high.c` | `toy.low.gone` | a stale entry: nothing imports it lazily |\n"


def _write(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_a_synthetic_package_that_breaks_each_rule_is_reported(tmp_path: Path) -> None:
    """An upward arrow, a cycle, an unlisted lazy import and a stale entry, each found where it
    is, with the arrow; a `TYPE_CHECKING` import counts for the cycle."""
    root = tmp_path / "toy"
    _write(
        root,
        {
            "__init__.py": '"""The toy."""\n',
            "low/__init__.py": '"""Below: things."""\n',
            "low/a.py": "from toy.high.c import C\n",  # upward
            "low/b.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from toy.low import a\n"
                "def f() -> None:\n"
                "    import toy.low.a\n"  # an unlisted lazy import
            ),
            "high/__init__.py": '"""Above"""\n',  # no full stop: not one sentence
            "high/c.py": "from . import d\nC = 1\n",
            "high/d.py": "from toy.high.c import C\n",  # a cycle c <-> d (relative import)
        },
    )
    found = check(root, "toy", read_contract(TOY_CONTRACT.format(lazy=STALE, exceptions="")))
    assert found["upward"] == [
        "toy/low/a.py:1: toy.low.a -> toy.high.c: low/ (floor 1) imports high/ (floor 2), above"
    ]
    assert found["cycles"] == [
        "import cycle among toy.high.c, toy.high.d: "
        "toy/high/c.py:1: toy.high.c -> toy.high.d; toy/high/d.py:1: toy.high.d -> toy.high.c"
    ]
    assert found["lazy"] == [
        "toy/low/b.py:5: toy.low.b -> toy.low.a (lazy): an import inside a function that the "
        "contract does not name: move it to the top of the module, or name it with its reason",
        "stale lazy import in the contract: toy.high.c -> toy.low.gone (a stale entry: nothing "
        "imports it lazily) is not made inside a function",
    ]
    assert found["docstrings"] == [
        "toy/high/__init__.py: the docstring's first line is not one sentence saying the "
        "package's one job: 'Above'"
    ]
    assert found["placed"] == []
    arrows = imports(root, "toy")
    assert [(a.source, a.target) for a in arrows if a.typing_only] == [("toy.low.b", "toy.low.a")]


def test_a_cycle_through_type_checking_and_an_exception(tmp_path: Path) -> None:
    """A cycle closed only under TYPE_CHECKING is still a cycle; an exception naming exactly its
    modules lets it (and the upward arrow inside it) pass, and goes stale when the cycle goes."""
    root = tmp_path / "toy"
    _write(
        root,
        {
            "__init__.py": '"""The toy."""\n',
            "low/__init__.py": '"""Below."""\n',
            "low/a.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n"
                "    from toy.high.c import C\n"
            ),
            "low/b.py": "",
            "high/__init__.py": '"""Above."""\n',
            "high/c.py": "from toy.low.a import *\nC = 1\n",
        },
    )
    found = check(root, "toy", read_contract(TOY_CONTRACT.format(lazy="", exceptions="")))
    assert found["upward"] == [
        "toy/low/a.py:3: toy.low.a -> toy.high.c (TYPE_CHECKING): low/ (floor 1) imports high/ "
        "(floor 2), above"
    ]
    assert found["cycles"] == [
        "import cycle among toy.high.c, toy.low.a: toy/high/c.py:1: toy.high.c -> toy.low.a; "
        "toy/low/a.py:3: toy.low.a -> toy.high.c (TYPE_CHECKING)"
    ]
    excepted = TOY_CONTRACT.format(
        lazy="", exceptions="| `toy.high.c`, `toy.low.a` | the toy's owner removes this |\n"
    )
    found = check(root, "toy", read_contract(excepted))
    assert (found["upward"], found["cycles"]) == ([], [])
    (root / "low" / "a.py").write_text("", encoding="utf-8")
    assert check(root, "toy", read_contract(excepted))["cycles"] == [
        "stale temporary exception (the toy's owner removes this): no cycle is exactly "
        "toy.high.c, toy.low.a"
    ]


def test_a_package_with_too_many_top_level_modules_is_reported(tmp_path: Path) -> None:
    root = tmp_path / "toy"
    _write(root, {"__init__.py": '"""The toy."""\n', **{f"m{i}.py": "" for i in range(8)}})
    (problem,) = top_level(root)
    assert problem.startswith("9 modules directly in toy/ (at most 8)")


def test_ci_runs_the_contract_before_the_full_suite() -> None:
    steps = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    contract = steps.index("-p no:cacheprovider tests/project/test_architecture.py")
    full = steps.index('step "python -m pytest (the README\'s test command)"')
    assert contract < full
