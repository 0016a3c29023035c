"""`licheck notices MANIFEST...`: what the findings require the products to carry."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

import click

from licheck.cli.common import (
    INPUT_PATH,
    evidence_options,
    exit_unread,
    format_option,
    library_option,
    output_option,
    refuse_outputs,
    stdin_once,
    write_output,
)
from licheck.cli.request import attestations_at, attestations_option

if TYPE_CHECKING:
    from licheck.library.source import LibrarySource


@click.command()
@click.argument("manifests", nargs=-1, required=True, type=INPUT_PATH, callback=stdin_once)
@format_option(["markdown", "json"], "markdown (a checklist per component) or json.")
@output_option()
@evidence_options
@library_option
@attestations_option
def notices(
    manifests: tuple[Path, ...],
    fmt: str,
    output: Path | None,
    evidence: str,
    as_of: dt.date | None,
    licenses_dir: LibrarySource,
    attestations_file: Path | None,
) -> None:
    """List what the licenses ask the products in MANIFESTS (files, or folders searched as
    `licheck check` does) to carry: the strings to display and where, the Notice texts the
    licenses prescribe, the license copies to ship (id, source, SHA-256), name prefixes and
    other notices; a Markdown checklist per component.

    Only duties whose clause may bind are listed: "required" where it binds on the manifest's
    facts, "may be required" with the facts to settle where that depends on them.

    \b
    Example:
      licheck notices products/composer2.yaml \\
        -o NOTICES-CHECKLIST.md
    """
    from licheck.evaluation.evaluate import Options
    from licheck.files.discovery import discover
    from licheck.library.layers import load as load_library
    from licheck.outputs.notices import json_text, markdown
    from licheck.portfolio.runs import evaluate_readable, evidence_policy
    from licheck.report.layering import described
    from licheck.report.notices import product_duties

    policy = evidence_policy(evidence)
    inputs = (*manifests, *licenses_dir.inputs, attestations_file)
    refuse_outputs([("--output", output)], inputs)
    paths = discover(list(manifests))
    library = load_library(licenses_dir)
    attesting = attestations_at(attestations_file, as_of, library)
    options = Options(policy, as_of, attesting=attesting)
    results, unread = evaluate_readable(paths, options, library)
    products = [product_duties(result, library) for result in results]
    shown_as_of = as_of.isoformat() if as_of else None
    render = json_text if fmt == "json" else markdown
    text = render(products, policy.name, shown_as_of, unread, described(library))
    write_output(text, output, inputs)
    exit_unread(unread, "what those products must carry is unknown")
