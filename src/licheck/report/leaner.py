"""The JSON report's schema 2.0: facts once per component, clause texts once per report, and
`expanded`, the one pure function from a 2.0 report back to the 1.0 report of the same run.

Schema 1.0 (`report.view`) writes each finding with its facts (and their evidence) and its
clause's texts; a component's findings read mostly the same facts, and every product quotes the
same clauses.  Schema 2.0 writes, in each product, `facts`: component → key → the fact as 1.0
writes it, each distinct fact once; a finding's `facts` lists the keys of the facts it reads, in
its order.  A key is the fact's name, or `NAME#2`, `NAME#3`, ... for a second, third distinct
value of one name in one component (keyed by the whole fact, never by its name alone).  The
report's `clauses`: license → clause → the fields of a finding that are its clause's
(`CLAUSE_FIELDS`: the license's name, the clause's kind and quote); a finding's `license` and
`clause` are the reference.  The digest is computed
as in 1.0 (each finding with its quote), over the header as written (`schema_version` 2.0).

This module works on the report's JSON data (plain dicts), as `report.digest` does.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model
from pydantic_core import to_json

from licheck.report.digest import product_digest, report_digest
from licheck.report.view import FactOut, FindingOut, ProductOut, Report

SCHEMA_V1 = "1.0"
SCHEMA_V2 = "2.0"
SCHEMAS = (SCHEMA_V2, SCHEMA_V1)  # what `--json-schema` takes; the first is the default
# a finding's fields that are its license's and clause's: the same for every finding of one
# license's clause (the title is not: the `unknown` license's name the model; nor is the
# provenance: a model may say how its copy of the text was obtained), so they stay in the finding
CLAUSE_FIELDS = ("license_name", "kind", "quote")
FINDING_FIELDS = tuple(FindingOut.model_fields)  # a 1.0 finding's, in order

Clauses = dict[str, dict[str, dict[str, Any]]]  # license -> clause -> CLAUSE_FIELDS


class ClauseConflict(ValueError):
    """Two findings of one license's clause with different texts: no library holds such."""


def leaner_product(product: Mapping[str, Any]) -> tuple[dict[str, Any], Clauses]:
    """A 1.0 product's data as 2.0 writes it, and the clause entries its findings refer to."""
    tables: dict[str, dict[str, Any]] = {}
    # (component, the fact's JSON) -> key: equal facts are equal JSON (a fact's fields are always
    # in its model's order), and one dict seen again is not encoded again
    keys: dict[tuple[str, bytes], str] = {}
    known: dict[tuple[str, int], tuple[str, Any]] = {}  # (component, id) -> (key, the fact)
    counts: dict[tuple[str, str], int] = {}  # (component, name) -> distinct values so far
    clauses: Clauses = {}
    findings = []
    for finding in product["findings"]:
        component = finding["component"]
        table = tables.setdefault(component, {})
        names = []
        for fact in finding["facts"]:
            same = known.get((component, id(fact)))
            if same is not None and same[1] is fact:
                names.append(same[0])
                continue
            seen = (component, to_json(fact))
            key = keys.get(seen)
            if key is None:
                number = counts.get((component, fact["name"]), 0) + 1
                counts[(component, fact["name"])] = number
                key = fact["name"] if number == 1 else f"{fact['name']}#{number}"
                keys[seen] = key
                table[key] = fact
            known[(component, id(fact))] = (key, fact)  # the fact kept: its id stays its own
            names.append(key)
        entry = {field: finding[field] for field in CLAUSE_FIELDS}
        _add(clauses, finding["license"], finding["clause"], entry)
        findings.append(
            {
                key: (names if key == "facts" else value)
                for key, value in finding.items()
                if key not in CLAUSE_FIELDS
            }
        )
    out = {key: (findings if key == "findings" else value) for key, value in product.items()}
    out["facts"] = tables
    return out, clauses


def merge(into: Clauses, clauses: Clauses) -> None:
    """Add a product's clause entries to the report's table."""
    for license, entries in clauses.items():
        for clause, entry in entries.items():
            _add(into, license, clause, entry)


def _add(into: Clauses, license: str, clause: str, entry: dict[str, Any]) -> None:
    known = into.setdefault(license, {}).setdefault(clause, entry)
    if known is not entry and known != entry:
        raise ClauseConflict(f"{license}/{clause}: two texts for one clause")


def sorted_clauses(clauses: Clauses) -> Clauses:
    """The table as the report writes it: licenses, then their clauses, sorted."""
    return {lic: dict(sorted(clauses[lic].items())) for lic in sorted(clauses)}


def top_v2(top: Mapping[str, Any], clauses: Clauses) -> dict[str, Any]:
    """A 1.0 report's top-level data as 2.0 writes it: its version, `clauses` after `products`."""
    out: dict[str, Any] = {}
    for key, value in top.items():
        out[key] = SCHEMA_V2 if key == "schema_version" else value
        if key == "products":
            out["clauses"] = sorted_clauses(clauses)
    return out


def expanded(report: Mapping[str, Any]) -> dict[str, Any]:
    """The 1.0 report of a 2.0 report's data: every finding with its facts and clause texts,
    `clauses` and the products' `facts` dropped, the digest recomputed for version 1.0.  Pure:
    encoded (`jsontext.dumps`), it is byte for byte the report the run writes at 1.0."""
    clauses = report["clauses"]
    products = [_expanded_product(p, clauses) for p in report["products"]]
    out: dict[str, Any] = {}
    for key, value in report.items():
        if key == "clauses":
            continue
        out[key] = {"schema_version": SCHEMA_V1, "products": products}.get(key, value)
    if "digest" in out:
        out["digest"] = report_digest(out, (product_digest(p) for p in products))
    return out


def _expanded_product(product: Mapping[str, Any], clauses: Clauses) -> dict[str, Any]:
    tables = product["facts"]
    findings = []
    for finding in product["findings"]:
        entry = clauses[finding["license"]][finding["clause"]]
        table = tables[finding["component"]]
        findings.append(
            {
                key: (
                    entry[key]
                    if key in CLAUSE_FIELDS
                    else [table[name] for name in finding["facts"]]
                    if key == "facts"
                    else finding[key]
                )
                for key in FINDING_FIELDS
            }
        )
    return {
        key: (findings if key == "findings" else value)
        for key, value in product.items()
        if key != "facts"
    }


def report_model() -> type[BaseModel]:
    """The model of a 2.0 report, for its published schema only (`licheck schema report`): the
    1.0 models (`report.view`) with the changes above, built on first use (no run needs it)."""
    for model in (FindingOut, ProductOut, Report):
        model.model_rebuild()
    finding = _derived(
        FindingOut,
        "Finding",
        drop=CLAUSE_FIELDS,
        types={"facts": (list[str], Field(description=FACT_KEYS))},
    )
    product = _derived(
        ProductOut,
        "Product",
        types={"findings": (list[finding], ...)},  # type: ignore[valid-type]
        extra={"facts": (dict[str, dict[str, FactOut]], Field(description=FACT_TABLE))},
    )
    return _derived(
        Report,
        "Report",
        types={
            "schema_version": (Literal["2.0"], "2.0"),
            "products": (list[product], ...),  # type: ignore[valid-type]
        },
        after={
            "products": {"clauses": (dict[str, dict[str, ClauseOut]], Field(description=CLAUSES))}
        },
    )


FACT_KEYS = (
    "the keys, in the product's `facts` table of this finding's component, of the facts it read"
)
FACT_TABLE = (
    "component id -> key -> fact: each distinct fact the component's findings read, once; the "
    "key is the fact's name, NAME#2, NAME#3, ... for another value of one name"
)
CLAUSES = (
    "license id -> clause id -> the license's name, the clause's kind and quote, for every "
    "finding of that license and clause (a finding's `license` and `clause`); a streamed report "
    "writes it after `products`, but a reader must not rely on key order"
)


class ClauseOut(BaseModel):
    """A clause's texts, once per report (schema 2.0)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    license_name: str
    kind: str
    quote: str | None


Clauses2 = dict[str, dict[str, ClauseOut]]


def _derived(
    model: type[BaseModel],
    name: str,
    drop: tuple[str, ...] = (),
    types: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
    after: dict[str, dict[str, Any]] | None = None,
) -> type[BaseModel]:
    """`model` with some fields dropped, retyped, added last or after another, in its order."""
    fields: dict[str, Any] = {}
    for key, info in model.model_fields.items():
        if key in drop:
            continue
        fields[key] = (types or {}).get(key, (info.annotation, info))
        fields.update((after or {}).get(key, {}))
    fields.update(extra or {})
    return create_model(name, __base__=_Base, __doc__=model.__doc__, **fields)


class _Base(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
