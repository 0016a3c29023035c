"""Each product is judged alone: a portfolio checked together — in any order, in one process or
in several — gives every product exactly the report it gets when checked alone (issue 21,
deliverable 1).

The portfolios are generated to meet every memo table of a run: near-matches of the names a
clause asks for (case, white space, typography: `KIMI K2.5`, a "Llama" prefix written `llama-`),
several candidate bases, agreements (none, terms unknown, waiving, disputed, the flat facts),
monthly series, facts stated per model, owners that are (or resemble) a licensor, and values on
either side of the thresholds.  They go through the path `licheck check` takes
(`portfolio.runs.check_stream`: discovery, `portfolio.iter_mapped`, each product rendered where
it is evaluated, the run's memo tables shared by every product of a process), and each
product's part of the JSON report is compared whole; nothing in it names the run.
"""

from __future__ import annotations

import contextlib
import copy
import datetime as dt
import io
import json
import tempfile
from collections.abc import Iterator, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from licheck.core.context import EvaluationContext
from licheck.core.diagnostics import InputError
from licheck.core.units import Dimension
from licheck.core.verdicts import Verdict
from licheck.engine.cells import Rule
from licheck.engine.conditions import Test, strings_read
from licheck.engine.domains import Booleans, Domain, Interval, Strings, StringSet
from licheck.engine.tables import Compiled, compile_rule
from licheck.evaluation import judging
from licheck.evaluation.derivation import Derivation
from licheck.evaluation.evaluate import Hypotheses, Options, evaluate_manifest
from licheck.evaluation.judging import judge
from licheck.facts.evidencepolicy import POLICIES
from licheck.facts.resolution import STATED, FactState, Resolution, Status
from licheck.files import yamlsafe
from licheck.files.jsontext import Encoder, Hole, join
from licheck.files.yamlsafe import Document
from licheck.inputs.manifest import EvidenceKind, Manifest, Source
from licheck.library.compiled import load_library
from licheck.loading import documents as loading
from licheck.outputs import Context, Format, RenderOptions, open_document
from licheck.portfolio import workers as portfolio
from licheck.portfolio.runs import check_stream
from licheck.report.view import FailOn, ProductOut
from licheck.vocabulary.names import FACTS
from tests.clirun import report_json, run

# -- the generator ------------------------------------------------------------------------------

EVIDENCE = {
    "observed": {"source": "Dashboard", "kind": "observed", "date": "2025-03-01"},
    "official": {"source": "Launch post", "kind": "official_statement", "date": "2025-02-01"},
    "press": {"source": "Trade press", "kind": "press_report", "date": "2025-04-01"},
    "rumour": {"source": "Forum rumour", "kind": "rumour", "date": "2025-04-02"},
    "licensor": {"source": "Licensor post", "kind": "licensor_statement", "date": "2025-05-01"},
}

# Names a UI may show: the exact ones clauses ask for, near-matches of them, and others.
UI_NAMES = [
    "Kimi K2.5",
    "KIMI K2.5",
    "kimi k2.5",
    "Kimi\u00a0K2.5",
    "Kimi  K2.5",
    "Kimi K2",
    "KIMI K2",
    "Kimi K3",
    "Llama",
    "LLAMA",
    "Built with Llama",
    "built with llama",
    "Gemma",
    "Powered by open models",
]
# Names a derived model may carry: Llama's prefix exactly, near it, and not at all.
MODEL_NAMES = [
    "Llama-Chat",
    "llama-chat",
    "LLaMA Chat",
    "LLAMA-3-Acme",
    "Llama\u00a0Acme",
    "\uff2clama Acme",  # a fullwidth L: the same name after NFKC
    "Llamachat",
    "Acme Chat",
    "Lla",
]
BASES = [
    "kimi-k2.5",
    "kimi-k2",
    "kimi-k3",
    "llama-3.1-8b",
    "llama-3.3-70b",
    "llama-2-7b",
    "glm-4.6",
    "glm-4-9b",
    "mistral-7b",
    "qwen2.5",
    "gemma-3",
    "deepseek-v3",
]
NAME_BASES = ["kimi-k2.5", "kimi-k2", "llama-3.1-8b", "llama-3.3-70b"]
COUNTS: list[object] = [
    "200M",
    "100M",
    "100000001",
    "99999999",
    5000,
    6000,
    "700M",
    "800M",
    {"at_least": "80M", "at_most": "120M"},
    {"at_least": "120M"},
    {"value": "unknown"},
    {"value": "150M", "evidence": [EVIDENCE["press"]]},
    {"value": "150M", "evidence": [EVIDENCE["observed"]]},
    {"value": "150M", "evidence": [EVIDENCE["rumour"]]},
]
REVENUES: list[object] = [
    "25M USD/month",
    "19M USD/month",
    "20M USD/month",
    "240M USD/year",
    "2B USD ARR",
    "150M CNY/month",
    {"value": "unknown"},
    {"at_least": "10M USD/month"},
    {"value": "30M USD/month", "evidence": [EVIDENCE["press"]]},
]
SERIES: list[object] = [
    {"series": {"2024-06": "800M", "2024-07": "600M"}},
    {"series": {"2024-06": "500M"}},
    {"series": {"2024-06": {"at_least": "650M"}, "2024-07": "750M"}},
    "800M",
    {"value": "unknown"},
]
KIMI_WAIVER = "kimi-k2.5-modified-mit/ui-attribution"
AGREEMENTS: list[object] = [
    None,
    "none",
    [{"licensor": "moonshot-ai", "terms": "unknown", "evidence": [EVIDENCE["press"]]}],
    [{"licensor": "moonshot-ai", "terms": "unknown", "evidence": [EVIDENCE["official"]]}],
    [{"licensor": "moonshot-ai", "waives": [KIMI_WAIVER], "evidence": [EVIDENCE["official"]]}],
    [{"licensor": "moonshot-ai", "waives": ["kimi-k2.5-modified-mit/*"]}],
    [{"licensor": "moonshot-ai", "waives": []}],
    [  # disputed: a denial beside support
        {
            "licensor": "moonshot-ai",
            "waives": [KIMI_WAIVER],
            "evidence": [EVIDENCE["official"], {**EVIDENCE["licensor"], "value": False}],
        }
    ],
    [
        {"licensor": "moonshot-ai", "terms": "unknown"},
        {"licensor": "meta", "grants": ["llama-3.1-community"], "evidence": [EVIDENCE["press"]]},
    ],
    [{"licensor": "meta", "via": "fireworks-ai", "terms": "unknown"}],
]
FLAT_AGREEMENTS: list[dict[str, object]] = [
    {"agreement_waives": {"value": [KIMI_WAIVER]}},
    {"agreement_waives": {"includes": [KIMI_WAIVER], "evidence": [EVIDENCE["press"]]}},
    {"agreement_waives": {"value": []}},
    {"agreement": {"value": []}},
]
OWNERS: list[object] = [
    "X",
    "Acme",
    {"name": "Meta Platforms", "id": "meta"},
    {"name": "Moonshot AI", "id": "moonshot-ai"},
    {"name": "Meta-ish", "id": "meta-platforms"},  # resembles a licensor id: does not count
    {
        "name": "Acme",
        "id": "acme",
        "affiliates": [{"id": "meta", "name": "Meta", "evidence": [EVIDENCE["press"]]}],
    },
]
DELIVERIES = [["hosted_service"], ["api"], ["weights"], ["hosted_service", "weights"], None]
STEPS: list[list[object]] = [[], ["fine_tuning"], ["distillation"], ["continued_pretraining", "rl"]]
DATES = [None, "2024-08-15", "2025-03", "2025"]


def _name_set(draw: st.DrawFn) -> object:
    names = draw(st.lists(st.sampled_from(UI_NAMES), max_size=2, unique=True))
    shape = draw(st.sampled_from(["value", "value", "shorthand", "includes", "excludes", "press"]))
    if shape == "shorthand":
        return names
    if shape == "includes":
        return {"includes": names or ["Powered by open models"]}
    if shape == "excludes":
        return {"excludes": names or ["Kimi K2.5"]}
    if shape == "press":
        return {"value": names, "evidence": [EVIDENCE["press"]]}
    return {"value": names}


def _scalar(draw: st.DrawFn, values: Sequence[object]) -> object:
    value = draw(st.sampled_from(values))
    return dict(value) if isinstance(value, dict) else value


@st.composite
def lineages(draw: st.DrawFn) -> dict[str, object]:
    if draw(st.booleans()) and draw(st.booleans()):  # a quarter: candidate bases
        models = draw(st.lists(st.sampled_from([*BASES, "unknown"]), min_size=2, max_size=3))
        models = list(dict.fromkeys(models))
        if len(models) < 2:
            models.append("unknown" if models[0] != "unknown" else "glm-4.6")
        base: object = {
            "candidates": [
                {"model": m, "evidence": [EVIDENCE["press"]]} if i == 0 else {"model": m}
                for i, m in enumerate(models)
            ]
        }
    else:  # mostly the bases whose clauses read a name: Kimi's display, Llama's prefix
        base = draw(st.sampled_from([*NAME_BASES, *NAME_BASES, *BASES]))
    lineage: dict[str, object] = {"base": base}
    steps = draw(st.sampled_from(STEPS))
    if steps:
        lineage["steps"] = list(steps)
    if draw(st.integers(0, 4)) == 0:
        lineage["trained_on_outputs_of"] = [
            {"model": draw(st.sampled_from(["llama-3.1-70b", "kimi-k2.5"])), "role": "teacher"}
        ]
    return lineage


@st.composite
def components(draw: st.DrawFn, index: int) -> dict[str, object]:
    lineage = draw(lineages())
    component: dict[str, object] = {"id": f"c{index}", "name": f"Component {index}"}
    delivery = draw(st.sampled_from(DELIVERIES))
    if delivery is not None:
        component["delivery"] = list(delivery)
    component["lineage"] = lineage
    facts: dict[str, object] = {}
    if draw(st.booleans()):
        facts["model_name"] = draw(st.sampled_from(MODEL_NAMES))
    base = lineage["base"]
    if isinstance(base, str) and draw(st.booleans()):  # a fact stated for one model
        facts[draw(st.sampled_from(["derivative", "notice_included"]))] = {
            "value": draw(st.booleans()),
            "by_model": {base: draw(st.booleans())},
        }
    elif draw(st.booleans()):
        facts["derivative"] = draw(st.sampled_from([True, False, {"value": "unknown"}]))
    if draw(st.booleans()):
        facts["ui_attribution"] = _name_set(draw)
    if facts:
        component["facts"] = facts
    return component


@st.composite
def manifests(draw: st.DrawFn, number: int) -> dict[str, object]:
    facts: dict[str, object] = {}
    commercial = draw(st.sampled_from([True, True, False, {"value": "unknown"}]))
    facts["commercial"] = commercial
    if commercial is True and draw(st.booleans()):
        facts["use_purpose"] = ["commercial_product"]
    # revenue above zero makes a product commercial: beside commercial: false it is refused
    revenues = REVENUES if commercial is not False else ["0 USD/month", {"value": "unknown"}]
    for name, values in (("mau", COUNTS), ("monthly_revenue", revenues)):
        if draw(st.integers(0, 5)):
            facts[name] = _scalar(draw, values)
    if draw(st.booleans()):
        facts["licensee_mau"] = _scalar(draw, SERIES)
    if draw(st.integers(0, 4)):
        facts["ui_attribution"] = _name_set(draw)
    if draw(st.booleans()):
        facts["attribution_elsewhere"] = _name_set(draw)
    if draw(st.booleans()):
        facts["model_name"] = draw(st.sampled_from(MODEL_NAMES))
    agreements = draw(st.sampled_from(AGREEMENTS))
    if agreements is None and draw(st.booleans()):
        facts.update(draw(st.sampled_from(FLAT_AGREEMENTS)))
    manifest: dict[str, object] = {
        "format": 2,
        "product": f"Product {number}",
        "owner": draw(st.sampled_from(OWNERS)),
        "currency_rates": {"CNY": "0.14"},
    }
    release = draw(st.sampled_from(DATES))
    if release is not None:
        manifest["release_date"] = release
    manifest["facts"] = facts
    if agreements is not None:
        manifest["agreements"] = agreements
    count = draw(st.integers(1, 2))
    manifest["components"] = [draw(components(i)) for i in range(count)]
    return manifest


@st.composite
def portfolios(draw: st.DrawFn, low: int = 2, high: int = 5) -> list[dict[str, object]]:
    """Products of one family, as a real portfolio's are: each after the first is the first
    with one to three of its parts (a fact, the owner, the agreements, a component's lineage,
    delivery or fact) taken from another drawn product, or left out, so that two products
    often differ in one fact only: the case a memo keyed by less than that fact gets wrong."""
    size = draw(st.integers(low, high))
    first = draw(manifests(0))
    return [first, *(_variant(draw, first, draw(manifests(i))) for i in range(1, size))]


Slot = tuple[object, ...]  # a path into a manifest: ("facts", "mau"), ("components", 0, ...)


def _slots(manifest: dict[str, Any], other: dict[str, Any]) -> list[Slot]:
    slots: list[Slot] = [("owner",), ("agreements",), ("release_date",)]
    slots += [("facts", key) for key in dict.fromkeys([*manifest["facts"], *other["facts"]])]
    for index, component in enumerate(manifest["components"]):
        theirs = other["components"][min(index, len(other["components"]) - 1)]
        slots += [("components", index, "lineage"), ("components", index, "delivery")]
        keys = dict.fromkeys([*component.get("facts", {}), *theirs.get("facts", {})])
        slots += [("components", index, "facts", key) for key in keys]
    return slots


def _get(manifest: dict[str, Any], slot: Slot) -> tuple[bool, object]:
    """(whether `slot` is present, its value); a component past the last is the last one."""
    here: Any = manifest
    for step in slot:
        if isinstance(step, int):
            here = here[min(step, len(here) - 1)]
        elif isinstance(here, dict) and step in here:
            here = here[step]
        else:
            return False, None
    return True, here


def _variant(draw: st.DrawFn, first: dict[str, Any], other: dict[str, Any]) -> dict[str, object]:
    variant = copy.deepcopy(first)
    variant["product"] = other["product"]
    slots = _slots(first, other)
    for slot in draw(st.lists(st.sampled_from(slots), min_size=1, max_size=3, unique=True)):
        present, value = _get(other, slot)
        *parents, last = slot
        parent: Any = variant
        for step in parents:  # a component's `facts` made where the variant has none
            parent = parent[step] if isinstance(step, int) else parent.setdefault(step, {})
        if present:
            parent[last] = copy.deepcopy(value)
        else:
            parent.pop(last, None)
    return _consistent(variant)


def _consistent(manifest: dict[str, Any]) -> dict[str, Any]:
    """What a variant must drop to stay readable: the flat agreement facts beside `agreements:`,
    and facts stated for a model not in the component's lineage (each refused at its line)."""
    if "agreements" in manifest:
        for flat in ("agreement", "agreement_waives"):
            manifest["facts"].pop(flat, None)
    for component in manifest["components"]:
        base = component["lineage"]["base"]
        facts = component.get("facts", {})
        for key, value in list(facts.items()):
            scoped = isinstance(value, dict) and "by_model" in value
            if scoped and (not isinstance(base, str) or base not in value["by_model"]):
                del facts[key]
        if not facts:
            component.pop("facts", None)
    return manifest


# -- the path `check` takes -------------------------------------------------------------------

OPTIONS = RenderOptions(fail_on=FailOn("violation"))
AS_OF = [None, dt.date(2025, 3, 15), dt.date(2026, 1, 1)]


def _write(folder: Path, portfolio_: Sequence[dict[str, object]]) -> list[Path]:
    paths = []
    for number, manifest in enumerate(portfolio_):
        path = folder / f"p{number}.yaml"
        path.write_text(yaml.safe_dump(manifest, allow_unicode=True, sort_keys=False), "utf-8")
        paths.append(path)
    return paths


def checked(
    paths: Sequence[Path], policy: str, as_of: dt.date | None, jobs: int = 1
) -> dict[str, Any]:
    """Each product's part of `check`'s JSON report, and each unreadable file's errors, by
    file."""
    out = io.BytesIO()
    with check_stream(
        list(paths),
        POLICIES[policy],
        Format.JSON,
        OPTIONS,
        as_of=as_of,
        jobs=jobs,
        today=dt.date(2026, 12, 1),
    ) as streamed:
        streamed.write(out)
    report = report_json(out.getvalue())
    found: dict[str, Any] = {p["file"]: p for p in report["products"]}
    for error in report["errors"]:
        found.setdefault(error["file"], []).append(error)
    return found


def alone(paths: Sequence[Path], policy: str, as_of: dt.date | None) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for path in paths:
        found.update(checked([path], policy, as_of))
    return found


@contextlib.contextmanager
def workers_for_any_portfolio() -> Iterator[None]:
    """Worker processes even for a handful of files, two paths a task, so that a worker's memo
    tables serve several products, and other workers see others."""
    saved = portfolio.PARALLEL_MIN, portfolio.CHUNK
    portfolio.PARALLEL_MIN, portfolio.CHUNK = 1, 2
    try:
        yield
    finally:
        portfolio.PARALLEL_MIN, portfolio.CHUNK = saved


def _differences(expected: dict[str, Any], got: dict[str, Any]) -> list[str]:
    assert set(got) == set(expected)
    return [
        f"{file}: alone {_verdict(expected[file])}, together {_verdict(got[file])}"
        for file in sorted(expected)
        if got[file] != expected[file]
    ]


def _verdict(part: Any) -> object:
    return part["verdict"] if isinstance(part, dict) else "unreadable"


# -- the properties ---------------------------------------------------------------------------

PROPERTY = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.slow
@PROPERTY
@given(
    portfolios(),
    st.randoms(use_true_random=False),
    st.sampled_from(sorted(POLICIES)),
    st.sampled_from(AS_OF),
)
def test_a_portfolio_checked_together_gives_each_product_its_report_alone(
    portfolio_: list[dict[str, object]], random: Any, policy: str, as_of: dt.date | None
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        paths = _write(Path(folder), portfolio_)
        expected = alone(paths, policy, as_of)
        random.shuffle(paths)
        for order in (paths, paths[::-1]):
            assert _differences(expected, checked(order, policy, as_of)) == []


@pytest.mark.slow
@settings(PROPERTY, max_examples=12)
@given(portfolios(4, 7), st.randoms(use_true_random=False))
def test_a_portfolio_checked_by_several_workers_gives_each_product_its_report_alone(
    portfolio_: list[dict[str, object]], random: Any
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        paths = _write(Path(folder), portfolio_)
        expected = alone(paths, "default", None)
        random.shuffle(paths)
        with workers_for_any_portfolio():
            assert _differences(expected, checked(paths, "default", None, jobs=2)) == []


@pytest.mark.slow
@settings(PROPERTY, max_examples=5)
@given(portfolios(2, 4), st.randoms(use_true_random=False))
def test_each_format_renders_a_product_as_it_renders_it_alone(
    portfolio_: list[dict[str, object]], random: Any
) -> None:
    """`check` renders each product where it is evaluated, with one document per process for
    all its products: a document's piece of a product is the one a fresh document gives."""
    with tempfile.TemporaryDirectory() as folder:
        paths = _write(Path(folder), portfolio_)
        parts = [p for p in checked(paths, "default", None).values() if isinstance(p, dict)]
    products = [ProductOut.model_validate(p) for p in parts]
    random.shuffle(products)
    for fmt in Format:
        context = Context(fmt, OPTIONS, "default", None)
        shared = open_document(context)
        for product in products:
            assert shared.piece(product) == open_document(context).piece(product), fmt


# -- the memo tables themselves ----------------------------------------------------------------

Judgements = list[tuple[Compiled, tuple[Domain, ...], tuple[Domain, ...]]]


def _clauses() -> list[Compiled]:
    """Every clause of the shipped library, and one whose facts a joint chain relates (a
    product never has more users than its licensee): there a settled value's region, not only
    its tests' results, decides which cells of the other fact any completion has."""
    found = [c.bound for license_ in load_library().licenses.values() for c in license_.clauses]
    joint_rule = Rule(
        trigger=Test("licensee_mau", "more_than", Fraction(50_000_000)),
        requirement=Test("mau", "more_than", Fraction(100_000_000)),
    )
    return [*found, compile_rule(joint_rule)]


CLAUSES = _clauses()
_QUANTITY = frozenset({"more_than", "at_least", "less_than", "at_most"})


def _domains_for(bound: Compiled, position: int) -> st.SearchStrategy[Domain]:
    """Domains of one fact of a clause: unknown, and values at, beside and between its
    thresholds; strings and sets with the names its tests ask for, exactly and nearly."""
    tests = bound.tests[position]
    operators = {t.operator for t in tests}
    if operators <= _QUANTITY:
        definition = FACTS.get(bound.names[position].partition("@")[0])
        dimension = (definition.dimension if definition else None) or Dimension.COUNT
        marks = sorted({t.operand for t in tests if isinstance(t.operand, Fraction)})
        values = {Fraction(5000), Fraction(6000), Fraction(90_000_000)}
        for mark in marks:
            values |= {mark - 1, mark, mark + 1, mark * 2}
        points = [Interval.point(v, dimension) for v in sorted(values) if v >= 0]
        ranges = [Interval(m / 2, True, m * 2, True, dimension) for m in marks]
        ranges += [Interval(Fraction(0), True, Fraction(50_000_000), True, dimension)]
        return st.sampled_from([Interval.everything(dimension), *points, *ranges])
    if operators == {"is"}:
        return st.sampled_from([Booleans(frozenset(v)) for v in ({True}, {False}, {True, False})])
    asked = sorted(strings_read(tests))
    names = sorted({*asked, *(n.upper() for n in asked), *(n.lower() for n in asked)})
    names += [*MODEL_NAMES, *UI_NAMES[:4]]
    if operators <= {"equals", "in", "starts_with"}:
        return st.one_of(st.just(Strings(None)), st.sampled_from(names).map(Strings))
    members = st.frozensets(st.sampled_from(names), max_size=3)
    return st.one_of(
        members.map(lambda m: StringSet(m, frozenset(), True)),
        st.tuples(members, members).map(lambda ie: StringSet(ie[0], ie[1] - ie[0], False)),
    )


@st.composite
def judgements(draw: st.DrawFn) -> Judgements:
    """A few clauses, each judged over several domains that differ from the first in one or
    two facts (as products of one portfolio do)."""
    asked: Judgements = []
    for bound in draw(st.lists(st.sampled_from(CLAUSES), min_size=1, max_size=3)):
        first = tuple(draw(_domains_for(bound, p)) for p in range(len(bound.names)))
        named = [p for p, tests in enumerate(bound.tests) if strings_read(tests)]
        for _ in range(draw(st.integers(1, 4))):
            domains = list(first)
            positions = st.sampled_from(named) if named else st.nothing()
            positions = st.one_of(positions, st.integers(0, len(first) - 1))
            for p in draw(st.lists(positions, max_size=2)):
                domains[p] = draw(_domains_for(bound, p))
            likely = list(domains)
            if draw(st.booleans()):  # weak evidence narrowing one fact
                p = draw(st.integers(0, len(first) - 1))
                likely[p] = draw(_domains_for(bound, p))
            asked.append((bound, tuple(domains), tuple(likely)))
    return asked


@pytest.mark.slow
@settings(PROPERTY, max_examples=150)
@given(judgements())
def test_a_judgement_remembered_is_the_judgement_made_afresh(asked: Judgements) -> None:
    """The run's memo tables (`EvaluationContext`) change no judgement: each clause judged
    after others with one context gives what a fresh context gives."""
    shared = EvaluationContext()
    for bound, domains, likely in asked:
        fresh = judge(bound, domains, likely, EvaluationContext())
        assert judge(bound, domains, likely, shared) == fresh


@pytest.mark.slow
@settings(PROPERTY, max_examples=100)
@given(judgements(), st.randoms(use_true_random=False))
def test_a_judgement_remembered_by_its_exact_domains_is_the_judgement_made_afresh(
    asked: Judgements, random: Any
) -> None:
    """The exact table (`judging.EXACT`: a clause judged once per distinct value of the
    facts it reads) answers each repeat, in any order, with what a fresh context gives; and
    it is bounded: a context keeping one entry a table answers alike."""
    shared, tiny = EvaluationContext(), EvaluationContext(limit=1)
    repeated = [*asked, *asked]
    random.shuffle(repeated)
    for bound, domains, likely in repeated:
        fresh = judge(bound, domains, likely, EvaluationContext())
        assert judge(bound, domains, likely, shared) == fresh
        assert judge(bound, domains, likely, tiny) == fresh
    exact = shared.table(judging.EXACT)
    assert len(exact) == len({(id(b), d, lk) for b, d, lk in asked})  # one entry per value
    assert len(tiny.table(judging.EXACT)) == 1


def _evaluated(path: Path, context: EvaluationContext) -> object:
    text = yamlsafe.read_text(path, str(path))
    document = yamlsafe.parse(text, str(path))
    try:
        manifest = loading.validate(document, Manifest)
        return evaluate_manifest(manifest, document, LIBRARY, EVALUATE, context)
    except InputError as error:
        return ("unreadable", str(error))


LIBRARY = load_library()
EVALUATE = Options(POLICIES["default"], today=dt.date(2026, 12, 1))


@pytest.mark.slow
@settings(PROPERTY, max_examples=20)
@given(portfolios(3, 7), st.randoms(use_true_random=False))
def test_products_evaluated_with_one_memo_each_equal_the_product_evaluated_alone(
    portfolio_: list[dict[str, object]], random: Any
) -> None:
    """One run's memo tables shared by every product, in any order (and a context so small
    that each table keeps one entry), give each product the result a fresh context gives it
    alone: the whole result, every finding's facts, evidence and settlements."""
    with tempfile.TemporaryDirectory() as folder:
        paths = _write(Path(folder), portfolio_)
        alone_ = {p: _evaluated(p, EvaluationContext()) for p in paths}
        shared, tiny = EvaluationContext(), EvaluationContext(limit=1)
        random.shuffle(paths)
        for path in [*paths, *paths[::-1]]:
            assert _evaluated(path, shared) == alone_[path], path.name
            assert _evaluated(path, tiny) == alone_[path], path.name
    if any(not isinstance(r, tuple) for r in alone_.values()):
        assert shared.table(judging.EXACT), "no clause was judged through the exact table"


def test_a_settled_value_a_chain_bounds_is_remembered_by_its_value() -> None:
    """mau 5,000 and 90M give the same results of `mau > 100M`, but only 90M rules out a
    licensee with at most 50M users (mau ≤ licensee_mau): the second judgement is not the
    first's."""
    bound = CLAUSES[-1]
    few, many = (Interval.point(Fraction(n), Dimension.COUNT) for n in (5000, 90_000_000))
    unknown = Interval.everything(Dimension.COUNT)
    position = {name: p for p, name in enumerate(bound.names)}

    def domains(mau: Interval) -> tuple[Domain, ...]:
        given = {"mau": mau, "licensee_mau": unknown}
        return tuple(given[name] for name in sorted(position, key=position.__getitem__))

    shared = EvaluationContext()
    first = judge(bound, domains(few), domains(few), shared)[0].judgement.verdict
    second = judge(bound, domains(many), domains(many), shared)[0].judgement.verdict
    assert (first, second) == (Verdict.GOVERNANCE_RISK, Verdict.VIOLATION)


def test_a_supplied_fact_is_not_shared_with_a_manifest_whose_sources_change_it() -> None:
    """A fact licheck supplies without a source is evidenced as stated in the manifest; a
    manifest with a source of that name (here retracted) reads it otherwise, so the run's
    table of supplied facts must not give it the other products' state, nor keep its own."""
    policy, memo = POLICIES["default"], EvaluationContext()
    library = load_library()

    def supplied(sources: dict[str, Source]) -> FactState:
        context = Resolution(policy, None, sources=sources, memo=memo)
        derive = Derivation(Document("", "", {}), library, context, Hypotheses())
        return derive.default("commercial", True, None)

    retracted = Source(
        title="A source named like licheck's own",
        kind=EvidenceKind.OBSERVED,
        date=dt.date(2025, 1, 1),
        retracted_on=dt.date(2025, 2, 1),
    )
    plain = supplied({})
    cited = supplied({STATED.source: retracted})
    assert (plain.status, cited.status) == (Status.ESTABLISHED, Status.UNKNOWN)
    assert supplied({}) is plain


# -- the reproduction of issue 21 -------------------------------------------------------------

KIMI_AT_SCALE = """\
format: 2
product: {name}
owner: X
agreements: none
facts:
  commercial: true
  mau: 200M
  ui_attribution: {shown}
components:
  - id: {id}
    name: {name}
    delivery: [hosted_service]
    lineage:
      base: {{model: kimi-k2.5}}
"""


@pytest.mark.parametrize("order", ["shown first", "not shown first"])
def test_a_near_match_elsewhere_in_the_run_does_not_excuse_a_violation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, order: str
) -> None:
    """a shows "KIMI K2.5" (a near-match: a governance risk), b shows nothing (a violation);
    a settled fact was keyed by its tests' results alone, so whichever came first decided both."""
    a = tmp_path / "a.yaml"
    a.write_text(KIMI_AT_SCALE.format(name="A", id="a", shown='["KIMI K2.5"]'), "utf-8")
    b = tmp_path / "b.yaml"
    b.write_text(KIMI_AT_SCALE.format(name="B", id="b", shown="[]"), "utf-8")
    paths = [a, b] if order == "shown first" else [b, a]
    code, out, _ = run(capsys, "check", *map(str, paths), "--format", "json")
    verdicts = {p["product"]: p["verdict"] for p in report_json(out)["products"]}
    assert verdicts == {"A": "governance_risk", "B": "violation"}
    assert code == 1


# -- report parts remembered by identity ------------------------------------------------------


def test_an_encoder_given_values_in_turn_never_reuses_a_dropped_one_s_text() -> None:
    """The encoder remembers an object's text by its id; a value built and dropped in turn
    (SARIF's results) freed its id for the next, which was written as the one before."""
    parts: list[str | Hole] = []
    encoder = Encoder(parts)
    for line in range(20):
        if parts:
            parts.append(",")
        encoder.value({"locations": [{"line": line}]}, "\n")
    results = json.loads("[" + join(parts).text + "]")
    assert [r["locations"][0]["line"] for r in results] == list(range(20))


def test_each_sarif_result_is_at_its_own_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    components = "".join(
        f"  - id: c{i}\n    name: C{i}\n    delivery: [hosted_service]\n"
        f"    lineage: {{base: kimi-k2.5}}\n    facts:\n      ui_attribution: []\n"
        for i in range(6)
    )
    manifest = tmp_path / "m.yaml"
    manifest.write_text(
        "format: 2\nproduct: M\nowner: X\nagreements: none\n"
        f"facts: {{commercial: true, mau: 200M}}\ncomponents:\n{components}",
        "utf-8",
    )
    code, out, _ = run(capsys, "check", str(manifest), "--format", "sarif")
    results = report_json(out)["runs"][0]["results"]
    lines = [r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in results]
    assert lines == [12, 18, 24, 30, 36, 42]  # each component's ui_attribution
    assert code == 1


# -- a file named twice is one product --------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["evaluate", "{m}", "{m}"],
        ["evaluate", "{m}", "{dir}/./m.yaml", "{link}"],
        ["check", "{m}", "{m}"],
        ["check", "{dir}", "{m}"],
        ["check", "{m}", "{link}", "{dir}"],
    ],
)
def test_a_file_named_twice_is_evaluated_once(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    folder = tmp_path / "products"
    folder.mkdir()
    manifest = folder / "m.yaml"
    manifest.write_text(KIMI_AT_SCALE.format(name="B", id="b", shown="[]"), "utf-8")
    (tmp_path / "link.yaml").symlink_to(manifest)
    names = {"m": str(manifest), "dir": str(folder), "link": str(tmp_path / "link.yaml")}
    code, out, _ = run(capsys, *(a.format(**names) for a in argv), "--format", "json")
    report = report_json(out)
    first = argv[1].format(**names)  # where it is first named (or found)
    assert [p["file"] for p in report["products"]] == [
        str(manifest) if first == names["dir"] else first
    ]
    assert report["summary"]["products"] == 1
    assert report["summary"]["counts"]["violation"] == 1
    assert code == 1
