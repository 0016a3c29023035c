"""Cold start in instructions executed: the ratios of `bench/cold_start.py`, without the noise.

    python bench/cold_instructions.py [--baseline DIR]

A shared machine moves the time of the same command by 10-25% from one run to the next; the
number of instructions a process executes (valgrind's callgrind, `PYTHONHASHSEED=0`) moves by
well under 1%, so a change of a few milliseconds shows.  Instructions are not time (a cache miss
costs more than an add), so the goals are judged on CPU time (`cold_start.py`); this script says
whether a change helped, and by how much of the whole.  Needs `valgrind`; each command runs once
(about 30 s each under callgrind).  `--baseline DIR` adds another checkout's `evaluate --format
json` (from `DIR/src`).  `--phases` instead counts `bench/cold_profile.py`'s phases of evaluate
(each run stops after one more phase; a phase's count is the difference), and what validating
composer2 with the manifest's pydantic models alone costs beyond the floor.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
MANIFEST = "products/composer2.yaml"
COMMANDS: dict[str, list[str]] = {
    "import yaml": [PY, "-c", "import yaml"],
    "licheck --version": [PY, "-m", "licheck", "--version"],
    "stack floor": [PY, "-c", "import yaml, click; from pydantic import BaseModel"],
    "floor, no teardown": [
        PY,
        "-c",
        "import yaml, click; from pydantic import BaseModel; import os; os._exit(0)",
    ],
    "evaluate --format json": [PY, "-m", "licheck", "evaluate", MANIFEST, "--format", "json"],
}
RATIOS = [
    ("licheck --version", "import yaml", 2.0),
    ("evaluate --format json", "stack floor", 1.5),
    ("evaluate --format json", "floor, no teardown", 1.5),
]
BASELINE = "evaluate json (baseline)"
PHASES = {  # cumulative: each runs the code of the ones before it too
    "floor imports (yaml, click, BaseModel)": "import yaml, click; from pydantic import BaseModel",
    "licheck.inputs.rules (format models)": "import licheck.inputs.rules",
    "rest of licheck's imports": "import licheck.portfolio.runs, licheck.report.view, "
    "licheck.report.building, licheck.cli.evaluate",
    "load the rule library": "from licheck.library.compiled import load_library; "
    "library = load_library()",
    "evaluate composer2": "from licheck.evaluation.evaluate import Options; "
    "from licheck.facts.evidencepolicy import POLICIES; from pathlib import Path; "
    "results = licheck.portfolio.runs.evaluate_paths([Path('products/composer2.yaml')], "
    "Options(POLICIES['default']), library)",
    "build + JSON report": "text = licheck.report.view.to_json("
    "licheck.report.building.build(results, 'default', None))",
}
MANIFEST_ONLY = (
    "import yaml, click; from pydantic import BaseModel; "
    "from licheck.inputs.manifest import Manifest; "
    "Manifest.model_validate(yaml.safe_load(open('products/composer2.yaml')))"
)


def phases() -> None:
    """Instructions of each phase, as differences of runs that stop after it (os._exit, as
    licheck leaves), and of validating the manifest alone."""
    env_plugins = os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")  # as licheck
    assert env_plugins
    code, totals = "", []
    for step in PHASES.values():
        code += step + "\n"
        totals.append(instructions([PY, "-c", code + "import os; os._exit(0)"], ROOT / "src"))
    floor = totals[0]
    print("instructions by phase of `evaluate` (callgrind; runs ending in os._exit):")
    for (name, _), before, after in zip(PHASES.items(), [0, *totals[:-1]], totals, strict=True):
        print(f"  {name:40s} {(after - before) / 1e6:8.1f} M")
    print(f"  beyond the floor: {(totals[-1] - floor) / 1e6:.1f} M ({totals[-1] / floor:.2f}x)")
    alone = instructions([PY, "-c", MANIFEST_ONLY + "; import os; os._exit(0)"], ROOT / "src")
    print(
        f"validating composer2 with licheck.inputs.manifest alone: {alone / 1e6:.1f} M, "
        f"{alone / floor:.2f}x the floor"
    )


def instructions(argv: list[str], src: Path) -> int:
    env = dict(os.environ, PYTHONPATH=str(src), NO_COLOR="1", PYTHONHASHSEED="0")
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, check=False)  # bytecode
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"{argv}: no instruction count\n{done.stderr[-1000:]}")
    return int(found[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, metavar="DIR")
    parser.add_argument("--phases", action="store_true", help="count evaluate's phases")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed")
    if args.phases:
        phases()
        return
    runs = {name: (argv, ROOT / "src") for name, argv in COMMANDS.items()}
    if args.baseline is not None:
        runs[BASELINE] = (COMMANDS["evaluate --format json"], args.baseline.resolve() / "src")
        RATIOS.append((BASELINE, "stack floor", 1.5))
        RATIOS.append(("evaluate --format json", BASELINE, 1.0))
    counts = {name: instructions(argv, src) for name, (argv, src) in runs.items()}
    print(f"instructions executed (callgrind, {PY}):")
    for name, count in counts.items():
        print(f"  {name:26s} {count / 1e6:9.1f} M")
    print("ratios:")
    for name, floor, goal in RATIOS:
        ratio = counts[name] / counts[floor]
        print(f"  {name} / {floor}: {ratio:.2f}x  (goal <= {goal}x)")


if __name__ == "__main__":
    main()
