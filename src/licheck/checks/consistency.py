"""Meaning checks on a manifest that its shape cannot express: each problem located.

The pydantic models check keys and types, `facts` checks each value on its own; what is left are
statements that cannot all be true, or that name things licheck does not know:

- a date in the future (evidence, a source, a retraction, when weights were obtained), or weights
  obtained before the model was released; a month of a series to come, or evidenced before it
  was over (`_months`);
- a lineage naming one catalog model twice (`_models_named_twice`);
- a license id or clause id in a set fact that names them (`agreement_waives`,
  `license_granted`, `licensor_marks_used`, ...: `FactDef.library_ids`) that the library does
  not define (a misspelt id would never match, silently);
- a fact the component's delivery or lineage settles stated against it (`distributes_weights`,
  `made_available`, `modified`, ...: `settled`);
- a product larger than its licensee (`mau` above `licensee_mau`, `monthly_revenue` above
  `licensee_annual_revenue`): the licensee's figures include the product's.

Evidence dated after `--as-of` is not a problem: it is ignored for that run, by design.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterator, Mapping
from fractions import Fraction

from licheck.checks import implied, revenue
from licheck.checks.settled import contradictions
from licheck.core.diagnostics import Diagnostic
from licheck.core.units import UnitError, exchange_rates
from licheck.engine.domains import Interval
from licheck.facts import agreements
from licheck.facts.periods import FactError
from licheck.facts.resolution import claim_domain
from licheck.files.yamlsafe import Document, Path_
from licheck.inputs.manifest import (
    Agreement,
    CandidateBases,
    Evidence,
    FactSpec,
    Manifest,
    ModelRef,
    NoAgreements,
    Source,
)
from licheck.inputs.rules import earliest, parse_date
from licheck.library.compiled import Library
from licheck.loading.factchecks import strings_claimed, unknown_members, written_at
from licheck.vocabulary.factdefs import suggest, suggest_id
from licheck.vocabulary.names import FACTS

# A day of slack: "today" differs across time zones.
_SLACK = dt.timedelta(days=1)
# Pairs (part, whole): the product's figure cannot exceed its licensee's.
# (part, whole, how many of the part's periods the whole's figure spans): a month of the product's
# revenue is part of the licensee's year, so it is compared with the year's total, not its
# average month (a year of 900K USD holds a month of 200K USD).
_PART_OF = (("mau", "licensee_mau", 1), ("monthly_revenue", "licensee_annual_revenue", 12))


def check_manifest(
    manifest: Manifest, document: Document, library: Library, today: dt.date
) -> tuple[Diagnostic, ...]:
    """Every meaning problem of `manifest` (empty when there is none), each check's in turn."""
    return (
        *_dates(manifest, document, library, today),
        *_citations(manifest, document),
        *_months(manifest, document, _stated_facts(manifest), today),
        *_models_named_twice(manifest, document, library),
        *_stated_licenses(manifest, document, library),
        *_license_ids(manifest, document, library),
        *closed_vocabularies(manifest, document, library),
        *_agreements(manifest, document, library),
        *_flat_agreements(manifest, document, library),
        *_purpose(manifest, document),
        *revenue.contradictions(manifest, document),
        *contradictions(manifest, document),
        *implied.contradictions(manifest, document, library),
        *_part_of_whole(manifest, document),
    )


# -- dates -----------------------------------------------------------------------------------


def _dates(
    manifest: Manifest, document: Document, library: Library, today: dt.date
) -> Iterator[Diagnostic]:
    latest = today + _SLACK

    def future(date: dt.date | None, path: Path_, what: str) -> Iterator[Diagnostic]:
        # a month or a year is a range of days: in the future only if it has not begun
        if date is not None and earliest(date) > latest:
            yield document.error(
                path,
                f"{what} is dated {date}, in the future (today is {today.isoformat()})",
                "a date after today is a typo or a forecast, not evidence; to evaluate as of "
                "another day, use --as-of",
            )

    for key, source in sorted(manifest.sources.items()):
        base: Path_ = ("sources", key)
        yield from future(source.date, (*base, "date"), f"source {key!r}")
        yield from future(
            source.retracted_on, (*base, "retracted_on"), f"the retraction of source {key!r}"
        )
        if source.retracted_on is not None and source.retracted_on < source.date:
            yield document.error(
                (*base, "retracted_on"),
                f"source {key!r} is retracted ({source.retracted_on}) before "
                f"its date ({source.date})",
            )
    for pieces, path in _evidence_lists(manifest):
        for index, piece in enumerate(pieces):
            at: Path_ = (*path, index)
            yield from future(piece.date, (*at, "date"), f"evidence {piece.source!r}")
            yield from future(
                piece.retracted_on,
                (*at, "retracted_on"),
                f"the retraction of evidence {piece.source!r}",
            )
    for ref, path in _model_refs(manifest):
        if ref.obtained is None:
            continue
        yield from future(ref.obtained, (*path, "obtained"), f"obtaining {ref.model!r}")
        model = library.model(ref.model)
        released = model.release_date if model is not None else None
        if released is not None and ref.obtained < released:
            yield document.error(
                (*path, "obtained"),
                f"{ref.model!r} is obtained on {ref.obtained.isoformat()}, before its release "
                f"on {released.isoformat()}",
                "check the date the weights were downloaded",
            )


def _citations(manifest: Manifest, document: Document) -> Iterator[Diagnostic]:
    """A piece citing a key of `sources:` may not make it count for more than it does."""
    for pieces, path in _evidence_lists(manifest):
        for index, piece in enumerate(pieces):
            cited = manifest.sources.get(piece.source)
            found = _overstated(piece, cited) if cited is not None else None
            if found is not None:
                key, words = found
                yield document.error(
                    (*path, index, key),
                    f"evidence cites source {piece.source!r} {words}: it would count for more "
                    "than the source does",
                    "describe another document as a source of its own",
                )


def _overstated(piece: Evidence, cited: Source) -> tuple[str, str] | None:
    """The key of `piece` that says more than the source it cites, and how: another kind (a
    press report cited as an official statement), a date before the document's, a retraction
    after the document's own.  A later date (a claim added when the document was updated) and a
    retraction of this claim alone are the piece's to say."""
    if piece.kind is not None and piece.kind != cited.kind:
        return "kind", f"({cited.kind.value}) but says kind {piece.kind.value}"
    if piece.date is not None and piece.date < cited.date:
        return "date", f"(dated {cited.date}) but says date {piece.date}, before it"
    retracted, own = piece.retracted_on, cited.retracted_on
    if retracted is not None and own is not None and retracted > own:
        return "retracted_on", f"(retracted on {own}) but says retracted_on {retracted}"
    return None


def _evidence_lists(manifest: Manifest) -> Iterator[tuple[list[Evidence], Path_]]:
    for _name, spec, path in _stated_facts(manifest):
        yield from _fact_evidence(spec, path)
    for c, component in enumerate(manifest.components):
        at: Path_ = ("components", c)
        for s, step in enumerate(component.lineage.steps):
            yield step.evidence, (*at, "lineage", "steps", s, "evidence")
        yield component.delivery_evidence, (*at, "delivery", "evidence")
    for ref, path in _model_refs(manifest):
        yield ref.evidence, (*path, "evidence")
    yield manifest.owner.evidence, ("owner", "evidence")
    for a, affiliate in enumerate(manifest.owner.affiliates):
        yield affiliate.evidence, ("owner", "affiliates", a, "evidence")
    if isinstance(manifest.agreements, list):
        for a, agreement in enumerate(manifest.agreements):
            yield agreement.evidence, ("agreements", a, "evidence")
    elif isinstance(manifest.agreements, NoAgreements):
        yield manifest.agreements.evidence, ("agreements", "evidence")


def _fact_evidence(spec: FactSpec, path: Path_) -> Iterator[tuple[list[Evidence], Path_]]:
    """A fact's evidence, and each month's, model's and license's of it."""
    yield spec.evidence, (*path, "evidence")
    for key in ("series", "by_model", "by_license"):
        for part_key, part in sorted((getattr(spec, key) or {}).items()):
            yield from _fact_evidence(part, (*path, key, part_key))


def _model_refs(manifest: Manifest) -> Iterator[tuple[ModelRef, Path_]]:
    """Every model a lineage names (each candidate too), and each whose outputs it was trained
    on, located."""
    for c, component in enumerate(manifest.components):
        for ref, path in component.lineage.models():
            yield ref, ("components", c, "lineage", *path)
        for o, outputs in enumerate(component.lineage.trained_on_outputs_of):
            yield outputs, ("components", c, "lineage", "trained_on_outputs_of", o)


def _stated_licenses(
    manifest: Manifest, document: Document, library: Library
) -> Iterator[Diagnostic]:
    """A `license:` stated for a model the catalog lists: the catalog decides a catalog model's
    license, so a stated one that is not among its texts contradicts it (a located error);
    `license:` is for models the catalog does not list."""
    for ref, path in _model_refs(manifest):
        model = library.model(ref.model)
        if ref.license is None or model is None:
            continue
        texts = {model.license} | {dated.license for dated in model.license_history}
        if ref.license not in texts:
            listed = ", ".join(sorted(t for t in texts if t)) or "a license licheck has no text of"
            yield document.error(
                (*path, "license"),
                f"{model.name} is in the catalog under {listed}, not {ref.license!r}",
                "the catalog decides a listed model's license: drop license: (it is for models "
                "the catalog does not list), or name the model you used if it is another one",
            )


# -- the months of a series ------------------------------------------------------------------

# Figures that are a rate at a moment, not a month's total: ARR is the recurring revenue as of a
# day, annualised.  Dated within its month (an announcement "ARR passed 500M USD" on the 15th),
# it is that month's figure as of that day: `--as-of` and the timeline count it from then on.
RUNNING_FIGURES = frozenset({"annual_recurring_revenue"})


def _months(
    manifest: Manifest,
    document: Document,
    stated: Iterator[tuple[str, FactSpec, Path_]],
    today: dt.date,
) -> Iterator[Diagnostic]:
    """Each month of a series that cannot be as stated, refused at the month as a date that
    cannot be true is:

    - a month that has not begun: a typo or a forecast, as a future date is;
    - a month whose evidence (its own, or the fact's where it has none) is dated wholly before
      the month's last day: it cannot report the month's figure (at most a forecast), yet
      `--as-of` and the timeline would count it as the month's figure from that date on — a
      Llama gate read as not crossed on a March figure dated in February.

    A month to come is refused for that alone: any evidence for it is early too, and saying so
    again at the same month would only repeat it."""
    this_month = f"{today.year:04d}-{today.month:02d}"
    for name, spec, path in stated:
        for month, part in sorted((spec.series or {}).items()):
            if month > this_month:
                yield document.error(
                    (*path, "series", month),
                    f"the month {month} of {name} is in the future (today is {today})",
                    "a figure for a month to come is a forecast, not evidence; to evaluate as "
                    "of another day, use --as-of",
                    at_key=True,
                )
            else:
                yield from _early_evidence(manifest, document, (name, spec, path), month, part)


def _early_evidence(
    manifest: Manifest,
    document: Document,
    stated: tuple[str, FactSpec, Path_],
    month: str,
    part: FactSpec,
) -> Iterator[Diagnostic]:
    name, spec, path = stated
    own = bool(part.evidence)
    pieces = part.evidence if own else spec.evidence
    last = parse_date(month)  # a month is read as its last day
    first = earliest(last)
    for piece in pieces:
        date = _date_of(piece, manifest.sources)
        # a month or a year written is read as its last day: the latest it may be
        if date is None or date >= last:
            continue
        if name in RUNNING_FIGURES and date >= first:
            continue  # a running figure as of a day of its month: the month's, from that day

        where = "its evidence" if own else f"the evidence of {name}"
        yield document.error(
            (*path, "series", month),
            f"the month {month} of {name}: {where} {piece.source!r} is dated {date}, "
            f"before the month was over ({last.isoformat()}), so it cannot report it",
            "date the evidence when the month's figure was published, or give the "
            "month its own evidence; a running figure as of a day of the month (ARR "
            "announced on the 15th) is annual_recurring_revenue, which that date fits",
            at_key=True,
        )


def _date_of(piece: Evidence, sources: dict[str, Source]) -> dt.date | None:
    cited = sources.get(piece.source)
    return piece.date or (cited.date if cited else None)


# -- a model named twice in one lineage ------------------------------------------------------


def _models_named_twice(
    manifest: Manifest, document: Document, library: Library
) -> list[Diagnostic]:
    """A lineage that names one catalog model twice: by an id and an alias among one entry's
    candidates, or again as a merge parent of a lineage that already has it.  Its findings would
    be given twice, alike, counted twice and matched twice by waivers and baselines.  Each
    repetition is located at the second naming."""
    return [
        *_candidates_alike(manifest, document, library),
        *_entries_alike(manifest, document, library),
    ]


def _candidates_alike(
    manifest: Manifest, document: Document, library: Library
) -> Iterator[Diagnostic]:
    """Candidates naming one catalog model twice (an id and an alias of it): none may repeat."""
    for c, component in enumerate(manifest.components):
        for entry, path in component.lineage.entries():
            if not isinstance(entry, CandidateBases):
                continue
            seen: set[str] = set()
            for i, ref in enumerate(entry.candidates):
                model = library.model(ref.model)
                if model is not None and model.id in seen:
                    yield document.error(
                        ("components", c, "lineage", *path, "candidates", i),
                        f"candidate {ref.model!r} is {model.id} again (an alias of it)",
                        "name each candidate model once",
                    )
                elif model is not None:
                    seen.add(model.id)


def _entries_alike(
    manifest: Manifest, document: Document, library: Library
) -> Iterator[Diagnostic]:
    """A catalog model named twice in one lineage (the base again as a merge parent, by its id
    or an alias): its findings would be given twice, alike, counted twice and matched twice by
    waivers and baselines.  A merge's parents are the *other* models merged in."""
    for c, component in enumerate(manifest.components):
        seen: dict[str, str] = {}
        for entry, path in component.lineage.entries():
            if isinstance(entry, CandidateBases):
                continue
            model = library.model(entry.model)
            if model is None:
                continue
            where = (
                "as its base" if path == ("base",) else f"as a parent of step {int(path[1]) + 1}"
            )
            if model.id in seen:
                named = model.id if entry.model == model.id else f"{entry.model!r} ({model.id})"
                yield document.error(
                    ("components", c, "lineage", *path),
                    f"{named} is already in this lineage, {seen[model.id]}",
                    "name each model of a lineage once: a merge lists the other models merged "
                    "in, not one the lineage already has",
                )
            else:
                seen[model.id] = where


# -- license and clause ids ------------------------------------------------------------------


def _license_ids(manifest: Manifest, document: Document, library: Library) -> Iterator[Diagnostic]:
    hint = (
        "license ids are listed by `licheck licenses list`, clause ids by `licheck licenses "
        "show ID`"
    )
    for name, spec, path in _stated_facts(manifest):
        if name not in FACTS or FACTS[name].library_ids is None:
            continue
        for item, at in strings_claimed(spec, path):
            message = library_member_problem(name, item, library)
            if message:
                yield document.error(written_at(document, at), f"{name}: {message}", hint)


def library_member_problem(name: str, item: str, library: Library) -> str:
    """What is wrong with `item`, a member of the set fact `name` that names the library's
    licenses or clauses (`FactDef.library_ids`: `license_granted`, `agreement_waives`,
    `licensor_marks_used`, ...; a `policy:LICENSE-ID` tag); empty when nothing is (or the fact
    names nothing of the library).  A what-if `--set` is checked with it as a manifest is."""
    definition = FACTS.get(name)
    if definition is None:
        return ""
    if definition.library_ids == "clause":
        return _waiver_problem(item, library)
    if definition.library_ids == "license":
        return _license_problem(item, library)
    if item.startswith("policy:") and definition.prefixes:
        problem = _license_problem(item.removeprefix("policy:"), library)
        return f"{item!r}: {problem}" if problem else ""
    return ""


def _license_problem(license_id: str, library: Library) -> str:
    if license_id in library.licenses:
        return ""
    model = library.model(license_id)
    if model is not None:  # a model named where its license is meant: say which license
        from licheck.library.modelnames import license_words

        return f"{license_id!r} is a model, not a license: it is under {license_words(model)}"
    return (
        f"license {license_id!r} is not in the library"
        f"{suggest_id(license_id, list(library.licenses))}"
    )


def _waiver_problem(item: str, library: Library) -> str:
    license_id, slash, clause = item.partition("/")
    if not slash or not clause:
        return f"expected license-id/clause-id (or license-id/* for all of a license), got {item!r}"
    problem = _license_problem(license_id, library)
    if problem:
        return problem
    clauses = [c.clause.id for c in library.licenses[license_id].clauses]
    if clause != "*" and clause not in clauses:
        return f"license {license_id!r} has no clause {clause!r}{suggest(clause, clauses)}"
    return ""


def _stated_facts(manifest: Manifest) -> Iterator[tuple[str, FactSpec, Path_]]:
    for name, spec in sorted(manifest.facts.items()):
        yield name, spec, ("facts", name)
    for c, component in enumerate(manifest.components):
        for name, spec in sorted(component.facts.items()):
            yield name, spec, ("components", c, "facts", name)


# -- separate agreements ---------------------------------------------------------------------

_AGREEMENT_FACTS = ("agreement", "agreement_waives", "license_granted")


def _agreements(manifest: Manifest, document: Document, library: Library) -> Iterator[Diagnostic]:
    """`agreements:` beside the flat facts it implies (two statements of one thing, which could
    differ); each id an agreement grants or waives, in the library and the licensor's own."""
    if manifest.agreements is None:
        return
    for name, _spec, path in _stated_facts(manifest):
        if name in _AGREEMENT_FACTS:
            yield document.error(
                path,
                f"{name} is implied by agreements: and cannot also be stated",
                "state each agreement's grants and waives under agreements: (or drop agreements:)",
                at_key=True,
            )
    if not isinstance(manifest.agreements, list):
        return  # none
    hint = "license ids: `licheck licenses list`; clause ids: `licheck licenses show ID`"
    yield from _unknown_licensors(manifest.agreements, document, library)
    for a, agreement in enumerate(manifest.agreements):
        for key in ("grants", "waives"):
            for i, item in enumerate(getattr(agreement, key) or ()):
                at: Path_ = ("agreements", a, key, i)
                problem = (
                    _license_problem(item, library)
                    if key == "grants"
                    else _waiver_problem(item, library)
                )
                if problem:
                    yield document.error(at, f"{key}: {problem}", hint)
                    continue
                owner = library.licenses.licensor(item.partition("/")[0])
                if owner is not None and owner != agreement.licensor:
                    yield document.error(
                        at,
                        f"{key}: {item!r} is {owner}'s to grant or waive, not "
                        f"{agreement.licensor}'s",
                        f"an agreement through an intermediary names the licensor: "
                        f"licensor: {owner}, via: {agreement.licensor}",
                    )


def _flat_agreements(
    manifest: Manifest, document: Document, library: Library
) -> Iterator[Diagnostic]:
    """The flat `agreement` fact ruling out a licensor beside `agreement_waives` or
    `license_granted` that names that licensor's terms (the product's facts, and each
    component's over them): a waiver or grant without an agreement cannot both be true, and
    which statement is wrong only the author knows."""
    product: dict[str, tuple[FactSpec, Path_]] = {
        name: (spec, ("facts", name)) for name, spec in manifest.facts.items()
    }
    scopes = [product]
    for c, component in enumerate(manifest.components):
        own: dict[str, tuple[FactSpec, Path_]] = {
            n: (spec, ("components", c, "facts", n)) for n, spec in component.facts.items()
        }
        scopes.append({**product, **own})
    reported: set[tuple[Path_, str]] = set()
    for scope in scopes:
        if "agreement" not in scope:
            continue
        flat, flat_at = scope["agreement"]
        for name in ("agreement_waives", "license_granted"):
            if name not in scope:
                continue
            spec, at = scope[name]
            for item, owner in agreement_conflicts(flat, spec, library):
                if (at, item) in reported:
                    continue
                reported.add((at, item))
                yield document.error(
                    at,
                    f"{name} names {item!r}, {owner}'s, but agreement (line "
                    f"{document.locate(flat_at)[0]}) says there is no agreement with {owner}: "
                    "both cannot hold",
                    "correct one of them, or state the agreements once under agreements:",
                    at_key=True,
                )


def agreement_conflicts(flat: FactSpec, spec: FactSpec, library: Library) -> list[tuple[str, str]]:
    """Each member of `spec` (`agreement_waives` or `license_granted`) whose licensor the flat
    `agreement` fact rules out, with that licensor: (member, licensor)."""
    ruled_out = _ruled_out(flat, agreements.licensors_of(library))
    found = []
    for item in _claimed(spec):
        try:
            owner = library.licenses.licensor(item.partition("/")[0])
        except KeyError:
            continue  # not in the library: reported as such
        if owner is not None and owner in ruled_out:
            found.append((item, owner))
    return found


def _ruled_out(spec: FactSpec, licensors: set[str]) -> set[str]:
    """The licensors the flat `agreement` fact, or any piece of its evidence, says there is no
    agreement with."""
    found: set[str] = set()
    claims: list[FactSpec | Evidence] = [spec, *spec.evidence]
    for claim in claims:
        if isinstance(claim.value, list):
            found |= licensors - {str(v) for v in claim.value}
        found |= set(claim.excludes or ())
    return found


def _claimed(spec: FactSpec) -> list[str]:
    """What a set fact, or any piece of its evidence, says it includes."""
    items: list[str] = []
    claims: list[FactSpec | Evidence] = [spec, *spec.evidence]
    for claim in claims:
        if isinstance(claim.value, list):
            items += [str(v) for v in claim.value]
        elif isinstance(claim.value, str) and claim.value != "unknown":
            items.append(claim.value)
        items += claim.includes or []
    return list(dict.fromkeys(items))


def _unknown_licensors(
    listed: list[Agreement], document: Document, library: Library
) -> Iterator[Diagnostic]:
    """An agreement with a company that licenses nothing of the library could grant or waive
    nothing licheck reads: a misspelt licensor (`moonshot`) would leave the real one's terms as
    if no agreement existed."""
    known = agreements.licensors_of(library)
    for a, agreement in enumerate(listed):
        if agreement.licensor not in known:
            yield document.error(
                ("agreements", a, "licensor"),
                f"agreements: {agreement.licensor!r} is the licensor of no license in the "
                f"library{suggest(agreement.licensor, sorted(known))}",
                "an agreement counts only with the licensor of a license (its rule file's "
                "licensor: `licheck licenses show ID`); one with another company changes nothing",
            )


# -- closed vocabularies ---------------------------------------------------------------------


def closed_vocabularies(
    manifest: Manifest, document: Document, library: Library
) -> Iterator[Diagnostic]:
    """Each member of a closed-vocabulary set fact (`restricted_uses`, `improves_other_models`,
    `use_purpose`) that is not in its vocabulary, located at the member itself, and a
    `policy:LICENSE-ID` tag naming a license the library does not define.  The vocabulary check
    is `factchecks.unknown_members`, which a manifest that failed its shape check gets too."""
    for name, spec, path in _stated_facts(manifest):
        also = functools.partial(_library_member, library, name)
        yield from unknown_members(document, name, spec, path, also)


def _library_member(library: Library, name: str, item: str) -> str:
    problem = library_member_problem(name, item, library)
    return f"{name}: {problem}" if problem else ""


# -- contradictions --------------------------------------------------------------------------


_NON_COMMERCIAL = frozenset({"research", "evaluation", "academic", "personal"})


def _purpose(manifest: Manifest, document: Document) -> Iterator[Diagnostic]:
    """`commercial` against `use_purpose` (in each scope: the product's, each component's):
    a commercial product declared non-commercial, or the reverse, is refused, never both
    believed (which one is wrong only the author knows)."""
    product: dict[str, Path_] = {n: ("facts", n) for n in manifest.facts}
    scopes: list[tuple[dict[str, FactSpec], dict[str, Path_]]] = [(manifest.facts, product)]
    for c, component in enumerate(manifest.components):
        merged = {**manifest.facts, **component.facts}
        paths = dict(product)
        paths.update({n: ("components", c, "facts", n) for n in component.facts})
        scopes.append((merged, paths))
    seen: set[Path_] = set()
    for specs, paths in scopes:
        why = purpose_conflict(specs.get("commercial"), specs.get("use_purpose"))
        if why and paths["use_purpose"] not in seen:
            seen.add(paths["use_purpose"])
            yield document.error(paths["use_purpose"], why, PURPOSE_HINT, at_key=True)


PURPOSE_HINT = (
    "state both from the same facts: a product offered for revenue is commercial "
    "(commercial_product); research, evaluation, academic or personal use alone is not"
)


def purpose_conflict(commercial: FactSpec | None, purpose: FactSpec | None) -> str:
    """How `commercial` and `use_purpose`, as stated in one scope, contradict each other ('' where
    they do not); a what-if's values are checked with it as a manifest's are."""
    if commercial is None or purpose is None or not isinstance(commercial.value, bool):
        return ""
    stated = purpose.value if isinstance(purpose.value, list) else None
    named = set(stated if stated is not None else purpose.includes or [])
    if commercial.value is False and "commercial_product" in named:
        return "use_purpose includes commercial_product, but commercial is false"
    if commercial.value and stated and set(stated) <= _NON_COMMERCIAL:
        return f"commercial is true, but use_purpose is only {', '.join(sorted(stated))}"
    return ""


def _part_of_whole(manifest: Manifest, document: Document) -> Iterator[Diagnostic]:
    rates = _rates(manifest)
    product_paths: dict[str, Path_] = {name: ("facts", name) for name in manifest.facts}
    scopes: list[tuple[Mapping[str, FactSpec], Mapping[str, Path_]]] = [
        (manifest.facts, product_paths)
    ]
    for c, component in enumerate(manifest.components):
        merged = {**manifest.facts, **component.facts}
        located = {
            **product_paths,
            **{name: ("components", c, "facts", name) for name in component.facts},
        }
        scopes.append((merged, located))
    for specs, paths in scopes:
        for part, whole, periods in _PART_OF:
            if part not in specs or whole not in specs:
                continue
            low, high = _interval(part, specs[part], rates), _interval(whole, specs[whole], rates)
            if low is None or high is None or high.hi is None:
                continue
            total = high.hi * periods
            if low.lo > total or (low.lo == total and not (low.lo_closed and high.hi_closed)):
                whole_words = f"{high}" if periods == 1 else f"{high}, {periods} months of it"
                yield document.error(
                    paths[whole],
                    f"{whole} ({whole_words}) is less than {part} ({low}): the licensee's "
                    f"figure includes this product's",
                    "check both figures and their units",
                )


def _interval(name: str, spec: FactSpec, rates: dict[str, Fraction]) -> Interval | None:
    try:
        domain = claim_domain(FACTS[name], spec, rates)
    except (FactError, UnitError):
        return None  # reported where the fact is resolved
    return domain if isinstance(domain, Interval) else None


def _rates(manifest: Manifest) -> dict[str, Fraction]:
    return exchange_rates(manifest.currency_rates)[0]  # the problems: reported by the evaluation
