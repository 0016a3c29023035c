"""Where `licheck evaluate`'s cold start goes beyond the import floor of its stack.

    python bench/cold_profile.py [--runs 11]

Two views, each the median over fresh processes:
1. phases, timed inside the process: the floor imports (yaml, click, pydantic.BaseModel), then
   licheck's modules, loading the rule library, evaluating products/composer2.yaml, building and
   rendering the JSON report;
2. `-X importtime` self times of what licheck imports beyond the floor, grouped: the pydantic
   model classes of the file formats (inputs.rules) and of the report (report.view), the
   rest of licheck, pydantic's own modules first needed by those classes, and the standard
   library.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PHASES = r"""
import json, sys, time
t = [time.perf_counter()]
c = [time.process_time()]
import yaml, click
from pydantic import BaseModel
t.append(time.perf_counter()); c.append(time.process_time())
import licheck.inputs.rules
t.append(time.perf_counter()); c.append(time.process_time())
import licheck.portfolio.runs, licheck.report.view, licheck.report.building, licheck.cli.evaluate
t.append(time.perf_counter()); c.append(time.process_time())
from pathlib import Path
from licheck.library.compiled import load_library
library = load_library(Path(sys.argv[1]) if len(sys.argv) > 1 else None)
t.append(time.perf_counter()); c.append(time.process_time())
from licheck.evaluation.evaluate import Options
from licheck.facts.evidencepolicy import POLICIES
results = licheck.portfolio.runs.evaluate_paths([Path("products/composer2.yaml")],
                                                Options(POLICIES["default"]), library)
t.append(time.perf_counter()); c.append(time.process_time())
report = licheck.report.building.build(results, "default", None)
text = licheck.report.view.to_json(report)
t.append(time.perf_counter()); c.append(time.process_time())
print(json.dumps([[b - a for a, b in zip(t, t[1:])], [b - a for a, b in zip(c, c[1:])]]))
"""
PHASE_NAMES = [
    "floor imports (yaml, click, BaseModel)",
    "licheck.inputs.rules (format models)",
    "rest of licheck's imports",
    "load the rule library",
    "evaluate composer2",
    "build + JSON report",
]
IMPORTS = (
    "import yaml, click; from pydantic import BaseModel; "
    "import licheck.portfolio.runs, licheck.report.view, licheck.cli.evaluate"
)


def environment() -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as the `licheck` command runs
    return env


def phases(runs: int) -> None:
    """Each phase's wall and CPU time, with the shipped library (`licheck/library.json`) and with
    the repository's rule files (`--licenses licenses`: read and checked), interleaved."""
    settings = {"shipped": [], "folder": ["licenses"]}
    samples: dict[str, list[list[list[float]]]] = {name: [] for name in settings}
    for _ in range(runs):
        for name, argv in settings.items():
            out = subprocess.run(
                [sys.executable, "-c", PHASES, *argv],
                cwd=ROOT,
                env=environment(),
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            samples[name].append(json.loads(out))
    print(f"phases inside the process (median of {runs} fresh processes; ms):")
    print(f"  {'':40s} {'wall':>8s} {'CPU':>8s} {'wall':>8s} {'CPU':>8s}")
    print(f"  {'':40s} {'(shipped)':>17s} {'(folder)':>17s}")
    for index, phase in enumerate(PHASE_NAMES):
        cells = [
            statistics.median(s[kind][index] for s in samples[name]) * 1000
            for name in settings
            for kind in (0, 1)
        ]
        print(f"  {phase:40s} " + " ".join(f"{cell:8.1f}" for cell in cells))
    for name in settings:
        totals = [
            statistics.median(sum(s[kind][1:]) for s in samples[name]) * 1000 for kind in (0, 1)
        ]
        print(f"  beyond the floor, {name}: wall {totals[0]:.1f} ms, CPU {totals[1]:.1f} ms")


def group(module: str) -> str:
    top = module.split(".")[0]
    if module in ("licheck.inputs.rules", "licheck.report.view"):
        return module + " (pydantic classes)"
    if top == "licheck":
        return "licheck, other modules"
    if top in (
        "pydantic",
        "pydantic_core",
        "annotated_types",
        "typing_extensions",
        "typing_inspection",
    ):
        return "pydantic internals not in the floor"
    return "standard library and others"


FLOOR = "import yaml, click; from pydantic import BaseModel"


def _self_times(code: str) -> dict[str, float]:
    err = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code],
        cwd=ROOT,
        env=environment(),
        capture_output=True,
        text=True,
        check=True,
    ).stderr
    times = {}
    for line in err.splitlines():
        if line.startswith("import time:") and "self [us]" not in line:
            parts = line.split("|")
            times[parts[2].strip()] = float(parts[0].split(":")[1]) / 1000
    return times


def importtime(runs: int) -> None:
    floor = set(_self_times(FLOOR))
    totals: dict[str, list[float]] = {}
    for _ in range(runs):
        sums: dict[str, float] = {}
        for module, self_ms in _self_times(IMPORTS).items():
            if module not in floor:
                sums[group(module)] = sums.get(group(module), 0.0) + self_ms
        for key, value in sums.items():
            totals.setdefault(key, []).append(value)
    print(f"imports beyond the floor, self time by group (median of {runs}):")
    for key, values in sorted(totals.items(), key=lambda kv: -statistics.median(kv[1])):
        print(f"  {key:40s} {statistics.median(values):7.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11)
    args = parser.parse_args()
    subprocess.run([sys.executable, "-c", IMPORTS], cwd=ROOT, env=environment(), check=True)
    phases(args.runs)
    importtime(args.runs)


if __name__ == "__main__":
    main()
