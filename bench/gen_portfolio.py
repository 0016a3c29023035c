"""Write a synthetic portfolio of product manifests in licheck's format, for the benchmarks.

    python bench/gen_portfolio.py OUT_DIR [--count 10000] [--seed 7]

The manifests look like real ones (about 50 lines: sources with kinds and dates, facts with
evidence, one or two components with a lineage), built on the models of the catalog (ids and
aliases, so every license of the library occurs; Kimi K2.5, whose clause the benchmarks compare,
in a fifth of the components), with about 20% of the facts unknown, values at
and just around the thresholds licenses use (100M users, 20M USD a month, 700M users), ranges,
annual and foreign-currency revenue, weak, rumoured and retracted evidence.  The same seed gives
the same files.  Write them outside the repository (e.g. under /tmp): they are not committed.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "licenses" / "catalog.yaml"

MAU = [
    "100M",
    "100000001",
    "99999999",
    100000000,
    "150M",
    "1.2B",
    "20M",
    "2.5M",
    "700M",
    "700000001",
    "650M",
    "40K",
]
MAU_RANGES = [
    {"at_least": "80M", "at_most": "120M"},
    {"at_least": "120M"},
    {"at_most": "90M"},
    {"at_least": "100M"},
]
REVENUE = [
    "20M USD/month",
    "20000001 USD/month",
    "240M USD/year",
    "240000012 USD/year",
    "19.9M USD/month",
    "2B USD/year",
    "5M USD/month",
    "300M CNY/year",
    "150K USD/month",
    "25M USD/month",
]
REVENUE_RANGES = [
    {"at_least": "10M USD/month"},
    {"at_least": "15M USD/month", "at_most": "30M USD/month"},
]
NAMES = [
    "Kimi K2.5",
    "Kimi K2",
    "GLM-4.6",
    "Qwen3",
    "Phi-3-mini",
    "Llama",
    "Gemma",
    "Powered by open models",
]
SOURCE_KINDS = [
    ("launch-post", "official_statement", "Launch blog post"),
    ("dashboard", "observed", "Usage dashboard export"),
    ("licensor-post", "licensor_statement", "Post by the licensor"),
    ("press", "press_report", "Trade press article"),
    ("forum", "community_inference", "Community analysis on a forum"),
    ("rumour", "rumour", "Unsourced rumour"),
]


# The benchmarks compare verdicts on Kimi K2.5's attribution clause: a fifth of the components
# are built on it, the rest on any model of the catalog.
KIMI_SHARE = 0.2
KIMI_LICENSE = "kimi-k2.5-modified-mit"


def catalog_models() -> list[tuple[str, list[str]]]:
    """(id, names a manifest may use for it) for every catalog model."""
    data = yaml.load(CATALOG.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    return [(m["id"], [m["id"], *m.get("aliases", [])]) for m in data["models"]]


def kimi_model() -> tuple[str, list[str]]:
    data = yaml.load(CATALOG.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    for m in data["models"]:
        if m.get("license") == KIMI_LICENSE:
            return m["id"], [m["id"], *m.get("aliases", [])]
    raise SystemExit(f"no model with license {KIMI_LICENSE} in the catalog")


def _count(raw: object) -> float:
    text = str(raw)
    scale = {"K": 1e3, "M": 1e6, "B": 1e9}.get(text[-1:], 1)
    return float(text.rstrip("KMB")) * scale


def date(rng: random.Random, year: int = 2026) -> str:
    return f"{year}-{rng.randint(1, 3):02d}-{rng.randint(1, 28):02d}"


def evidence(rng: random.Random, keys: list[str]) -> list[dict[str, object]]:
    """Zero to two pieces: cited sources mostly, sometimes an inline observation."""
    pieces: list[dict[str, object]] = []
    for _ in range(rng.choice([0, 1, 1, 1, 2])):
        if rng.random() < 0.15:
            pieces.append({"source": "internal audit", "kind": "observed", "date": date(rng)})
        else:
            pieces.append({"source": rng.choice(keys)})
    return pieces


def fact(rng: random.Random, keys: list[str], value: dict[str, object] | None) -> object:
    """A fact: unknown about one time in five, else the value with evidence."""
    if value is None or rng.random() < 0.2:
        return {"value": "unknown", "note": "not measured yet"}
    spec = dict(value)
    pieces = evidence(rng, keys)
    if pieces:
        spec["evidence"] = pieces
    if not pieces and "value" in spec and rng.random() < 0.5:
        return spec["value"]  # the shorthand `mau: 150M`
    return spec


def names(rng: random.Random) -> list[str]:
    return rng.sample(NAMES, rng.randint(0, 2))


def set_value(rng: random.Random) -> dict[str, object]:
    roll = rng.random()
    if roll < 0.6:
        return {"value": names(rng)}
    if roll < 0.8:
        return {"includes": names(rng)[:1] or ["Powered by open models"]}
    return {"excludes": ["Kimi K2.5"]}


def _sources(number: int, rng: random.Random) -> dict[str, dict[str, object]]:
    """The manifest's sources: two to five kinds, some retracted, half with a URL."""
    sources: dict[str, dict[str, object]] = {}
    for key, kind, title in rng.sample(SOURCE_KINDS, rng.randint(2, 5)):
        source: dict[str, object] = {
            "title": f"{title} ({number})",
            "kind": kind,
            "date": date(rng),
        }
        if rng.random() < 0.1:
            source["retracted_on"] = "2026-03-29"
        if rng.random() < 0.5:
            source["url"] = f"https://example.com/{number}/{key}"
        sources[key] = source
    return sources


def manifest(  # noqa: C901
    number: int,
    rng: random.Random,
    models: list[tuple[str, list[str]]],
    kimi: tuple[str, list[str]],
) -> str:
    sources = _sources(number, rng)
    keys = list(sources)
    mau = {"value": rng.choice(MAU)} if rng.random() < 0.8 else dict(rng.choice(MAU_RANGES))
    revenue = (
        {"value": rng.choice(REVENUE)} if rng.random() < 0.8 else dict(rng.choice(REVENUE_RANGES))
    )
    commercial = fact(rng, keys, {"value": rng.random() < 0.85})
    stated = commercial.get("value") if isinstance(commercial, dict) else commercial
    if stated is False:
        revenue = {"value": "0 USD/month"}  # revenue above zero would make it commercial
    facts: dict[str, object] = {
        "commercial": commercial,
        "mau": fact(rng, keys, mau),
        "monthly_revenue": fact(rng, keys, revenue),
        "ui_attribution": fact(rng, keys, set_value(rng)),
        "attribution_elsewhere": fact(rng, keys, {"value": names(rng)}),
    }
    if rng.random() < 0.3:
        facts["agreement_waives"] = fact(
            rng,
            keys,
            {
                "value": rng.choice(
                    [
                        ["kimi-k2.5-modified-mit/ui-attribution"],
                        ["kimi-k2.5-modified-mit/*"],
                        ["kimi-k2-modified-mit/*"],
                        [],
                    ]
                )
            },
        )
    if rng.random() < 0.3:  # the licensee's users include the product's: never fewer
        least = _count(mau.get("value", mau.get("at_least", 0)))
        facts["licensee_mau"] = fact(
            rng, keys, {"value": rng.choice([m for m in MAU if _count(m) >= least] or ["2B"])}
        )
    if rng.random() < 0.2:
        facts["territories"] = fact(
            rng, keys, {"value": rng.sample(["US", "EU", "CN", "GB"], rng.randint(1, 3))}
        )
    components = []
    for index in range(rng.choice([1, 1, 1, 2])):
        _, aliases = kimi if rng.random() < KIMI_SHARE else rng.choice(models)
        base: dict[str, object] = {
            "model": "unknown" if rng.random() < 0.03 else rng.choice(aliases)
        }
        pieces = evidence(rng, keys)
        if pieces:
            base["evidence"] = pieces
        steps: list[object] = [rng.choice(["fine_tuning", "rl", "continued_pretraining"])]
        if rng.random() < 0.5:
            steps.append({"kind": "rl", "evidence": [{"source": rng.choice(keys)}]})
        delivery = rng.choice([["hosted_service"], ["api"], ["weights"], ["api", "weights"]])
        component: dict[str, object] = {
            "id": f"model-{index + 1}",
            "name": f"Product {number} model {index + 1}",
            "delivery": delivery,
            "lineage": {"base": base, "steps": steps},
        }
        own: dict[str, object] = {}
        if "weights" in delivery:
            own["notice_included"] = fact(rng, keys, {"value": rng.random() < 0.7})
            own["license_copy_included"] = fact(rng, keys, {"value": rng.random() < 0.7})
        if rng.random() < 0.25:
            own["derivative"] = fact(rng, keys, {"value": rng.random() < 0.8})
        if rng.random() < 0.15:
            own["ui_attribution"] = fact(rng, keys, set_value(rng))
        if own:
            component["facts"] = own
        components.append(component)
    document: dict[str, object] = {
        "format": 2,
        "product": f"Product {number:05d}",
        "owner": f"Owner {number % 97}",
        "release_date": date(rng, 2025),
        "description": "A synthetic product for licheck's benchmarks: an assistant built on an "
        "open-weight model, offered as a hosted service or as weights.",
    }
    if "CNY" in str(facts["monthly_revenue"]):
        document["currency_rates"] = {"CNY": 0.14}
    document.update({"sources": sources, "facts": facts, "components": components})
    header = f"# Synthetic manifest {number} (bench/gen_portfolio.py): for benchmarks only.\n"
    return header + yaml.safe_dump(
        document, sort_keys=False, width=100, allow_unicode=True, default_flow_style=None
    )


def generate(out: Path, count: int, seed: int) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    models, kimi = catalog_models(), kimi_model()
    paths = []
    for number in range(count):
        path = out / f"product-{number:05d}.yaml"
        path.write_text(manifest(number, rng, models, kimi), encoding="utf-8")
        paths.append(path)
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    paths = generate(args.out, args.count, args.seed)
    lines = sum(p.read_text(encoding="utf-8").count("\n") for p in paths)
    print(
        f"wrote {len(paths)} manifests to {args.out} ({lines / len(paths):.0f} lines each on "
        "average)"
    )


if __name__ == "__main__":
    main()
