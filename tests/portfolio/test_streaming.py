"""`licheck check` streamed: every format byte for byte what rendering the whole report gives, in
one process and in workers, with waivers of every status; problems discard the spill; a NUL in
the data is data; and memory does not grow with the portfolio."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
import shutil
import tracemalloc
from pathlib import Path

import pytest

from licheck.outputs import Format, RenderOptions, render
from licheck.portfolio import streaming
from licheck.portfolio import workers as portfolio
from licheck.portfolio.runs import check_report, check_stream, evidence_policy
from licheck.report.view import FailOn
from licheck.report.waivers import Waivers, load
from tests.clirun import run
from tests.conftest import PRODUCTS, ROOT

POLICY = evidence_policy("default")
WAIVERS = """\
waivers:
  - id: applies
    product: Composer 2
    license: kimi-k2.5-modified-mit
    clause: ui-attribution
    reason: facts_pending
    comment: Asking the licensor.
    owner: legal@example.com
    expires: 2026-06-30
  - id: also-names-it
    product: Composer 2
    license: kimi-k2.5-modified-mit
    clause: ui-attribution
    reason: risk_accepted
    comment: A second waiver on the same finding.
    owner: release@example.com
    expires: 2027-01-01
  - id: pins-changed
    product: Composer 2
    license: kimi-k2.5-modified-mit
    clause: ui-attribution
    reason: facts_pending
    comment: Granted while the product was not commercial.
    owner: legal@example.com
    expires: 2027-01-01
    pins:
      commercial: false
  - id: undisclosed
    product: Composer 1
    license: unknown
    clause: base-undisclosed
    reason: risk_accepted
    comment: Accepted.
    owner: legal@example.com
    expires: 2027-01-01
  - id: by-file
    product: {file}
    license: unknown
    clause: lineage-unconfirmed
    reason: risk_accepted
    comment: Named by its manifest's path.
    owner: legal@example.com
    expires: 2027-01-01
  - id: not-needed
    product: SWE-1.5
    license: mit
    clause: copyright-notice
    reason: legal_opinion
    comment: Not applicable anyway.
    owner: legal@example.com
    expires: 2027-01-01
  - id: unmatched
    product: Composer 9
    license: mit
    clause: copyright-notice
    reason: risk_accepted
    comment: A typo.
    owner: legal@example.com
    expires: 2027-01-01
"""


@pytest.fixture
def manifests(tmp_path: Path) -> list[Path]:
    """The shipped products, three times over (copies under other names), in a folder."""
    folder = tmp_path / "portfolio"
    folder.mkdir()
    paths = []
    for round_ in range(3):
        for source in sorted(PRODUCTS.glob("*.yaml")):
            target = folder / f"{round_}-{source.name}"
            shutil.copy(source, target)
            if round_:  # a waiver names a product unambiguously: copies get names of their own
                text = target.read_text(encoding="utf-8")
                text = re.sub(
                    r"^product: (.*)$", rf"product: \1 ({round_})", text, count=1, flags=re.M
                )
                target.write_text(text, encoding="utf-8")
            paths.append(target)
    return paths


def _waivers(tmp_path: Path, manifests: list[Path]) -> Waivers:
    path = tmp_path / "waivers.yaml"
    swe = next(p for p in manifests if p.name == "1-swe-grep-mini.yaml")
    path.write_text(WAIVERS.format(file=swe), encoding="utf-8")
    return load(path)


def _streamed(
    paths: list[Path],
    fmt: Format,
    options: RenderOptions,
    waivers: Waivers | None,
    today: dt.date,
    jobs: int,
    as_of: dt.date | None = None,
) -> str:
    out = io.StringIO()
    with check_stream(
        paths, POLICY, fmt, options, as_of=as_of, waivers=waivers, today=today, jobs=jobs
    ) as result:
        result.write_text(out.write)
    return out.getvalue()


OPTIONS = [
    RenderOptions(fail_on=FailOn.RISK, summary=True),
    RenderOptions(fail_on=FailOn.NEVER, color=True, verbose=True, summary=True),
]


@pytest.mark.parametrize(
    "options",
    [OPTIONS[0], pytest.param(OPTIONS[1], marks=pytest.mark.slow)],
    ids=["risk", "never-color-verbose"],
)
@pytest.mark.parametrize("fmt", list(Format))
@pytest.mark.parametrize("jobs", [1, pytest.param(2, marks=pytest.mark.slow)])  # workers: slow
def test_stream_is_the_rendered_report(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    manifests: list[Path],
    fmt: Format,
    options: RenderOptions,
    jobs: int,
) -> None:
    # workers for a handful of files, two paths per task; the spill read back a few characters
    # at a time, so pieces and markers straddle every kind of boundary
    monkeypatch.setattr(portfolio, "PARALLEL_MIN", 1)
    monkeypatch.setattr(portfolio, "CHUNK", 2)
    monkeypatch.setattr(streaming, "COPY_CHUNK", 7)
    waivers = _waivers(tmp_path, manifests)
    for today in (dt.date(2026, 4, 1), dt.date(2026, 7, 1)):  # `applies` applies, then expired
        report = check_report(manifests, POLICY, waivers=waivers, today=today)
        expected = render(report, fmt, options)
        assert _streamed(manifests, fmt, options, waivers, today, jobs) == expected
    statuses = {s.id: s.status for s in report.waivers}
    assert statuses == {
        "applies": "expired",
        "also-names-it": "applied",
        "pins-changed": "pins_changed",
        "undisclosed": "applied",
        "by-file": "applied",
        "not-needed": "not_needed",
        "unmatched": "unmatched",
    }


@pytest.mark.parametrize("fmt", list(Format))
def test_stream_without_waivers_and_without_products_to_show(
    manifests: list[Path], fmt: Format
) -> None:
    options = RenderOptions(summary=True)
    as_of = dt.date(2026, 1, 1)
    for paths in (manifests, manifests[:1]):
        report = check_report(paths, POLICY, as_of=as_of)
        assert _streamed(paths, fmt, options, None, dt.date(2026, 4, 1), 1, as_of) == render(
            report, fmt, options
        )


def test_a_nul_in_the_data_is_data(tmp_path: Path) -> None:
    """YAML's "\\0" escape puts a NUL in a string: JSON and SARIF escape it; text, Markdown,
    JUnit and GitHub commands show it as `\\x00` (licheck.text.escape)."""
    text = (PRODUCTS / "composer2.yaml").read_text(encoding="utf-8")
    manifest = tmp_path / "nul.yaml"
    lines = [
        'product: "Nul\\0Name"' if line.startswith("product:") else line
        for line in text.splitlines()
    ]
    manifest.write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = check_report([manifest], POLICY)
    assert report.products[0].product == "Nul\x00Name"
    for fmt in Format:
        options = RenderOptions(summary=True)
        streamed = _streamed([manifest], fmt, options, None, dt.date(2026, 4, 1), 1)
        assert streamed == render(report, fmt, options), fmt
        assert "\x00" not in streamed, fmt


def test_problems_are_listed_and_the_others_streamed(tmp_path: Path, manifests: list[Path]) -> None:
    broken = tmp_path / "portfolio" / "broken.yaml"
    broken.write_text("product: Broken\nowner: x\ncomponents: []\n", encoding="utf-8")
    also = tmp_path / "portfolio" / "also.yaml"
    also.write_text("product: [\n", encoding="utf-8")
    with check_stream(
        [*manifests[:2], broken, *manifests[2:], also],
        POLICY,
        Format.JSON,
        RenderOptions(),
        jobs=1,
    ) as result:
        assert result.top is not None
        assert sorted(Path(e.file).name for e in result.top.errors) == [
            "also.yaml",
            "broken.yaml",
        ]
        assert result.top.summary.products == len(manifests)


def test_cli_writes_the_report_and_the_problems_when_a_file_is_broken(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    manifests: list[Path],
) -> None:
    monkeypatch.chdir(ROOT)
    (tmp_path / "portfolio" / "broken.yaml").write_text(
        "product: Broken\nowner: x\ncomponents: []\n", encoding="utf-8"
    )
    report = tmp_path / "report.sarif"
    code, out, err = run(
        capsys,
        "check",
        str(tmp_path / "portfolio"),
        "--no-waivers",
        "-f",
        "sarif",
        "-o",
        str(report),
    )
    assert (code, out) == (2, "")
    assert "broken.yaml:3:1: error:" in err  # the report is in a file: the problems are said too
    assert "Traceback" not in err
    results = json.loads(report.read_text(encoding="utf-8"))["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"licheck/manifest-not-read"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["portfolio", "report.sarif"]


def test_cli_output_file_is_the_streamed_report(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(ROOT)
    target = tmp_path / "report.junit"
    code, out, _ = run(
        capsys,
        "check",
        "products/",
        "--no-waivers",
        "-f",
        "junit",
        "--fail-on",
        "risk",
        "-o",
        str(target),
    )
    assert (code, out) == (1, "")
    code, printed, _ = run(
        capsys, "check", "products/", "--no-waivers", "-f", "junit", "--fail-on", "risk"
    )
    assert code == 1
    assert target.read_text(encoding="utf-8") == printed


def _peak(paths: list[Path], fmt: Format) -> int:
    tracemalloc.start()
    try:
        with check_stream(paths, POLICY, fmt, RenderOptions(summary=True), jobs=1) as result:
            result.write_text(lambda text: None)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.slow
@pytest.mark.parametrize("fmt", [Format.JSON, Format.SARIF])
def test_memory_does_not_grow_with_the_portfolio(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fmt: Format
) -> None:
    """The peak of 400 manifests is about that of 40 (the whole report would be ~10×).  The
    spill is read back in chunks smaller than 40 products' text, so both reach that peak."""
    monkeypatch.setattr(streaming, "COPY_CHUNK", 1 << 14)
    source = PRODUCTS / "composer2.yaml"
    paths = []
    for index in range(400):
        path = tmp_path / f"product-{index:03}.yaml"
        shutil.copy(source, path)
        paths.append(path)
    _peak(paths[:40], fmt)  # warm the caches and the imports first
    small, large = _peak(paths[:40], fmt), _peak(paths, fmt)
    assert large < small * 1.5, (small, large)


def test_spawned_workers_stream_the_same(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, manifests: list[Path]
) -> None:
    """Where the platform cannot fork, the encoder and the waivers are sent to the workers."""
    monkeypatch.setattr(portfolio, "PARALLEL_MIN", 1)
    monkeypatch.setattr(portfolio, "CHUNK", 4)
    # the module `licheck.portfolio.workers` imports when it starts workers
    monkeypatch.setattr("multiprocessing.get_all_start_methods", lambda: ["spawn"])
    waivers = _waivers(tmp_path, manifests)
    today = dt.date(2026, 4, 1)
    options = RenderOptions(fail_on=FailOn.RISK, summary=True)
    expected = render(
        check_report(manifests, POLICY, waivers=waivers, today=today), Format.SARIF, options
    )
    assert _streamed(manifests, Format.SARIF, options, waivers, today, 2) == expected


def test_cli_stdout_is_the_rendered_report(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, manifests: list[Path]
) -> None:
    """Written to standard output in several echoes (the report is larger than the 64 KB
    gathered before each)."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(streaming, "COPY_CHUNK", 1000)
    code, out, err = run(
        capsys, "check", *map(str, manifests), "--no-waivers", "-f", "json", "--fail-on", "risk"
    )
    assert (code, err) == (1, "")
    from licheck.report.gatesettings import in_force

    typed = {"fail-on": "command line", "waivers": "command line"}  # --no-waivers: no file here
    settings = in_force({"fail-on": "risk"}, typed)  # what the command line adds to the report
    expected = render(
        check_report(manifests, POLICY).model_copy(update={"gate_settings": settings}),
        Format.JSON,
        RenderOptions(fail_on=FailOn.RISK, summary=True),
    )
    assert len(out) > 1 << 16
    assert out == expected


@pytest.mark.parametrize("fmt", list(Format))
def test_a_deferred_first_product_is_separated_like_any_other(
    tmp_path: Path, manifests: list[Path], fmt: Format
) -> None:
    """A product waivers may change is rendered last but written in its place: when it comes
    first, whether the next piece needs a separator is known only once it is rendered."""
    first = [p for p in manifests if p.name.endswith("composer2.yaml")]
    paths = first[:1] + [p for p in manifests if p not in first[:1]]
    waivers = _waivers(tmp_path, manifests)
    options = RenderOptions(fail_on=FailOn.RISK, summary=True)
    today = dt.date(2026, 4, 1)
    expected = render(check_report(paths, POLICY, waivers=waivers, today=today), fmt, options)
    assert _streamed(paths, fmt, options, waivers, today, 1) == expected
