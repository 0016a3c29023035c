"""`licheck schema NAME` and `licheck validate FILES...`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from licheck.library.source import LibrarySource

from licheck.cli.common import INPUT_PATH, library_option, stdin_once, terminal_width

SCHEMA_NAMES = (
    "license",
    "manifest",
    "catalog",
    "report",
    "report-1.0",  # the JSON report's deprecated shape (--json-schema 1.0), for one release
    "waivers",
    "whatif",
    "timeline",
    "policy",
    "attestations",
)


@click.command()
@click.argument("name", type=click.Choice(SCHEMA_NAMES))
def schema(name: str) -> None:
    """Print the published JSON Schema of a format (for editors and other tools).

    \b
    Example:
      licheck schema manifest > manifest.schema.json
    """
    from licheck.schemas import shipped

    click.echo(shipped(name), nl=False)


@click.command()
@click.argument("files", nargs=-1, required=True, type=INPUT_PATH, callback=stdin_once)
@click.option(
    "--kind",
    type=click.Choice(
        ["auto", "manifest", "license", "catalog", "waivers", "policy", "attestations"]
    ),
    metavar="KIND",  # the choices, listed in the help, would run over 60 columns
    default="auto",
    show_default=True,
    help="What the files are: auto, manifest, license, catalog, waivers, policy or "
    "attestations; auto tells a license (clauses), a catalog (models), a "
    "waiver file (waivers), an attestation file (attestations) and a policy (policy and "
    "clauses) from a manifest.",
)
@library_option
def validate(files: tuple[Path, ...], kind: str, licenses_dir: LibrarySource) -> None:
    """Check manifests and rule files; report every problem with file:line:column.

    Manifests, catalogs and attestation files are checked against the library `evaluate`
    reads: the built-in one with every --licenses folder (and the configuration's
    `licenses:`) layered over it.

    \b
    Example:
      licheck validate products/*.yaml licenses/*.yaml
    """
    from licheck.cli.migrate import warn_unversioned
    from licheck.text.escape import line
    from licheck.text.readable import fit
    from licheck.validation import validate_files

    warn_unversioned(files)
    for checked in validate_files(list(files), kind, licenses_dir):
        click.echo(fit(line(checked), terminal_width()))  # it may start with a file name
