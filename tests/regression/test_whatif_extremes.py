"""What-if at the edges of what one may write: rates in scientific notation are refused, every
accepted extreme (thirty-digit amounts, the smallest fraction) sweeps and sets in text and JSON,
and the plot's scale positions stay finite over tiny and huge ranges, linear and logarithmic."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

from licheck.outputs.whatif.scale import Scale
from tests.clirun import run

ROOT = Path(__file__).resolve().parents[2]


COMPOSER = ROOT / "products" / "composer2.yaml"


BIG = "9" * 30  # the most digits a number may have


TINY = "0." + "0" * 27 + "1"  # 30 characters: the smallest amount one may write


RATES = [f'"{BIG}"', f'"{TINY}"', BIG, "1"]  # the extremes one may write (no exponents)


SWEEPS = {
    "huge-range": ["--sweep", f"monthly_revenue=1 EUR/month..{BIG}T EUR/month"],
    "tiny-range": ["--sweep", f"monthly_revenue=0 EUR/month..{TINY} EUR/month"],
    "tiny-to-one": ["--sweep", f"monthly_revenue={TINY} EUR/month..1 EUR/month"],
    # a yearly fact: a monthly one is swept per month (a year's total is not a month of it)
    "per-year": ["--sweep", f"licensee_annual_revenue=1 EUR/year..{BIG}T EUR/year"],
    "map-huge": [
        "--sweep",
        f"licensee_annual_revenue={TINY} EUR/year..{BIG}T EUR/year",
        "--sweep",
        f"mau=0..{BIG}T",
    ],
    "set-huge": ["--set", f"monthly_revenue={BIG}T EUR/year", "--sweep", f"mau=1..{BIG}T"],
}


@pytest.mark.parametrize("rate", ["1e308", "1.7976931348623157e308", "5e-324", '"2e7"'])
def test_a_rate_in_scientific_notation_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, rate: str
) -> None:
    """Exponents are refused alike in manifests, --set and --sweep (issue 12): never a float
    that overflows or underflows."""
    path = _with_rate(tmp_path, rate)
    code, out, err = run(capsys, "whatif", str(path), "--sweep", "mau=0..1B")
    assert code == 2 and out == ""
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if text.startswith("currency_rates:"))
    assert f"m.yaml:{line}:23:" in err and "scientific notation is not accepted" in err


def _with_rate(tmp_path: Path, rate: str) -> Path:
    text = COMPOSER.read_text(encoding="utf-8")
    path = tmp_path / "m.yaml"
    rates = f"product: Composer 2\ncurrency_rates: {{EUR: {rate}}}"
    path.write_text(text.replace("product: Composer 2", rates), encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("sweep", SWEEPS)
@pytest.mark.parametrize(
    "rate",
    # the plain rate in the quick loop; the extremes (each a full what-if run per case) are slow
    [pytest.param(r, marks=() if r == "1" else pytest.mark.slow) for r in RATES],
    ids=[f"rate{n}" for n in range(len(RATES))],
)
def test_whatif_handles_every_accepted_value(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, rate: str, sweep: str, fmt: str
) -> None:
    manifest = _with_rate(tmp_path, rate)
    plot = tmp_path / "x.svg"
    code, out, err = run(
        capsys, "whatif", str(manifest), *SWEEPS[sweep], "-f", fmt, "--plot", str(plot)
    )
    assert (code, err) == (0, "")
    ET.fromstring(plot.read_bytes())
    if fmt == "json":
        json.loads(out)
    assert re.search(r"\b(nan|inf|infinity)\b", out + plot.read_text("utf-8"), re.I) is None


SCALES = [
    (Fraction(0), Fraction(1, 10**28), False),
    (Fraction(1, 10**300), Fraction(10**330), True),
    (Fraction(10**400), Fraction(10**400 + 1), False),
    (Fraction(5, 10**324), Fraction(1, 10**300), True),
]


@pytest.mark.parametrize(("lower", "upper", "log"), SCALES)
def test_scale_positions_are_finite(lower: Fraction, upper: Fraction, log: bool) -> None:
    scale = Scale.of(lower, upper)
    assert scale.log is log
    assert (scale.position(lower), scale.position(upper)) == (0.0, 1.0)
    middle = scale.value(0.5)
    assert lower < middle < upper
    assert 0.49 < scale.position(middle) < 0.51
    assert (scale.position(lower - 1), scale.position(upper * 2 + 1)) == (0.0, 1.0)  # clamped
