"""What the findings require a product to carry: display strings and where, the Notice texts
the licenses prescribe, the license copies to ship, name prefixes, and the other notices.

Derived from the evaluated findings and the rule files: each finding whose clause may bind
gives the duties its requirement states (a requirement `ui_attribution contains "Kimi K2.5"`
is a display duty; `license_copy_included` a license copy to ship, from the rule file's
`text` source and SHA-256; `notice_included` a Notice, its words quoted from the clause).  A
duty is `required` when the clause binds in every completion of the facts and no exception
lifts it, `may_be_required` when that depends on facts the manifest does not settle (named),
and left out when the clause cannot bind.  Prohibitions (`not ...`) are not artefacts and give
no duty.  Pure: no clock, no file system.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from licheck.core.verdicts import Answer, Requirement, Verdict
from licheck.evaluation.findings import Finding, ProductResult
from licheck.inputs.rules import AllOf, AnyOf, Condition, FactTest, License, Provenance
from licheck.library.compiled import Library
from licheck.report.explain import explain, near_readings, outputs_only
from licheck.vocabulary.names import FACTS

# Where a display duty's string must appear, by the fact a requirement tests.
PLACES = {
    "ui_attribution": "the user interface",
    "attribution_elsewhere": "a related website, about page, blog post or product documentation",
}
# Requirements met by something the product carries (beside displays, license copies, Notice
# texts and names): the fact's meaning says what.
CARRIED = (
    "modification_notices",
    "notice_file_carried",
    "use_restrictions_passed_on",
    "source_attributed",
    "proprietary_notices_kept",
    "licensor_disclaimers_carried",
    "ai_disclosure_included",
)
# A notice text the license prescribes: a quoted passage of the clause, long enough to be one
# (not a defined term such as “Notice”).  Straight quotes pair in order (the first with the
# second), so that the words between `"Notice"` and the next quoted passage are never one.
_QUOTED = re.compile(r"“([^”]*)”|\"([^\"]*)\"")
_NOTICE_LENGTH = 30


class Kind(StrEnum):
    DISPLAY = "display"
    NOTICE = "notice"
    LICENSE_COPY = "license_copy"
    MODEL_NAME = "model_name"
    CARRY = "carry"


class Status(StrEnum):
    REQUIRED = "required"
    MAY_BE_REQUIRED = "may_be_required"


@dataclass(frozen=True, slots=True)
class TextCopy:
    """The license text to ship: where its canonical copy is, and its hash."""

    file: str
    source: str  # repo/path@commit, or the URL
    sha256: str


@dataclass(frozen=True, slots=True)
class Duty:
    kind: Kind
    what: str  # the instruction, in plain words
    license: str
    license_name: str
    clause: str
    title: str
    quote: str
    status: Status
    met: str  # now: "yes", "no" or "unknown" (the requirement holds, fails, or depends)
    settle: tuple[str, ...] = ()  # facts that would say whether it applies or is met
    strings: tuple[str, ...] = ()  # display strings, or a name's prefix
    places: tuple[str, ...] = ()  # where a display may be (any one of them)
    text: str | None = None  # a notice text the license prescribes, verbatim
    copy: TextCopy | None = None
    # where the rule file's text is not the model's own license file (a third-party copy, a
    # stand-in): the quote, notice text and SHA-256 are of that text, not of the model's file
    caveat: str | None = None
    # what the product states that only near-matches a name asked for ("'KIMI K2.5' read as
    # 'Kimi K2.5' (differs only in case: …)"): a person must judge whether it counts
    near_matches: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ComponentDuties:
    component: str
    name: str
    models: tuple[str, ...]  # the models whose licenses give the duties (display names)
    duties: tuple[Duty, ...]
    # why the list may be incomplete: a model whose license is unknown or not established
    gaps: tuple[str, ...] = ()
    # the license and model ids its findings are about: a layer that replaced one is named
    licenses: tuple[str, ...] = ()
    model_ids: tuple[str, ...] = ()
    # of `models`, those the component was only trained on the outputs of (not built on)
    outputs_of: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ProductDuties:
    product: str
    owner: str
    file: str
    components: tuple[ComponentDuties, ...]


def product_duties(result: ProductResult, library: Library) -> ProductDuties:
    """Every duty of the product's findings, component by component in manifest order."""
    order: dict[str, list[Finding]] = {}
    for finding in result.findings:
        order.setdefault(finding.component, []).append(finding)
    components = []
    for component, findings in order.items():
        duties = [d for f in findings for d in finding_duties(f, library)]
        models = tuple(dict.fromkeys(f.model_name for f in findings))
        gaps = tuple(dict.fromkeys(_gap(f) for f in findings if _unlisted(f, library)))
        licenses = tuple(dict.fromkeys(f.license for f in findings))
        model_ids = tuple(dict.fromkeys(f.model for f in findings))
        built = {f.model_name for f in findings if not outputs_only(f.facts)}
        outputs_of = tuple(m for m in models if m not in built)
        components.append(
            ComponentDuties(
                component,
                findings[0].component_name,
                models,
                tuple(duties),
                gaps,
                licenses,
                model_ids,
                outputs_of,
            )
        )
    return ProductDuties(result.product, result.owner, result.file, tuple(components))


def _unlisted(finding: Finding, library: Library) -> bool:
    """A finding about a license whose duties cannot be listed (unknown, or not in the
    library), where it may bind."""
    return finding.license not in library.licenses and finding.verdict is not Verdict.NOT_APPLICABLE


def _gap(finding: Finding) -> str:
    return f"{finding.title}: {explain(finding)} Its duties cannot be listed."


def finding_duties(finding: Finding, library: Library) -> list[Duty]:
    """The duties of one finding's clause, if it may bind; none otherwise."""
    status = _status(finding)
    entry = library.licenses.get(finding.license)
    if status is None or entry is None:
        return []
    clause = next((c.clause for c in entry.clauses if c.clause.id == finding.clause), None)
    if clause is None or clause.requirement is None:
        return []
    met = {Requirement.HOLDS: "yes", Requirement.FAILS: "no"}.get(finding.requirement, "unknown")
    settle = () if status is Status.REQUIRED and met != "unknown" else _settle(finding)
    near = tuple(dict.fromkeys(f"{fact}: {reading}" for fact, reading in near_readings(finding)))
    return [
        Duty(
            kind=part.kind,
            what=part.what,
            license=finding.license,
            license_name=finding.license_name,
            clause=finding.clause,
            title=finding.title,
            quote=clause.quote,
            status=status,
            met=met,
            settle=settle,
            strings=part.strings,
            places=part.places,
            text=part.text,
            copy=part.copy,
            caveat=_caveat(finding.provenance),
            near_matches=near,
        )
        for part in _parts(clause.requirement, entry.license, clause.quote)
    ]


def _caveat(provenance: str) -> str | None:
    """What to check against the model's own license file, for a text that is not it."""
    try:
        said = Provenance(provenance).caveat
    except ValueError:  # a provenance this licheck does not know: not known to be verbatim
        said = f"the text's provenance {provenance!r} is not known to this licheck"
    if said is None:
        return None
    return (
        f"{said}. Take the notice and the license copy from the model's own license file: the "
        "text quoted and its SHA-256 are those of the text licheck encodes, which may differ"
    )


def _status(finding: Finding) -> Status | None:
    if finding.verdict is Verdict.NOT_APPLICABLE or Answer.NO in (finding.binds, finding.triggered):
        return None
    if finding.exception is Answer.YES:
        return None
    if (finding.binds, finding.triggered, finding.exception) == (Answer.YES, Answer.YES, Answer.NO):
        return Status.REQUIRED
    return Status.MAY_BE_REQUIRED


def _settle(finding: Finding) -> tuple[str, ...]:
    """The facts that keep the duty open: the missing facts the report names, else every fact
    the finding used that is not established."""
    names = [m.fact.name for m in finding.missing_facts]
    if not names:
        names = [f.name for f in finding.facts if f.status.value != "established"]
    return tuple(dict.fromkeys(names))


@dataclass(frozen=True, slots=True)
class Part:
    """What one requirement asks the product to carry."""

    kind: Kind
    what: str
    strings: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    text: str | None = None
    copy: TextCopy | None = None


def _parts(condition: Condition, license_: License, quote: str) -> Iterator[Part]:
    """The artefacts a requirement asks for (a display that may be in several places is one)."""
    if isinstance(condition, AllOf):
        for child in condition.all:
            yield from _parts(child, license_, quote)
    elif isinstance(condition, AnyOf):
        yield from _alternatives(condition.any, license_, quote)
    elif isinstance(condition, FactTest):
        part = _test(condition, license_, quote)
        if part is not None:
            yield part


def _alternatives(children: Sequence[Condition], license_: License, quote: str) -> Iterator[Part]:
    """`any` of displays is one display, in any one of the places; other alternatives are each
    listed, said to be alternatives."""
    displays = [c for c in children if isinstance(c, FactTest) and c.fact in PLACES and c.contains]
    if len(displays) == len(children):
        strings = tuple(dict.fromkeys(str(c.contains) for c in displays))
        places = tuple(dict.fromkeys(PLACES[c.fact] for c in displays))
        yield _display(strings, places)
        return
    for child in children:
        for part in _parts(child, license_, quote):
            yield replace(part, what=f"{part.what} (or one of the alternatives beside it)")


def _display(strings: tuple[str, ...], places: tuple[str, ...]) -> Part:
    shown = " and ".join(f"“{s}”" for s in strings)
    where = places[0] if len(places) == 1 else "any one of: " + "; ".join(places)
    return Part(Kind.DISPLAY, f"Display {shown} prominently on {where}", strings, places)


def _test(test: FactTest, license_: License, quote: str) -> Part | None:
    if test.fact in PLACES and test.contains is not None:
        return _display((test.contains,), (PLACES[test.fact],))
    if test.fact == "model_name" and test.starts_with is not None:
        what = f"Begin the name of the model made available with “{test.starts_with}”"
        return Part(Kind.MODEL_NAME, what, (test.starts_with,))
    if test.is_ is not True:
        return None
    if test.fact == "license_copy_included":
        what = f"Give a copy of the {license_.name} with the copies or the service"
        return Part(Kind.LICENSE_COPY, what, copy=_copy(license_))
    if test.fact == "notice_included":
        text = _prescribed(quote)
        what = (
            "Include this notice, verbatim, in a Notice text file of the copies"
            if text
            else "Include the notices the license names (quoted below) in the copies"
        )
        return Part(Kind.NOTICE, what, text=text)
    if test.fact in CARRIED and test.fact in FACTS:
        meaning = FACTS[test.fact].meaning
        return Part(Kind.CARRY, meaning[0].upper() + meaning[1:])
    return None


def _prescribed(quote: str) -> str | None:
    """The notice text a clause prescribes word for word (its longest quoted passage)."""
    passages = [curly or straight for curly, straight in _QUOTED.findall(quote)]
    long = [p for p in passages if len(p) >= _NOTICE_LENGTH]
    return max(long, key=len).strip() if long else None


def _copy(license_: License) -> TextCopy:
    text = license_.text
    if text.repo and text.path:
        source = f"{text.repo}/{text.path}" + (f"@{text.commit}" if text.commit else "")
    else:
        source = text.url or text.file
    return TextCopy(text.file, source, text.sha256)
