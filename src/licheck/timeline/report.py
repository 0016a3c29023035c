"""The verdict timeline as data: what the text and JSON outputs render.

Its JSON Schema is published (`licheck schema timeline`).  Sorted and free of timestamps: the
same manifest gives the same bytes.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from licheck.core.verdicts import Verdict
from licheck.files.jsontext import document as json_document
from licheck.report.view import SingleProductReport


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class EventOut(_Model):
    kind: Literal["dated", "retracted", "license"] = Field(
        description="dated: a source's date; retracted: its retraction; license: a license "
        "text that came into force (binds copies obtained at an unknown date from then on)"
    )
    what: str = Field(description="the source's title, or the license and model")
    evidence_kind: str | None = Field(description="observed, licensor_statement, ...")
    date: str = Field(description="as written: a day, or a month or a year")
    partly: bool = Field(
        description="a month or a year, on its first day: whether it has happened by this day "
        "is not known, so it only makes a value likely until the period's last day"
    )


class UndatedOut(_Model):
    what: str
    where: str = Field(description="the manifest path of the evidence or fact, dotted")


class FindingStateOut(_Model):
    finding: str = Field(description="component/model/license/clause")
    title: str
    verdict: Verdict | None = Field(description="null: no longer a finding on this date")
    previous: Verdict | None = Field(description="on the entry before; null: not a finding then")
    open_facts: list[str] = Field(description="the facts its verdict still hangs on")
    previous_open_facts: list[str]


class EntryOut(_Model):
    date: str = Field(description="evidence as of this day (YYYY-MM-DD)")
    events: list[EventOut] = Field(description="what changed on this day")
    verdict: Verdict = Field(description="the product's verdict as of this day")
    previous: Verdict | None = Field(description="the product's verdict on the entry before")
    changes: list[FindingStateOut] = Field(
        description="the findings whose verdict, or the facts it hangs on, changed (on the "
        "first entry: every finding)"
    )


class TimelineReport(SingleProductReport):
    verdict: Verdict = Field(description="with all the evidence, as `licheck evaluate` says today")
    undated: list[UndatedOut] = Field(
        description="evidence without a date: it counts from the start, on every entry"
    )
    entries: list[EntryOut]


def to_json(report: TimelineReport) -> str:
    return json_document(report.model_dump(mode="json")) + "\n"
