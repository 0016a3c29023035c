"""Which relations to a licensed model each clause reaches, in the license's own defined terms.

A clause names its reach with the words of its text (`applies_to`): the licensed model and its
Derivatives (`derivatives`), any use of the model (`use`), the model's outputs (`outputs`).  What
those words cover is the license's, not licheck's: its rule file states its definitions
(`definitions:`), and each relation a lineage may have (`Relation`: the unmodified model served,
redistributed or used in-house; fine-tuned, quantized, merged; distilled from it, trained on its
synthetic data or with it as a judge) gets one cell per clause:

- `reaches`: the words cover the relation (the quote that says so is the cell's);
- `opinion`: the license leaves "derivative" to copyright law (MIT, Apache, the modified MITs,
  and the texts that use the word without defining it): a stated `derivative` decides, true
  unless stated otherwise;
- `defined`: the license defines its Derivatives to include the relation; the definition
  decides, and a `derivative: false` that contradicts it is a governance risk naming the
  conflict, never an override;
- `licensee`: use of the model to make the outputs a component was trained on: it binds where
  the product's owner ran the model itself (`outputs_generated_by_licensee`; unknown, a
  governance risk);
- `open`: the text leaves it open: read cautiously, a governance risk (`definition_covers`);
- `no`: the words do not reach it.

`scope_node` turns a clause's reach into the engine's scope condition over the implicit facts
(`relations`, `lineage`, `outputs_lineage`, `derivative`, `definition_covers`); `matrix` gives the
table `licheck licenses reach` shows.  Both are pure functions of the rule file.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import NamedTuple

from licheck.engine.cells import Rule
from licheck.engine.conditions import All, Any_, Const, Node, Test
from licheck.engine.tables import Compiled, compile_rule
from licheck.inputs.rules import (
    DEFAULT_REACH,
    NO_DEFINITIONS,
    Clause,
    Definition,
    Definitions,
    License,
    Reach,
    Relation,
)


class Cell(StrEnum):
    REACHES = "reaches"
    DEFINED = "defined"
    OPINION = "opinion"
    LICENSEE = "licensee"
    OPEN = "open"
    NO = "no"

    @property
    def strength(self) -> int:
        return _STRENGTH[self]


# Of several words' cells for one relation, the strongest stands for the clause's.
_STRENGTH = {
    Cell.REACHES: 5,
    Cell.DEFINED: 4,
    Cell.LICENSEE: 3,
    Cell.OPINION: 2,
    Cell.OPEN: 1,
    Cell.NO: 0,
}


class Decided(NamedTuple):
    """One cell: whether a clause reaches a relation, the quote that decides it, and why."""

    cell: Cell
    quote: str | None
    why: str


def reaches(cell: Cell, derivative: bool | None) -> bool:
    """Whether a clause whose cell is `cell` binds (or may bind: a governance risk) a component
    stating `derivative` (None: unstated)."""
    if cell is Cell.NO:
        return False
    return not (cell is Cell.OPINION and derivative is False)


def decide(defs: Definitions, clause: Clause | None, word: Reach, relation: Relation) -> Decided:
    """One word's cell for one relation under a license's definitions (`defs`)."""
    own = clause.quote if clause is not None else None
    if word is Reach.OUTPUTS:
        if relation.by_outputs:
            return Decided(Cell.REACHES, own, "the clause names the model's outputs")
        return Decided(Cell.NO, own, "the clause names the outputs, not the weights")
    if word is Reach.USE:
        return _use(defs, own, relation)
    return _derivatives(defs, own, relation)


def _use(defs: Definitions, own: str | None, relation: Relation) -> Decided:
    if not relation.by_outputs:
        return Decided(Cell.REACHES, own, "built on the weights: the component uses the model")
    use = defs.use
    if use is not None and not use.copyright_law and relation in use.open:
        return Decided(
            Cell.OPEN, use.quote, f"its definition of {use.term} leaves it open: a governance risk"
        )
    # Who ran the model is a fact of its own, even where the text names the activity as a use:
    # outputs taken from a third party's dataset are not the licensee's use of the model.
    named = use is not None and not use.copyright_law and relation in use.includes
    return Decided(
        Cell.LICENSEE,
        use.quote if named and use is not None else own,
        (
            f"its definition of {use.term} names it a use"
            if named and use is not None
            else "running the model to make the outputs is use of it"
        )
        + ", where the product's owner ran the model (outputs_generated_by_licensee; unknown: "
        "a governance risk)",
    )


def _derivatives(defs: Definitions, own: str | None, relation: Relation) -> Decided:
    if relation.unmodified:
        return Decided(Cell.REACHES, own, "the component is the licensed model itself, as released")
    definition = defs.derivative
    if definition is None or definition.copyright_law:
        if relation.by_outputs:
            return Decided(
                Cell.NO,
                definition.quote if definition else None,
                "the license leaves derivative works to copyright law, and a model trained on "
                "outputs is not one of the weights",
            )
        return Decided(
            Cell.OPINION,
            definition.quote if definition else None,
            "the license leaves derivative works to copyright law: the stated `derivative` "
            "decides (true unless stated)",
        )
    found = _listed(definition, relation)
    if found is not None:
        return found
    return Decided(
        Cell.NO, definition.quote, f"its definition of {definition.term} does not include it"
    )


def _listed(definition: Definition | None, relation: Relation) -> Decided | None:
    if definition is None or definition.copyright_law:
        return None
    if relation in definition.includes:
        return Decided(
            Cell.DEFINED if relation.by_outputs or not relation.unmodified else Cell.REACHES,
            definition.quote,
            f"its definition of {definition.term} includes it",
        )
    if relation in definition.open:
        return Decided(
            Cell.OPEN,
            definition.quote,
            f"its definition of {definition.term} leaves it open: a governance risk",
        )
    return None


def word_cells(license_: License, clause: Clause, relation: Relation) -> list[Decided]:
    """Each of the clause's words' cells for one relation."""
    return [decide(license_.definitions, clause, word, relation) for word in clause.applies_to]


def clause_cell(license_: License, clause: Clause, relation: Relation) -> Decided:
    """The clause's cell for one relation, as the matrix shows it: the strongest of its words'
    cells."""
    return max(word_cells(license_, clause, relation), key=lambda d: d.cell.strength)


def expects_reach(
    license_: License, clause: Clause, relation: Relation, derivative: bool | None
) -> bool:
    """Whether the clause binds (or may bind) a component with this relation and `derivative`
    stated so (None: unstated): a breach is then a violation or a governance risk, never
    satisfied or not applicable; otherwise never a violation."""
    return any(reaches(d.cell, derivative) for d in word_cells(license_, clause, relation))


def matrix(license_: License) -> list[tuple[Clause, dict[Relation, Decided]]]:
    """Every clause of the license and its cell for each relation."""
    return [(c, {r: clause_cell(license_, c, r) for r in Relation}) for c in license_.clauses]


# -- the engine's scope -----------------------------------------------------------------------

_WEIGHTS = Test("lineage", "is", True)
_OUTPUTS = Any_((_WEIGHTS, Test("outputs_lineage", "is", True)))
_DERIVATIVE = Test("derivative", "is", True)
_COVERS = Test("definition_covers", "is", True)
_LICENSEE = Test("outputs_generated_by_licensee", "is", True)


def _has(relations: Sequence[Relation]) -> All:
    """The component has any of `relations` (all of one evidence: weights or outputs)."""
    evidence = _OUTPUTS if relations[0].by_outputs else _WEIGHTS
    names = frozenset(r.value for r in relations)
    return All((evidence, Test("relations", "contains_any", names)))


_CELL_NODE: dict[Cell, Node] = {
    Cell.REACHES: Const(True),
    Cell.DEFINED: _DERIVATIVE,
    Cell.OPINION: _DERIVATIVE,
    Cell.LICENSEE: _LICENSEE,
    Cell.OPEN: _COVERS,
}


def _extras(defs: Definitions, reach: tuple[Reach, ...], relation: Relation) -> tuple[Node, ...]:
    """What else must hold for the clause to bind through `relation`: () when it does not
    reach it at all, (Const(True),) when it reaches it outright."""
    extras: list[Node] = []
    for word in reach:
        cell = decide(defs, None, word, relation).cell
        if cell is Cell.NO:
            continue
        extra = _CELL_NODE[cell]
        if isinstance(extra, Const):
            return (extra,)
        if extra not in extras:
            extras.append(extra)
    return tuple(extras)


def scope_node(definitions: Definitions | None, reach: tuple[Reach, ...] = DEFAULT_REACH) -> Node:
    """A clause's reach as one condition on the implicit facts: any relation it reaches binds
    the component (`definitions`: the license's; None for a file that states none).

    Relations that bind under the same extra condition and rest on the same evidence are tested
    together (`relations contains_any [...]`): the condition is the same, and the relations fact
    then makes a handful of cells instead of one per subset of nine relations, which the
    settlements search ("what would make it firm") would have to walk through."""
    defs = definitions or NO_DEFINITIONS
    groups: dict[tuple[bool, tuple[Node, ...]], list[Relation]] = {}
    for relation in Relation:
        extras = _extras(defs, reach, relation)
        if extras:
            groups.setdefault((relation.by_outputs, extras), []).append(relation)
    items: list[Node] = []
    for (_, extras), relations in groups.items():
        has = _has(relations)
        if isinstance(extras[0], Const):
            items.append(has)
        else:
            last: Node = extras[0] if len(extras) == 1 else Any_(extras)
            items.append(All((*has.items, last)))
    return Any_(tuple(items)) if items else Const(False)


def defines_derivative(definitions: Definitions) -> Definition | None:
    """The license's own definition of its Derivatives, where it defines them (not where it
    leaves them to copyright law)."""
    found = definitions.derivative
    return found if found is not None and not found.copyright_law else None


# Each word a clause may name its reach with, as a condition on the implicit lineage facts, for a
# license that defines no terms (`scope_node` reads a license's definitions).
REACHES: dict[Reach, Node] = {
    word: scope_node(None, (word,)) for word in (Reach.DERIVATIVES, Reach.USE, Reach.OUTPUTS)
}


def scope_for(
    reach: tuple[Reach, ...] = DEFAULT_REACH, definitions: Definitions | None = None
) -> Node:
    """The relations a clause reaches, as one condition: any of them binds the component, in
    the license's own defined terms."""
    return scope_node(definitions, reach)


def bind(
    rule: Rule, reach: tuple[Reach, ...] = DEFAULT_REACH, definitions: Definitions | None = None
) -> Compiled:
    """A clause's rule within the scope of its reach under its license's definitions, compiled:
    the library does it once a clause."""
    scope = scope_for(reach, definitions)
    return compile_rule(Rule(rule.trigger, rule.requirement, rule.exceptions, scope))
