"""What licheck is measured against over a portfolio: the parse floor, a hand-written verdict, and
the same rule in Rego on an OPA-compatible engine (regopy).

All three read each file with PyYAML's C loader.  The verdict is that of Kimi K2.5's attribution
clause (display "Kimi K2.5" on the user interface above 100M monthly active users or 20M USD a
month) for every component built on Kimi K2.5, in licheck's three-valued sense under the default
evidence policy: a fact counts when some piece of its evidence is observed, an official or licensor
statement, or declared (a fact without evidence), and is not retracted; press reports, community
inference and rumours leave it unknown.  The clause binds while the lineage is established: it
reaches the Software "(or any derivative works thereof)", so a stated `derivative` changes nothing
(licheck's `applies_to: [use, outputs]`).  A revenue stated for a year bounds no month (licheck's
periods: its average month is only likely), so it leaves the month unknown.  Every fact occurs once
in the clause, so Kleene logic over true / false / unknown is exact.  The generated manifests use no
per-evidence claims, so the scripts need not model disputed facts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import yaml

LICENSE = "kimi-k2.5-modified-mit"
CLAUSE = "ui-attribution"
ROOT = Path(__file__).resolve().parent.parent
STRONG = frozenset({"observed", "official_statement", "licensor_statement", "declared"})

Verdicts = list[tuple[str, str, str]]  # (file, component id, verdict)


def load(path: Path) -> Any:
    return yaml.load(path.read_bytes(), Loader=yaml.CSafeLoader)


def kimi_names() -> frozenset[str]:
    """Kimi K2.5's id and aliases, lower-cased, from the catalog."""
    catalog = load(ROOT / "licenses" / "catalog.yaml")
    for model in catalog["models"]:
        if model.get("license") == LICENSE:
            return frozenset(n.lower() for n in [model["id"], *model.get("aliases", [])])
    raise SystemExit(f"no model with license {LICENSE} in the catalog")


# -- (a) the parse floor ------------------------------------------------------------------------


def parse_floor(paths: list[Path]) -> int:
    count = 0
    for path in paths:
        count += load(path) is not None
    return count


# -- (b) a minimal hand-written verdict ---------------------------------------------------------

T, F, U = True, False, None
_AMOUNT = re.compile(r"^([0-9.]+)([KMB]?)(?:\s*([A-Z]{3}))?(?:/(month|year))?$")
_SUFFIX = {"": 1, "K": 10**3, "M": 10**6, "B": 10**9}


def _and(a: bool | None, b: bool | None) -> bool | None:
    if a is F or b is F:
        return F
    return T if a is T and b is T else U


def _or(a: bool | None, b: bool | None) -> bool | None:
    if a is T or b is T:
        return T
    return F if a is F and b is F else U


def _not(a: bool | None) -> bool | None:
    return U if a is U else not a


def _amount(raw: Any, rates: dict[str, Any], money: bool) -> Fraction:
    if isinstance(raw, int | float):
        return Fraction(str(raw))
    match = _AMOUNT.match(raw.strip())
    if match is None:
        raise ValueError(raw)
    amount = Fraction(match[1]) * _SUFFIX[match[2]]
    if money:
        if match[3] and match[3] != "USD":
            amount *= Fraction(str(rates[match[3]]))
        if match[4] == "year":
            amount /= 12
    return amount


class _Manifest:
    def __init__(self, data: dict[str, Any]) -> None:
        self.sources = data.get("sources") or {}
        self.facts = data.get("facts") or {}
        self.rates = data.get("currency_rates") or {}

    def established(self, spec: dict[str, Any]) -> bool:
        pieces = spec.get("evidence") or []
        if not pieces:
            return True  # declared by the manifest itself
        for piece in pieces:
            source = self.sources.get(piece["source"], {})
            kind = piece.get("kind") or source.get("kind")
            retracted = piece.get("retracted_on") or source.get("retracted_on")
            if kind in STRONG and retracted is None:
                return True
        return False

    def spec(self, component: dict[str, Any], name: str) -> dict[str, Any] | None:
        raw = (component.get("facts") or {}).get(name, self.facts.get(name))
        if raw is None:
            return None
        spec = raw if isinstance(raw, dict) else {"value": raw}
        if spec.get("value") == "unknown" or not self.established(spec):
            return None
        return spec

    def interval(self, spec: dict[str, Any] | None, money: bool) -> tuple[Fraction, Any]:
        """(low, high or None) of a known quantity; everything for an unknown one.  A year's
        total bounds no month (its average month is only likely: licheck's periods), so an
        amount stated for a year leaves the month unknown."""
        if spec is None or (money and any(_yearly(spec.get(k)) for k in _BOUNDS)):
            return Fraction(0), None
        if spec.get("value") is not None:
            value = _amount(spec["value"], self.rates, money)
            return value, value
        lo, hi = spec.get("at_least"), spec.get("at_most")
        return (
            _amount(lo, self.rates, money) if lo is not None else Fraction(0),
            _amount(hi, self.rates, money) if hi is not None else None,
        )

    def mau(self, component: dict[str, Any]) -> tuple[Fraction, Any]:
        """The product's users are among the licensee's own, which are among its group's:
        an established licensee_own_mau or licensee_mau bounds mau from above, and a stated
        mau beyond that bound is disputed (unknown)."""
        lo, hi = self.interval(self.spec(component, "mau"), False)
        for name in ("licensee_own_mau", "licensee_mau"):
            bound = self.interval(self.spec(component, name), False)[1]
            if bound is not None:
                hi = bound if hi is None else min(hi, bound)
        if hi is not None and lo > hi:
            return Fraction(0), None
        return lo, hi


_BOUNDS = ("value", "at_least", "at_most")


def _yearly(raw: Any) -> bool:
    return isinstance(raw, str) and raw.strip().endswith("/year")


def _more_than(interval: tuple[Fraction, Any], threshold: int) -> bool | None:
    lo, hi = interval
    if lo > threshold:
        return T
    if hi is not None and hi <= threshold:
        return F
    return U


def _contains_any(spec: dict[str, Any] | None, names: list[str]) -> bool | None:
    if spec is None:
        return U
    if spec.get("value") is not None:
        value = spec["value"]
        items = [value] if isinstance(value, str) else value
        return any(n in items for n in names)
    if any(n in (spec.get("includes") or []) for n in names):
        return T
    if all(n in (spec.get("excludes") or []) for n in names):
        return F
    return U


def _verdict(bound_trigger: bool | None, lifted: bool | None, holds: bool | None) -> str:
    if bound_trigger is F:
        return "not_applicable"
    if _or(_not(bound_trigger), _or(lifted, holds)) is T:
        return "satisfied"
    if bound_trigger is T and lifted is F and holds is F:
        return "violation"
    return "governance_risk"


def hand_verdicts_of(
    file: str, data: dict[str, Any], kimi: frozenset[str]
) -> Iterator[tuple[str, str, str]]:
    m = _Manifest(data)
    for component in data["components"]:
        base = component["lineage"]["base"]
        ref = {"model": base} if isinstance(base, str) else base
        if ref["model"].strip().lower() not in kimi:
            continue
        lineage = m.established(ref)
        commercial = m.spec(component, "commercial")
        trigger = _and(
            U if commercial is None else commercial["value"] is True,
            _or(
                _more_than(m.mau(component), 100_000_000),
                _more_than(m.interval(m.spec(component, "monthly_revenue"), True), 20_000_000),
            ),
        )
        scope = T if lineage else U  # the Software or a derivative: `derivative` is not read
        lifted = _contains_any(
            m.spec(component, "agreement_waives"), [f"{LICENSE}/{CLAUSE}", f"{LICENSE}/*"]
        )
        holds = _contains_any(m.spec(component, "ui_attribution"), ["Kimi K2.5"])
        yield file, component["id"], _verdict(_and(scope, trigger), lifted, holds)


def hand_verdicts(paths: list[Path]) -> Verdicts:
    kimi = kimi_names()
    found: Verdicts = []
    for path in paths:
        found.extend(hand_verdicts_of(str(path), load(path), kimi))
    return found


# -- (c) the same rule in Rego, on regopy --------------------------------------------------------

# The input is the manifest as loaded, whole.  Facts are looked up level by level (the component's,
# else the product's): rego-cpp's object.union does not merge nested objects as OPA's does, so the
# policy never merges objects.
REGO = r"""
package licheck.kimi

import rego.v1

strong := {"observed", "official_statement", "licensor_statement", "declared"}

suffix := {"": 1, "K": 1000, "M": 1000000, "B": 1000000000}

sources := object.get(input, "sources", {})

source(p) := object.get(sources, p.source, {})

piece_kind(p) := k if {
	k := object.get(p, "kind", null)
	k != null
} else := object.get(source(p), "kind", null)

retracted(p) if object.get(p, "retracted_on", null) != null

retracted(p) if object.get(source(p), "retracted_on", null) != null

counts(p) if {
	strong[piece_kind(p)]
	not retracted(p)
}

established(s) if count(object.get(s, "evidence", [])) == 0

established(s) if {
	some p in s.evidence
	counts(p)
}

raw_fact(c, name) := v if {
	v := object.get(object.get(c, "facts", {}), name, null)
	v != null
} else := object.get(object.get(input, "facts", {}), name, null)

as_spec(raw) := raw if is_object(raw)

as_spec(raw) := {"value": raw} if not is_object(raw)

# The fact's spec when it is stated, not unknown and established; else undefined.
known(c, name) := s if {
	raw := raw_fact(c, name)
	raw != null
	s := as_spec(raw)
	object.get(s, "value", null) != "unknown"
	established(s)
}

stated(c, name) if raw_fact(c, name) != null

rate(cur) := 1 if cur == ""

rate(cur) := 1 if cur == "USD"

rate(cur) := input.currency_rates[cur] if {
	cur != ""
	cur != "USD"
}

amount_pattern := `^([0-9.]+)([KMB]?)(?:\s*([A-Z]{3}))?(?:/(month|year))?$`

amount(x, money) := x if is_number(x)

amount(x, money) := n if {
	is_string(x)
	m := regex.find_all_string_submatch_n(amount_pattern, trim_space(x), 1)[0]
	base := to_number(m[1]) * suffix[m[2]]
	n := money_of(base, m, money)
}

money_of(base, m, money) := base if not money

money_of(base, m, money) := (base * rate(m[3])) / 12 if {
	money
	m[4] == "year"
}

money_of(base, m, money) := base * rate(m[3]) if {
	money
	m[4] != "year"
}

interval(k, name, money) := [0, null] if not k[name]

# A year's total bounds no month (its average month is only likely): the month is unknown.
yearly(k, name, money) if {
	money
	some f in ["value", "at_least", "at_most"]
	x := object.get(k[name], f, null)
	is_string(x)
	endswith(trim_space(x), "/year")
}

interval(k, name, money) := [0, null] if yearly(k, name, money)

interval(k, name, money) := [v, v] if {
	not yearly(k, name, money)
	x := object.get(k[name], "value", null)
	x != null
	v := amount(x, money)
}

interval(k, name, money) := [lo, hi] if {
	not yearly(k, name, money)
	s := k[name]
	object.get(s, "value", null) == null
	lo := low(s, money)
	hi := high(s, money)
}

low(s, money) := amount(s.at_least, money) if object.get(s, "at_least", null) != null

low(s, money) := 0 if object.get(s, "at_least", null) == null

high(s, money) := amount(s.at_most, money) if object.get(s, "at_most", null) != null

high(s, money) := null if object.get(s, "at_most", null) == null

# The product's users are among the licensee's own, which are among its group's: an established
# licensee_own_mau or licensee_mau bounds mau from above; a mau beyond the bound is disputed.
mau_bounds(k) := [hi |
	some name in ["licensee_own_mau", "licensee_mau"]
	hi := interval(k, name, false)[1]
	hi != null
]

mau(k) := interval(k, "mau", false) if count(mau_bounds(k)) == 0

mau(k) := clip(own[0], lowest(array.concat(mau_bounds(k), [x | x := own[1]; x != null]))) if {
	count(mau_bounds(k)) > 0
	own := interval(k, "mau", false)
}

# Not the built-in min: rego-cpp's min misorders an integer and a float (1.2B parses to a float).
lowest(xs) := x if {
	some x in xs
	every y in xs {
		x <= y
	}
}

clip(lo, hi) := [lo, hi] if lo <= hi

clip(lo, hi) := [0, null] if lo > hi

more_than(iv, threshold) := "T" if iv[0] > threshold else := "F" if {
	iv[1] != null
	iv[1] <= threshold
} else := "U"

tf(b) := "T" if b

tf(b) := "F" if not b

items(v) := [v] if is_string(v)

items(v) := v if is_array(v)

contains_any(k, name, wanted) := "U" if not k[name]

contains_any(k, name, wanted) := r if {
	s := k[name]
	v := object.get(s, "value", null)
	v != null
	r := tf(count({n | some n in wanted; n in items(v)}) > 0)
}

contains_any(k, name, wanted) := r if {
	s := k[name]
	object.get(s, "value", null) == null
	r := partial_contains(s, wanted)
}

partial_contains(s, wanted) := "T" if {
	count({n | some n in wanted; n in object.get(s, "includes", [])}) > 0
} else := "F" if {
	count({n | some n in wanted; n in object.get(s, "excludes", [])}) == count(wanted)
} else := "U"

boolean(k, name) := "U" if not k[name]

boolean(k, name) := tf(k[name].value == true)

and3(a, b) := "F" if a == "F" else := "F" if b == "F" else := "T" if {
	a == "T"
	b == "T"
} else := "U"

or3(a, b) := "T" if a == "T" else := "T" if b == "T" else := "F" if {
	a == "F"
	b == "F"
} else := "U"

not3(a) := {"T": "F", "F": "T", "U": "U"}[a]

base_ref(b) := {"model": b} if is_string(b)

base_ref(b) := b if is_object(b)

lineage(ref) := "T" if established(ref)

lineage(ref) := "U" if not established(ref)

verdict(bound, lifted, holds) := "not_applicable" if bound == "F" else := "satisfied" if {
	or3(not3(bound), or3(lifted, holds)) == "T"
} else := "violation" if {
	bound == "T"
	lifted == "F"
	holds == "F"
} else := "governance_risk"

fact_names := ["commercial", "mau", "monthly_revenue", "agreement_waives", "ui_attribution",
	"licensee_own_mau", "licensee_mau"]

verdicts contains [c.id, v] if {
	some c in input.components
	ref := base_ref(c.lineage.base)
	lower(trim_space(ref.model)) in data.kimi
	k := {name: s | some name in fact_names; s := known(c, name)}
	trigger := and3(boolean(k, "commercial"), or3(
		more_than(mau(k), 100000000),
		more_than(interval(k, "monthly_revenue", true), 20000000),
	))
	scope := lineage(ref) # the Software or a derivative: `derivative` is not read
	lifted := contains_any(k, "agreement_waives", [
		"kimi-k2.5-modified-mit/ui-attribution", "kimi-k2.5-modified-mit/*"])
	holds := contains_any(k, "ui_attribution", ["Kimi K2.5"])
	v := verdict(and3(scope, trigger), lifted, holds)
}
"""


QUERY = "data.licheck.kimi.verdicts"


def rego_interpreter() -> tuple[Any, Any]:
    """The interpreter and the policy compiled once (a bundle): a plain `query` would compile
    the policy again for every file, four times slower."""
    from regopy import Interpreter

    rego = Interpreter()
    rego.add_module("kimi", REGO)
    rego.add_data({"kimi": sorted(kimi_names())})
    return rego, rego.build(QUERY)


def rego_verdicts(paths: list[Path]) -> Verdicts:
    rego, bundle = rego_interpreter()
    found: Verdicts = []
    for path in paths:
        rego.set_input(load(path))
        output = rego.query_bundle(bundle)
        if not output.ok():
            raise SystemExit(f"{path}: {output}")
        pairs = json.loads(str(output))["expressions"][0]
        found.extend((str(path), component, verdict) for component, verdict in pairs)
    return found


# -- licheck's own verdicts for the same clause --------------------------------------------------


def licheck_verdicts(items: Any) -> Verdicts:
    """The clause's verdicts from licheck's portfolio items."""
    found: Verdicts = []
    for item in items:
        if item.result is None:
            raise SystemExit(f"{item.path}: {item.problems[0]}")
        found.extend(
            (str(item.path), f.component, f.verdict.value)
            for f in item.result.findings
            if f.license == LICENSE and f.clause == CLAUSE
        )
    return found


# -- (c') the rule as a policy author would first write it: two-valued, evidence ignored ----------

# Not licheck's verdicts (an unknown fact is simply not > 100M, so the rule passes it): measured
# only to show the engine's own speed on a small rule.
NAIVE_REGO = r"""
package licheck.naive

import rego.v1

facts(c) := object.get(c, "facts", {})

fact(c, name) := v if {
	v := facts(c)[name]
} else := input.facts[name]

value(f) := f.value if is_object(f)

value(f) := f if not is_object(f)

over(x, n) if {
	is_number(x)
	x > n
}

over(x, n) if {
	is_string(x)
	m := regex.find_all_string_submatch_n(`^([0-9.]+)([KMB]?)$`, x, 1)[0]
	to_number(m[1]) * {"": 1, "K": 1000, "M": 1000000, "B": 1000000000}[m[2]] > n
}

violations contains c.id if {
	some c in input.components
	lower(c.lineage.base.model) in data.kimi
	value(fact(c, "commercial")) == true
	over(value(fact(c, "mau")), 100000000)
	not "Kimi K2.5" in value(fact(c, "ui_attribution"))
}
"""


def naive_rego(paths: list[Path]) -> int:
    from regopy import Interpreter

    rego = Interpreter()
    rego.add_module("naive", NAIVE_REGO)
    rego.add_data({"kimi": sorted(kimi_names())})
    bundle = rego.build("data.licheck.naive.violations")
    flagged = 0
    for path in paths:
        rego.set_input(load(path))
        flagged += len(json.loads(str(rego.query_bundle(bundle)))["expressions"][0])
    return flagged
