"""The settings in force: every setting that decides a verdict or the gate (the --fail-on
policy, the evidence policy, --as-of, the rule library's layers and policies, waivers,
attestations, the baseline, --today), its value and where it came from, as one list that every
format shows beside the gate line (`licheck.outputs.summary.settings_line`), so that a gate
weakened by a setting nobody typed is seen, whatever the format.

Pure: the command line gathers the values and their sources (`licheck.cli.configuring`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from licheck.report.view import GateSettingOut

Value = str | bool | list[str] | None


@dataclass(frozen=True, slots=True)
class GateKey:
    key: str  # as the configuration file writes it (where it can), and the report lists it
    option: str  # as the command line writes it
    default: str | bool | tuple[str, ...] | None  # (a list setting's: empty)

    def is_default(self, value: Value) -> bool:
        return (tuple(value) if isinstance(value, list) else value) == self.default


KEYS = (
    GateKey("fail-on", "--fail-on", "violation"),
    GateKey("evidence", "--evidence", "default"),
    GateKey("as-of", "--as-of", None),
    GateKey("licenses", "--licenses", ()),
    GateKey("builtin-licenses", "--no-builtin-licenses", True),
    GateKey("policy", "--policy", ()),
    GateKey("waivers", "--waivers", None),
    GateKey("attestations", "--attestations", None),
    GateKey("baseline", "--baseline", None),
    GateKey("today", "--today", None),
)
BY_KEY = {k.key: k for k in KEYS}
DEFAULT_SOURCE = "default"


def in_force(values: Mapping[str, Value], sources: Mapping[str, str]) -> list[GateSettingOut]:
    """Each gate setting (`KEYS`, in order) with its value (a key missing from `values` has its
    default) and source ("default" when `sources` does not say)."""
    out = []
    for gate_key in KEYS:
        given = values.get(gate_key.key, gate_key.default)
        value = list(given) if isinstance(given, tuple) else given
        default = gate_key.is_default(value)
        source = sources.get(gate_key.key, DEFAULT_SOURCE)
        out.append(
            GateSettingOut(
                key=gate_key.key,
                value=value,
                source=source,
                default=default,
                effect=None if default else _effect(gate_key.key, value),
            )
        )
    return out


def _effect(key: str, value: Value) -> str | None:
    """What a non-default setting does, where its value alone does not say it."""
    if key == "evidence" and isinstance(value, str):
        return evidence_effect(value)
    if key == "waivers" and value is False:
        return "no waiver file is read"
    return None


def evidence_effect(name: str) -> str | None:
    """How an evidence policy differs from the default: the kinds it lets establish a fact that
    the default does not (a weaker gate: an estimate or an inference can settle a verdict), and
    those it no longer lets."""
    from licheck.facts.evidencepolicy import POLICIES, policy_named

    try:
        policy = policy_named(name)
    except ValueError:
        return None
    default = POLICIES["default"].establishing
    more = sorted(kind.value for kind in policy.establishing - default)
    fewer = sorted(kind.value for kind in default - policy.establishing)
    said = [f"weaker than the default: {', '.join(more)} can establish a fact"] if more else []
    if fewer:
        said.append(f"{', '.join(fewer)} cannot")
    return "; ".join(said) or None


def shown_value(setting: GateSettingOut) -> str:
    """The value as an option would take it: a list joined by ", " ("" for none)."""
    value = setting.value
    if isinstance(value, list):
        return ", ".join(value)
    return "" if value is None or isinstance(value, bool) else value


def phrase(setting: GateSettingOut) -> str:
    """`--evidence estimates (.licheck.yaml:3:1; weaker than the default: ...)`: a setting as
    the settings line names it.  User text (paths): the caller escapes it."""
    gate_key = BY_KEY[setting.key]
    if setting.key == "builtin-licenses":
        words = gate_key.option if setting.value is False else "--builtin-licenses"
    elif setting.key == "waivers" and setting.value is False:
        words = "--no-waivers"
    else:
        words = f"{gate_key.option} {shown_value(setting)}"
    notes = [setting.source, *([setting.effect] if setting.effect else [])]
    return f"{words} ({'; '.join(notes)})"


def changed(settings: list[GateSettingOut]) -> list[GateSettingOut]:
    """The settings that are not licheck's defaults, but --fail-on (the gate line names it)."""
    return [s for s in settings if not s.default and s.key != "fail-on"]
