"""Where licheck's time per manifest goes over a portfolio, phase by phase, in one process.

    python bench/portfolio_profile.py [--dir /tmp/licheck-portfolio/1000] [--files 1000]
                                      [--gc-tuned]

CPU time per file for: reading the file, parsing it (licheck's YAML reader), validating it
(pydantic), evaluating it (facts, then the clause judgements: the caches warm up as the run goes,
as they do in a portfolio), building its part of the report and encoding that as JSON; and, for
comparison, PyYAML's C loader on the same text (the parse floor).  Also the judgement cache's
hit rate, and the garbage collector's time (inside the phases' figures: it runs in whichever phase
allocates when a collection is due, mostly the parses).  `--gc-tuned` runs as a worker could:
the library's objects frozen out of collection and fewer young collections.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from licheck.core.verdicts import Verdict
from licheck.evaluation import judging
from licheck.evaluation.evaluate import EvaluationContext, Options, evaluate_manifest
from licheck.facts.evidencepolicy import POLICIES
from licheck.files import yamlsafe
from licheck.inputs.manifest import Manifest
from licheck.library.compiled import load_library
from licheck.loading import documents as loading
from licheck.outputs.jsonreport import product_bytes
from licheck.report.building import ReportMemo, product_data

PHASES = [
    "read",
    "parse (yamlsafe)",
    "validate (pydantic)",
    "evaluate",
    "report product",
    "JSON encode",
    "parse floor (C loader)",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/licheck-portfolio/1000"))
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument(
        "--gc-tuned",
        action="store_true",
        help="as a worker could run: gc.freeze() once the library is loaded "
        "(its objects are never scanned again) and gc.set_threshold(10000, "
        "20, 10) (fewer young collections)",
    )
    args = parser.parse_args()
    paths = sorted(args.dir.glob("*.yaml"))[: args.files]
    library = load_library()
    if args.gc_tuned:
        gc.collect()
        gc.freeze()
        gc.set_threshold(10_000, 20, 10)
    options = Options(POLICIES["default"])
    totals = dict.fromkeys(PHASES, 0.0)
    clock = time.process_time
    calls = hits = 0
    context = EvaluationContext()
    judge = judging.judge
    judged_table = context.table(judging.JUDGED)

    def counting(*a: Any) -> tuple[judging.Judged, Verdict]:
        nonlocal calls, hits
        calls += 1
        before = len(judged_table)
        judged = judge(*a)
        hits += len(judged_table) == before  # a miss adds an entry (or empties a full table)
        return judged

    judging.judge = counting  # type: ignore[assignment]
    # The garbage collector's time lands in whichever phase allocates when it runs (mostly the
    # parses): shown apart, it is part of the phases' figures above.
    collector = {"runs": 0, "time": 0.0, "start": 0.0}

    def collecting(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collector["start"] = clock()
        else:
            collector["runs"] += 1
            collector["time"] += clock() - collector["start"]

    gc.callbacks.append(collecting)
    memo = ReportMemo()  # the run's memo, as a worker keeps one
    for path in paths:
        t0 = clock()
        text = yamlsafe.read_text(path, str(path))
        t1 = clock()
        document = yamlsafe.parse(text, str(path))
        t2 = clock()
        manifest = loading.validate(document, Manifest)
        t3 = clock()
        result = evaluate_manifest(manifest, document, library, options, context)
        t4 = clock()
        product = product_data(result, memo)
        t5 = clock()
        product_bytes(product)
        t6 = clock()
        yaml.load(text, Loader=yaml.CSafeLoader)
        t7 = clock()
        for phase, (a, b) in zip(
            PHASES,
            [(t0, t1), (t1, t2), (t2, t3), (t3, t4), (t4, t5), (t5, t6), (t6, t7)],
            strict=True,
        ):
            totals[phase] += b - a
    count = len(paths)
    licheck = sum(v for k, v in totals.items() if not k.startswith("parse floor"))
    print(f"{count} manifests from {args.dir}, CPU time per file:")
    for phase, total in totals.items():
        share = f"{total / licheck:5.0%}" if not phase.startswith("parse floor") else "     "
        print(f"  {phase:24s} {total / count * 1e6:7.0f} µs  {share}")
    print(f"  {'licheck, all phases':24s} {licheck / count * 1e6:7.0f} µs")
    print(
        f"  {'of which garbage collection':24s} {collector['time'] / count * 1e6:7.0f} µs"
        f"  ({collector['runs']:.0f} collections)"
    )
    print(f"judgement cache: {hits} hits of {calls} clause judgements ({hits / max(calls, 1):.0%})")


if __name__ == "__main__":
    main()
