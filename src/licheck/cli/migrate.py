"""`licheck migrate FILE...`: a manifest written before `format:` rewritten as format 2; and the
warning every command that reads manifests prints for such a file (`warn_unversioned`)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import click

from licheck.cli.common import INPUT_PATH, quiet, say

if TYPE_CHECKING:
    from licheck.files.yamlsafe import Document
    from licheck.inputs.manifest import Manifest


@click.command()
@click.argument("files", nargs=-1, required=True, type=INPUT_PATH)
@click.option("--dry-run", is_flag=True, help="Print the diff of each rewrite and write nothing.")
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Print the diff and write nothing; exit 1 if some file is not yet format 2.",
)
def migrate(files: tuple[Path, ...], dry_run: bool, check_only: bool) -> None:
    """Rewrite manifests written without `format:` as format 2: `format: 2` at the top,
    `agreement: []` as `agreements: none`, and a `# licheck migrate:` comment above each
    construct whose reading changed (distillation parents, training on outputs, yearly
    revenue, new duties, owners, ...). Comments, key order and every other line stay as
    written. Exit 0; 1 with --check when a file would change; 2 on bad input.

    \b
    Example:
      licheck migrate --dry-run products/*.yaml
      licheck migrate products/chat.yaml
    """
    from licheck.core.diagnostics import InputError

    problems = []
    pending = False
    for path in files:
        try:
            changed = _migrate_one(path, write=not (dry_run or check_only))
        except InputError as exc:
            problems.extend(exc.diagnostics)
            continue
        pending = pending or changed
    if problems:
        raise InputError(problems)
    if check_only and pending:
        raise click.exceptions.Exit(1)


def _migrate_one(path: Path, *, write: bool) -> bool:
    """Migrate one file (or show its diff); whether it is not yet format 2."""
    import difflib

    from licheck.files.safeio import write_atomic
    from licheck.files.yamlsafe import read_text
    from licheck.loading import migration
    from licheck.loading.documents import load_manifest

    shown = str(path)
    manifest, document = load_manifest(path, shown)
    if migration.has_format(document):
        click.echo(f"{shown}: already format {manifest.format}")
        return False
    text = read_text(path, shown)
    new = migration.migrated(text, manifest, document)
    diff = difflib.unified_diff(
        text.splitlines(keepends=True),
        new.splitlines(keepends=True),
        fromfile=shown,
        tofile=f"{shown} (format 2)",
    )
    if not write:
        click.echo("".join(diff), nl=False)
        return True
    write_atomic(path, lambda put: put(new))
    click.echo(
        f"{shown}: migrated to format 2 ({len(migration.changes(manifest, document))} "
        "changed readings noted)"
    )
    return True


def warn_loaded(path: Path, manifest: Manifest, document: Document) -> None:
    """The warning for one manifest already loaded (`whatif`, `timeline`), unless `-q`."""
    from licheck.loading import migration

    if not quiet() and not migration.has_format(document):
        say(migration.warning(str(path), migration.changes(manifest, document)))


def warn_unversioned(paths: Iterable[Path]) -> None:
    """For each manifest among `paths` written without `format:`, once per file, the warning
    naming the readings that changed for it (stderr; `-q` leaves it out, and no report on
    standard output carries it).  A file that cannot be read is skipped: the command that reads
    it reports that."""
    if quiet():
        return
    from licheck.core.diagnostics import LicheckError
    from licheck.files.safeio import STDIN
    from licheck.files.yamlsafe import read_text
    from licheck.loading import migration
    from licheck.loading.documents import load_manifest

    seen: set[Path] = set()
    for path in paths:
        if path == STDIN or not path.is_file():
            continue
        real = path.resolve()
        if real in seen:
            continue
        seen.add(real)
        try:
            if not migration.may_lack_format(read_text(path, str(path))):
                continue
            manifest, document = load_manifest(path, str(path))
        except LicheckError:
            continue  # reported by the command itself
        if not migration.has_format(document):
            say(migration.warning(str(path), migration.changes(manifest, document)))
