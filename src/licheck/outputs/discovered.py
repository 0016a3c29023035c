"""`licheck discover` as text or JSON.  Renders `discover.declared` data; decides nothing."""

from __future__ import annotations

from collections.abc import Sequence

from licheck._version import __version__
from licheck.core.diagnostics import Diagnostic
from licheck.discover.declared import Found
from licheck.discover.modelscan import Scan
from licheck.files.jsontext import document as json_document
from licheck.outputs.summary import layer_lines, plural
from licheck.report.view import LibraryOut
from licheck.text.escape import line as plain
from licheck.text.readable import fit_lines


def text(
    found: Sequence[Found],
    scan: Scan,
    manifests: Sequence[str],
    broken: Sequence[Diagnostic] = (),
    width: int = 100,
    library: LibraryOut | None = None,
) -> str:
    """The models found, each with where it is named and which manifest declares it; lines
    wrapped to `width`, continued four columns deeper than their own."""
    out = [f"Models named in {plural(scan.files, 'file')} read:" if found else ""]
    for model in found:
        out += ["", *_model(model, bool(broken))]
    if scan.unread:
        out += ["", "Not read (a model they name would be missed):"]
        out += [plain(f"  {u.file}: {u.why}") for u in scan.unread]
    if scan.binary:
        out += ["", f"{plural(scan.binary, 'binary file')} (images, weights, archives) not read."]
    if scan.skipped:
        out += ["", "Folders not scanned (name one to scan it):"]
        out += [plain(f"  {u.file}: {u.why}") for u in scan.skipped]
    if broken:
        out += ["", "Manifests not read (the models they declare are unknown):"]
        out += [plain(f"  {_where(d)}: {d.message}") for d in broken]
    if library is not None:  # the catalog says which model a name is, under which license
        out += ["", *map(plain, layer_lines(library))]
    undeclared = sum(1 for f in found if not f.covered_by)
    where = ", ".join(manifests) if manifests else "none found"
    out += [
        "",
        plain(
            f"{plural(len(found), 'model')} named; {undeclared} not declared by any manifest "
            f"{'read ' if broken else ''}(manifests: {where})"
        ),
    ]
    return fit_lines("\n".join(out).lstrip("\n"), width) + "\n"


def _where(diagnostic: Diagnostic) -> str:
    if diagnostic.line:
        return f"{diagnostic.file}:{diagnostic.line}:{diagnostic.column}"
    return diagnostic.file


def _model(model: Found, broken: bool = False) -> list[str]:
    if model.model is not None:
        license_ = f"license {model.license}" if model.license else "license not in the library"
        head = f"{model.id} -> {model.model_name} ({model.model}), {license_}"
    else:
        hows = sorted({m.how for m in model.mentions})
        head = (
            f"{model.id} -> not in the catalog (lower confidence: a {' / '.join(hows)}; "
            "perhaps a path)"
        )
    covered = (
        f"declared by {', '.join(model.covered_by)}"
        if model.covered_by
        else "NOT DECLARED by any manifest" + (" read (some could not be read)" if broken else "")
    )
    lines = [plain(f"  {head}"), plain(f"    {covered}")]
    lines += [
        plain(f"    {m.file}:{m.line} ({m.how}{'' if m.id == model.id else ': ' + m.id})")
        for m in model.mentions
    ]
    return lines


def json_text(
    found: Sequence[Found],
    scan: Scan,
    manifests: Sequence[str],
    broken: Sequence[Diagnostic] = (),
    library: LibraryOut | None = None,
) -> str:
    data = {
        "tool": "licheck",
        "tool_version": __version__,
        "manifests": list(manifests),
        "files_read": scan.files,
        "undeclared": sum(1 for f in found if not f.covered_by),
        "models": [
            {
                "id": f.id,
                "model": f.model,
                "model_name": f.model_name,
                "license": f.license,
                "confidence": f.confidence,
                "declared": bool(f.covered_by),
                "covered_by": list(f.covered_by),
                "mentions": [
                    {"file": m.file, "line": m.line, "how": m.how, "id": m.id} for m in f.mentions
                ],
            }
            for f in found
        ],
        "unread": [{"file": u.file, "why": u.why} for u in scan.unread],
        "binary_not_read": scan.binary,
        "skipped_folders": [{"folder": u.file, "why": u.why} for u in scan.skipped],
        "manifest_errors": [
            {"file": d.file, "line": d.line, "column": d.column, "message": d.message}
            for d in broken
        ],
    }
    if library is not None:  # as in `licheck check`'s report: only when layered
        data["library"] = library.model_dump(mode="json")
    return json_document(data) + "\n"
