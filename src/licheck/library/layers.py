"""A layered rule library: the built-in library, then each folder the user names, in order.

A layer folder holds rule files and/or a `catalog.yaml`, as the built-in library does, but need
not be complete: a layer with only a catalog adds models under licenses of the layers below it
(`license: mit`).  An entry whose id is already present replaces the earlier one, and the
replacement is recorded on the library (`Library.origin`), so that the report says so.  Every
layer is read and checked afresh on each run, like any input the user names.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import yaml

from licheck.core.diagnostics import Diagnostic, InputError, LicheckError, path_text
from licheck.files import yamlsafe
from licheck.files.safeio import default_directory
from licheck.inputs.rules import Catalog, CatalogModel, model_key
from licheck.library.compiled import (
    CATALOG_FILE,
    NOT_RULE_FILES,
    CompiledLicenses,
    Library,
    LicenseEntry,
    catalog_entries,
    check_incorporated,
    clash,
    load_each,
    load_library,
    load_license_file,
    set_operands,
)
from licheck.library.source import LibrarySource, Origin, Replacement
from licheck.loading.documents import validate


def load(source: LibrarySource | Path | None = None) -> Library:
    """The library `source` names, every layer checked and compiled; `InputError` lists the
    problems of a layer.  A bare folder is read alone (the library it holds replaces the
    built-in one), as before layers existed; None is the built-in library."""
    if source is None or isinstance(source, Path):
        return load_library(source)
    if not source.layered:
        return load_library()
    if not source.builtin and not source.folders:
        raise LicheckError("--no-builtin-licenses needs at least one --licenses DIR")
    overlays = source.folders if source.builtin else source.folders[1:]
    if unread := [
        problem
        for folder in source.folders
        for problem in [*_unread_files(folder), *_rule_files_below(folder, source.folders)]
    ]:
        raise InputError(unread)
    if not source.builtin:
        _refuse_empty(source.folders[0])
    library = load_library(None if source.builtin else source.folders[0])
    replacements: list[Replacement] = []
    model_files = dict.fromkeys((model_key(m.id) for m in library.models), _catalog_file(library))
    for folder in overlays:
        library, replaced = overlay(library, folder, model_files)
        replacements += replaced
    if source.builtin:  # name the built-in files by name, not by where they are installed
        builtin = default_directory()
        replacements = [
            dataclasses.replace(r, replaced=_builtin_name(r.replaced, builtin))
            for r in replacements
        ]
    policies: tuple[LicenseEntry, ...] = ()
    if source.policies:  # the policy module only when a policy is named: not on a plain run
        from licheck.library.orgpolicy import load_policies

        policies = load_policies(source.policies, library)
    origin = Origin(source, tuple(replacements))
    return dataclasses.replace(library, origin=origin, policies=policies)


def _refuse_empty(folder: Path) -> None:
    """A missing folder, or one with nothing licheck reads, is a mistake (a mistyped path,
    files named .yml), not an empty layer."""
    if not folder.is_dir():
        raise InputError([Diagnostic(str(folder), 0, 0, "the license library folder is missing")])
    if not any(folder.glob("*.yaml")):
        raise InputError(
            [
                Diagnostic(
                    str(folder),
                    0,
                    0,
                    "the license library layer holds no rule file (*.yaml) and no catalog.yaml",
                    "name the folder that holds them (licheck reads *.yaml files only)",
                )
            ]
        )


def _unread_files(folder: Path) -> list[Diagnostic]:
    """What a layer holds that looks like a rule file or a catalog but would not be read (a
    `.yml` file, a `catalog.yaml` that is a folder or a link to nothing): skipping it would
    drop its licenses and models in silence."""
    if not folder.is_dir() or not any(folder.glob("*.yaml")):
        return []  # a missing or empty layer: said where the folder is read
    problems = [
        Diagnostic(
            str(path),
            0,
            0,
            f"licheck reads rule files and the catalog from *.yaml files only: {path.name} "
            "would not be read",
            f"rename it to {path.stem}.yaml",
        )
        for path in sorted(folder.iterdir())
        if path.suffix.lower() in (".yml", ".yaml") and path.suffix != ".yaml"
    ]
    catalog = folder / CATALOG_FILE
    if (catalog.is_symlink() or catalog.exists()) and not catalog.is_file():
        message = f"{CATALOG_FILE} is not a file (a folder, or a link to nothing)"
        problems.append(Diagnostic(str(catalog), 0, 0, message))
    return problems


def _rule_files_below(folder: Path, layers: tuple[Path, ...]) -> list[Diagnostic]:
    """A rule file or a catalog in a subfolder of a layer, which the layer does not read: each
    refused at its `id` or `models` key, never dropped in silence.  Other YAML there (scenario
    tests, policies: no top-level `id` or `models`) is left alone; one that YAML cannot read is
    refused too, for it may be a rule file.  A subfolder that is itself one of the `layers` is
    read as one, and so not refused."""
    from licheck.files.toplevel import TopLevel

    if not folder.is_dir():
        return []  # a missing layer: said where the folder is read
    files, problems = _yaml_below(folder, {_identity(layer) for layer in layers})
    hint = (
        "a layer reads the *.yaml files directly in its folder: move the file up, or name its "
        "folder as a layer of its own (--licenses FOLDER)"
    )
    shown = path_text(str(folder))
    for path in files:
        try:
            for key in TopLevel(yamlsafe.read_text(path, str(path))):
                if key.text in ("id", "models"):
                    what = "catalog" if key.text == "models" else "rule file"
                    message = f"a {what} in a subfolder of the layer {shown} is not read"
                    problems.append(Diagnostic(str(path), key.line, key.column, message, hint))
                    break
        except InputError as exc:  # unreadable, too large, not UTF-8: it may be a rule file
            if not exc.diagnostics[0].message.startswith("the file is empty"):  # (holds none)
                problems += exc.diagnostics
        except yaml.YAMLError:
            message = (
                "not valid YAML, in a subfolder of the layer "
                f"{shown}: it may be a rule file, which would not be read"
            )
            problems.append(Diagnostic(str(path), 0, 0, message, hint))
    return problems


def _yaml_below(folder: Path, layers: set[object]) -> tuple[list[Path], list[Diagnostic]]:
    """The YAML files (any case of .yaml/.yml) in the subfolders of `folder`, at any depth, in
    name order, and the subfolders that cannot be listed; hidden folders and files are left
    out, symlinked folders followed once, and a subfolder that is one of the `layers` (as
    `_identity` gives them) is not searched."""
    from licheck.files.discovery import has_yaml_name

    found: list[Path] = []
    problems: list[Diagnostic] = []
    seen: set[object] = set()
    pending = [folder]
    while pending:
        current = pending.pop()
        key = _identity(current)
        if key in seen or (current != folder and key in layers):
            continue
        seen.add(key)
        try:
            entries = sorted(current.iterdir())
        except OSError as exc:
            why = f"cannot read the folder: {exc.strerror or exc} (it may hold rule files)"
            problems.append(Diagnostic(str(current), 0, 0, why))
            continue
        if current != folder:
            found += [
                p for p in entries if has_yaml_name(p.name) and not p.name.startswith(".")
                and p.is_file()
            ]  # fmt: skip
        pending += reversed([p for p in entries if not p.name.startswith(".") and p.is_dir()])
    return found, problems


def _identity(path: Path) -> object:
    try:
        info = path.stat()
    except OSError:
        return path.resolve()
    return (info.st_dev, info.st_ino)


def _builtin_name(file: str, builtin: Path) -> str:
    path = Path(file)
    return f"built-in {path.name}" if path.parent == builtin else file


def source_of(library: Library) -> LibrarySource:
    """The source to load `library` again from (a worker process that does not inherit it)."""
    if library.origin is not None:
        return library.origin.source
    return LibrarySource((library.directory,), builtin=False)


def overlay(
    library: Library, folder: Path, model_files: dict[str, str]
) -> tuple[Library, list[Replacement]]:
    """`library` with the rule files and catalog of `folder` layered over it; `model_files`
    (each model's catalog file, by id) is brought up to date."""
    _refuse_empty(folder)
    problems: list[Diagnostic] = []
    entries = dict(library.licenses)
    replaced: list[Replacement] = []
    for entry in _layer_licenses(folder, problems):
        below = entries.get(entry.license.id)
        if below is not None:
            replaced.append(Replacement("license", entry.license.id, entry.file, below.file))
        entries[entry.license.id] = entry
    licenses = CompiledLicenses(entries)  # a replaced license's licensor is the layer's
    problems += check_incorporated(licenses) if not problems else []
    models: tuple[CatalogModel, ...] = library.models
    index = dict(_index_of(library))
    catalog = folder / CATALOG_FILE
    if not problems and catalog.exists():
        try:
            models, index, found = _layer_catalog(catalog, licenses, library, model_files)
            replaced += found
        except InputError as exc:
            problems += exc.diagnostics
    if problems:
        raise InputError(problems)
    return Library(licenses, models, library.directory, index, set_operands(licenses)), replaced


def _layer_licenses(folder: Path, problems: list[Diagnostic]) -> list[LicenseEntry]:
    """The layer's rule files, checked and compiled; two with one id are a problem."""
    files = sorted(p for p in folder.glob("*.yaml") if p.name not in NOT_RULE_FILES)
    entries, found = load_each(files, load_license_file, _same_license)
    problems += found
    return entries


def _same_license(entry: LicenseEntry, earlier: LicenseEntry) -> Diagnostic:
    message = f"license id {entry.license.id!r} is also defined in {earlier.file}"
    return Diagnostic(entry.file, 1, 1, message)


def _index_of(library: Library) -> dict[str, CatalogModel]:
    index: dict[str, CatalogModel] = {}
    for model in library.models:
        for name in (model.id, *model.aliases):
            index[model_key(name)] = model
    return index


def _layer_catalog(
    path: Path, licenses: CompiledLicenses, below: Library, model_files: dict[str, str]
) -> tuple[tuple[CatalogModel, ...], dict[str, CatalogModel], list[Replacement]]:
    """The models of `below` with the layer's catalog over them: a model with an id already
    present replaces it (its aliases with it); a new id or alias that names another model of the
    library is a located problem."""
    document = yamlsafe.load(path)
    layer, _ = catalog_entries(validate(document, Catalog), document, licenses, _index_of(below))
    by_id = {model_key(model.id): model for model in below.models}
    replaced = [
        Replacement(
            "model",
            model.id,
            str(path),
            model_files.get(model_key(model.id), ""),
            _license_change(by_id[model_key(model.id)], model),
        )
        for model in layer
        if model_key(model.id) in by_id
    ]
    for model in layer:
        by_id[model_key(model.id)] = model  # in place when it replaces one, else appended
        model_files[model_key(model.id)] = str(path)
    models = tuple(by_id.values())
    index: dict[str, CatalogModel] = {}
    problems: list[Diagnostic] = []
    numbers = {model_key(model.id): number for number, model in enumerate(layer)}
    for model in models:
        for name in (model.id, *model.aliases):
            other = index.get(model_key(name))
            if other is not None and other is not model:
                number = numbers.get(model_key(model.id), numbers.get(model_key(other.id), 0))
                problems.append(
                    document.error(
                        ("models", number),
                        clash(name, other, model),
                        "give the layer's model another alias, or the id of the model it replaces",
                    )
                )
            index[model_key(name)] = model
    if problems:
        raise InputError(problems)
    return models, index, replaced


def _license_change(before: CatalogModel, after: CatalogModel) -> tuple[str, str] | None:
    """The licenses a replaced model was and is under (its dated texts too), when they differ."""

    def licenses(model: CatalogModel) -> str:
        dated = [entry.license or "" for entry in model.license_history]
        return ", ".join(dict.fromkeys([*dated, model.license or ""]))

    was, now = licenses(before), licenses(after)
    return None if was == now else (was, now)


def _catalog_file(library: Library) -> str:
    return str(library.directory / CATALOG_FILE)


def replacement_notes(library: Library, kind: str, ids: list[str]) -> list[str]:
    """A note for each of `ids` (of `kind`: license or model) that a layer replaced, for a
    command that shows entries of the library (`licenses show`)."""
    replaced = library.origin.replacements if library.origin is not None else ()
    return [
        f"licheck: note: {r.kind} {r.id} comes from {r.file}, which replaces {r.replaced}"
        for r in replaced
        if r.kind == kind and r.id in ids
    ]
