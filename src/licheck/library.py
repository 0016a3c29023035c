"""The rule library: license rule files and the model catalog, compiled for the engine.

The shipped library is part of the package: `library.json`, generated from the repository's
top-level `licenses/` by `python -m licheck.library` (a test proves it equal to the rule files),
is checked by the same pydantic models and compiled by the same code as a folder of rule files,
with no YAML to read.  A folder named with `--licenses` is read and checked afresh on every run.
Nothing is cached between runs.  The rule files themselves are installed too
(`licheck/licenses`, copied when the wheel is built), for people to read.
`verify` checks the rules against a folder of canonical texts: each text's SHA-256, and that every
quoted clause occurs in it (white space normalised, nothing else).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from licheck import yamlsafe
from licheck.binding import bind
from licheck.conditions import ConditionError, Node, Test, compile_condition, tests_in
from licheck.diagnostics import Diagnostic, InputError
from licheck.engine import MAX_SET_MEMBERS, Rule
from licheck.loading import validate
from licheck.model import Catalog, CatalogModel, Clause, ClauseKind, License
from licheck.tables import Compiled
from licheck.vocabulary import FACTS, FactType, suggest

CATALOG_FILE = "catalog.yaml"
SHIPPED = Path(__file__).resolve().parent / "library.json"


@dataclass(frozen=True, slots=True)
class CompiledClause:
    license: License
    clause: Clause
    rule: Rule
    file: str
    line: int  # where the clause starts in its rule file
    # The rule within the license's scope, compiled once (`binding.bind`); derived from `rule`.
    bound: Compiled = field(compare=False)


@dataclass(frozen=True, slots=True)
class LicenseEntry:
    license: License
    clauses: tuple[CompiledClause, ...]
    file: str


@dataclass(frozen=True, slots=True)
class Library:
    licenses: dict[str, LicenseEntry]
    models: tuple[CatalogModel, ...]
    directory: Path
    _index: dict[str, CatalogModel] = field(default_factory=dict, repr=False)
    # Each fact's string operands over every clause (what clauses read of a set fact), worked
    # out once when the library is compiled: agreements narrow waivers and grants to these.
    operands: dict[str, frozenset[str]] = field(default_factory=dict, repr=False, compare=False)

    def model(self, name: str) -> CatalogModel | None:
        """A catalog model by id or alias, case-insensitively."""
        return self._index.get(_key(name))

    def suggest_model(self, name: str) -> str:
        key = _key(name)
        if any(_extends(key, known) for known in self._index):
            # A listed model's name extended (a later checkpoint, a variant) is no misspelling:
            # its license may differ, so the nearest id is not offered (audit m30).
            return ""
        return suggest(key, list(self._index))


def _operands(licenses: dict[str, LicenseEntry]) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for entry in licenses.values():
        for clause in entry.clauses:
            for node in clause.rule.nodes():
                for test in tests_in(node):
                    operand = test.operand
                    if isinstance(operand, str):
                        found.setdefault(test.fact, set()).add(operand)
                    elif isinstance(operand, frozenset):
                        found.setdefault(test.fact, set()).update(operand)
    return {fact: frozenset(values) for fact, values in found.items()}


def _key(name: str) -> str:
    return name.strip().lower()


def _extends(name: str, known: str) -> bool:
    """Whether `name` is `known` with a version or variant suffix ("-0324", ".1", "-coder"),
    not a letter run on ("glm-4.7x", a likely slip of the keyboard)."""
    return name.startswith(known) and len(name) > len(known) and not name[len(known)].isalpha()


def default_directory() -> Path:
    """The installed rule files, or the repository's `licenses/` when run from a checkout."""
    here = Path(__file__).resolve().parent
    installed = here / "licenses"
    if installed.is_dir():
        return installed
    return here.parent.parent / "licenses"


def load_library(directory: Path | None = None) -> Library:
    """The shipped library, or the rule files and catalog in `directory`, checked and compiled;
    `InputError` lists all problems.  Each call loads it anew: a caller that needs it more than
    once keeps the one it got."""
    if directory is None:
        return _load_shipped(_shipped_bytes(), default_directory())
    return _load_folder(directory)


def _shipped_bytes() -> bytes:
    try:
        return SHIPPED.read_bytes()
    except OSError as exc:
        raise _damaged(f"cannot be read ({exc.strerror or exc})") from None


def _damaged(reason: str) -> InputError:
    """A broken installation: not the user's input, but no traceback either."""
    return InputError(
        [
            Diagnostic(
                str(SHIPPED),
                0,
                0,
                f"the built-in license library {reason}",
                "reinstall licheck, or name a rule library with --licenses",
            )
        ]
    )


def _load_folder(root: Path) -> Library:
    """The library from the YAML files in `root`."""
    if not root.is_dir():
        raise InputError([Diagnostic(str(root), 0, 0, "the license library folder is missing")])
    problems: list[Diagnostic] = []
    licenses: dict[str, LicenseEntry] = {}
    for path in sorted(p for p in root.glob("*.yaml") if p.name != CATALOG_FILE):
        try:
            entry = load_license_file(path)
        except InputError as exc:
            problems.extend(exc.diagnostics)
            continue
        _add(licenses, entry, problems)
    problems.extend(_check_incorporated(licenses))
    models: tuple[CatalogModel, ...] = ()
    index: dict[str, CatalogModel] = {}
    catalog_path = root / CATALOG_FILE
    if catalog_path.exists():
        try:
            models, index = load_catalog_file(catalog_path, licenses)
        except InputError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise InputError(problems)
    return Library(licenses, models, root, index, _operands(licenses))


def _add(
    licenses: dict[str, LicenseEntry], entry: LicenseEntry, problems: list[Diagnostic]
) -> None:
    if entry.license.id in licenses:
        problems.append(
            Diagnostic(
                entry.file,
                1,
                1,
                f"license id {entry.license.id!r} is "
                f"also defined in {licenses[entry.license.id].file}",
            )
        )
    licenses[entry.license.id] = entry


# -- the shipped library -------------------------------------------------------------------


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class ShippedLicense(_Frozen):
    """One rule file as shipped: its name in the library folder, the line where each clause
    starts (all that the compiled library keeps of positions), and its checked content."""

    file: str
    lines: list[int]
    license: License


class Shipped(_Frozen):
    """The shipped library (`library.json`): every rule file, in file-name order, and the
    catalog."""

    licenses: list[ShippedLicense]
    catalog: Catalog | None


def _load_shipped(data: bytes, root: Path) -> Library:
    """The library from `library.json`'s data, checked by the models and compiled as a folder
    is; its files named as they are in `root`."""
    try:
        shipped = Shipped.model_validate_json(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]["msg"]
        raise _damaged(f"is damaged ({exc.error_count()} problem(s); the first: {first})") from None
    problems: list[Diagnostic] = []
    licenses: dict[str, LicenseEntry] = {}
    for item in shipped.licenses:
        path = root / item.file
        positions: dict[tuple[str | int, ...], tuple[int, int]] = {
            ("clauses", index): (line, 1) for index, line in enumerate(item.lines)
        }
        document = yamlsafe.Document(str(path), None, positions)
        try:
            entry = _license_entry(item.license, document, str(path))
        except InputError as exc:
            problems.extend(exc.diagnostics)
            continue
        _add(licenses, entry, problems)
    problems.extend(_check_incorporated(licenses))
    models: tuple[CatalogModel, ...] = ()
    index: dict[str, CatalogModel] = {}
    if shipped.catalog is not None:
        document = yamlsafe.Document(str(root / CATALOG_FILE), None, {})
        try:
            models, index = _catalog_entries(shipped.catalog, document, licenses)
        except InputError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise InputError(problems)
    return Library(licenses, models, root, index, _operands(licenses))


def shipped_data(directory: Path) -> str:
    """The JSON of `library.json` for the rule files and catalog in `directory` (checked and
    compiled first: a library with problems raises `InputError`)."""
    library = _load_folder(directory)
    shipped = Shipped(
        licenses=[
            ShippedLicense(
                file=Path(entry.file).name,
                lines=[compiled.line for compiled in entry.clauses],
                license=entry.license,
            )
            for entry in library.licenses.values()
        ],
        catalog=(
            Catalog(models=list(library.models)) if (directory / CATALOG_FILE).exists() else None
        ),
    )
    return shipped.model_dump_json(by_alias=True, exclude_unset=True, indent=1) + "\n"


def _check_incorporated(licenses: dict[str, LicenseEntry]) -> list[Diagnostic]:
    """Every incorporated rule file exists, and none incorporates itself, even indirectly."""
    problems: list[Diagnostic] = []
    for license_id, entry in sorted(licenses.items()):
        problems.extend(
            Diagnostic(
                entry.file,
                1,
                1,
                f"license {license_id!r} incorporates {named!r}, "
                f"which is not in the library{suggest(named, list(licenses))}",
            )
            for named in entry.license.incorporates
            if named not in licenses
        )
        try:
            incorporated(licenses, license_id)
        except ValueError as exc:
            problems.append(Diagnostic(entry.file, 1, 1, str(exc)))
    return problems


def incorporated(licenses: dict[str, LicenseEntry], license_id: str) -> list[str]:
    """The license and every rule file it incorporates by reference, transitively, in order."""
    order: list[str] = []

    def visit(current: str, trail: tuple[str, ...]) -> None:
        if current in trail:
            raise ValueError("incorporation loop: " + " -> ".join((*trail, current)))
        if current in order or current not in licenses:
            return
        order.append(current)
        for named in licenses[current].license.incorporates:
            visit(named, (*trail, current))

    visit(license_id, ())
    return order


def load_license_file(path: Path, display: str | None = None) -> LicenseEntry:
    """One rule file, checked and compiled."""
    document = yamlsafe.load(path, display)
    return _license_entry(validate(document, License), document, str(path))


def _license_entry(license_: License, document: yamlsafe.Document, file: str) -> LicenseEntry:
    """A checked rule file (`file`) compiled; problems located in its `document`."""
    compiled: list[CompiledClause] = []
    problems: list[Diagnostic] = []
    for index, clause in enumerate(license_.clauses):
        base: tuple[str | int, ...] = ("clauses", index)
        try:
            rule = Rule(
                compile_condition(clause.trigger, (*base, "trigger")),
                _requirement(license_.id, clause, base),
                tuple(
                    compile_condition(e, (*base, "exceptions", i))
                    for i, e in enumerate(clause.exceptions)
                ),
            )
        except ConditionError as exc:
            problems.append(document.error(exc.path, str(exc), exc.hint))
            continue
        too_many = _too_complex(rule)
        if too_many:
            problems.append(document.error(base, too_many, "split the clause"))
            continue
        line = document.locate(base)[0]
        compiled.append(
            CompiledClause(license_, clause, rule, file, line, bind(rule, clause.applies_to))
        )
    if problems:
        raise InputError(problems)
    return LicenseEntry(license_, tuple(compiled), file)


def _requirement(license_id: str, clause: Clause, base: tuple[str | int, ...]) -> Node:
    """A clause's requirement; a gate's is the licensor's grant unless it says otherwise.

    A gate withdraws every right once crossed, and only the licensor can restore them, so its
    requirement must test `license_granted`: that keeps gates apart from obligations (which a
    display or a notice satisfies)."""
    path = (*base, "requirement")
    if clause.requirement is None:
        if clause.kind is not ClauseKind.GATE:
            raise ConditionError(
                f"clause {clause.id!r} is {clause.kind.value}: it needs a "
                "requirement (only a gate defaults to the licensor's grant)",
                base,
            )
        return Test("license_granted", "contains", license_id)
    node = compile_condition(clause.requirement, path)
    if clause.kind is ClauseKind.GATE and "license_granted" not in {t.fact for t in tests_in(node)}:
        raise ConditionError(
            f"gate {clause.id!r}: its requirement must test license_granted "
            "(only the licensor's grant restores the rights a gate withdraws)",
            path,
        )
    return node


# Each clause is judged by enumerating every combination of its facts' cells: keep that finite in
# practice too (real clauses have a few hundred; a hostile or generated rule file could ask for
# billions and hang the run).
MAX_COMPLETIONS = 50_000


def _too_complex(rule: Rule) -> str:
    """Why the engine could not enumerate this clause's completions quickly, or ''."""
    tests: dict[str, list[Test]] = {}
    for test in rule.tests():
        tests.setdefault(test.fact, []).append(test)
    total = 1
    for fact, on_fact in sorted(tests.items()):
        strings: set[str] = set()
        for test in on_fact:
            operand = test.operand
            if isinstance(operand, frozenset):
                strings |= operand
            elif isinstance(operand, str):
                strings.add(operand)
        kind = FACTS[fact].type
        if kind is FactType.SET and len(strings) > MAX_SET_MEMBERS:
            return (
                f"the clause tests {len(strings)} strings of the set fact {fact}; the limit "
                f"is {MAX_SET_MEMBERS}"
            )
        total *= {
            FactType.QUANTITY: 2 * len({t.operand for t in on_fact}) + 1,
            FactType.BOOLEAN: 2,
            FactType.STRING: 2 * len(strings) + 1,
            FactType.SET: 2 ** len(strings),
        }[kind]
    if total > MAX_COMPLETIONS:
        return (
            f"the clause has too many combinations of facts to judge exactly (about "
            f"{total:,}; the limit is {MAX_COMPLETIONS:,})"
        )
    return ""


def load_catalog_file(
    path: Path, licenses: dict[str, LicenseEntry], display: str | None = None
) -> tuple[tuple[CatalogModel, ...], dict[str, CatalogModel]]:
    """The model catalog, checked against the licenses it names; its index by id and alias."""
    document = yamlsafe.load(path, display)
    return _catalog_entries(validate(document, Catalog), document, licenses)


def _catalog_entries(
    catalog: Catalog,
    document: yamlsafe.Document,
    licenses: dict[str, LicenseEntry],
) -> tuple[tuple[CatalogModel, ...], dict[str, CatalogModel]]:
    """A checked catalog against the licenses it names; problems located in its `document`."""
    problems: list[Diagnostic] = []
    index: dict[str, CatalogModel] = {}
    for number, model in enumerate(catalog.models):
        named = [model.license] if model.license else []
        named += [dated.license for dated in model.license_history]
        problems.extend(
            document.error(
                ("models", number, "license"),
                f"model {model.id!r} names license {license_id!r}, which is not in "
                f"the library{suggest(license_id, licenses)}",
            )
            for license_id in named
            if license_id not in licenses
        )
        # (a license_history range that ends before it starts is refused by the model itself)
        for name in (model.id, *model.aliases):
            key = _key(name)
            if key in index and index[key] is not model:
                problems.append(
                    document.error(
                        ("models", number),
                        f"{name!r} names both {index[key].id!r} and {model.id!r}",
                    )
                )
            index[key] = model
    if problems:
        raise InputError(problems)
    return tuple(catalog.models), index


if __name__ == "__main__":  # python -m licheck.library: regenerate the shipped library
    SHIPPED.write_text(shipped_data(default_directory()), encoding="utf-8")
