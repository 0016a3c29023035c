"""Scenario tests written as data beside each license (`licenses/tests/*.yaml`).

A scenario file names a license and a default model; each scenario gives the product's facts (and
optionally the model, delivery, currency rates, or a whole component) and the expected verdict of
each named clause.  `build_manifest` turns one into a manifest for the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from licheck.files import yamlsafe
from licheck.inputs.manifest import Manifest

SCENARIO_DIR = Path(__file__).resolve().parent.parent / "licenses" / "tests"


@dataclass(frozen=True)
class Scenario:
    file: str
    license: str
    name: str
    data: dict[str, Any]
    defaults: dict[str, Any]

    @property
    def expect(self) -> dict[str, str]:
        return dict(self.data["expect"])


# The keys a file and a scenario may have: any other (a misspelt `facts`) would be skipped,
# and the scenario would run without what it states, and might still pass.
# `catalog_layer`: catalog entries layered over the built-in library for the file's scenarios
# (a license whose only built-in models rest on secondary claims, where no breach can be a
# violation, is tested on a stand-in model the file states; `tests/licenses/test_scenarios.py`).
FILE_KEYS = {"license", "scenarios", "model", "delivery", "obtained", "catalog_layer"}
SCENARIO_KEYS = {
    "name", "expect", "facts", "model", "delivery", "obtained", "steps", "component", "owner",
    "release_date", "currency_rates", "evidence",
}  # fmt: skip
COMPONENT_SETS = {"model", "delivery", "obtained", "steps"}  # a whole `component` sets them


def scenario_problems(path: Path, data: object) -> list[str]:
    """What makes a scenario file say less than it seems to: unknown keys, a `component`
    beside the keys it replaces, a scenario that expects nothing."""
    if not isinstance(data, dict) or not isinstance(data.get("scenarios"), list):
        return [f"{path.name}: expected a mapping with a list of scenarios"]
    problems = [f"{path.name}: unknown key {key!r}" for key in sorted(set(data) - FILE_KEYS)]
    for item in data["scenarios"]:
        name = f"{path.name}: {item.get('name')!r}" if isinstance(item, dict) else path.name
        if not isinstance(item, dict) or not item.get("expect"):
            problems.append(f"{name}: a scenario needs a name and a non-empty expect")
            continue
        problems += [f"{name}: unknown key {key!r}" for key in sorted(set(item) - SCENARIO_KEYS)]
        if "component" in item:
            problems += [
                f"{name}: {key!r} beside component is not used"
                for key in sorted(COMPONENT_SETS & set(item))
            ]
    return problems


def load_scenarios(folder: Path = SCENARIO_DIR) -> list[Scenario]:
    found: list[Scenario] = []
    for path in sorted(folder.glob("*.yaml")):
        document = yamlsafe.load(path)
        data = document.data
        if problems := scenario_problems(path, data):
            raise ValueError("; ".join(problems))
        defaults = {k: v for k, v in data.items() if k not in ("license", "scenarios")}
        found.extend(
            Scenario(path.name, data["license"], item["name"], item, defaults)
            for item in data["scenarios"]
        )
    return found


def build_manifest(scenario: Scenario) -> Manifest:
    data, defaults = scenario.data, scenario.defaults
    # `obtained` may be a file-wide default; a scenario's `obtained: null` leaves it unstated.
    obtained = data["obtained"] if "obtained" in data else defaults.get("obtained")
    component = data.get("component") or {
        "id": "product-model",
        "name": "Product model",
        "lineage": {
            "base": {
                "model": data.get("model", defaults.get("model")),
                **({"obtained": obtained} if obtained is not None else {}),
            },
            "steps": data.get("steps", ["fine_tuning"]),
        },
        "delivery": data.get("delivery", defaults.get("delivery", ["hosted_service"])),
    }
    return Manifest.model_validate(
        {
            "product": f"scenario: {scenario.name}",
            "owner": data.get("owner", "scenario"),
            "release_date": data.get("release_date", "2026-06-01"),
            "currency_rates": data.get("currency_rates", {}),
            "facts": data.get("facts", {}),
            "components": [component],
        }
    )
