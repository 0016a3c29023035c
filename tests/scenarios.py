"""Scenario tests written as data beside each license (`licenses/tests/*.yaml`).

A scenario file names a license and a default model; each scenario gives the product's facts (and
optionally the model, delivery, currency rates, or a whole component) and the expected verdict of
each named clause.  `build_manifest` turns one into a manifest for the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from licheck import yamlsafe
from licheck.manifest import Manifest

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


def load_scenarios() -> list[Scenario]:
    found: list[Scenario] = []
    for path in sorted(SCENARIO_DIR.glob("*.yaml")):
        document = yamlsafe.load(path)
        data = document.data
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
