"""What `evaluate` and `check` are asked besides their inputs: every option both take (report
format and file, the --fail-on gate, waivers, baseline, evidence, library, attestations), declared
here (`request_options`) and gathered by name into one value, the `ReportRequest` the command
receives as `request` — one parameter list, not one per function — with the files those options
name read and checked.  Writing the report and the exit code are `emit`'s."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar

import click

from licheck.cli.common import (
    DEFAULT_WAIVERS,
    PathParam,
    color_option,
    evidence_options,
    format_option,
    library_option,
    output_option,
    parse_as_of,
    policy_option,
    say,
)

if TYPE_CHECKING:
    from licheck.facts.evidencepolicy import EvidencePolicy
    from licheck.library.compiled import Library
    from licheck.library.source import LibrarySource
    from licheck.outputs import RenderOptions
    from licheck.report.attestations import Attestations, Attesting
    from licheck.report.baseline import Baseline
    from licheck.report.view import Report
    from licheck.report.waivers import Waivers

F = TypeVar("F", bound=Callable[..., Any])

FORMAT_CHOICES = (
    "text",
    "json",
    "sarif",
    "junit",
    "markdown",
    "github",
    "compact",
    "html",
    "codequality",
)

JSON_SCHEMAS = ("2.0", "1.0")  # report.leaner.SCHEMAS, without importing it for --help


class RunKeywords(TypedDict):
    """What every run (evaluate, check, audit-cards; held or streamed) takes from the options
    besides its inputs, policy and format: `run(..., **request.keywords(waivers))`."""

    as_of: dt.date | None
    library: LibrarySource
    waivers: Waivers | None
    today: dt.date | None
    attestations: Attestations | None


@dataclass(frozen=True, slots=True)
class ReportRequest:
    """The report options of a run, as click parsed them (field names are the parameters')."""

    fmt: str
    output: Path | None
    fail_on: str
    waivers_file: Path | None
    no_waivers: bool
    today: dt.date | None
    root: Path | None
    annotations: int
    json_schema: str
    evidence: str
    as_of: dt.date | None
    verbose: int  # evaluate: a flag; check: how many -v
    color: str
    licenses_dir: LibrarySource
    baseline_file: Path | None
    attestations_file: Path | None

    def policy(self) -> EvidencePolicy:
        from licheck.portfolio.runs import evidence_policy

        return evidence_policy(self.evidence)

    def waivers(self) -> Waivers | None:
        return load_waivers(self.waivers_file, self.no_waivers)

    def attestations(self) -> Attestations | None:
        attestations = load_attestations(self.attestations_file)
        if attestations is not None:
            say_lapsed(attestations, self.as_of or self.today or dt.date.today())
        return attestations

    def keywords(self, waivers: Waivers | None) -> RunKeywords:
        """The run's keywords (the attestations read, and any lapsed one said, here)."""
        return RunKeywords(
            as_of=self.as_of,
            library=self.licenses_dir,
            waivers=waivers,
            today=self.today,
            attestations=self.attestations(),
        )

    def inputs(self, paths: Sequence[Path], waivers: Waivers | None) -> tuple[Path | None, ...]:
        """Every file the run reads: never to be written over."""
        extra = Path(waivers.file) if waivers else None
        files = (self.waivers_file, extra, self.baseline_file, self.attestations_file)
        return (*paths, *self.licenses_dir.inputs, *files)

    def render_options(
        self, *, summary: bool = False, fmt: str | None = None, output: Path | None = None
    ) -> RenderOptions:
        """How to render: `fmt` and `output` are an --also FORMAT=FILE's (default: --format and
        --output); `summary` is `check`'s gate summary, and its text is brief (a line a
        finding) without -v, and details not-applicable findings only with -vv."""
        from licheck.cli.emit import render_options

        if fmt is None:
            fmt, output = self.fmt, self.output
        return render_options(
            fmt,
            self.fail_on,
            output,
            verbose=self.verbose >= (2 if summary else 1),
            summary=summary,
            root=self.root,
            annotations=self.annotations,
            json_schema=self.json_schema,
            color=self.color,
            brief=summary and not self.verbose,
        )

    def emit(self, report: Report, inputs: Sequence[Path | None], *, summary: bool = False) -> None:
        """Render in --format, write to --output or standard output, exit with the gate's
        code."""
        from licheck.cli.emit import write_report

        write_report(report, self.render_options(summary=summary), self.fmt, self.output, inputs)


FIELDS = tuple(field.name for field in dataclasses.fields(ReportRequest))


def report_options(function: F) -> F:
    """--format, --output, --fail-on, --waivers, --no-waivers, --today."""
    decorators = [
        format_option(
            FORMAT_CHOICES,
            "Output format: text (terminal), json (schema'd: licheck schema "
            "report), sarif (2.1.0, code scanning), junit (CI test reports), "
            "markdown (a PR comment), github (workflow annotations), compact (one line "
            "per finding), html (one self-contained page to read: lineage and evidence "
            "drawn).",
            metavar="FORMAT",  # the choices, listed in the help, would run over 60 columns
        ),
        output_option("the report"),
        click.option(
            "--fail-on",
            type=click.Choice(["violation", "evidence-risk", "risk", "never"]),
            default="violation",
            show_default=True,
            help="Exit 1 when a finding that is not waived is at or above this "
            "verdict (risk: governance risk or violation; evidence-risk: a violation, or a "
            "governance risk open on the product's record, not only on conduct to attest).",
        ),
        click.option(
            "--waivers",
            "waivers_file",
            type=PathParam(dir_okay=False, path_type=Path),
            help=f"Read waivers from FILE (default: {DEFAULT_WAIVERS} in the current "
            "folder, when present).",
        ),
        click.option("--no-waivers", is_flag=True, help="Ignore every waiver file."),
        click.option(
            "--root",
            type=click.Path(file_okay=False, path_type=Path),
            help="SARIF: make file URIs relative to DIR (default: the repository's top "
            "folder, the nearest folder up from here with a .git; else this folder).",
        ),
        click.option(
            "--annotations",
            type=click.IntRange(min=0),
            default=10,
            show_default=True,
            metavar="N",
            help="github: write at most N annotations of each kind (GitHub shows 10 per "
            "step); the rest are listed in the summary.",
        ),
        click.option(
            "--json-schema",
            type=click.Choice(JSON_SCHEMAS),
            default=JSON_SCHEMAS[0],
            show_default=True,
            help="json: the report's schema_version. 2.0 writes each fact once per component "
            "and each clause's text once per report; 1.0 (deprecated, removed in the next "
            "release) a finding with its facts and texts (docs/check.md: Migrating from schema "
            "1.0).",
        ),
        click.option(
            "--today",
            metavar="DATE",
            callback=parse_as_of,
            help="The date waiver expiry is judged on (YYYY-MM-DD; default: today). "
            "For reproducible reports.",
        ),
    ]
    for decorator in reversed(decorators):
        function = decorator(function)
    return function


def load_waivers(waivers_file: Path | None, no_waivers: bool) -> Waivers | None:
    """The waivers to apply: --waivers FILE, else the default file when present."""
    if no_waivers:
        if waivers_file is not None:
            raise click.UsageError("--waivers and --no-waivers exclude each other")
        return None
    # the default file is looked for before importing licheck.report.waivers (and its models): most
    # runs have no waiver file and need none of it
    path = waivers_file or Path.cwd() / DEFAULT_WAIVERS
    # present in any form it is the team's waivers: one that cannot be read (a folder, a FIFO,
    # a link to nothing) is an error, not a run without them that fails unexplained
    if waivers_file is None and not os.path.lexists(path):
        return None
    from licheck.report.waivers import load

    return load(path, DEFAULT_WAIVERS if waivers_file is None else str(path))


def baseline_option(function: F) -> F:
    """--baseline REPORT.json."""
    return click.option(
        "--baseline",
        "baseline_file",
        type=PathParam(dir_okay=False, path_type=Path),
        metavar="REPORT.json",
        help="Compare with a previous --format json report: only findings that are new or "
        "worse than in it count toward --fail-on; the report marks new, worse, unchanged, "
        "improved and fixed findings.",
    )(function)


def load_baseline(baseline_file: Path | None) -> Baseline | None:
    """The baseline report to compare with, checked before anything is evaluated."""
    if baseline_file is None:
        return None
    from licheck.report.baseline import load

    return load(baseline_file)


def compare_baseline(report: Report, baseline: Baseline | None) -> Report:
    """The report compared with the baseline (unchanged without one); doubts said on stderr."""
    if baseline is None:
        return report
    from licheck.report.baseline import compare, warnings

    compared = compare(report, baseline)
    for warning in warnings(compared, baseline):
        say(f"licheck: warning: --baseline: {warning}")
    return compared


def attestations_option(function: F) -> F:
    """--attestations FILE: conduct facts an organisation attests (docs/attestations.md)."""
    return click.option(
        "--attestations",
        "attestations_file",
        type=PathParam(dir_okay=False, path_type=Path),
        help="Read the conduct facts your organisation attests (use policy followed, marks "
        "used, claims, export laws) from FILE: each fills a fact a product does not state, "
        "until it expires (docs/attestations.md).",
    )(function)


def attestations_at(path: Path | None, as_of: dt.date | None, library: Library) -> Attesting | None:
    """The attestations in `path` judged on `as_of` (else today), for a command without
    --today (notices, whatif, timeline)."""
    attestations = load_attestations(path)
    if attestations is None:
        return None
    from licheck.report.attestations import attesting

    on = as_of or dt.date.today()
    say_lapsed(attestations, on)
    return attesting(attestations, on, library)


def say_lapsed(attestations: Attestations, on: dt.date) -> None:
    """On stderr: each attestation that does not hold on `on` (its facts are open again)."""
    from licheck.report.attestations import lapsed
    from licheck.text.escape import terminal

    for line in lapsed(attestations, on):
        say(terminal(line), located_first=True)


def load_attestations(path: Path | None) -> Attestations | None:
    """The attestations in `path`, checked (`InputError`, located); None without a file."""
    if path is None:
        return None
    from licheck.report.attestations import load

    return load(path, str(path))


def request_options(verbose_help: str, *, count: bool = False) -> Callable[[F], F]:
    """The report options (`report_options`, --evidence, --as-of, --verbose, --color,
    --licenses, --baseline, --policy), handed to the command as one `request: ReportRequest`."""

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def gathered(*args: Any, **kwargs: Any) -> Any:
            request = ReportRequest(**{name: kwargs.pop(name) for name in FIELDS})
            return function(*args, request=request, **kwargs)

        verbosity: dict[str, Any] = {"count": True} if count else {"is_flag": True}
        command: Any = gathered
        for decorator in (
            attestations_option,
            policy_option,
            baseline_option,
            library_option,
            color_option,
            click.option("--verbose", "-v", help=verbose_help, **verbosity),
            evidence_options,
            report_options,
        ):
            command = decorator(command)
        return command  # type: ignore[no-any-return]

    return decorate
