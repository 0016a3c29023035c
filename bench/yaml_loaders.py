"""YAML reading strategies on the generated portfolio: which is fastest while keeping positions
and every safety check.

    python bench/yaml_loaders.py [--dir /tmp/licheck-portfolio/1000] [--files 500]

  events only            iterating libyaml's events (CSafeLoader), building nothing: the bound
                         for any event-based reader
  yamlsafe.parse_events  licheck's event reader: events -> plain data + positions, every limit
                         checked (what `yamlsafe.parse` was before the fast path)
  yamlsafe.parse         licheck's reader: the fast path (`yamlfast`: libyaml's composer with
                         resolution off, then a tree walk), the event reader where it declines
  yamlfast composer only the fast path's composer alone: the bound for its tree walk
  compose                libyaml's node graph (CSafeLoader.compose), YAML 1.1 implicit resolvers
  compose, no resolvers  the same without the implicit resolvers (every plain scalar a string)
  load (CSafeLoader)     yaml.load with the C loader: the "parse floor" of the portfolio bench

Times are CPU time per file (best of three passes over the same texts, already in memory).
The composer alone is no drop-in for licheck's reader: it shares an aliased node (the alias's own
position is lost, alias bombs are not counted), it cannot tell an explicit tag once resolved, it
keeps duplicate keys, and it recurses in C.  `yamlfast` therefore declines, before composing,
any text with anchors, aliases, tags or merge keys or that could nest too deeply, and checks the
rest of the event reader's limits on the tree; tests/files/test_yamlfast.py holds it to the event
reader.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from licheck.files import yamlfast, yamlsafe


class _NoResolvers(yaml.CSafeLoader):  # type: ignore[misc]
    yaml_implicit_resolvers: dict[str, Any] = {}  # noqa: RUF012 - PyYAML's own class attribute


def _fast_compose_only(text: str) -> Any:
    parser = yamlfast._Composer(text)
    try:
        return parser.get_single_node()
    finally:
        parser.dispose()


def strategies() -> dict[str, Callable[[str], Any]]:
    loader = yaml.CSafeLoader
    return {
        "events only": lambda text: sum(1 for _ in yaml.parse(text, Loader=loader)),
        "yamlsafe.parse_events": lambda text: yamlsafe.parse_events(text, "bench"),
        "yamlsafe.parse": lambda text: yamlsafe.parse(text, "bench"),
        "yamlfast composer only": _fast_compose_only,
        "compose": lambda text: yaml.compose(text, Loader=loader),
        "compose, no resolvers": lambda text: yaml.compose(text, Loader=_NoResolvers),
        "load (CSafeLoader)": lambda text: yaml.load(text, Loader=loader),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/licheck-portfolio/1000"))
    parser.add_argument("--files", type=int, default=500)
    args = parser.parse_args()
    texts = [p.read_text(encoding="utf-8") for p in sorted(args.dir.glob("*.yaml"))[: args.files]]
    if not texts:
        raise SystemExit(f"no manifests in {args.dir}: run bench/gen_portfolio.py first")
    print(f"{len(texts)} manifests, CPU time per file (best of 3)")
    for name, parse in strategies().items():
        best = float("inf")
        for _ in range(3):
            start = time.process_time()
            for text in texts:
                parse(text)
            best = min(best, time.process_time() - start)
        print(f"  {name:24s} {best / len(texts) * 1e6:7.0f} µs")


if __name__ == "__main__":
    main()
