"""`licheck discover PATH...`: the models a code base names, and which no manifest declares."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from licheck.cli.common import (
    INPUT_PATH,
    exit_unread,
    format_option,
    library_option,
    output_option,
    refuse_outputs,
    say,
    terminal_width,
    write_output,
)
from licheck.core.diagnostics import path_text
from licheck.files.safeio import refuse_existing_inside

if TYPE_CHECKING:
    from licheck.core.diagnostics import Diagnostic
    from licheck.library.source import LibrarySource


@click.command()
@click.argument("paths", nargs=-1, required=True, type=INPUT_PATH)
@click.option(
    "--manifests",
    "manifest_paths",
    multiple=True,
    type=INPUT_PATH,
    metavar="PATH",
    help="The product manifests (files or folders; repeatable) that declare the models "
    "(default: the manifests found in PATHS, as `licheck check` finds them).",
)
@click.option(
    "--fail-on-undeclared",
    is_flag=True,
    help="Exit 1 when a model named (lower-confidence ones included) is declared by no "
    "manifest, or when a file that should be read was not (it may name one).",
)
@format_option(["text", "json"], "Output format.")
@output_option()
@library_option
def discover(
    paths: tuple[Path, ...],
    manifest_paths: tuple[Path, ...],
    fail_on_undeclared: bool,
    fmt: str,
    output: Path | None,
    licenses_dir: LibrarySource,
) -> None:
    """List the model ids a code base or its configuration names, and which of them no
    product manifest declares.

    Scans code, configuration, notebooks, Dockerfiles, .env files, CycloneDX BOMs and
    Hugging Face model cards (base_model) under PATHS, skipping .git, virtual environments,
    node_modules and files over 2 MiB (listed as not read).  A Hugging Face id the catalog
    lists is reported with its model and license; an uncatalogued org/name given to a
    model-loading call or a model key is reported with lower confidence.

    \b
    Example:
      licheck discover . --fail-on-undeclared
      licheck discover src/ --manifests products/ -f json
    """
    from licheck.discover.declared import found_models, read_declarations
    from licheck.discover.modelscan import scan
    from licheck.library.layers import load as load_library
    from licheck.outputs.discovered import json_text, text
    from licheck.report.layering import described

    refuse_outputs([("--output", output)], (*paths, *manifest_paths, *licenses_dir.inputs))
    refuse_existing_inside("--output", output, paths)  # a source file there is an input
    library = load_library(licenses_dir)
    manifests, unsearched = _manifests(paths, manifest_paths)
    # a broken manifest, or a folder that could not be searched for manifests, does not hide
    # the list (as `check` goes on): it is listed, and exit 2
    declared, broken = read_declarations(manifests, library)
    broken = [*unsearched, *broken]
    skip = frozenset(path.resolve() for path in manifests)
    scanned = scan(list(paths), library, skip)
    found = found_models(scanned.mentions, declared, library)
    named = [path_text(str(m)) for m in manifests]
    layers = described(library)
    if fmt == "json":
        write_output(json_text(found, scanned, named, broken, layers), output, paths)
    else:
        width = terminal_width()
        write_output(text(found, scanned, named, broken, width, layers), output, paths)
    if scanned.unread:
        say(f"licheck: warning: {len(scanned.unread)} file(s) not read")
    exit_unread(
        broken,
        "the models they declare are unknown, so a model listed as not declared may be "
        "declared there",
    )
    if fail_on_undeclared and any(not f.covered_by for f in found):
        raise click.exceptions.Exit(1)
    if fail_on_undeclared and scanned.unread:  # a model named there is not known declared
        click.echo(
            "licheck: --fail-on-undeclared fails: files not read may name a model no manifest "
            "declares (name narrower PATHS to leave data out, or make them readable)",
            err=True,
        )
        raise click.exceptions.Exit(1)


def _manifests(
    paths: tuple[Path, ...], given: tuple[Path, ...]
) -> tuple[list[Path], list[Diagnostic]]:
    """--manifests (which must hold one, or say why it could not be searched), else the
    manifests in PATHS' folders and the YAML files of PATHS that are manifests (perhaps none):
    a source file named is no manifest.  Also what could not be searched for manifests."""
    from licheck.files.discovery import has_yaml_name, is_manifest, no_manifests, search

    if given:
        found, problems = search(given)
        if not found and not problems:
            raise no_manifests(given)
        return found, problems
    files = [p for p in paths if p.is_file() and has_yaml_name(p.name) and is_manifest(p)]
    folders = [p for p in paths if p.is_dir()]
    found, problems = search(folders)
    unique: dict[Path, Path] = {}  # each manifest once, named and found alike
    for path in [*files, *found]:
        unique.setdefault(path.resolve(), path)
    return list(unique.values()), problems
