"""Every fact a manifest may state, in every shape the schema allows, with values of every kind:
the answer is a verdict (exit 0 or 1) or a located refusal (exit 2), never an internal error.

The shapes are the product's and a component's (scalar shorthand, `value`, a range, `includes` /
`excludes`, evidence claiming its own value, `unknown`, a note alone, a `series` by month,
`by_model` / `by_license` under the component); the values mix the right type with the wrong
ones.  The CLI runs in-process, as in `test_fuzz`.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from licheck.loading.factchecks import stateable
from tests.regression.test_fuzz import dump, fuzz, run_cli

FACTS = sorted(stateable())
VALUES = st.one_of(
    st.sampled_from(
        [
            "150M",
            "20M USD/month",
            "2B USD/year",
            "2B USD ARR",
            "300M CNY/year",
            "5M EUR",
            "0",
            "-5M",
            "unknown",
            "Unknown",
            "",
            " ",
            "patent",
            "llama-3.1-community",
            "llama-3.1-community/no-licensor-marks",
            "policy:llama-3.1-community",
            "US",
            "EU",
            "military",
            "research",
            "commercial_product",
            "Kimi K2.5",
        ]
    ),
    st.booleans(),
    st.integers(-10, 10**12),
    st.floats(allow_nan=True, allow_infinity=True),
    st.none(),
    st.lists(
        st.sampled_from(["patent", "US", "llama-3.1-community", "x", "", "unknown"]), max_size=3
    ),
)
EVIDENCE = st.lists(
    st.fixed_dictionaries(
        {"source": st.sampled_from(["blog", "Some doc"])},
        optional={
            "kind": st.sampled_from(["observed", "rumour", "press_report", "declared"]),
            "date": st.sampled_from(["2026-01-01", "2026-02", "2025"]),
            "value": VALUES,
            "at_least": VALUES,
            "includes": st.lists(st.sampled_from(["a", "US", "patent"]), max_size=2),
        },
    ),
    max_size=2,
)


def fact_shape() -> st.SearchStrategy[Any]:
    plain = st.fixed_dictionaries(
        {},
        optional={
            "value": VALUES,
            "at_least": VALUES,
            "at_most": VALUES,
            "includes": st.lists(st.sampled_from(["a", "US", "patent", "x"]), max_size=2),
            "excludes": st.lists(st.sampled_from(["b", "EU", "outputs"]), max_size=2),
            "evidence": EVIDENCE,
            "note": st.just("a note"),
        },
    )
    series = st.dictionaries(st.sampled_from(["2024-07", "2025-01", "2026-13"]), VALUES, max_size=2)
    scoped = st.dictionaries(
        st.sampled_from(["llama-3.1-8b", "meta-llama/Llama-3.1-8B", "mistral-7b", "qwen3"]),
        st.one_of(VALUES, plain),
        max_size=2,
    )
    licensed = st.dictionaries(
        st.sampled_from(["llama-3.1-community", "apache-2.0", "mit"]), st.one_of(VALUES, plain)
    )
    return st.one_of(
        VALUES,
        plain,
        plain.flatmap(lambda d: series.map(lambda s: {**d, "series": s})),
        plain.flatmap(lambda d: scoped.map(lambda s: {**d, "by_model": s})),
        plain.flatmap(lambda d: licensed.map(lambda s: {**d, "by_license": s})),
    )


def manifest(product: dict[str, Any], component: dict[str, Any]) -> str:
    return dump(
        {
            "product": "Demo",
            "owner": "Acme",
            "currency_rates": {"CNY": "0.14"},
            "sources": {
                "blog": {"title": "Blog", "kind": "official_statement", "date": "2026-01-01"}
            },
            "components": [
                {
                    "id": "demo",
                    "name": "Demo",
                    "delivery": ["weights"],
                    "lineage": {
                        "base": "llama-3.1-8b",
                        "steps": [{"kind": "merge", "parents": ["mistral-7b"]}],
                    },
                    "facts": component,
                }
            ],
            "facts": product,
        }
    )


@pytest.mark.slow
@fuzz(1500)
@given(
    st.dictionaries(st.sampled_from(FACTS), fact_shape(), max_size=3),
    st.dictionaries(st.sampled_from(FACTS), fact_shape(), max_size=3),
    st.sampled_from([["validate"], ["evaluate", "--format", "json"], ["timeline"]]),
)
def test_every_fact_in_every_shape(
    product: dict[str, Any], component: dict[str, Any], argv: list[str]
) -> None:
    run_cli(manifest(product, component), argv, "fact shapes")


SET_TEXTS = st.one_of(
    VALUES.map(str),
    st.text(
        alphabet="[]{},;.:'\" -_/0123456789MKBUSDEYRyearmonthincludesexcludesunknown", max_size=30
    ),
    st.tuples(VALUES.map(str), VALUES.map(str)).map(lambda pair: f"{pair[0]}..{pair[1]}"),
    st.lists(VALUES.map(str), max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
    st.lists(VALUES.map(str), max_size=2).map(lambda items: "includes [" + ", ".join(items) + "]"),
)


def whatif_cli(text: str, argv: list[str]) -> int:
    """Run `licheck whatif` on `text` with `argv` after it; check the answer is a clean one."""
    import contextlib
    import io
    import tempfile
    from pathlib import Path

    from licheck.cli import cli
    from licheck.cli.common import run_guarded

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.yaml"
        path.write_text(text, "utf-8")
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run_guarded(cli, ["whatif", str(path), *argv])
    assert code in (0, 2), f"exit {code}:\n{err.getvalue()}"
    assert "Traceback" not in out.getvalue() + err.getvalue()
    return code


@pytest.mark.slow
@fuzz(600)
@given(
    st.lists(st.tuples(st.sampled_from(FACTS), SET_TEXTS), min_size=1, max_size=3),
    st.dictionaries(st.sampled_from(FACTS), fact_shape(), max_size=2),
)
def test_whatif_set_any_text(sets: list[tuple[str, str]], product: dict[str, Any]) -> None:
    argv = [arg for fact, text in sets for arg in ("--set", f"{fact}={text}")]
    whatif_cli(manifest(product, {}), argv)


@pytest.mark.slow
@fuzz(300)
@given(
    st.sampled_from(
        [
            f
            for f in FACTS
            if f
            in (
                "mau",
                "licensee_mau",
                "monthly_revenue",
                "licensee_annual_revenue",
                "annual_recurring_revenue",
                "licensee_own_mau",
                "licensee_peak_12_month_revenue",
            )
        ]
    ),
    st.tuples(SET_TEXTS, SET_TEXTS),
    st.dictionaries(st.sampled_from(FACTS), fact_shape(), max_size=2),
)
def test_whatif_sweep_any_range(fact: str, ends: tuple[str, str], product: dict[str, Any]) -> None:
    whatif_cli(manifest(product, {}), ["--sweep", f"{fact}={ends[0]}..{ends[1]}"])
