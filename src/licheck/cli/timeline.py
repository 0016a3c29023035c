"""`licheck timeline MANIFEST`: the verdicts as of every day the evidence changed."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from licheck.cli.common import (
    PathParam,
    color_for,
    color_option,
    evidence_option,
    format_option,
    library_option,
    output_option,
    policy_option,
    refuse_outputs,
    terminal_width,
    write_output,
)
from licheck.cli.request import attestations_at, attestations_option

if TYPE_CHECKING:
    from licheck.library.source import LibrarySource


@click.command()
@click.argument("manifest", type=PathParam(dir_okay=False, path_type=Path))
@evidence_option
@format_option(["text", "json"], "Output format (json: licheck schema timeline).")
@output_option("the timeline")
@color_option
@policy_option
@library_option
@attestations_option
def timeline(
    manifest: Path,
    evidence: str,
    fmt: str,
    output: Path | None,
    color: str,
    licenses_dir: LibrarySource,
    attestations_file: Path | None,
) -> None:
    """What licheck would have said of MANIFEST on each day its evidence changed: a source
    dated, a retraction, a license text coming into force. Each day shows the product's
    verdict and the findings whose verdict (or the facts it hangs on) changed. Undated evidence
    counts from the start, and is listed. Exit 0, or 2 on bad input.

    \b
    Example:
      licheck timeline products/composer2.yaml
      licheck timeline products/composer2.yaml \\
        --format json -o timeline.json
    """
    from licheck.cli.migrate import warn_loaded
    from licheck.library.layers import load as load_library
    from licheck.loading.documents import load_manifest
    from licheck.portfolio.runs import evidence_policy
    from licheck.report.attestations import attested
    from licheck.report.layering import described
    from licheck.timeline import build
    from licheck.timeline.report import to_json

    inputs = (manifest, *licenses_dir.inputs, attestations_file)
    refuse_outputs([("--output", output)], inputs)
    policy = evidence_policy(evidence)
    loaded, document = load_manifest(manifest, str(manifest))
    warn_loaded(manifest, loaded, document)
    library = load_library(licenses_dir)
    # judged today: each attested fact counts from the day it was attested (its evidence's date)
    loaded = attested(loaded, document.file, attestations_at(attestations_file, None, library))
    report = build(loaded, document, library, policy)
    report = report.model_copy(update={"library": described(library)})
    if fmt == "json":
        text = to_json(report)
    else:
        from licheck.outputs.timeline_text import render

        text = render(report, width=terminal_width(), color=color_for(color, output))
    write_output(text, output, inputs)
