"""The rule library: license rule files and the model catalog, compiled for the engine.

The shipped library is part of the package: `library.json`, generated from the repository's
top-level `licenses/` by `python -m licheck.library` (a test proves it equal to the rule files),
holds the catalog and the rule files as the pydantic models checked them when it was written
(`library.prebuilt`: rebuilt with no validator and nothing checked twice), compiled by the same
code as a folder of rule files, with no YAML to read; each rule file when a product is first
under its license.  A `--licenses`
folder is read and checked afresh on every run; nothing is cached between runs.  The rule files
are installed too (`licheck/licenses`), for people to read.  `verify` checks the rules against
canonical texts: each text's SHA-256, and that every quoted clause occurs in it (white space
normalised, nothing else).
"""

from __future__ import annotations

import json
import zlib
from abc import abstractmethod
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

from licheck.core.diagnostics import Diagnostic, InputError
from licheck.engine.cells import Rule
from licheck.engine.conditions import ConditionError, compile_condition, strings_read, tests_in
from licheck.engine.tables import Compiled
from licheck.files import yamlsafe
from licheck.files.safeio import default_directory
from licheck.inputs.rules import Catalog, CatalogModel, Clause, License, model_key
from licheck.library.clausechecks import requirement_of, too_complex
from licheck.library.prebuilt import freeze, thaw
from licheck.library.reach import bind
from licheck.library.setaside import SET_ASIDE_FILE
from licheck.library.source import Origin
from licheck.loading.documents import validate
from licheck.vocabulary.factdefs import suggest_id

CATALOG_FILE = "catalog.yaml"
# The YAML files of a library folder that are not rule files: the catalog, and the texts set
# aside for `licenses coverage` (`library.setaside`).
NOT_RULE_FILES = frozenset({CATALOG_FILE, SET_ASIDE_FILE})
SHIPPED = Path(__file__).resolve().parent / "library.json"


@dataclass(frozen=True, slots=True)
class CompiledClause:
    license: License
    clause: Clause
    rule: Rule
    file: str
    line: int  # where the clause starts in its rule file
    # The rule within the license's scope, compiled once (`reach.bind`); derived from `rule`.
    bound: Compiled = field(compare=False)


@dataclass(frozen=True, slots=True)
class LicenseEntry:
    license: License
    clauses: tuple[CompiledClause, ...]
    file: str


class Licenses(Mapping[str, LicenseEntry]):
    """A library's licenses by id, and what the engine reads of each without its clauses: its
    licensor and the rule files it incorporates (the shipped library's index has both, so that
    reading them compiles nothing)."""

    @abstractmethod
    def licensor(self, license_id: str) -> str | None:
        """The license's licensor (`KeyError` for an id not in the library)."""

    @abstractmethod
    def incorporates(self, license_id: str) -> list[str]:
        """The rule files the license incorporates by reference (`KeyError` as above)."""

    def licensors(self) -> Mapping[str, str | None]:
        """Each license's licensor, by id (read-only)."""
        return MappingProxyType({license_id: self.licensor(license_id) for license_id in self})


class CompiledLicenses(Licenses):
    """Licenses all checked and compiled already: a `--licenses` folder's, or layers'."""

    def __init__(self, entries: Mapping[str, LicenseEntry]) -> None:
        self._entries = dict(entries)
        # read by every agreement fact of every component: worked out once, read-only
        self._licensors = MappingProxyType(
            {license_id: entry.license.licensor for license_id, entry in self._entries.items()}
        )

    def __getitem__(self, license_id: str) -> LicenseEntry:
        return self._entries[license_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def licensor(self, license_id: str) -> str | None:
        return self._entries[license_id].license.licensor

    def licensors(self) -> Mapping[str, str | None]:
        return self._licensors

    def incorporates(self, license_id: str) -> list[str]:
        return self._entries[license_id].license.incorporates


@dataclass(frozen=True, slots=True)
class Library:
    """The compiled rule library a run evaluates with: its licenses (`licenses`, by id), the
    catalog of models and the licenses each is under (`models`, `model(name)`), where it was
    read from (`origin`) and the organisation policies it carries (`policies`)."""

    licenses: Licenses
    models: tuple[CatalogModel, ...]
    directory: Path
    _index: dict[str, CatalogModel] = field(default_factory=dict, repr=False)
    # Each fact's string operands over every clause (what clauses read of a set fact), worked
    # out once when the library is compiled: agreements narrow waivers and grants to these.
    operands: dict[str, frozenset[str]] = field(default_factory=dict, repr=False, compare=False)
    # The layers it was read from and what they replaced (`library.layers`); None: one library.
    origin: Origin | None = field(default=None, compare=False)
    # Organisation policies (`library.orgpolicy`): rules judged for every model of a lineage.
    policies: tuple[LicenseEntry, ...] = field(default=(), compare=False)

    def model(self, name: str) -> CatalogModel | None:
        """A catalog model by id or alias, case-insensitively."""
        return self._index.get(model_key(name))

    def suggest_model(self, name: str) -> str:
        """' (did you mean …?)' for an unknown model name: never resolved to another model, each
        candidate shown with its license (`licheck.library.modelnames`)."""
        from licheck.library.modelnames import hint

        return hint(name, self.models)


def set_operands(licenses: Licenses) -> dict[str, frozenset[str]]:
    found: dict[str, set[str]] = {}
    for entry in licenses.values():
        for clause in entry.clauses:
            for node in clause.rule.nodes():
                for test in tests_in(node):
                    if strings := strings_read((test,)):  # a quantity or boolean test reads none
                        found.setdefault(test.fact, set()).update(strings)
    return {fact: frozenset(values) for fact, values in found.items()}


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
    paths = sorted(p for p in root.glob("*.yaml") if p.name not in NOT_RULE_FILES)
    entries, problems = load_each(paths, load_license_file, _defined_twice)
    licenses = CompiledLicenses({entry.license.id: entry for entry in entries})
    problems.extend(check_incorporated(licenses))
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
    return Library(licenses, models, root, index, set_operands(licenses))


def _defined_twice(entry: LicenseEntry, earlier: LicenseEntry) -> Diagnostic:
    message = f"license id {entry.license.id!r} is also defined in {earlier.file}"
    return Diagnostic(entry.file, 1, 1, message)


# -- the shipped library -------------------------------------------------------------------
# `library.json` is JSON Lines (`shipped_data`): an index (each rule file's license id, file name,
# clause lines, licensor, incorporations; what clauses read of each set fact), the catalog, one
# `License` per rule file, and a CRC-32 of the rest.  The catalog and the rule files are the
# models checked when the file was written (`library.prebuilt.freeze`), with their catalog
# checks passed then too; a run rebuilds them (`thaw`), each rule file when its license is first
# looked up, and compiles it then.  A test proves the file equal to the rule files, and the
# library read from it equal to the one checked from them.

FORMAT = "licheck-library/3"


class ShippedLicenses(Licenses):
    """The shipped library's licenses by id, each rebuilt and compiled when first looked up
    (then kept: the library is loaded once per run); licensors and incorporations from the
    index."""

    def __init__(self, index: list[dict[str, Any]], texts: list[bytes], root: Path) -> None:
        self._index = {str(i["id"]): (i, t) for i, t in zip(index, texts, strict=True)}
        self._root = root
        self._compiled: dict[str, LicenseEntry] = {}
        # read by every agreement fact of every component: worked out once from the index
        self._licensors = MappingProxyType({str(i["id"]): i["licensor"] for i in index})

    def __getitem__(self, license_id: str) -> LicenseEntry:
        entry = self._compiled.get(license_id)
        if entry is None:
            item, text = self._index[license_id]
            entry = self._compiled[license_id] = _shipped_entry(item, text, self._root)
        return entry

    def __contains__(self, license_id: object) -> bool:
        return license_id in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def licensor(self, license_id: str) -> str | None:
        licensor: str | None = self._index[license_id][0]["licensor"]
        return licensor

    def licensors(self) -> Mapping[str, str | None]:
        return self._licensors

    def incorporates(self, license_id: str) -> list[str]:
        incorporates: list[str] = self._index[license_id][0]["incorporates"]
        return incorporates

    @property
    def compiled(self) -> frozenset[str]:
        """The licenses checked and compiled so far."""
        return frozenset(self._compiled)


def _shipped_entry(item: dict[str, Any], text: bytes, root: Path) -> LicenseEntry:
    """One rule file of `library.json`, rebuilt as the `License` model checked it when the file
    was written (`library.prebuilt`), and compiled."""
    try:
        license_ = thaw(json.loads(text))
    except (ValueError, KeyError, TypeError) as exc:
        raise _damaged(f"is damaged ({exc!r})") from None
    if not isinstance(license_, License):
        raise _damaged("is damaged (a rule file that is not a license)")
    path = root / item["file"]
    positions: dict[tuple[str | int, ...], tuple[int, int]] = {
        ("clauses", index): (line, 1) for index, line in enumerate(item["lines"])
    }
    if license_.id != item["id"] or len(item["lines"]) != len(license_.clauses):
        raise _damaged(f"is damaged (its index does not match license {license_.id!r})")
    return license_entry(license_, yamlsafe.Document(str(path), None, positions), str(path))


def _load_shipped(data: bytes, root: Path) -> Library:
    """The library from `library.json`'s data (its files named as they are in `root`): the
    catalog rebuilt now, each license when it is first looked up (both checked by their models
    when the file was written)."""
    try:
        lines = _intact(data).split(b"\n")
        head = json.loads(lines[0])
        index, operands = head["licenses"], head["operands"]
        if head["format"] != FORMAT or len(lines) != len(index) + 3 or lines[-1]:
            raise ValueError("its index does not match its rule files")
        catalog = thaw(json.loads(lines[1]))
        if not isinstance(catalog, Catalog | None):
            raise TypeError("its catalog is not a catalog")
    except (ValueError, KeyError, TypeError) as exc:
        raise _damaged(f"is damaged ({exc})") from None
    licenses = ShippedLicenses(index, lines[2:-1], root)
    models: tuple[CatalogModel, ...] = ()
    found: dict[str, CatalogModel] = {}
    if catalog is not None:  # checked against the licenses when the file was written
        models = tuple(catalog.models)
        found = {model_key(name): model for model in models for name in (model.id, *model.aliases)}
    reads = {fact: frozenset(values) for fact, values in operands.items()}
    return Library(licenses, models, root, found, reads)


def _intact(data: bytes) -> bytes:
    """`library.json`'s text without its last line, a CRC-32 of the rest: a rule file is checked
    only when used, so damage anywhere must show at load."""
    body, _, last = data.rstrip(b"\n").rpartition(b"\n")
    if last != b"crc32 %d" % zlib.crc32(body + b"\n"):
        raise ValueError("it is truncated or edited: its checksum does not match")
    return body + b"\n"


def shipped_data(directory: Path) -> str:
    """The text of `library.json` for the rule files and catalog in `directory` (checked and
    compiled first: a library with problems raises `InputError`)."""
    library = _load_folder(directory)
    index = [
        {
            "id": license_id,
            "file": Path(entry.file).name,
            "lines": [compiled.line for compiled in entry.clauses],
            "licensor": entry.license.licensor,
            "incorporates": entry.license.incorporates,
        }
        for license_id, entry in library.licenses.items()
    ]
    operands = {fact: sorted(values) for fact, values in sorted(library.operands.items())}
    head = {"format": FORMAT, "licenses": index, "operands": operands}
    catalog = Catalog(models=list(library.models)) if (directory / CATALOG_FILE).exists() else None
    lines = [head, catalog and _dump(catalog)]
    lines += [_dump(entry.license) for entry in library.licenses.values()]
    body = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    return body + f"crc32 {zlib.crc32(body.encode())}\n"


def _dump(model: Catalog | License) -> dict[str, Any]:
    frozen: dict[str, Any] = freeze(model)
    return frozen


def compile_all(library: Library) -> None:
    """Check and compile every license now: a portfolio does so before forking its workers."""
    for _ in library.licenses.values():
        pass


def check_incorporated(licenses: Licenses) -> list[Diagnostic]:
    """Every incorporated rule file exists, and none incorporates itself, even indirectly."""
    problems: list[Diagnostic] = []
    for license_id, entry in sorted(licenses.items()):
        problems.extend(
            Diagnostic(
                entry.file,
                1,
                1,
                f"license {license_id!r} incorporates {named!r}, "
                f"which is not in the library{suggest_id(named, list(licenses))}",
            )
            for named in entry.license.incorporates
            if named not in licenses
        )
        try:
            incorporated(licenses, license_id)
        except ValueError as exc:
            problems.append(Diagnostic(entry.file, 1, 1, str(exc)))
    return problems


def incorporated(licenses: Licenses, license_id: str) -> list[str]:
    """The license and every rule file it incorporates by reference, transitively, in order."""
    order: list[str] = []

    def visit(current: str, trail: tuple[str, ...]) -> None:
        if current in trail:
            raise ValueError("incorporation loop: " + " -> ".join((*trail, current)))
        if current in order or current not in licenses:
            return
        order.append(current)
        for named in licenses.incorporates(current):
            visit(named, (*trail, current))

    visit(license_id, ())
    return order


def load_each(
    paths: Iterable[Path],
    load: Callable[[Path], LicenseEntry],
    clash: Callable[[LicenseEntry, LicenseEntry], Diagnostic],
) -> tuple[list[LicenseEntry], list[Diagnostic]]:
    """Each file loaded (rule or policy files), in order, one entry per id; the problems of
    every file, and `clash(entry, earlier)` for an id defined twice."""
    entries: dict[str, LicenseEntry] = {}
    problems: list[Diagnostic] = []
    for path in paths:
        try:
            entry = load(path)
        except InputError as exc:
            problems += exc.diagnostics
            continue
        earlier = entries.get(entry.license.id)
        if earlier is not None:
            problems.append(clash(entry, earlier))
        entries[entry.license.id] = entry
    return list(entries.values()), problems


def load_license_file(path: Path, display: str | None = None) -> LicenseEntry:
    """One rule file, checked and compiled."""
    document = yamlsafe.load(path, display)
    return license_entry(validate(document, License), document, str(path))


def license_entry(license_: License, document: yamlsafe.Document, file: str) -> LicenseEntry:
    """A checked rule file (`file`) compiled; problems located in its `document`."""
    compiled: list[CompiledClause] = []
    problems: list[Diagnostic] = []
    for index, clause in enumerate(license_.clauses):
        base: tuple[str | int, ...] = ("clauses", index)
        try:
            rule = Rule(
                compile_condition(clause.trigger, (*base, "trigger")),
                requirement_of(license_.id, clause, base),
                tuple(
                    compile_condition(e, (*base, "exceptions", i))
                    for i, e in enumerate(clause.exceptions)
                ),
            )
        except ConditionError as exc:
            problems.append(document.error(exc.path, str(exc), exc.hint))
            continue
        too_many = too_complex(rule)
        if too_many:
            problems.append(document.error(base, too_many, "split the clause"))
            continue
        line = document.locate(base)[0]
        compiled.append(
            CompiledClause(
                license_,
                clause,
                rule,
                file,
                line,
                bind(rule, clause.applies_to, license_.definitions),
            )
        )
    if problems:
        raise InputError(problems)
    return LicenseEntry(license_, tuple(compiled), file)


def load_catalog_file(
    path: Path, licenses: Mapping[str, LicenseEntry], display: str | None = None
) -> tuple[tuple[CatalogModel, ...], dict[str, CatalogModel]]:
    """The model catalog, checked against the licenses it names; its index by id and alias."""
    document = yamlsafe.load(path, display)
    return catalog_entries(validate(document, Catalog), document, licenses)


def catalog_entries(
    catalog: Catalog,
    document: yamlsafe.Document,
    licenses: Mapping[str, LicenseEntry],
    below: Mapping[str, CatalogModel] | None = None,
) -> tuple[tuple[CatalogModel, ...], dict[str, CatalogModel]]:
    """A checked catalog against the licenses it names; problems located in its `document`.
    Each model's kind is filled in from its family's (`Catalog.with_kinds`).  `below`: the index of
    the models a layer's catalog sits over (its upstream models may be theirs)."""
    catalog = catalog.with_kinds()
    problems: list[Diagnostic] = []
    index: dict[str, CatalogModel] = {}
    for number, model in enumerate(catalog.models):
        named = [model.license] if model.license else []
        named += [dated.license for dated in model.license_history]
        problems.extend(
            document.error(
                ("models", number, "license"),
                f"model {model.id!r} names license {license_id!r}, which is not in "
                f"the library{suggest_id(license_id, licenses)}",
                "a catalog names licenses that have a rule file (here or in a layer below); "
                "a model under a license licheck has no text of: `license: null` with a "
                "license_note, or, in a manifest, `license: ID` on the lineage entry (a "
                "'license unknown' governance risk naming it)",
            )
            for license_id in named
            if license_id not in licenses
        )
        # (a license_history range that ends before it starts is refused by the model itself)
        latest = model.license_history[-1].license if model.license_history else None
        if latest is not None and model.license not in (None, latest):
            message = (
                f"model {model.id!r}: license {model.license!r} is not the latest text of its "
                f"license_history ({latest!r}), which decides the license: it would be ignored"
            )
            problems.append(document.error(("models", number, "license"), message))
        for name in (model.id, *model.aliases):
            key = model_key(name)
            if key in index and index[key] is not model:
                problems.append(document.error(("models", number), clash(name, index[key], model)))
            index[key] = model
    problems += _upstream_problems(catalog.models, document, {**(below or {}), **index})
    if problems:
        raise InputError(problems)
    return tuple(catalog.models), index


def _upstream_problems(
    models: list[CatalogModel], document: yamlsafe.Document, index: Mapping[str, CatalogModel]
) -> list[Diagnostic]:
    """An upstream model must be a catalog id, not the model itself, and the upstream chain must
    end (a model built on itself would be judged without end)."""
    problems: list[Diagnostic] = []
    for number, model in enumerate(models):
        for position, name in enumerate(model.upstream):
            where = ("models", number, "upstream", position)
            found = index.get(model_key(name))
            if found is None or found.id != name:
                hint = f" (did you mean {found.id!r}?)" if found is not None else ""
                message = f"model {model.id!r}: upstream {name!r} is not a catalog id{hint}"
                problems.append(document.error(where, message))
            elif _upstream_cycle(found, model.id, index):
                message = f"model {model.id!r}: upstream {name!r} leads back to {model.id!r}"
                problems.append(document.error(where, message))
    return problems


def _upstream_cycle(model: CatalogModel, start: str, index: Mapping[str, CatalogModel]) -> bool:
    seen: set[str] = set()
    todo = [model]
    while todo:
        current = todo.pop()
        if current.id == start:
            return True
        if current.id in seen:
            continue
        seen.add(current.id)
        todo += [m for n in current.upstream if (m := index.get(model_key(n))) is not None]
    return False


def clash(name: str, first: CatalogModel, second: CatalogModel) -> str:
    """Why one name cannot stand for two catalog entries (the same id twice, or an alias)."""
    if first.id == second.id:
        return f"model {name!r} is listed twice in the catalog: keep one entry"
    return f"{name!r} names both {first.id!r} and {second.id!r}"
