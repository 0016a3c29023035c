"""What-if options as users type them: `--set FACT=VALUE`, `--sweep FACT=FROM..TO` and
`--swap-base OLD=NEW`, read into values the core can use.

Value syntax for `--set` (the fact's type decides how it is read):

- quantity: `150M`, `25M USD/month`, `300M USD/year`, `2B USD ARR`, `150M CNY/month` (at the
  manifest's rate); a range `50M..150M`, `100M..` (at least) or `..20M USD/month` (at most);
- boolean: `true` or `false`;
- string: the text as is (`Composer 2`);
- set: `[Kimi K2.5, Cursor]` (exactly these; `[]` for none; a name that holds a comma, a
  bracket or a quote in quotes, a quote inside doubled), `includes [Kimi K2.5]`,
  `excludes [Kimi K2.5]`, or both joined by `;`; a list typed wrongly (a quote or a bracket never
  closed, a name missing) is refused, never read as some other set;
- any fact: `unknown` forgets what the manifest says.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from licheck.core.diagnostics import LicheckError
from licheck.core.units import Dimension, Stated, UnitError, parse_stated
from licheck.inputs.manifest import FactSpec
from licheck.loading.factchecks import stateable
from licheck.vocabulary.factdefs import FactDef, FactType, suggest
from licheck.vocabulary.names import FACTS


class ScenarioError(LicheckError):
    """A what-if option that cannot be read; the message names the option and the value."""


@dataclass(frozen=True, slots=True)
class Assignment:
    """`--set FACT=VALUE`: the fact, the text as typed, and the spec it stands for."""

    fact: str
    text: str
    spec: FactSpec


@dataclass(frozen=True, slots=True)
class SweepSpec:
    """`--sweep FACT=FROM..TO`: a closed range of a quantity fact (money in USD per month)."""

    fact: str
    text: str
    lower: Fraction
    upper: Fraction
    dimension: Dimension


@dataclass(frozen=True, slots=True)
class Swap:
    """`--swap-base OLD=NEW`, as typed (resolved against the catalog by the scenario)."""

    old: str
    new: str


def _split(option: str, raw: str) -> tuple[str, str]:
    name, sep, value = raw.partition("=")
    name, value = name.strip(), value.strip()
    if not sep or not name or not value:
        raise ScenarioError(f"{option} {raw!r}: expected NAME=VALUE")
    return name, value


def stateable_fact(option: str, name: str) -> FactDef:
    """The definition of a fact a user may set or sweep, or a `ScenarioError` with a hint."""
    definition = FACTS.get(name)
    if definition is None:
        raise ScenarioError(
            f"{option}: unknown fact {name!r}{suggest(name, stateable())}; run "
            "`licheck facts` for the fact names"
        )
    if definition.implicit:
        raise ScenarioError(
            f"{option}: {name!r} is derived from the lineage and cannot be set "
            "(use --swap-base to change a base model)"
        )
    return definition


def parse_assignment(raw: str) -> Assignment:
    """Read `FACT=VALUE`; the value is checked against the fact's type here, its units later
    (a currency needs the manifest's rate)."""
    name, value = _split("--set", raw)
    definition = stateable_fact("--set", name)
    where = f"--set {name}"
    if value == "unknown":
        return Assignment(name, value, FactSpec(value="unknown"))
    match definition.type:
        case FactType.QUANTITY:
            spec = _quantity(where, value)
        case FactType.BOOLEAN:
            if value not in ("true", "false"):
                raise ScenarioError(f"{where}: {name} is true or false (or unknown), got {value!r}")
            spec = FactSpec(value=value == "true")
        case FactType.STRING:
            spec = FactSpec(value=value)
        case FactType.SET:
            spec = _set(where, value)
            _closed(where, definition, spec)
    return Assignment(name, value, spec)


def members(spec: FactSpec) -> list[str]:
    """Every member a set fact's value names: listed, included or excluded."""
    listed = spec.value if isinstance(spec.value, list) else []
    return [*listed, *(spec.includes or []), *(spec.excludes or [])]


def _closed(where: str, definition: FactDef, spec: FactSpec) -> None:
    """A member outside a closed vocabulary would never match a rule: refuse it here."""
    for item in members(spec):
        message = definition.unknown_member(item)
        if message:
            raise ScenarioError(f"{where}: {message}")


def _quantity(where: str, value: str) -> FactSpec:
    if ".." not in value:
        return FactSpec(value=value)
    low, _, high = (part.strip() for part in value.partition(".."))
    if not low and not high:
        raise ScenarioError(f"{where}: a range needs at least one end, as in 50M..150M")
    return FactSpec(at_least=low or None, at_most=high or None)


def _set(where: str, value: str) -> FactSpec:
    if value.startswith("["):
        items, end = _list_at(where, value, 0)
        if value[end:].strip():
            raise ScenarioError(
                f"{where}: {value[end:].strip()!r} after the list {value[:end]!r}: a set is one "
                "list in brackets"
            )
        return FactSpec(value=items)
    if not value.startswith(_SET_WORDS):
        stray = next((c for c in value if c in _LIST_MARKS), None)
        if stray is not None:  # a list typed wrongly, never a name holding half of one
            raise ScenarioError(
                f"{where}: {value!r} is neither a list in brackets nor a plain name (it holds "
                f"{stray!r}); write the set as [a, b], quoting a name that holds a bracket, a "
                f"comma or a quote (the quote doubled): {_QUOTED_EXAMPLE}"
            )
        return FactSpec(value=[value])  # one bare name: exactly that set
    parts: dict[str, list[str]] = {}
    index = 0
    while True:
        index = _skip(value, index)
        found = next((w for w in _SET_WORDS if value.startswith(w, index)), None)
        start = _skip(value, index + len(found)) if found else index
        if found is not None and found not in parts and value[start : start + 1] != "[":
            raise ScenarioError(
                f"{where}: {found} needs a list in brackets, as in {found} [a, b]; got {value!r}"
            )
        if found is None or found in parts:
            raise ScenarioError(
                f"{where}: expected [a, b], includes [a], excludes [b] (the last two joined "
                f"by ;) or unknown, got {value!r}"
            )
        parts[found], index = _list_at(where, value, start)
        index = _skip(value, index)
        if index == len(value):
            break
        if value[index] != ";":
            raise ScenarioError(
                f"{where}: expected ; or the end after {value[:index]!r}, got {value[index:]!r}"
            )
        index += 1
    return FactSpec(includes=parts.get("includes"), excludes=parts.get("excludes"))


_SET_WORDS = ("includes", "excludes")
_LIST_MARKS = '[]"'
_QUOTED_EXAMPLE = '["a, b", "say ""hi"""]'


def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index].isspace():
        index += 1
    return index


def _list_at(where: str, text: str, start: int) -> tuple[list[str], int]:
    """The names of the list in brackets that opens at `text[start]`, and where it ends.  A
    name is plain (`Kimi K2.5`) or quoted (`"a, b"`, a quote inside doubled); a quote never
    closed, a bracket or a quote in a plain name, a name missing or the list never closed is
    refused, never read as part of a name."""
    items: list[str] = []
    index = _skip(text, start + 1)
    if text[index : index + 1] == "]":
        return items, index + 1
    while True:
        index = _skip(text, index)
        if text[index : index + 1] == '"':
            item, index = _quoted(where, text, index)
        else:
            end = index
            while end < len(text) and text[end] not in ",]" + _LIST_MARKS:
                end += 1
            if end < len(text) and text[end] in '["':
                raise ScenarioError(
                    f"{where}: {text[end]!r} inside the name {text[index : end + 1]!r} of "
                    f"{text!r}: quote a name that holds a bracket or a quote (the quote "
                    f"doubled): {_QUOTED_EXAMPLE}"
                )
            item, index = text[index:end].strip(), end
        if not item:
            raise ScenarioError(
                f'{where}: an empty name in {text!r} (two commas, a comma last, or "")'
            )
        items.append(item)
        index = _skip(text, index)
        if index == len(text):
            raise ScenarioError(
                f"{where}: the list {text[start:]!r} is never closed: end it with ]"
            )
        if text[index] == "]":
            return items, index + 1
        if text[index] != ",":
            raise ScenarioError(
                f"{where}: expected , or ] after {text[start:index]!r}, got {text[index:]!r}"
            )
        index += 1


def _quoted(where: str, text: str, start: int) -> tuple[str, int]:
    """The quoted name opening at `text[start]` and where it ends (a quote doubled: one)."""
    parts, index = [], start + 1
    while True:
        end = text.find('"', index)
        if end < 0:
            raise ScenarioError(
                f"{where}: the quote that opens {text[start:]!r} is never closed (in {text!r})"
            )
        parts.append(text[index:end])
        if text[end + 1 : end + 2] != '"':
            return "".join(parts).strip(), end + 1
        parts.append('"')
        index = end + 2


def parse_sweep(raw: str, rates: dict[str, Fraction] | None = None) -> SweepSpec:
    """Read `FACT=FROM..TO` for a quantity fact; both ends are included."""
    name, value = _split("--sweep", raw)
    definition = stateable_fact("--sweep", name)
    where = f"--sweep {name}"
    if definition.type is not FactType.QUANTITY:
        raise ScenarioError(
            f"{where}: only quantities (counts, money) can be swept; {name} is "
            f"a {definition.type.value} — use --set {name}=... for each value"
        )
    low, sep, high = (part.strip() for part in value.partition(".."))
    if not sep or not low or not high:
        raise ScenarioError(f"{where}: expected FROM..TO, as in {name}=1M..100M")
    dimension = definition.dimension or Dimension.COUNT
    try:
        ends = [
            parse_stated(
                end, dimension, default_period_months=definition.period_months, rates=rates
            )
            for end in (low, high)
        ]
    except UnitError as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    _months_only(where, name, definition, ends)
    lower, upper = (end.quantity.amount for end in ends)
    if lower >= upper:
        raise ScenarioError(f"{where}: FROM must be less than TO, got {value!r}")
    return SweepSpec(name, value, lower, upper, dimension)


def _months_only(where: str, name: str, definition: FactDef, ends: list[Stated]) -> None:
    """A monthly fact is swept over months: a year's total (or ARR) is not a month, and `--set`
    reads it as an average (likely) or a lower bound, so a cell of yearly figures would give a
    firmer verdict than setting the same figure does."""
    if definition.period_months != 1:
        return
    for end in ends:
        if end.months != 1 or end.recurring:
            raise ScenarioError(
                f"{where}: {end.text} is not a month of {name} (a year's total gives only the "
                "average month, ARR only a lower bound); sweep amounts per month, as in "
                f"{name}=1M..100M"
            )


def parse_swap(raw: str) -> Swap:
    """Read `OLD=NEW` (catalog ids or aliases)."""
    old, new = _split("--swap-base", raw)
    return Swap(old, new)
