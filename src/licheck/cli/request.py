"""What `evaluate` and `check` are asked besides their inputs, as one value: the options both
take (`request_options`), gathered by name into a `ReportRequest` that the command receives as
`request` — one parameter list, not one per function."""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click

from licheck.cli.common import (
    PathParam,
    color_option,
    evidence_options,
    library_option,
    policy_option,
)

if TYPE_CHECKING:
    from licheck.facts.evidencepolicy import EvidencePolicy
    from licheck.library.compiled import Library
    from licheck.library.source import LibrarySource
    from licheck.outputs import RenderOptions
    from licheck.report.attestations import Attestations, Attesting
    from licheck.report.view import Report
    from licheck.report.waivers import Waivers

F = TypeVar("F", bound=Callable[..., Any])


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
    evidence: str
    as_of: dt.date | None
    verbose: int  # evaluate: a flag; check: how many -v
    color: str
    licenses_dir: LibrarySource
    baseline_file: Path | None
    attestations_file: Path | None

    def policy(self) -> EvidencePolicy:
        from licheck.api import resolve_policy

        return resolve_policy(self.evidence)

    def waivers(self) -> Waivers | None:
        from licheck.cli.gating import load_waivers

        return load_waivers(self.waivers_file, self.no_waivers)

    def attestations(self) -> Attestations | None:
        attestations = load_attestations(self.attestations_file)
        if attestations is not None:
            say_lapsed(attestations, self.as_of or self.today or dt.date.today())
        return attestations

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
        from licheck.cli.gating import render_options

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
            color=self.color,
            brief=summary and not self.verbose,
        )

    def emit(self, report: Report, inputs: Sequence[Path | None], *, summary: bool = False) -> None:
        """Render in --format, write to --output or standard output, exit with the gate's
        code."""
        from licheck.cli.gating import write_report

        write_report(report, self.render_options(summary=summary), self.fmt, self.output, inputs)


FIELDS = tuple(field.name for field in dataclasses.fields(ReportRequest))


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
    from licheck.cli.common import say
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
    """The report options (`gating.report_options`, --evidence, --as-of, --verbose, --color,
    --licenses, --baseline, --policy), handed to the command as one `request: ReportRequest`."""

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def gathered(*args: Any, **kwargs: Any) -> Any:
            request = ReportRequest(**{name: kwargs.pop(name) for name in FIELDS})
            return function(*args, request=request, **kwargs)

        from licheck.cli.gating import baseline_option, report_options

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
