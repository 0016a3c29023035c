"""`licheck licenses models` and `licheck licenses coverage` as terminal text, laid out to the
width: a line that would run over wraps (`fit`), continued under its own column; a license id
too long for its column gets a line of its own, never cut."""

from __future__ import annotations

from collections.abc import Sequence

from licheck.coverage import Totals
from licheck.formats.text import fit
from licheck.model import CatalogModel

ID_COLUMN = 32  # `licenses models`: where the license starts, on a wide terminal
NAME_COLUMN = 34  # `licenses coverage`: the license column, on a wide terminal
COUNTS = " {:>7} {:>7} {:>9} {:>7} {:>6} {:>5} {:>5}"  # the figures, after the license
COUNTS_WIDTH = 54
HEADER = ("counted", "encoded", "to encode", "nothing", "unacc.", "enc.", "acc.")
COVERAGE_NOTE = (
    "encoded: of the counted sentences less those with nothing to encode, the share a clause "
    "quotes; accounted: the share a clause or a not_encoded entry quotes"
)


def models_text(models: Sequence[CatalogModel], width: int) -> str:
    """Each catalog model, its license and release date, then its dated licenses."""
    column = min(ID_COLUMN, width // 3)
    lines = []
    for model in models:
        license_id = model.license or "unknown (not in the library)"
        released = f", released {model.release_date}" if model.release_date else ""
        row = f"{model.id:<{column - 2}} {license_id}{released}"
        lines.append(fit(row, width, " " * (column - 1)))  # continued under the license
        for dated in model.license_history:
            history = f"{'':<{column}}copies obtained {span(dated.from_, dated.until)}: "
            lines.append(fit(history + dated.license, width, " " * (column + 4)))
    return "".join(line + "\n" for line in lines)


def coverage_text(
    results: Sequence[tuple[str, Totals]],
    missing: Sequence[tuple[str, str]],
    overall: tuple[str, Totals],
    width: int,
) -> str:
    """The coverage table: a row per license, the texts not measured, the overall row, and
    what the columns mean."""
    column = max(min(NAME_COLUMN, width - COUNTS_WIDTH), 0)
    lines = _row("license", COUNTS.format(*HEADER), column, width)
    for name, totals in results:
        lines += _row(name, _counts(totals), column, width)
    for license_id, text_file in missing:
        lines.append(fit(f"{license_id:<{column}} text {text_file} missing: not measured", width))
    lines += _row(overall[0], _counts(overall[1]), column, width)
    lines.append(fit(COVERAGE_NOTE, width))
    return "".join(line + "\n" for line in lines)


def span(start: object, end: object) -> str:
    """When copies of a model were obtained, in words."""
    if start and end:
        return f"{start} to {end}"
    if start:
        return f"on or after {start}"
    return f"on or before {end}" if end else "at any date"


def _row(name: str, counts: str, column: int, width: int) -> list[str]:
    """A license and its figures on one line; the license on a line of its own (folded if
    need be) when it is wider than its column."""
    if len(name) <= column:
        return [f"{name:<{column}}{counts}"]
    return [fit(name, width), f"{'':<{column}}{counts}"]


def _counts(t: Totals) -> str:
    return COUNTS.format(t.total, t.encoded, t.to_encode, t.nothing_to_encode,
                         t.total - t.accounted, f"{t.encoded_fraction:.0%}",
                         f"{t.accounted_fraction:.0%}")  # fmt: skip
