"""`licheck audit-cards DIR...`: import a folder of Hugging Face model cards and judge them all
in one process, as `check` judges manifests.

Each card (`README.md`, any case, or a `.md` file named on the command line) is imported as
`licheck import hf` imports it, into a manifest in `--manifests DIR` (a temporary folder by
default); the card's repository id is its folder's path under the folder searched when that is
`ORG/NAME` (the Hub's own layout, `huggingface-cli download --local-dir ORG/NAME`), and is then
the derived model's name.  A card that cannot be read is listed with the reason, located, and
never stops the run (the run exits 2 at the end, as `check` does for a manifest not read).  The
manifests are then judged by `check`, with every report format and option of it; a summary —
cards by base family, by verdict, the most common findings — goes to stderr (and
`--summary FILE` as JSON).
"""

from __future__ import annotations

import json
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import click

from licheck.cli.common import PathParam, say
from licheck.cli.request import ReportRequest, request_options

CARD_NAME = "readme.md"


def cards_in(paths: tuple[Path, ...]) -> list[tuple[Path, Path]]:
    """(card, the folder it was found under) for each card, in a stable order: a `.md` file
    named itself, and every `README.md` (any case) below a folder, hidden folders skipped."""
    found: list[tuple[Path, Path]] = []
    for path in paths:
        if path.is_file():
            found.append((path, path.parent))
            continue
        for card in sorted(path.rglob("*")):
            hidden = any(part.startswith(".") for part in card.relative_to(path).parts)
            if card.is_file() and card.name.lower() == CARD_NAME and not hidden:
                found.append((card, path))
    return found


def repo_id(card: Path, root: Path) -> str | None:
    """ORG/NAME when the card sits in `root/ORG/NAME/`, else None."""
    parts = card.parent.relative_to(root).parts if card.parent != root else ()
    return "/".join(parts) if len(parts) == 2 else None


def _manifest_name(card: Path, root: Path, taken: set[str]) -> str:
    """A file name for the card's manifest: its folder path, "/" as "__"; unique."""
    relative = card.parent.relative_to(root).parts if card.parent != root else ()
    stem = "__".join(relative) or card.stem
    name, n = f"{stem}.yaml", 1
    while name in taken:
        n += 1
        name = f"{stem}-{n}.yaml"
    taken.add(name)
    return name


@click.command(name="audit-cards")
@click.argument("paths", nargs=-1, required=True, type=PathParam(exists=True, path_type=Path))
@click.option(
    "--manifests",
    "manifests_dir",
    type=PathParam(file_okay=False, path_type=Path),
    help="Keep the manifests made from the cards in this folder (created; default: a temporary "
    "folder, removed after the run).",
)
@click.option(
    "--summary",
    "summary_file",
    type=PathParam(dir_okay=False, path_type=Path),
    help="Also write the summary (cards by base family, by verdict, the most common findings) "
    "as JSON to this file.",
)
@request_options("Text: detail each finding (as `check -v`).", count=True)
def audit_cards(
    paths: tuple[Path, ...],
    manifests_dir: Path | None,
    summary_file: Path | None,
    request: ReportRequest,
) -> None:
    """Audit a folder of Hugging Face model cards: import each card (as `licheck import hf`)
    and judge them all in one run, as `licheck check` judges manifests.

    A card is a README.md below the folders given (ORG/NAME/README.md gives the repository
    id ORG/NAME, the derived model's name), or a .md file named itself.  A card that cannot
    be read is listed with the reason and the others are judged (exit 2 at the end).  Every
    option and format of `check` applies; a summary goes to stderr.

    \b
    Example:
      licheck audit-cards cards/ --fail-on risk
      licheck audit-cards cards/ --format json \\
        -o audit.json --manifests audit-manifests/
    """
    from licheck.library.layers import load as load_library

    library = load_library(request.licenses_dir)
    cards = cards_in(paths)
    if not cards:
        raise click.UsageError(f"no model cards (README.md) in {', '.join(map(str, paths))}")
    with tempfile.TemporaryDirectory(prefix="licheck-cards-") as scratch:
        folder = manifests_dir or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        written, unread = _import_all(cards, library, folder)
        for where, reason in unread:
            say(f"{where}: error: card not read: {reason}", located_first=True)
        report = Path(scratch) / "audit-report.json"
        code = _judge(folder, request, report) if written else 2
        summary = _summary(written, unread, report)
        _say_summary(summary)
        if summary_file is not None:
            summary_file.write_text(json.dumps(summary, indent=2, sort_keys=True) + "\n")
    raise click.exceptions.Exit(2 if unread else code)


def _import_all(
    cards: list[tuple[Path, Path]], library: Any, folder: Path
) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """Each card imported into a manifest in `folder`: {manifest file: card}, and the cards
    not read with the located reason."""
    from licheck.core.diagnostics import InputError, path_text
    from licheck.importers import hf as importer

    written: dict[str, str] = {}
    unread: list[tuple[str, str]] = []
    taken: set[str] = set()
    for card, root in cards:
        name = path_text(str(card))
        try:
            text = importer.to_manifest(
                importer.read(card, name), library, name, repo_id(card, root)
            )
        except InputError as exc:
            unread.extend((f"{d.file}:{d.line}:{d.column}", d.message) for d in exc.diagnostics)
            continue
        except (OSError, UnicodeError, ValueError) as exc:
            unread.append((name, str(exc)))
            continue
        target = folder / _manifest_name(card, root, taken)
        target.write_text(text, encoding="utf-8")
        written[target.name] = name
    return written, unread


def _judge(folder: Path, request: ReportRequest, report: Path) -> int:
    """`check` over the manifests, the JSON report written beside from the same evaluation
    (for the summary); its exit code."""
    from licheck.cli.check import check

    judge = check.callback.__wrapped__  # type: ignore[union-attr]  # the options gathered already
    try:
        judge(paths=(folder,), request=request, also=[("json", report)], allow_no_manifests=False)
    except click.exceptions.Exit as exit_:
        return int(exit_.exit_code)
    return 0


def _summary(
    written: dict[str, str], unread: list[tuple[str, str]], report: Path
) -> dict[str, Any]:
    """Cards by the licenses their findings are under, by verdict, and the most common
    findings: read from the run's JSON report (the verdicts the report shows)."""
    data = json.loads(report.read_text(encoding="utf-8")) if report.is_file() else {}
    by_license: Counter[str] = Counter()
    by_verdict: Counter[str] = Counter()
    findings: Counter[str] = Counter()
    for product in data.get("products", []):
        by_verdict[product["verdict"]] += 1
        for license_id in sorted({f["license"] for f in product["findings"]}) or ["none"]:
            by_license[license_id] += 1
        for f in product["findings"]:
            if f["verdict"] in ("violation", "governance_risk"):
                findings[f"{f['verdict']}: {f['license']}/{f['clause']}"] += 1
    return {
        "cards": len(written) + len({where.split(":", 1)[0] for where, _ in unread}),
        "judged": len(written),
        "not_read": [{"where": w, "reason": r} for w, r in unread],
        "by_license": dict(sorted(by_license.items())),
        "by_verdict": dict(sorted(by_verdict.items())),
        "most_common_findings": [{"finding": k, "cards": n} for k, n in findings.most_common(10)],
        "manifests": dict(sorted(written.items())),
    }


def _say_summary(summary: dict[str, Any]) -> None:
    from licheck.text.escape import line

    say(
        f"licheck: audit-cards: {summary['cards']} cards, {summary['judged']} judged, "
        f"{len(summary['not_read'])} not read"
    )
    verdicts = ", ".join(f"{v.replace('_', ' ')} {n}" for v, n in summary["by_verdict"].items())
    say(f"licheck: cards by verdict: {verdicts or 'none'}")
    licenses = ", ".join(f"{k} {n}" for k, n in summary["by_license"].items())
    say(line(f"licheck: cards by license of their base: {licenses or 'none'}"))
    for item in summary["most_common_findings"]:
        say(line(f"licheck:   {item['cards']:>5}  {item['finding']}"))
