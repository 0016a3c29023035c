"""The verdict timeline in a terminal: one block per day the evidence changed — what changed,
the product's verdict then, and each finding whose verdict (or the facts it hangs on) changed."""

from __future__ import annotations

from rich.console import Console
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from licheck.core.verdicts import Verdict
from licheck.outputs.text import drawn, print_layers, verdict_text
from licheck.text.escape import rich as _t
from licheck.timeline.report import EntryOut, EventOut, FindingStateOut, TimelineReport

EVENT_MARKS = {"dated": "+", "retracted": "-", "license": "+"}
EVENT_WORDS = {"dated": "", "retracted": "retracted: ", "license": "license text in force: "}


def render(report: TimelineReport, *, width: int | None = None, color: bool | None = None) -> str:
    """The timeline as terminal text; `color` None follows the terminal and NO_COLOR."""
    # the grid pads its cells to the width: keep no trailing blanks
    text = drawn(lambda console: _draw(console, report), width or 100, color)
    return "".join(line.rstrip() + "\n" for line in text.splitlines())


def _draw(console: Console, report: TimelineReport) -> None:
    head = Text(_t(report.product), style="bold")
    head.append(f" — {_t(report.owner)}   {_t(report.file)}", style="")
    console.print(head)
    console.print(
        f"Verdict timeline (evidence policy: {_t(report.evidence_policy)}): what licheck would "
        "have said on each day the evidence changed.",
        markup=False,
    )
    print_layers(console, report.library)  # a layer changes every day's verdicts
    _undated(console, report)
    if not report.entries:
        line = Text("No evidence is dated, so the verdict never changed: ")
        console.print(line.append_text(_verdict(report.verdict)))
    for entry in report.entries:
        console.print()
        _entry(console, entry)


def _undated(console: Console, report: TimelineReport) -> None:
    if not report.undated:
        console.print("Every piece of evidence is dated.", markup=False)
        return
    console.print("Undated, so counted from the start, on every day:", markup=False)
    for item in report.undated:
        console.print(Text(f"  {_t(item.what)} ({_t(item.where)})"))


def _verdict(verdict: Verdict | None) -> Text:
    if verdict is None:
        return Text("no longer a finding", style="cyan")
    return verdict_text(verdict)


def _entry(console: Console, entry: EntryOut) -> None:
    line = Text(entry.date + "  ", style="bold")
    line.append_text(_verdict(entry.verdict))
    if entry.previous is not None:
        same = entry.previous == entry.verdict
        line.append(" (unchanged)" if same else f" (was {entry.previous.label})", style="dim")
    console.print(line)
    rows = Table.grid(padding=(0, 1))
    rows.add_column(width=1)
    rows.add_column(overflow="fold")  # a finding id cut short names nothing
    for event in entry.events:
        rows.add_row(*_event(event))
    if not entry.changes:
        rows.add_row("", Text("no finding changed", style="dim"))
    for change in entry.changes:
        rows.add_row("", _change(change))
    console.print(Padding(rows, (0, 0, 0, 1)))


def _event(event: EventOut) -> tuple[str, Text]:
    kind = f" ({event.evidence_kind.replace('_', ' ')})" if event.evidence_kind else ""
    dated = ""
    retraction = event.kind == "retracted"
    if event.partly:
        effect = "it may be retracted already" if retraction else "it may exist already"
        dated = f" [dated {event.date} only: {effect}, so its value is only likely]"
    elif len(event.date) < 10:
        effect = "retracted" if retraction else "counts in full"
        dated = f" [dated {event.date} only: {effect} from its last day]"
    return EVENT_MARKS[event.kind], Text(f"{EVENT_WORDS[event.kind]}{_t(event.what)}{kind}{dated}")


def _change(change: FindingStateOut) -> Text:
    line = Text(f"{_t(change.finding)}  ")
    line.append_text(_verdict(change.verdict))
    if change.previous is not None and change.previous != change.verdict:
        line.append(f" (was {change.previous.label})", style="dim")
    elif change.previous is not None:
        line.append(" (unchanged)", style="dim")
    if change.open_facts:
        line.append(f"\n  open: {', '.join(change.open_facts)}")
    if change.previous is not None and change.previous_open_facts != change.open_facts:
        was = ", ".join(change.previous_open_facts) or "none"
        line.append(f" (was: {was})", style="dim")
    return line
