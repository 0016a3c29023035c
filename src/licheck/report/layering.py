"""The report's `library` section: the layers over the built-in library, and what each replaced."""

from __future__ import annotations

from licheck.core.diagnostics import path_text
from licheck.library.compiled import Library
from licheck.report.view import LibraryOut, ReplacementOut


def described(library: Library) -> LibraryOut | None:
    """The report's `library` section: None for the built-in library alone."""
    origin = library.origin
    if origin is None or not origin.source.layered:
        return None
    return LibraryOut(
        builtin=origin.source.builtin,
        layers=[path_text(str(folder)) for folder in origin.source.folders],
        policies=[path_text(str(path)) for path in origin.source.policies],
        replaced=[
            ReplacementOut(
                kind=r.kind,
                id=r.id,
                file=path_text(r.file),
                replaced=path_text(r.replaced),
                license_before=r.licenses[0] if r.licenses else None,
                license_after=r.licenses[1] if r.licenses else None,
            )
            for r in origin.replacements
        ],
    )
