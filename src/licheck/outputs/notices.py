"""`licheck notices` as Markdown (a checklist per component, then the Notice texts and the
license copies) or JSON.  Renders `licheck.report.notices` data; decides nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from licheck._version import __version__
from licheck.core.diagnostics import Diagnostic
from licheck.files.jsontext import document as json_document
from licheck.outputs.summary import layer_lines, replacement_line
from licheck.report.notices import ComponentDuties, Duty, Kind, ProductDuties, Status
from licheck.report.view import LibraryOut, ReplacementOut
from licheck.text import escape

cell = escape.markdown
code = escape.markdown_code
NOTHING = (
    "Nothing to carry: no clause that may bind this component asks for a display, a notice, a "
    "name or a license copy."
)


def markdown(
    products: Sequence[ProductDuties],
    policy: str,
    as_of: str | None,
    unread: Sequence[Diagnostic] = (),
    library: LibraryOut | None = None,
) -> str:
    lines = [
        "# What the licenses ask the products to carry",
        "",
        "Each duty is **required** (its clause binds on the manifest's facts) or **may be "
        "required** (that depends on the facts named: settle them). A ticked box is met on the "
        "manifest's facts; an open one is not met, or not known to be.",
        "",
    ]
    if unread:
        lines += [
            "## ❌ Manifests not read: what these products must carry is unknown",
            "",
            *(f"- `{code(str(d))}`" for d in unread),
            "",
        ]
    if library is not None:  # a layer may be why a duty is missing ("Nothing to carry")
        lines += [
            "## ⚠️ Rule library in force (its layers change what the licenses ask)",
            "",
            *(f"- {cell(line.strip())}" for line in layer_lines(library)),
            "",
        ]
    for product in products:
        lines += _product(product, library.replaced if library is not None else [])
    evidence = f"evidence policy `{code(policy)}`" + (f", as of {as_of}" if as_of else "")
    lines.append(f"<sub>licheck {__version__} · {evidence}</sub>")
    return "\n".join(lines) + "\n"


def _product(product: ProductDuties, replaced: Sequence[ReplacementOut]) -> list[str]:
    lines = [f"## {cell(product.product)}", "", f"`{code(product.file)}` · {cell(product.owner)}"]
    for component in product.components:
        lines += ["", *_component(component, replaced)]
    return [*lines, ""]


def _component(component: ComponentDuties, replaced: Sequence[ReplacementOut] = ()) -> list[str]:
    built = ", ".join(cell(m) for m in component.models if m not in component.outputs_of)
    outputs = ", ".join(cell(m) for m in component.outputs_of)
    related = [f"built on {built}"] if built else []
    related += [f"trained on the outputs of {outputs}"] if outputs else []
    lines = [f"### {cell(component.name)} (`{code(component.component)}`), {'; '.join(related)}"]
    lines.append("")
    lines += [f"- ⚠️ **Incomplete:** {cell(gap)}" for gap in component.gaps]
    ids = {"license": component.licenses, "model": component.model_ids}
    layered = [  # the duties below (or their absence) are the layer's
        f"- ⚠️ **Rule library layer:** {cell(replacement_line(r))}"
        for r in replaced
        if r.id in ids[r.kind]
    ]
    lines += layered
    if not component.duties:
        if component.gaps:
            return [*lines, "", "No other duty to list."]
        if layered:
            return [*lines, "", NOTHING.removesuffix(".") + ", as the layer named above has it."]
        return [*lines, NOTHING]
    lines += [_item(duty) for duty in component.duties]
    notices = [d for d in component.duties if d.kind is Kind.NOTICE]
    if notices:
        lines += ["", "**Notice texts**", ""]
        for duty in notices:
            words = duty.text or duty.quote
            said = "prescribes" if duty.text else "asks for the notices it names"
            lines += [
                f"`{code(duty.license)}/{code(duty.clause)}` ({cell(duty.license_name)}) {said}:",
                "",
                f"> {cell(words)}",
                "",
            ]
        lines.pop()
    copies = [d for d in component.duties if d.copy is not None]
    if copies:
        lines += ["", "**License copies to ship**", "", "| License | Canonical text | SHA-256 |"]
        lines.append("|---|---|---|")
        for duty in copies:
            assert duty.copy is not None
            lines.append(
                f"| `{code(duty.license)}` {cell(duty.license_name)} | `{code(duty.copy.source)}`"
                f" | `{duty.copy.sha256}`{' ⚠️ not the model’s own file' if duty.caveat else ''} |"
            )
    return lines


def _item(duty: Duty) -> str:
    box = "[x]" if duty.met == "yes" else "[ ]"
    where = f"`{code(duty.license)}/{code(duty.clause)}`"
    if duty.status is Status.REQUIRED:
        state = "required" + {"yes": ", met", "no": ", **not met**"}.get(duty.met, "")
        if duty.met == "unknown" and duty.near_matches:
            state += ", not known to be met — judge the near-match stated"
        elif duty.met == "unknown":
            state += ", not known to be met — state " + _facts(duty)
    else:
        state = f"may be required — settle {_facts(duty)}"
    item = f"- {box} **{cell(duty.what)}** — {state} ({where})"
    for near in duty.near_matches:
        item += f"\n  - stated as a near-match, for a person to judge: {cell(near)}"
    return item + (f"\n  - ⚠️ {cell(duty.caveat)}" if duty.caveat else "")


def _facts(duty: Duty) -> str:
    return ", ".join(f"`{code(name)}`" for name in duty.settle) or "the facts it reads"


def json_text(
    products: Sequence[ProductDuties],
    policy: str,
    as_of: str | None,
    unread: Sequence[Diagnostic] = (),
    library: LibraryOut | None = None,
) -> str:
    data: dict[str, Any] = {
        "tool": "licheck",
        "tool_version": __version__,
        "evidence_policy": policy,
        "as_of": as_of,
        "products": [dataclasses.asdict(p) for p in products],
        # manifests that could not be read: what those products must carry is unknown
        "errors": [
            {"file": d.file, "line": d.line, "column": d.column, "message": d.message}
            for d in unread
        ],
    }
    if library is not None:  # as in `licheck check`'s report: only when layered
        data["library"] = library.model_dump(mode="json")
    return json_document(data) + "\n"
