"""`licheck licenses reach ID`: for each clause, which relations to the model it reaches, and the
quote that decides each cell (`library.reach`), as text or as a JSON document."""

from __future__ import annotations

from licheck.inputs.rules import Definition, License, Relation
from licheck.library.reach import Cell, Decided, matrix
from licheck.text.escape import line
from licheck.text.readable import fit_lines

# What a breach of the clause gives, for each kind of cell.
OUTCOME: dict[Cell, str] = {
    Cell.REACHES: "binds: a breach is a violation",
    Cell.DEFINED: "binds by the license's definition: a breach is a violation; a stated "
    "derivative: false against the definition is a governance risk naming the conflict",
    Cell.OPINION: "binds unless the manifest states derivative: false (the license leaves "
    "derivative works to copyright law)",
    Cell.LICENSEE: "binds where the product's owner ran the model to make the outputs "
    "(outputs_generated_by_licensee: true, a violation; unknown, a governance risk; false, "
    "not applicable)",
    Cell.OPEN: "the text leaves it open: a breach is a governance risk, never satisfied",
    Cell.NO: "does not bind: never a violation",
}
_MARK = {
    Cell.REACHES: "yes",
    Cell.DEFINED: "yes (defined)",
    Cell.OPINION: "yes, unless derivative: false",
    Cell.LICENSEE: "if the owner ran it",
    Cell.OPEN: "open (risk)",
    Cell.NO: "no",
}


def reach_document(licenses: list[License]) -> dict[str, object]:
    """The reach of every clause of the license (first) and of the files it incorporates."""
    first = licenses[0]
    return {
        "license": first.id,
        "relations": [{"id": r.value, "label": r.label} for r in Relation],
        "definitions": _definitions(first),
        "clauses": [
            {
                "license": lic.id,
                "clause": clause.id,
                "title": clause.title,
                "applies_to": [w.value for w in clause.applies_to],
                "cells": {
                    r.value: {
                        "cell": d.cell.value,
                        "binds": OUTCOME[d.cell],
                        "why": d.why,
                        "quote": d.quote,
                    }
                    for r, d in cells.items()
                },
            }
            for lic in licenses
            for clause, cells in matrix(lic)
        ],
    }


def _definitions(license_: License) -> dict[str, object]:
    found: dict[str, object] = {}
    for name in ("derivative", "use", "distribute"):
        definition: Definition | None = getattr(license_.definitions, name)
        if definition is not None:
            found[name] = definition.model_dump(mode="json", exclude_none=True)
    return found


def reach_text(licenses: list[License], width: int) -> str:
    """The matrix in words: the license's definitions with their quotes, then each clause with
    one line per relation (its cell, why, and which quote decides it)."""
    first = licenses[0]
    out = [line(f"Reach of {first.name} ({first.id}): which relations each clause binds"), ""]
    out.append("Definitions (the license's own terms decide what its clauses reach):")
    defs = first.definitions
    shown = False
    for name in ("derivative", "use", "distribute"):
        definition: Definition | None = getattr(defs, name)
        if definition is None:
            continue
        shown = True
        if definition.copyright_law:
            head = f"  {name}: left to copyright law (a stated `derivative` decides)"
        else:
            covers = ", ".join(r.label for r in definition.includes) or "none"
            head = f"  {name}: “{definition.term}” includes {covers}"
            if definition.open:
                head += "; leaves open " + ", ".join(r.label for r in definition.open)
        out.append(line(head))
        if definition.quote:
            out.append(line(f"    “{definition.quote}”"))
        if definition.note:
            out.append(line(f"    note: {definition.note}"))
    if not shown:
        out.append("  none stated: derivative works are left to copyright law")
    for lic in licenses:
        for clause, cells in matrix(lic):
            out.append("")
            words = ", ".join(w.value for w in clause.applies_to)
            out.append(line(f"{lic.id} / {clause.id} — {clause.title} [{words}]"))
            for relation, decided in cells.items():
                out.append(line(_cell_line(relation, decided, clause.quote, lic)))
    out.append("")
    out.append("Cells: " + "; ".join(f"{_MARK[c]}: {OUTCOME[c]}" for c in Cell))
    return fit_lines("\n".join(out), width) + "\n"


def _cell_line(relation: Relation, decided: Decided, own: str, license_: License) -> str:
    if decided.quote is None:
        source = "licheck's reading"
    elif decided.quote == own:
        source = "the clause's quote"
    else:
        source = f"the definition of {_term(license_, decided.quote)}"
    return f"  {relation.label:<32} {_MARK[decided.cell]:<30} {decided.why} [{source}]"


def _term(license_: License, quote: str) -> str:
    """The defined term whose quote decides a cell."""
    for name in ("derivative", "use", "distribute"):
        definition: Definition | None = getattr(license_.definitions, name)
        if definition is not None and definition.quote == quote:
            return f"“{definition.term or name}”"
    return "a term"
