"""A brute-force oracle for issue 21's exactness class: agreements (several per licensor, several
licensors, the flat facts or the structured list, disputed evidence, terms known or unknown),
display names with near-matches beside exclusions, and revenue stated by the month, the year or
as ARR.

The expected verdict is computed here from the clauses' words alone, over every completion:

- Kimi K2.5 (and K2): commercial, and more than 100M users or more than 20M USD of monthly
  revenue, must show "Kimi K2.5" ("Kimi K2") unless a separate agreement with Moonshot AI waives
  the clause (its id or the license's `/*`);
- MiniMax M2: more than 100M users or more than 30M USD of annual recurring revenue, "MiniMax
  M2" unless MiniMax waives it; a twelfth of ARR is at most the month's revenue;
- Qwen's gate: commercial and more than 100M users needs Alibaba Cloud's grant of the license.

How the manifest's statements constrain a completion is read independently of licheck: a month's
figure is that month, a year's total says nothing of one month, ARR floors it (and ARR's twelfth
is at most the month: figures that cannot both hold, even one weakly evidenced, leave both open,
as a fact's own contradicting evidence does); a name shown that differs from the one asked for
only in case or white space may or may not be it, beside an exclusion of the exact name too;
each agreement exists or not as its evidence allows (established pieces that show and deny it,
or weaker ones against the established, leave it open), one with unknown terms may waive or
grant anything of its licensor's, and the list is complete; the flat `agreement` fact ruling
out a licensor whose terms `agreement_waives` or `license_granted` names is a contradiction
(refused).  Nothing of licheck's engine, facts or agreements is called.
"""

from __future__ import annotations

import dataclasses
import itertools
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from licheck.core.diagnostics import InputError
from licheck.evaluation.evaluate import Options, ProductResult, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files.yamlsafe import parse
from licheck.inputs.manifest import Manifest
from licheck.library.compiled import load_library
from licheck.loading.documents import validate
from licheck.whatif.scenario import Scenario, Subject, apply
from licheck.whatif.spec import ScenarioError, parse_assignment

LIBRARY = load_library()
M = Fraction(10**6)

# -- the clauses, as their texts read ----------------------------------------------------------


@dataclass(frozen=True)
class Clause:
    license: str
    clause: str
    component: str
    base: str
    licensor: str
    name: str | None  # the name to display; None: a gate, met by a grant
    members: frozenset[str]  # what waives it (agreement_waives), or grants it (license_granted)


KIMI25 = Clause(
    "kimi-k2.5-modified-mit",
    "ui-attribution",
    "k25",
    "kimi-k2.5",
    "moonshot-ai",
    "Kimi K2.5",
    frozenset({"kimi-k2.5-modified-mit/ui-attribution", "kimi-k2.5-modified-mit/*"}),
)
KIMI2 = Clause(
    "kimi-k2-modified-mit",
    "ui-attribution",
    "k2",
    "kimi-k2",
    "moonshot-ai",
    "Kimi K2",
    frozenset({"kimi-k2-modified-mit/ui-attribution", "kimi-k2-modified-mit/*"}),
)
MINIMAX = Clause(
    "minimax-m2-modified-mit",
    "ui-attribution",
    "mm",
    "minimax-m2",
    "minimax",
    "MiniMax M2",
    frozenset({"minimax-m2-modified-mit/ui-attribution", "minimax-m2-modified-mit/*"}),
)
QWEN = Clause(
    "tongyi-qianwen",
    "mau-gate",
    "qw",
    "qwen-72b",
    "alibaba-cloud",
    None,
    frozenset({"tongyi-qianwen"}),
)
CLAUSES = (KIMI25, KIMI2, MINIMAX, QWEN)

# What each licensor's agreements may waive or grant (a few members no clause above reads, too).
WAIVABLE = {
    "moonshot-ai": sorted(
        KIMI25.members | KIMI2.members | {"kimi-k2.5-modified-mit/copyright-notice"}
    ),
    "minimax": sorted(MINIMAX.members),
    "alibaba-cloud": ["tongyi-qianwen/mau-gate", "tongyi-qianwen/*"],
    "meta": ["llama-3.1-community/*"],
}
GRANTABLE = {
    "moonshot-ai": ["kimi-k2.5-modified-mit"],
    "minimax": ["minimax-m2-modified-mit"],
    "alibaba-cloud": ["tongyi-qianwen"],
    "meta": ["llama-3.1-community"],
}
LICENSORS = sorted(WAIVABLE)


def licensor_of(member: str) -> str:
    license_id = member.partition("/")[0]
    return next(
        who
        for who in LICENSORS
        if license_id in GRANTABLE[who]
        or any(m.startswith(license_id + "/") for m in WAIVABLE[who])
    )


# -- evidence, as the design's policies count it ------------------------------------------------

ESTABLISHING = {
    "default": {"observed", "official_statement", "licensor_statement", "declared"},
    "estimates": {
        "observed",
        "official_statement",
        "licensor_statement",
        "declared",
        "press_report",
        "community_inference",
    },
}
SUGGESTING = {"default": {"press_report", "community_inference"}, "estimates": set()}


def piece(kind: str, day: int, *, denies: bool = False, retracted: bool = False) -> dict[str, Any]:
    found: dict[str, Any] = {"source": f"{kind} {day}", "kind": kind, "date": f"2026-01-{day:02d}"}
    if denies:
        found["value"] = False
    if retracted:
        found["retracted_on"] = "2026-02-01"
    return found


EXISTENCE_EVIDENCE = [
    [],
    [piece("official_statement", 10)],
    [piece("press_report", 11)],
    [piece("rumour", 12)],
    [piece("licensor_statement", 13, denies=True)],
    [piece("press_report", 14, denies=True)],
    [piece("official_statement", 10), piece("licensor_statement", 13, denies=True)],
    [piece("press_report", 11), piece("licensor_statement", 13, denies=True)],
    [piece("official_statement", 10), piece("press_report", 14, denies=True)],
    [piece("official_statement", 10, retracted=True)],
    [piece("official_statement", 10), piece("rumour", 15, denies=True)],
]


def exists(evidence: list[dict[str, Any]], policy: str) -> frozenset[bool]:
    """Whether an agreement exists, over the completions its evidence allows."""
    pieces = evidence or [{"kind": "declared"}]
    counted = [p for p in pieces if p["kind"] != "rumour" and "retracted_on" not in p]
    shown = {p["kind"] for p in counted if p.get("value") is not False}
    denied = {p["kind"] for p in counted if p.get("value") is False}
    strong, weak = ESTABLISHING[policy], SUGGESTING[policy]
    contradicted = (shown & strong and denied & (strong | weak)) or (
        denied & strong and shown & weak
    )
    if contradicted:
        return frozenset({True, False})  # contradicting evidence: either
    if shown & strong:
        return frozenset({True})
    if denied & strong:
        return frozenset({False})
    return frozenset({True, False})


# -- the manifest's parts: each with what it allows -------------------------------------------

BOTH = frozenset({True, False})


@dataclass(frozen=True)
class Revenue:
    spec: Any  # monthly_revenue as stated (None: not stated)
    allows: tuple[
        tuple[Fraction | None, bool], tuple[Fraction | None, bool]
    ]  # (lo, strict), (hi, strict)
    # a twelfth of ARR, where the month is written as ARR and ARR itself is not stated: the
    # figure bounds it from below (audit s3-B m-3)
    arr_floor: Any = None


def month(lo: Fraction | None = None, hi: Fraction | None = None) -> Any:
    return ((lo, False), (hi, False))


OFFICIAL = piece("official_statement", 20)
PRESS = piece("press_report", 21)
REVENUES = [
    Revenue(None, month()),
    Revenue("30M USD/month", month(30 * M, 30 * M)),
    Revenue("10M USD/month", month(10 * M, 10 * M)),
    Revenue("2M USD/month", month(2 * M, 2 * M)),
    Revenue("300M USD/year", month()),  # a year's total: any month
    Revenue("120M USD/year", month()),
    # ARR: the month at least a twelfth of it, and an unstated ARR at least the figure
    Revenue("300M USD ARR", month(25 * M), month(25 * M)),
    Revenue("120M USD ARR", month(10 * M), month(10 * M)),
    Revenue(
        {
            "value": "30M USD/month",
            "evidence": [OFFICIAL, {**OFFICIAL, "source": "AR", "value": "240M USD/year"}],
        },
        month(30 * M, 30 * M),
    ),
    Revenue(
        {"value": "10M USD/month", "evidence": [OFFICIAL, {**PRESS, "value": "300M USD/year"}]},
        month(10 * M, 10 * M),
    ),
    Revenue({"at_least": "25M USD/month", "at_most": "240M USD/year"}, month(25 * M)),
    Revenue({"at_least": "300M USD/year", "at_most": "20M USD/month"}, month(None, 20 * M)),
    Revenue({"at_least": "100M USD/year", "at_most": "400M USD/year"}, month()),
    Revenue({"series": {"2026-09": "30M USD/month", "2026-10": "300M USD/year"}}, month()),
]
# annual_recurring_revenue (per year): its twelfth, as the month's revenue is read
ARRS: list[tuple[Any, Any]] = [
    (None, month()),
    ("40M USD", month(40 * M / 12, 40 * M / 12)),
    ("24M USD/year", month(2 * M, 2 * M)),
    ({"value": "40M USD", "evidence": [PRESS]}, "press"),
]
MAUS: list[tuple[Any, Any]] = [
    (None, (50, 100, 101, 150)),
    ("50M", (50,)),
    ("150M", (150,)),
    ({"at_least": "100M"}, (100, 101, 150)),
    ({"value": "150M", "evidence": [PRESS]}, "press"),
]


def within(value: Fraction, bounds: Any) -> bool:
    (lo, lo_strict), (hi, hi_strict) = bounds
    if lo is not None and (value < lo or (lo_strict and value == lo)):
        return False
    return not (hi is not None and (value > hi or (hi_strict and value == hi)))


# Months' revenue and ARR twelfths to try: each threshold, and either side of it.
MONEY = sorted(
    {Fraction(0), 2 * M, Fraction(5, 2) * M, Fraction(5, 2) * M + 1, 10 * M, 40 * M / 12, 20 * M}
    | {20 * M + 1, 25 * M, 30 * M, 100 * M}
)


def normal(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def near(shown: str, name: str) -> bool:
    return shown != name and normal(shown) == normal(name)


NAMES = ["Kimi K2.5", "Kimi K2", "MiniMax M2"]
# near-matches, and one that is not (a hyphen for the space: another spelling)
NEAR_NAMES = ["KIMI K2.5", "Kimi\u00a0K2.5", "kimi k2", "MINIMAX M2", "Kimi  K2.5", "Kimi-K2.5"]


@dataclass(frozen=True)
class Display:
    spec: Any  # ui_attribution as stated (None: not stated)
    exact: frozenset[str] | None = None
    includes: frozenset[str] = frozenset()
    excludes: frozenset[str] = frozenset()
    press: bool = False

    def shows(self, name: str, policy: str) -> frozenset[bool]:
        """Whether the interface shows `name`, over the completions."""
        if self.spec is None or (self.press and policy == "default"):
            return BOTH
        members = self.exact if self.exact is not None else self.includes
        if name in members:
            return frozenset({True})
        maybe = any(near(m, name) for m in members)
        if self.exact is not None or name in self.excludes:
            return BOTH if maybe else frozenset({False})
        return BOTH


@st.composite
def displays(draw: st.DrawFn) -> Display:
    shape = draw(st.sampled_from(["unstated", "exact", "partial", "press"]))
    pool = st.sampled_from(NAMES + NEAR_NAMES)
    if shape == "unstated":
        return Display(None)
    if shape in ("exact", "press"):
        shown = frozenset(draw(st.lists(pool, max_size=3, unique=True)))
        spec: Any = sorted(shown)
        if shape == "press":
            spec = {"value": sorted(shown), "evidence": [PRESS]}
        return Display(spec, exact=shown, press=shape == "press")
    includes = frozenset(draw(st.lists(pool, max_size=3, unique=True)))
    excludes = frozenset(draw(st.lists(st.sampled_from(NAMES), max_size=2, unique=True))) - includes
    spec = {k: sorted(v) for k, v in (("includes", includes), ("excludes", excludes)) if v}
    if not spec:
        return Display(None)
    return Display(spec, includes=includes, excludes=excludes)


# -- agreements -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Listed:
    licensor: str
    waives: tuple[str, ...] | None  # None: unknown
    grants: tuple[str, ...] | None
    evidence: tuple[tuple[tuple[str, Any], ...], ...]

    def entry(self) -> dict[str, Any]:
        found: dict[str, Any] = {"licensor": self.licensor}
        if self.waives is None and self.grants is None:
            found["terms"] = "unknown"
        if self.waives is not None:
            found["waives"] = list(self.waives)
        if self.grants is not None:
            found["grants"] = list(self.grants)
        if self.evidence:
            found["evidence"] = [dict(p) for p in self.evidence]
        return found

    def gives(self, members: frozenset[str], fact: str) -> str:
        terms = self.waives if fact == "agreement_waives" else self.grants
        if terms is None:
            return "maybe"
        return "always" if members & set(terms) else "never"


@st.composite
def listed_agreements(draw: st.DrawFn) -> list[Listed]:
    found = []
    for _ in range(draw(st.integers(1, 4))):
        licensor = draw(st.sampled_from(["moonshot-ai", "moonshot-ai", *LICENSORS]))
        terms = draw(st.sampled_from(["unknown", "known", "waives only", "grants only"]))

        def subset(pool: list[str]) -> tuple[str, ...]:
            return tuple(draw(st.lists(st.sampled_from(pool), max_size=2, unique=True)))

        waives = subset(WAIVABLE[licensor]) if terms in ("known", "waives only") else None
        grants = subset(GRANTABLE[licensor]) if terms in ("known", "grants only") else None
        evidence = draw(st.sampled_from(EXISTENCE_EVIDENCE))
        found.append(
            Listed(licensor, waives, grants, tuple(tuple(sorted(p.items())) for p in evidence))
        )
    return found


@dataclass(frozen=True)
class Flat:
    agreement: Any  # the flat `agreement` fact (None: not stated)
    waives: tuple[str, ...] | None
    grants: tuple[str, ...] | None
    component: str | None = None  # stated by that component; None: by the product

    def stated(self) -> dict[str, Any]:
        found = {
            "agreement": self.agreement,
            "agreement_waives": list(self.waives) if self.waives is not None else None,
            "license_granted": list(self.grants) if self.grants is not None else None,
        }
        return {name: value for name, value in found.items() if value is not None}

    def ruled_out(self) -> set[str]:
        if isinstance(self.agreement, list):
            return set(LICENSORS) - set(self.agreement)
        if isinstance(self.agreement, dict):
            return set(self.agreement.get("excludes", ()))
        return set()

    def contradiction(self) -> bool:
        named = [*(self.waives or ()), *(self.grants or ())]
        return any(licensor_of(m) in self.ruled_out() for m in named)

    def holds(self, clause: Clause, fact: str) -> frozenset[bool]:
        if self.component not in (None, clause.component):
            return BOTH  # another component's statement
        stated = self.waives if fact == "agreement_waives" else self.grants
        if stated is not None:
            return frozenset({bool(clause.members & set(stated))})
        if self.agreement is not None and clause.licensor in self.ruled_out():
            return frozenset({False})
        return BOTH


@st.composite
def flat_agreements(draw: st.DrawFn) -> Flat:
    shape = draw(st.sampled_from(["list", "includes", "excludes", "unstated"]))
    chosen = sorted(set(draw(st.lists(st.sampled_from(LICENSORS), max_size=2))))
    agreement: Any = {
        "list": chosen,
        "includes": {"includes": chosen} if chosen else None,
        "excludes": {"excludes": chosen} if chosen else None,
        "unstated": None,
    }[shape]
    everything_waived = sorted({m for pool in WAIVABLE.values() for m in pool})
    everything_granted = sorted({m for pool in GRANTABLE.values() for m in pool})
    waives = draw(st.none() | st.lists(st.sampled_from(everything_waived), max_size=2, unique=True))
    grants = draw(
        st.none() | st.lists(st.sampled_from(everything_granted), max_size=1, unique=True)
    )
    return Flat(
        agreement,
        tuple(waives) if waives is not None else None,
        tuple(grants) if grants is not None else None,
        draw(st.sampled_from([None, None, *(c.component for c in CLAUSES)])),
    )


def agreement_holds(form: Any, clause: Clause, policy: str) -> frozenset[bool]:
    """Whether a separate agreement waives (or, for the gate, grants) the clause, over the
    completions."""
    fact = "agreement_waives" if clause.name is not None else "license_granted"
    if form is None:
        return BOTH
    if form == "none":
        return frozenset({False})
    if isinstance(form, Flat):
        return form.holds(clause, fact)
    mine = [
        (a, exists([dict(p) for p in a.evidence], policy))
        for a in form
        if a.licensor == clause.licensor
    ]
    may = any(True in e and a.gives(clause.members, fact) != "never" for a, e in mine)
    may_not = all(False in e or a.gives(clause.members, fact) != "always" for a, e in mine)
    return frozenset({True} if may else set()) | frozenset({False} if may_not else set())


# -- the oracle -------------------------------------------------------------------------------


def verdict_from(outcomes: set[str]) -> str:
    if outcomes == {"not triggered"}:
        return "not_applicable"
    if "fails" not in outcomes:
        return "satisfied"
    if outcomes == {"fails"}:
        return "violation"
    return "governance_risk"


@dataclass(frozen=True)
class Product:
    policy: str
    mau: int
    revenue: int
    arr: int
    display: Display
    agreements: Any  # None, "none", a list of Listed, or a Flat
    beside: Flat | None = None  # flat facts stated beside `agreements:` as well

    def manifest(self) -> dict[str, Any]:
        stated = {
            "mau": MAUS[self.mau][0],
            "monthly_revenue": REVENUES[self.revenue].spec,
            "annual_recurring_revenue": ARRS[self.arr][0],
            "ui_attribution": self.display.spec,
        }
        facts: dict[str, Any] = {
            "commercial": True,
            **{name: spec for name, spec in stated.items() if spec is not None},
        }
        data: dict[str, Any] = {"product": "P", "owner": "O", "facts": facts}
        form = self.agreements
        if form == "none":
            data["agreements"] = "none"
        elif isinstance(form, list):
            data["agreements"] = [a.entry() for a in form]
        flats = [f for f in (form, self.beside) if isinstance(f, Flat)]
        data["components"] = [
            {
                "id": c.component,
                "name": c.component,
                "delivery": ["hosted_service"],
                "lineage": {"base": {"model": c.base, "obtained": "2026-03-01"}},
                "facts": {"derivative": True},
            }
            for c in CLAUSES
        ]
        for flat in flats:
            where = [c["facts"] for c in data["components"] if c["id"] == flat.component]
            (where[0] if where else facts).update(flat.stated())
        return data

    def maus(self) -> tuple[int, ...]:
        values = MAUS[self.mau][1]
        if values == "press":
            return (50, 100, 101, 150) if self.policy == "default" else (150,)
        return tuple(values)

    def money(
        self, revenue_bounds: Any = None, what_if_floor: Any = None
    ) -> Iterable[tuple[Fraction, Fraction]]:
        """(a month's revenue, a twelfth of ARR) pairs the facts allow: ARR/12 ≤ the month
        (`revenue_bounds`: a what-if's in place of the manifest's, and `what_if_floor` the floor
        its figure written as ARR puts under an unstated ARR, as the manifest's would)."""
        bounds = revenue_bounds or REVENUES[self.revenue].allows
        arr_bounds, weak = ARRS[self.arr][1], None
        floor = REVENUES[self.revenue].arr_floor if revenue_bounds is None else what_if_floor
        if ARRS[self.arr][0] is None and floor is not None:
            arr_bounds = floor
        if arr_bounds == "press":  # 40M USD of ARR, in a press report
            reported = month(40 * M / 12, 40 * M / 12)
            arr_bounds, weak = (month(), reported) if self.policy == "default" else (reported, None)
        every = [(r, a) for r, a in itertools.product(MONEY, MONEY) if a <= r]
        if weak is not None and not any(within(r, bounds) and within(a, weak) for r, a in every):
            return every  # a weaker figure against the established ones: neither is believed
        pairs = [
            (revenue, arr)
            for revenue, arr in itertools.product(MONEY, MONEY)
            if within(revenue, bounds) and within(arr, arr_bounds)
        ]
        possible = [(revenue, arr) for revenue, arr in pairs if arr <= revenue]
        if pairs and not possible:  # figures that contradict each other: neither is believed
            return every
        return possible

    def expected(
        self,
        clause: Clause,
        revenue_bounds: Any = None,
        agreements: Any = None,
        what_if_floor: Any = None,
    ) -> str:
        """The clause's verdict over every completion (a what-if's revenue bounds, the ARR floor
        its figure sets, and agreements in place of the manifest's, where given)."""
        if isinstance(self.agreements, Flat) and self.agreements.contradiction():
            return "error"
        if self.beside is not None and self.beside.stated():
            return "error"  # the flat facts beside agreements: (two statements of one thing)
        outcomes = set()
        shown = self.display.shows(clause.name, self.policy) if clause.name else BOTH
        agreed = agreement_holds(agreements or self.agreements, clause, self.policy)
        for users, (revenue, arr), display, agreement in itertools.product(
            self.maus(), self.money(revenue_bounds, what_if_floor), shown, agreed
        ):
            if clause is QWEN:
                triggered = users > 100
            elif clause is MINIMAX:
                triggered = users > 100 or arr * 12 > 30 * M
            else:
                triggered = users > 100 or revenue > 20 * M
            if not triggered:
                outcomes.add("not triggered")
            elif clause is QWEN:
                outcomes.add("holds" if agreement else "fails")
            elif agreement:
                outcomes.add("lifted")
            else:
                outcomes.add("holds" if display else "fails")
        return verdict_from(outcomes)


@st.composite
def products(draw: st.DrawFn) -> Product:
    form = draw(st.sampled_from(["unstated", "none", "listed", "listed", "listed", "flat"]))
    agreements: Any = {
        "unstated": None,
        "none": "none",
        "listed": draw(listed_agreements()) if form == "listed" else None,
        "flat": draw(flat_agreements()) if form == "flat" else None,
    }[form]
    # now and then, flat facts beside the list too (refused: two statements of one thing)
    together = form in ("none", "listed") and draw(st.integers(0, 3)) == 0
    beside = draw(flat_agreements()) if together else None
    return Product(
        draw(st.sampled_from(["default", "estimates"])),
        draw(st.integers(0, len(MAUS) - 1)),
        draw(st.integers(0, len(REVENUES) - 1)),
        draw(st.integers(0, len(ARRS) - 1)),
        draw(displays()),
        agreements,
        beside,
    )


def licheck_verdicts(product: Product, likely: bool = False) -> dict[Clause, str]:
    """Each clause's verdict (`likely`: with weak evidence admitted), or `error` for all."""
    text = yaml.safe_dump(product.manifest(), sort_keys=False, allow_unicode=True)
    document = parse(text, "m.yaml")
    try:
        manifest = validate(document, Manifest)
        result = evaluate_manifest(manifest, document, LIBRARY, Options(POLICIES[product.policy]))
    except InputError as exc:
        assert all(d.file == "m.yaml" and d.line for d in exc.diagnostics), exc.diagnostics
        return dict.fromkeys(CLAUSES, "error")
    return {clause: verdict_in(result, clause, likely) for clause in CLAUSES}


def verdict_in(result: ProductResult, clause: Clause, likely: bool = False) -> str:
    (finding,) = [
        f
        for f in result.findings
        if (f.component, f.license, f.clause) == (clause.component, clause.license, clause.clause)
    ]
    verdict = finding.likely_verdict if likely and finding.likely_verdict else finding.verdict
    return verdict.value


# -- what-if: --set monthly_revenue and --set agreement ---------------------------------------

SET_REVENUES = [
    ("30M USD/month", month(30 * M, 30 * M)),
    ("10M USD/month", month(10 * M, 10 * M)),
    ("300M USD/year", month()),  # a year's total: any month
    ("300M USD ARR", month(25 * M)),  # and an unstated ARR at least 300M (`WHATIF_ARR_FLOORS`)
    ("..20M USD/month", month(None, 20 * M)),
    ("25M USD/month..", month(25 * M)),
    ("25M USD/month..240M USD/year", month(25 * M)),  # a month's floor beside a year's total
]
# a what-if figure written as ARR means what the manifest's does (`REVENUES`' third column): an
# unstated ARR at least the figure (facts.measurement; it was left out for a what-if here, and
# licheck's violation of MiniMax M2's ARR gate under `--set monthly_revenue=300M USD ARR` read as
# a disagreement)
WHATIF_ARR_FLOORS = {
    i: month(25 * M) for i, (spec, _) in enumerate(SET_REVENUES) if spec == "300M USD ARR"
}
SET_AGREEMENTS = [[], ["meta"], ["moonshot-ai"], ["moonshot-ai", "alibaba-cloud"], ["minimax"]]


def _ends(bounds: Any) -> tuple[Fraction, Fraction | None]:
    (lo, _), (hi, _) = bounds
    return lo or Fraction(0), hi


def refused(established: Any, supposed: Any) -> bool:
    """A what-if value that overlaps what the manifest establishes and reaches beyond it would
    widen what is known: refused (one inside it narrows it; one apart from it is a
    counterfactual)."""
    if established == month():
        return False  # nothing established of the month
    (lo, hi), (s_lo, s_hi) = _ends(established), _ends(supposed)
    apart = (hi is not None and s_lo > hi) or (s_hi is not None and s_hi < lo)
    inside = s_lo >= lo and (hi is None or (s_hi is not None and s_hi <= hi))
    return not apart and not inside


@dataclass(frozen=True)
class WhatIf:
    product: Product
    revenue: int | None  # an index of SET_REVENUES
    agreement: int | None  # an index of SET_AGREEMENTS

    def options(self) -> list[str]:
        found = []
        if self.revenue is not None:
            found.append(f"monthly_revenue={SET_REVENUES[self.revenue][0]}")
        if self.agreement is not None:
            found.append(f"agreement=[{', '.join(SET_AGREEMENTS[self.agreement])}]")
        return found

    def expected(self, clause: Clause) -> str:
        bounds = SET_REVENUES[self.revenue][1] if self.revenue is not None else None
        floor = WHATIF_ARR_FLOORS.get(self.revenue) if self.revenue is not None else None
        if bounds is not None and refused(REVENUES[self.product.revenue].allows, bounds):
            return "error"
        agreements = None
        if self.agreement is not None:  # --set agreement=X means what the flat fact means
            agreements = Flat(SET_AGREEMENTS[self.agreement], None, None)
        return self.product.expected(clause, bounds, agreements, floor)


@st.composite
def what_ifs(draw: st.DrawFn) -> WhatIf:
    product = draw(
        products().filter(lambda p: not isinstance(p.agreements, Flat) and p.beside is None)
    )
    revenue = draw(st.none() | st.integers(0, len(SET_REVENUES) - 1))
    agreement = draw(st.none() | st.integers(0, len(SET_AGREEMENTS) - 1))
    if revenue is None and agreement is None:
        revenue = 0
    return WhatIf(product, revenue, agreement)


def licheck_what_if(what_if: WhatIf) -> dict[Clause, str]:
    product = what_if.product
    text = yaml.safe_dump(product.manifest(), sort_keys=False, allow_unicode=True)
    document = parse(text, "m.yaml")
    options = Options(POLICIES[product.policy])
    subject = Subject(validate(document, Manifest), document, LIBRARY, options)
    try:
        scenario = Scenario(tuple(parse_assignment(o) for o in what_if.options()))
        result = subject.evaluate(apply(subject, scenario).options)
    except ScenarioError:
        return dict.fromkeys(CLAUSES, "error")
    return {clause: verdict_in(result, clause) for clause in CLAUSES}


ORACLE = settings(
    max_examples=150, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)


@pytest.mark.slow
@ORACLE
@given(products())
def test_verdicts_equal_the_oracle_over_completions(product: Product) -> None:
    got = licheck_verdicts(product)
    expected = {clause: product.expected(clause) for clause in CLAUSES}
    assert got == expected, product.manifest()


# A year's total gives the average month as its likely value, which no policy establishes.
AVERAGED = {i for i, r in enumerate(REVENUES) if r.spec in ("300M USD/year", "120M USD/year")}
AVERAGED |= {i for i, r in enumerate(REVENUES) if isinstance(r.spec, dict) and "at_most" in r.spec}


@pytest.mark.slow
@settings(ORACLE, max_examples=80)
@given(products().filter(lambda p: p.policy == "default" and p.revenue not in AVERAGED))
def test_likely_verdicts_equal_the_oracle_with_weak_evidence_admitted(product: Product) -> None:
    """The likely verdict counts press reports and community inference as the estimates
    policy does: the oracle's verdict under it (agreements' likely existence included)."""
    got = licheck_verdicts(product, likely=True)
    admitted = dataclasses.replace(product, policy="estimates")
    assert got == {clause: admitted.expected(clause) for clause in CLAUSES}, product.manifest()


NO_FACTS = Product(
    "default", 0, 0, 0, Display([], frozenset(), frozenset(), frozenset(), False), "none"
)


@pytest.mark.slow
@settings(ORACLE, max_examples=80)
@given(what_ifs())
# MiniMax M2's ARR gate under a what-if figure written as ARR: a violation, as in the manifest
@example(WhatIf(NO_FACTS, next(iter(WHATIF_ARR_FLOORS)), None))
def test_what_if_verdicts_equal_the_oracle(what_if: WhatIf) -> None:
    got = licheck_what_if(what_if)
    expected = {clause: what_if.expected(clause) for clause in CLAUSES}
    assert got == expected, (what_if.options(), what_if.product.manifest())


def shown(*names: str) -> Display:
    return Display(sorted(names), exact=frozenset(names))


def agreed(licensor: str, waives: Any, grants: Any, evidence: int) -> Listed:
    """A listed agreement with the evidence `EXISTENCE_EVIDENCE[evidence]`."""
    pieces = tuple(tuple(sorted(p.items())) for p in EXISTENCE_EVIDENCE[evidence])
    return Listed(licensor, waives, grants, pieces)


SHOWN_AND_DENIED, REPORTED, TERMS_REPORTED_AND_DENIED = 6, 2, 7
ISSUE_EXAMPLES = [
    # two agreements with Moonshot: one disputed, one only reported
    Product(
        "default",
        2,
        0,
        0,
        shown(),
        [
            agreed(
                "moonshot-ai", ("kimi-k2.5-modified-mit/ui-attribution",), None, SHOWN_AND_DENIED
            ),
            agreed("moonshot-ai", ("kimi-k2.5-modified-mit/*",), None, REPORTED),
        ],
    ),
    # a disputed agreement with MiniMax leaves Moonshot's and Alibaba's terms as they are
    Product(
        "default",
        2,
        1,
        1,
        shown("Kimi K2"),
        [
            agreed("moonshot-ai", (), (), 0),
            agreed("alibaba-cloud", None, ("tongyi-qianwen",), 0),
            agreed("minimax", tuple(sorted(MINIMAX.members)), None, SHOWN_AND_DENIED),
        ],
    ),
    # terms unknown, reported and denied
    Product(
        "default", 2, 0, 0, shown(), [agreed("moonshot-ai", None, None, TERMS_REPORTED_AND_DENIED)]
    ),
    # the flat facts contradicting each other
    Product("default", 2, 0, 0, shown(), Flat([], ("kimi-k2.5-modified-mit/*",), None)),
    # a near-match beside the excluded exact name
    Product(
        "default",
        2,
        0,
        0,
        Display(
            {"includes": ["KIMI K2.5"], "excludes": ["Kimi K2.5"]},
            includes=frozenset({"KIMI K2.5"}),
            excludes=frozenset({"Kimi K2.5"}),
        ),
        "none",
    ),
    # a month's figure beside a year's total (an official one, a press estimate), 50M users
    Product("default", 1, 8, 0, shown(), "none"),
    Product("estimates", 1, 9, 0, shown(), "none"),
]


EXAMPLE_NAMES = [
    "disputed beside reported",
    "dispute stays with its licensor",
    "terms unknown reported and denied",
    "flat contradiction",
    "near-match beside excluded name",
    "month beside an official year",
    "month beside a press year",
]


@pytest.mark.parametrize("product", ISSUE_EXAMPLES, ids=EXAMPLE_NAMES)
def test_the_issue_examples_equal_the_oracle(product: Product) -> None:
    got = licheck_verdicts(product)
    assert got == {clause: product.expected(clause) for clause in CLAUSES}
