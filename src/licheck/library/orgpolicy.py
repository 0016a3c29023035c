"""Organisation policies: an organisation's own rules, in the format of license clauses.

A policy file names the organisation (`policy: acme`) and lists rules as `clauses`, each with an
id, a kind, a title, the rule in the organisation's own words (`text`, shown where a license
clause shows its quote), and a trigger, a requirement and exceptions over the same facts as
license clauses, plus what a policy reads of the component's model and license
(`model_license`, `model_family`, `license_thresholds`, `ungranted_gate`).  A rule binds every
model a component is built on (`applies_to: [use]` by default: derivative or not) and is judged
like a clause; its findings carry the rule's id, `policy/ORG` and the rule id, and waivers name
them so.

A policy file is compiled into a rule file of the library's kind (a `License` whose id is
`policy/ORG`), so the engine, the reports and the waivers treat its rules as clauses.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from licheck.core.diagnostics import Diagnostic, InputError
from licheck.files import yamlsafe
from licheck.inputs.rules import (
    ALWAYS,
    AllOf,
    AnyOf,
    Clause,
    ClauseKind,
    Condition,
    FactTest,
    Identifier,
    License,
    NotOf,
    Reach,
    Strict,
    Text,
    TextSource,
    require_unique,
)
from licheck.library.compiled import Library, LicenseEntry, license_entry, load_each
from licheck.loading.documents import validate
from licheck.text.nearmatch import normal
from licheck.vocabulary.factdefs import suggest
from licheck.vocabulary.names import FACTS

PREFIX = "policy/"  # a policy's rules are reported as policy/ORG/RULE


class PolicyRule(Strict):
    """One rule of an organisation's policy: a clause with the organisation's own text."""

    id: Identifier
    kind: Literal[ClauseKind.OBLIGATION, ClauseKind.RESTRICTION] = Field(
        description="obligation (what must be done) or restriction (what must not be)"
    )
    title: Text
    text: Text = Field(description="the rule in the organisation's words: shown as its quote")
    summary: Text | None = None
    trigger: Condition = Field(ALWAYS, description="when the rule binds")
    requirement: Condition = Field(description="what must then hold")
    exceptions: list[Condition] = Field(default_factory=list)
    applies_to: tuple[Reach, ...] = Field(
        (Reach.USE,),
        min_length=1,
        description="the relations to a model the rule binds: use (built on its weights, "
        "the default), derivatives, outputs",
    )
    note: Text | None = None


class PolicyFile(Strict):
    policy: Identifier = Field(description="the organisation: its rules are policy/ORG/RULE")
    name: Text
    clauses: list[PolicyRule] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_rule_ids(self) -> PolicyFile:
        require_unique("rule", (rule.id for rule in self.clauses))
        return self


def load_policy(path: Path, library: Library | None = None) -> LicenseEntry:
    """A policy file, checked and compiled as a rule file whose id is `policy/ORG`; with the
    `library` it is judged against, the license ids and families its rules name are checked
    too."""
    document = yamlsafe.load(path)
    policy = validate(document, PolicyFile)
    problems = list(_unknown_members(policy, document))
    if library is not None:
        problems += _unknown_names(policy, document, library)
    if problems:
        raise InputError(problems)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    license_ = License.model_construct(
        id=PREFIX + policy.policy,
        name=policy.name,
        version="organisation policy",
        licensor=None,
        text=TextSource.model_construct(file=path.name, sha256=digest),
        summary=None,
        unverified=False,
        clauses=[_as_clause(rule) for rule in policy.clauses],
        incorporates=[],
        not_encoded=[],
    )
    return license_entry(license_, document, str(path))


def _unknown_members(policy: PolicyFile, document: yamlsafe.Document) -> Iterator[Diagnostic]:
    """A string a rule tests a closed set fact for that the fact never holds (a misspelt
    `revnue` would never match, and a `not` over it would always hold)."""
    for index, rule in enumerate(policy.clauses):
        for where, condition in _conditions(rule):
            for path, test in _fact_tests(condition, ("clauses", index, *where)):
                definition = FACTS.get(test.fact)
                for item in _items(test):
                    if definition is not None and isinstance(item, str):
                        problem = definition.unknown_member(item)
                        if problem:
                            yield document.error(path, problem)


def _unknown_names(
    policy: PolicyFile, document: yamlsafe.Document, library: Library
) -> Iterator[Diagnostic]:
    """A license id or a model family a rule names that the library has not: a misspelt
    `kimi-k2.5-modifed-mit` in a deny list would never match, and the rule would always hold."""
    known = {
        "model_license": ("license", sorted(library.licenses)),
        "model_family": ("family", sorted({m.family for m in library.models if m.family})),
    }
    for index, rule in enumerate(policy.clauses):
        for where, condition in _conditions(rule):
            for path, test in _fact_tests(condition, ("clauses", index, *where)):
                if test.fact not in known:
                    continue
                kind, names = known[test.fact]
                for item in _items(test):
                    if not isinstance(item, str):
                        continue
                    if _names_one(test.operator, item, names):
                        continue
                    hint = suggest(item, names)
                    yield document.error(
                        path,
                        f"no {kind} {item!r} in the library{hint}: the rule would never match it",
                        "see `licheck licenses list`"
                        if kind == "license"
                        else "see `licheck licenses models`",
                    )


def _names_one(operator: str, item: str, names: list[str]) -> bool:
    """Whether `item` names one of `names` as the engine compares strings (near-matches)."""
    wanted = normal(item)
    if operator == "starts_with":
        return any(normal(name).startswith(wanted) for name in names)
    return any(normal(name) == wanted for name in names)


def _conditions(rule: PolicyRule) -> list[tuple[tuple[str | int, ...], object]]:
    """Each condition of a rule, with its path in the rule."""
    return [
        (("trigger",), rule.trigger),
        (("requirement",), rule.requirement),
        *((("exceptions", i), e) for i, e in enumerate(rule.exceptions)),
    ]


def _items(test: FactTest) -> list[object]:
    """What a test compares with, as a list (one value, or each of a list's)."""
    operand = test.operand
    return list(operand) if isinstance(operand, list) else [operand]


def _fact_tests(
    condition: object, path: tuple[str | int, ...]
) -> Iterator[tuple[tuple[str | int, ...], FactTest]]:
    if isinstance(condition, FactTest):
        yield path, condition
    elif isinstance(condition, AllOf | AnyOf):
        items = condition.all if isinstance(condition, AllOf) else condition.any
        key = "all" if isinstance(condition, AllOf) else "any"
        for i, item in enumerate(items):
            yield from _fact_tests(item, (*path, key, i))
    elif isinstance(condition, NotOf):
        yield from _fact_tests(condition.not_, (*path, "not"))


def _as_clause(rule: PolicyRule) -> Clause:
    return Clause.model_construct(
        id=rule.id,
        kind=rule.kind,
        title=rule.title,
        quote=rule.text,
        summary=rule.summary,
        trigger=rule.trigger,
        requirement=rule.requirement,
        exceptions=rule.exceptions,
        applies_to=rule.applies_to,
        note=rule.note,
    )


def load_policies(
    paths: tuple[Path, ...], library: Library | None = None
) -> tuple[LicenseEntry, ...]:
    """Every policy file, in order, checked against `library`; two files of one organisation
    are a located problem."""
    entries, problems = load_each(paths, lambda path: load_policy(path, library), _same_policy)
    if problems:
        raise InputError(problems)
    return tuple(entries)


def _same_policy(entry: LicenseEntry, earlier: LicenseEntry) -> Diagnostic:
    return Diagnostic(
        entry.file,
        1,
        1,
        f"policy {entry.license.id.removeprefix(PREFIX)!r} is also defined in {earlier.file}",
        "give each organisation's rules one file, or another policy id",
    )
