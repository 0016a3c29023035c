"""`licheck validate`: check manifests and rule files for shape and meaning, all at once."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path

from licheck.core.diagnostics import Diagnostic, InputError
from licheck.evaluation.evaluate import Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files import yamlsafe
from licheck.files.safeio import STDIN, STDIN_NAME
from licheck.inputs.manifest import Manifest
from licheck.library import setaside
from licheck.library.compiled import Library, load_catalog_file, load_license_file
from licheck.library.source import LibrarySource
from licheck.loading.documents import fact_problems, validate

_STDIN_KIND = "standard input holds a {} file: `-` is for a manifest; name the file to validate it"


def detect_kind(data: object) -> str:
    if isinstance(data, dict) and "policy" in data and "clauses" in data:
        return "policy"
    if isinstance(data, dict) and "clauses" in data:
        return "license"
    if isinstance(data, dict) and "models" in data and "components" not in data:
        return "catalog"
    if isinstance(data, dict) and "waivers" in data and "components" not in data:
        return "waivers"
    if isinstance(data, dict) and "attestations" in data and "components" not in data:
        return "attestations"
    if isinstance(data, dict) and set(data) == {"texts"}:
        return "set-aside"
    return "manifest"


def validate_files(
    paths: Sequence[Path], kind: str = "auto", source: LibrarySource | None = None
) -> list[str]:
    """One 'ok' line per valid file; `InputError` with every problem of every file otherwise.
    `source`: the library manifests are checked against (as `evaluate` reads it), the built-in
    one when None."""
    problems: list[Diagnostic] = []
    lines: list[str] = []
    library = None

    def load_library() -> Library:
        from licheck.library.layers import load

        return load(source)

    for path in paths:
        shown = STDIN_NAME if path == STDIN else str(path)
        try:
            document = yamlsafe.load(path, shown)
            file_kind = detect_kind(document.data) if kind == "auto" else kind
            if path == STDIN and file_kind != "manifest":  # its loader reads the file again
                raise InputError([Diagnostic(shown, 0, 0, _STDIN_KIND.format(file_kind))])
            if _checked_alone(path, shown, file_kind):
                pass
            elif file_kind == "attestations":
                from licheck.report import attestations

                library = library or load_library()
                attestations.attesting(attestations.load(path, shown), dt.date.today(), library)
            elif file_kind == "catalog":
                library = library or load_library()
                load_catalog_file(path, library.licenses, shown)
            else:
                try:
                    manifest = validate(document, Manifest)
                except InputError as exc:
                    raise InputError([*exc.diagnostics, *fact_problems(document)]) from None
                library = library or load_library()
                evaluate_manifest(manifest, document, library, Options(POLICIES["default"]))
            lines.append(f"ok: {shown} ({file_kind})")
        except InputError as exc:
            problems.extend(exc.diagnostics)
    if problems:
        raise InputError(problems)
    return lines


def _checked_alone(path: Path, shown: str, file_kind: str) -> bool:
    """Check a file that needs no library (a rule file, a policy, waivers, a set-aside list);
    False for the other kinds."""
    if file_kind == "license":
        load_license_file(path, shown)
    elif file_kind == "policy":
        from licheck.library.orgpolicy import load_policy

        load_policy(path)
    elif file_kind == "waivers":
        from licheck.report import waivers

        waivers.load(path, shown)
    elif file_kind == "set-aside":
        setaside.load_file(path, shown)
    else:
        return False
    return True
