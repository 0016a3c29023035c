"""`licheck import cyclonedx|hf FILE`: manifest skeletons from what users already have."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from licheck.cli.common import (
    PathParam,
    library_option,
    output_option,
    refuse_outputs,
    write_output,
)
from licheck.core.diagnostics import path_text

if TYPE_CHECKING:
    from licheck.library.source import LibrarySource

OUTPUT = output_option("the manifest")


@click.group(name="import")
def import_() -> None:
    """Write a manifest skeleton from a CycloneDX ML-BOM or a Hugging Face model card.

    The skeleton states only what the source says and marks everything else unknown; a model
    is named only when the source identifies it and the catalog lists it, and no license is
    ever inferred from a model's name.  Review it, then run `licheck validate`.

    \b
    Example:
      licheck import cyclonedx bom.json \\
        -o products/my-product.yaml
      licheck import hf README.md --model-id acme/acme-coder \\
        -o products/acme-coder.yaml
    """


@import_.command()
@click.argument("file", type=PathParam(dir_okay=False, path_type=Path))
@OUTPUT
@library_option
def cyclonedx(file: Path, output: Path | None, licenses_dir: LibrarySource) -> None:
    """From a CycloneDX 1.6 / 1.7 JSON BOM (components of type machine-learning-model).

    \b
    Example:
      licheck import cyclonedx bom.json \\
        -o products/my-product.yaml
    """
    from licheck.importers import cyclonedx as importer
    from licheck.library.layers import load as load_library

    refuse_outputs([("--output", output)], (file, *licenses_dir.inputs))
    bom = importer.read(file, path_text(str(file)))
    write_output(
        importer.to_manifest(bom, load_library(licenses_dir)), output, (file, *licenses_dir.inputs)
    )


@import_.command()
@click.argument("file", type=PathParam(dir_okay=False, path_type=Path))
@click.option(
    "--model-id",
    metavar="ORG/NAME",
    help="The card's own Hugging Face id (the card does not state it).",
)
@OUTPUT
@library_option
def hf(file: Path, model_id: str | None, output: Path | None, licenses_dir: LibrarySource) -> None:
    """From a Hugging Face model card (README.md with YAML front matter).

    Reads the lineage (base_model, base_model_relation, quantization and training tags), the
    model's name (the repository's, from --model-id, wins), the attribution texts in the card's
    body and its declared license; the weights are delivered. Other keys are not read
    (docs/import.md).

    \b
    Example:
      licheck import hf README.md --model-id acme/acme-coder \\
        -o products/acme-coder.yaml
    """
    from licheck.importers import hf as importer
    from licheck.library.layers import load as load_library

    refuse_outputs([("--output", output)], (file, *licenses_dir.inputs))
    name = path_text(str(file))
    card = importer.read(file, name)
    write_output(
        importer.to_manifest(card, load_library(licenses_dir), name, model_id),
        output,
        (file, *licenses_dir.inputs),
    )
