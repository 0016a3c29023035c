"""Adversarial cases of issue 21's class "baselines and layers", kept as data
(tests/data/baseline_edits/cases.yaml; the edits a case names are this module's EDITS).

Baseline cases: a real baseline written by licheck over Alpha as it was (its display duty a
governance risk, its GLM-5 weights' copyright notice a violation), then Alpha changed so that
the display duty is a **violation** (worse: it must fail the gate) and the notice is carried
(fixed).  Each case edits the baseline as an attacker (or a hurried colleague) would — the
issue's swapped verdicts hide the new violation as "unchanged" — and says what licheck must do:
refuse it (exit 2, a located error naming the digest or the counts), or, for what is no edit of
the baseline (reformatted JSON, a field no comparison reads), accept it and still fail the gate
on the worse finding.

Layer cases: a layer that weakens Kimi's license (its display duty dropped) must be named, with
what it replaced, by every command that evaluates: `notices`, `timeline`, `whatif`, `discover`,
in each of their formats, as `evaluate` and `check` do.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

from licheck.cli import cli
from licheck.cli.common import run_guarded
from licheck.report.digest import product_digest, report_digest
from tests.clirun import run
from tests.conftest import LICENSES
from tests.regression.cases import load

BEFORE = """format: 2
product: Alpha
owner: Example Corp
sources:
  own: {{title: Our own figures, kind: observed, date: 2026-01-10}}
facts:
  commercial: {{value: true, evidence: [{{source: own}}]}}
  mau: {mau}
  monthly_revenue: {{value: unknown}}
  ui_attribution: {{excludes: [Kimi K2.5], evidence: [{{source: own}}]}}
  notice_included: {{value: {notice}, evidence: [{{source: own}}]}}
agreements: none
components:
  - id: chat
    name: Chat
    delivery: [hosted_service]
    lineage:
      base: {{model: kimi-k2.5, evidence: [{{source: own}}]}}
      steps: [{{kind: fine_tuning, evidence: [{{source: own}}]}}]
  - id: weights
    name: Weights
    delivery: [weights]
    lineage:
      base: {{model: glm-5, evidence: [{{source: own}}]}}
"""
THEN = BEFORE.format(mau="{value: unknown}", notice="false")
NOW = BEFORE.format(mau="{value: 200M, evidence: [{source: own}]}", notice="true")

Report = dict[str, Any]
Edit = Callable[[Report], None]


def _findings(data: Report) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = data["products"][0]["findings"]
    return found


def _finding(data: Report, clause: str) -> dict[str, Any]:
    return next(f for f in _findings(data) if f["clause"] == clause)


def _recount(data: Report) -> None:
    """The counts made to add up again, as a careful forger would."""
    for product in data["products"]:
        counts = dict.fromkeys(product["counts"], 0)
        for f in product["findings"]:
            counts[f["verdict"]] += 1
            counts["waived"] += f.get("waived", False)
        product["counts"] = counts
        order = ["not_applicable", "satisfied", "governance_risk", "violation"]
        product["verdict"] = max((f["verdict"] for f in product["findings"]), key=order.index)
    data["summary"]["counts"] = {
        key: sum(p["counts"][key] for p in data["products"]) for key in data["summary"]["counts"]
    }
    data["summary"]["findings"] = sum(len(p["findings"]) for p in data["products"])
    data["summary"]["products"] = len(data["products"])


def _swap_verdicts(data: Report) -> None:
    """The issue's attack: the risk and the violation trade verdicts (the counts still add up)."""
    risk, violation = _finding(data, "ui-attribution"), _finding(data, "copyright-notice")
    risk["verdict"], violation["verdict"] = violation["verdict"], risk["verdict"]


def _set(clause: str, key: str, value: Any) -> Edit:
    def edit(data: Report) -> None:
        _finding(data, clause)[key] = value

    return edit


def _top(key: str, value: Any) -> Edit:
    def edit(data: Report) -> None:
        data[key] = value

    return edit


def _then(edit: Edit, *more: Edit) -> Edit:
    def edits(data: Report) -> None:
        for one in (edit, *more):
            one(data)

    return edits


def _move_violation(data: Report) -> None:
    """The accepted violation moved to the chat component's display duty (whose risk it
    replaces): the worse display duty would pass as "unchanged"."""
    risk = _finding(data, "ui-attribution")
    _finding(data, "copyright-notice").update(
        {key: risk[key] for key in ("component", "model", "license", "clause", "quote")}
    )
    _findings(data).remove(risk)


def _duplicate(data: Report) -> None:
    """A second entry for the display duty, a violation: the lesser would be read before."""
    twin = copy.deepcopy(_finding(data, "ui-attribution"))
    twin["verdict"] = "violation"
    _findings(data).append(twin)


def _fake(data: Report) -> None:
    fake = copy.deepcopy(_finding(data, "ui-attribution"))
    fake.update(component="chat-2", verdict="violation")
    _findings(data).append(fake)


def _drop_risk(data: Report) -> None:
    _findings(data).remove(_finding(data, "ui-attribution"))


def _reverse(data: Report) -> None:
    _findings(data).reverse()


def _second_product(data: Report) -> None:
    """A copy of Alpha named Beta, first: the products reordered and one added."""
    other = copy.deepcopy(data["products"][0])
    other.update(product="Beta", file="beta.yaml")
    data["products"].insert(0, other)


def _digest_of_another(data: Report) -> None:
    """A genuine digest, of another report (Alpha's findings swapped back and forth)."""
    other = copy.deepcopy(data)
    other["evidence_policy"] = "estimates"
    data["digest"] = report_digest(other, (product_digest(p) for p in other["products"]))


def _flip_digest(data: Report) -> None:
    digest: str = data["digest"]
    data["digest"] = digest[:-1] + ("0" if digest[-1] != "0" else "1")


def _layer_claimed(data: Report) -> None:
    data["library"] = {"builtin": True, "layers": ["layer"], "policies": [], "replaced": []}


def _product(key: str, value: Any) -> Edit:
    def edit(data: Report) -> None:
        data["products"][0][key] = value

    return edit


def _pop(key: str) -> Edit:
    def edit(data: Report) -> None:
        data.pop(key)

    return edit


def _upper(key: str) -> Edit:
    def edit(data: Report) -> None:
        data[key] = data[key].upper()

    return edit


def _fixed(edit: Edit) -> Callable[[], Edit]:
    return lambda: edit


# The edits a case may name (tests/data/baseline_edits/cases.yaml: `edit: [NAME, ARGS...]`).
EDITS: dict[str, Callable[..., Edit]] = {
    "swap verdicts": _fixed(_swap_verdicts),
    "move the violation": _fixed(_move_violation),
    "duplicate the risk as a violation": _fixed(_duplicate),
    "add a fake violation": _fixed(_fake),
    "drop the risk": _fixed(_drop_risk),
    "reverse the findings": _fixed(_reverse),
    "add a second product first": _fixed(_second_product),
    "digest of another report": _fixed(_digest_of_another),
    "flip the digest's last character": _fixed(_flip_digest),
    "claim a layered library": _fixed(_layer_claimed),
    "set a finding's field": _set,
    "set a top-level field": _top,
    "set the product's field": _product,
    "delete a top-level field": _pop,
    "upper-case a top-level field": _upper,
}


@dataclass(frozen=True)
class Case:
    """One edit of the baseline and what licheck must say: `refused` (any of these on stderr,
    exit 2), or accepted (None) with the worse display duty still failing the gate."""

    name: str
    edit: Edit | None = None
    refused: tuple[str, ...] | None = None
    recount: bool = False  # the counts made to add up after the edit
    minify: bool = False  # written back without indentation
    prefix: bytes = b""


@dataclass(frozen=True)
class Layered:
    """A command run over a layer that drops Kimi's display duty (ALPHA, LAYER, APP stand for
    the files): its output (`err`: standard error) must name the layer and what it replaced."""

    name: str
    argv: tuple[str, ...]
    said: tuple[str, ...] = (
        "Rule library: built-in + ",
        "kimi-k2.5-modified-mit.yaml replaces license kimi-k2.5-modified-mit (from built-in",
    )
    err: bool = False


def _case(row: dict[str, Any]) -> Case | Layered:
    """The case a row of tests/data/baseline_edits/cases.yaml describes."""
    if row["kind"] == "layer":
        said = {"said": tuple(row["said"])} if "said" in row else {}
        return Layered(row["name"], tuple(row["argv"]), **said, err=row.get("err", False))
    name, *args = row.get("edit", [None])
    return Case(
        row["name"],
        EDITS[name](*args) if name is not None else None,
        tuple(row["refused"]) if "refused" in row else None,
        recount=row.get("recount", False),
        minify=row.get("minify", False),
        prefix=row.get("prefix", "").encode("utf-8"),
    )


CASES = [pytest.param(_case(row), id=row["name"]) for row in load("baseline_edits")]


def _weakening_layer(folder: Path) -> Path:
    """Kimi K2.5's rule file without its display duty, as a layer over the built-in library."""
    layer = folder / "layer"
    layer.mkdir()
    rule = yaml.safe_load((LICENSES / "kimi-k2.5-modified-mit.yaml").read_text(encoding="utf-8"))
    rule["clauses"] = [c for c in rule["clauses"] if c["id"] != "ui-attribution"]
    (layer / "kimi-k2.5-modified-mit.yaml").write_text(yaml.safe_dump(rule), encoding="utf-8")
    return layer


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Alpha as it was, its baseline (written by licheck), then Alpha as it is now."""
    here = tmp_path_factory.mktemp("gate-baselines")
    (here / "alpha.yaml").write_text(THEN, encoding="utf-8")
    argv = ["check", str(here / "alpha.yaml"), "-f", "json", "-o", str(here / "base.json")]
    argv += ["--json-schema", "1.0"]  # the edits below are of 1.0's fields
    assert run_guarded(cli, [*argv, "--fail-on", "never", "--no-waivers"]) == 0
    (here / "alpha.yaml").write_text(NOW, encoding="utf-8")
    _weakening_layer(here)
    (here / "app.py").write_text('MODEL = "moonshotai/Kimi-K2.5"\n', encoding="utf-8")
    return here


def _edited(folder: Path, case: Case, name: str) -> Path:
    data = json.loads((folder / "base.json").read_text(encoding="utf-8"))
    if case.edit is not None:
        case.edit(data)
    if case.recount:
        _recount(data)
    text = json.dumps(data, ensure_ascii=False, indent=None if case.minify else 2)
    path = folder / f"{name}.json"
    path.write_bytes(case.prefix + text.encode())
    return path


@pytest.mark.parametrize("case", CASES)
def test_baselines_and_layers(
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    case: Case | Layered,
    request: Any,
) -> None:
    if isinstance(case, Layered):
        # the notes name the temporary folder: at 100 columns its length moved the breaks, and
        # a break inside a path is not undone by joining the lines
        monkeypatch.setenv("COLUMNS", "1000")
        files = {"ALPHA": "alpha.yaml", "LAYER": "layer", "APP": "app.py"}
        argv = [str(folder / files[a]) if a in files else a for a in case.argv]
        code, out, err = run(capsys, *argv)
        assert code in (0, 1), err
        shown = (err if case.err else out).replace(str(folder) + "/", "")
        for said in case.said:
            assert said in " ".join(shown.split()), shown  # wrapped lines joined
        return
    base = _edited(folder, case, request.node.callspec.id.replace(" ", "-").replace(",", ""))
    alpha = str(folder / "alpha.yaml")
    for command in ("check", "evaluate"):
        code, out, err = run(
            capsys, command, alpha, "--baseline", str(base), "--no-waivers", "-f", "compact"
        )
        assert "Traceback" not in err
        if case.refused is None:  # no edit of what a comparison reads: the worse duty fails
            assert code == 1, err
            assert "ui-attribution" in out and "[worse, was governance risk]" in out, out
            continue
        assert code == 2, (out, err)
        assert out == ""
        assert any(said in err for said in case.refused), err
        assert f"{base}:" in err  # located
