"""`licheck licenses show`, `models` and `coverage` as terminal text.  `models` and
`coverage` are laid out to the width (`show` is printed by a rich console of that width): a line
that would run over wraps (`fit`), continued under its own column; a license id too long for its
column gets a line of its own, never cut."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from licheck.core.verdicts import Verdict
from licheck.engine.conditions import All, Any_, Const, Not, Test
from licheck.inputs.rules import CatalogModel
from licheck.library.coverage import Totals, UnaccountedText
from licheck.library.textcheck import normalise
from licheck.text.escape import markup as escape
from licheck.text.readable import fit

if TYPE_CHECKING:
    from licheck.evaluation.reachcells import LicenseReach
    from licheck.library.compiled import Library, LicenseEntry

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
            claimed = " (secondary sources only: likely)" if not dated.claim.established else ""
            lines.append(fit(history + dated.license + claimed, width, " " * (column + 4)))
        if model.license and not model.license_history and not model.license_claim.established:
            lines.append(fit(f"{'':<{column}}secondary sources only: likely", width, ""))
        for upstream in model.upstream:
            also = f"{'':<{column}}and the license(s) of {upstream}, which it is built on"
            lines.append(fit(also, width, " " * (column + 4)))
    return "".join(line + "\n" for line in lines)


def coverage_text(
    results: Sequence[tuple[str, Totals]],
    missing: Sequence[tuple[str, str]],
    overall: tuple[str, Totals],
    width: int,
    others: tuple[Sequence[UnaccountedText], Sequence[tuple[str, str]]] = ((), ()),
) -> str:
    """The coverage table: a row per license, the texts not measured, the texts of the folder
    no rule file encodes (unaccounted) and those set aside, the overall row, and what the
    columns mean."""
    column = max(min(NAME_COLUMN, width - COUNTS_WIDTH), 0)
    lines = _row("license", COUNTS.format(*HEADER), column, width)
    for name, totals in results:
        lines += _row(name, _counts(totals), column, width)
    for license_id, text_file in missing:
        lines.append(fit(f"{license_id:<{column}} text {text_file} missing: not measured", width))
    unaccounted, set_aside = others
    for text in unaccounted:
        said = f"{text.text}: no rule file encodes it, none sets it aside"
        lines.append(fit(f"{said}: {text.counted} unaccounted", width))
    for text_file, reason in set_aside:
        lines.append(fit(f"{text_file}: set aside: {reason}", width))
    lines += _row(overall[0], _counts(overall[1]), column, width)
    lines.append(fit(COVERAGE_NOTE, width))
    return "".join(line + "\n" for line in lines)


REACH_COUNTS = " {:>6} {:>6} {:>9} {:>5} {:>9} {:>5} {:>7}"  # the reach figures
REACH_HEADER = ("cells", "tested", "violation", "risk", "satisfied", "n/a", "contra.")
REACH_NOTE = (
    "reach: the clause x relation x derivative cells of each license's matrix; tested: those a "
    "breach manifest exercises, by verdict; contra.: verdicts that contradict the matrix (a "
    "reached breach satisfied or not applicable, or a violation where it does not reach): "
    "must be 0"
)


def reach_text(reaches: Sequence[LicenseReach] | None, width: int) -> str:
    """The reach table: a row per license, the overall row, and what the columns mean; a line
    saying it was not measured where it was not."""
    if reaches is None:
        return fit("reach: not measured (--no-reach)", width) + "\n"
    column = max(min(NAME_COLUMN, width - COUNTS_WIDTH), 0)
    lines = ["", *_row("reach", REACH_COUNTS.format(*REACH_HEADER), column, width)]

    def figures(group: Sequence[LicenseReach]) -> str:
        return REACH_COUNTS.format(
            sum(r.cells for r in group),
            sum(r.tested for r in group),
            *(sum(r.count(v) for r in group) for v in Verdict),
            sum(len(r.contradictions) for r in group),
        )

    for reach in reaches:
        lines += _row(reach.license, figures([reach]), column, width)
    lines += _row("overall", figures(reaches), column, width)
    lines.append(fit(REACH_NOTE, width))
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


def describe(entry: LicenseEntry, library: Library) -> str:
    """One license as text: name, provenance (flagging copies), models, and every clause with its
    quote, plain-words summary and rule.  Plain text: the caller prints it without markup."""
    lic, source = entry.license, entry.license.text
    lines = [f"[bold]{escape(lic.name)}[/bold] ({escape(lic.id)}, version {escape(lic.version)})"]
    origin = " ".join(x for x in (source.repo, source.path, source.commit) if x)
    lines.append(f"text:       {escape(source.file)}" + (f" — {escape(origin)}" if origin else ""))
    if source.url:
        lines.append(f"url:        {escape(source.url)}")
    lines.append(f"sha256:     {source.sha256}")
    lines.append(
        f"provenance: {source.provenance.value}" + (" — UNVERIFIED" if lic.unverified else "")
    )
    caveat = source.provenance.caveat
    if caveat or lic.unverified:
        warning = caveat or "marked unverified: not checked against the licensor's own file"
        lines.append(f"[yellow]warning: every quote below is {escape(warning)}[/yellow]")
    models = models_of(lic.id, library)
    lines.append("models:     " + (escape(", ".join(models)) if models else "none in the catalog"))
    if lic.summary:
        lines.append(escape(lic.summary))
    if lic.incorporates:
        lines.append("incorporates (its clauses bind too): " + escape(", ".join(lic.incorporates)))
    for compiled in entry.clauses:
        clause, rule = compiled.clause, compiled.rule
        lines.append("")
        title = f"({clause.kind.value}) — {escape(clause.title)}"
        lines.append(f"[bold]{escape(clause.id)}[/bold] {title}")
        lines.append(f"  [italic]“{escape(normalise(clause.quote))}”[/italic]")
        if caveat:
            lines.append(f"  [yellow](quoted from a {source.provenance.value})[/yellow]")
        if clause.summary:
            lines.append(f"  {escape(clause.summary)}")
        lines.append(f"  trigger:     {escape(show_condition(rule.trigger))}")
        lines.append(f"  requirement: {escape(show_condition(rule.requirement))}")
        lines.extend(f"  exception:   {escape(show_condition(e))}" for e in rule.exceptions)
        if clause.complies_with:
            kinds = ", ".join(standard.value for standard in clause.complies_with)
            lines.append(f"  complies with: {kinds} (the review facts it reads: docs/licenses.md)")
        if clause.note:
            lines.append(f"  note:        {escape(clause.note)}")
    return "\n".join(lines) + "\n"


def models_of(license_id: str, library: Library) -> list[str]:
    """The catalog models under a license, with the dates where it applied to only some copies."""
    found = []
    for model in library.models:
        dated = [d for d in model.license_history if d.license == license_id]
        # A model whose own license file was not read is flagged (audit m4).
        text = f" ({model.text_provenance.value} text)" if model.text_provenance else ""
        if dated:
            spans = ", ".join(span(d.from_, d.until) for d in dated)
            found.append(f"{model.id}{text} (copies obtained {spans})")
        elif model.license == license_id and not model.license_history:
            found.append(f"{model.id}{text}")
    return found


def show_condition(node: object) -> str:
    match node:
        case Test():
            return str(node)
        case All():
            return "(" + " and ".join(show_condition(i) for i in node.items) + ")"
        case Any_():
            return "(" + " or ".join(show_condition(i) for i in node.items) + ")"
        case Not():
            return "not " + show_condition(node.item)
        case Const():
            return "always" if node.value else "never"
    return str(node)
