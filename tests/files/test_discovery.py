"""Every file `evaluate` accepts is found by `check DIR`, `notices DIR` and `discover DIR`.

A valid manifest is generated (a product name, one of several bodies) and written in any way YAML
allows: the extension in any case, any line break libyaml reads (LF, CRLF, CR, NEL, LS, PS), the
top-level mapping indented, a BOM, its keys bare, single- or double-quoted or the whole document
in flow style, comments, a `%YAML 1.1` directive and `---` before it, at any folder depth, behind a
symlink to the file or to its folder.  Whenever `evaluate` reads the file, the three commands
find it; in a hidden folder (skipped by the rule, docs/check.md) it is not found, and the search
says it passed the folder over.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from licheck.cli.discover import _manifests
from licheck.core.diagnostics import InputError
from licheck.files import yamlsafe
from licheck.files.discovery import discover, survey
from licheck.loading.documents import load_manifest
from tests.clirun import run
from tests.conftest import PRODUCTS
from tests.regression.test_manifest_discovery import (
    VIOLATION,  # the one violating manifest both tests write
)

BODIES = [
    yamlsafe.parse(VIOLATION, "violation").data,
    *(yamlsafe.load(p).data for p in sorted(PRODUCTS.glob("*.yaml"))[:3]),
]
BREAKS = ["\n", "\r\n", "\r", "\x85", "\u2028", "\u2029"]


@st.composite
def manifests(draw: st.DrawFn) -> tuple[str, bytes]:
    """(file name, bytes) of a manifest written one of the ways YAML allows."""
    data: dict[str, Any] = dict(draw(st.sampled_from(BODIES)))
    data["product"] = draw(
        st.text(
            st.characters(codec="utf-8", categories=("L", "N", "P", "Zs"), max_codepoint=0xFFFF),
            min_size=1,
        )
        .map(str.strip)
        .filter(bool)
    )
    keys = list(data)
    order = draw(st.permutations(keys))  # `product` first, last or between
    data = {key: data[key] for key in order}
    style = draw(st.sampled_from(["block", "flow", "json"]))
    if style == "json":
        body = json.dumps(data, ensure_ascii=draw(st.booleans()))
        lines = [body]
    elif style == "flow":
        body = yaml.safe_dump(data, default_flow_style=True, allow_unicode=True, width=60)
        lines = body.splitlines()
    else:
        quote = draw(st.sampled_from(["", "'", '"']))
        indent = " " * draw(st.integers(0, 4))
        lines = []
        for key, value in data.items():
            if isinstance(value, dict | list) and value and draw(st.booleans()):
                nested = yaml.safe_dump(value, allow_unicode=True, width=1000).splitlines()
                lines += [f"{indent}{quote}{key}{quote}:", *(f"{indent}  {ln}" for ln in nested)]
            else:
                flow = yaml.safe_dump(
                    value, default_flow_style=True, allow_unicode=True, width=10**9
                )
                flow = flow.removesuffix("\n...\n").removesuffix("\n")
                lines.append(f"{indent}{quote}{key}{quote}: {flow}")
    head = draw(st.lists(st.sampled_from(["# a comment", "%YAML 1.1", "---", "", "#"]), max_size=4))
    if "%YAML 1.1" in head:  # a directive needs the `---` that ends the directives
        head = [h for h in head if h != "%YAML 1.1"]
        head = ["%YAML 1.1", *(h for h in head if h != "---"), "---"]
    elif head.count("---") > 1:
        head = [h for h in head if h != "---"] + ["---"]
    end = draw(st.sampled_from(BREAKS))
    text = end.join([*head, *lines]) + draw(st.sampled_from(["", end]))
    bom = "\ufeff" if draw(st.booleans()) else ""
    stem = draw(st.sampled_from(["m", "product", "x.y"]))
    suffix = "".join(
        c.upper() if draw(st.booleans()) else c for c in draw(st.sampled_from([".yaml", ".yml"]))
    )
    return stem + suffix, (bom + text).encode("utf-8")


folders = st.lists(st.sampled_from(["a", "b-c", "products", "deep", "_x"]), max_size=4)
placements = st.sampled_from(["plain", "file-symlink", "folder-symlink", "hidden"])


def _place(root: Path, outside: Path, name: str, data: bytes, where: list[str], how: str) -> Path:
    """Write the manifest under `root` as `how` says; the path the search sees it at."""
    folder = root.joinpath(*where)
    if how == "hidden":
        folder = folder / ".drafts"
    folder.mkdir(parents=True, exist_ok=True)
    if how == "plain" or how == "hidden":
        (folder / name).write_bytes(data)
        return folder / name
    real = outside / name
    real.write_bytes(data)
    if how == "file-symlink":
        (folder / name).symlink_to(real)
        return folder / name
    (folder / "linked").symlink_to(outside, target_is_directory=True)
    return folder / "linked" / name


def _accepted(path: Path) -> bool:
    try:
        load_manifest(path)
    except InputError:
        return False
    return True


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(manifests(), folders, placements)
def test_every_manifest_evaluate_reads_is_found(
    manifest: tuple[str, bytes], where: list[str], how: str
) -> None:
    name, data = manifest
    with tempfile.TemporaryDirectory() as scratch:
        root, outside = Path(scratch) / "repo", Path(scratch) / "outside"
        root.mkdir()
        outside.mkdir()
        path = _place(root, outside, name, data, where, how)
        assert _accepted(path), data  # every way of writing it is one evaluate reads
        found = survey([root])
        assert found.problems == []
        if how == "hidden":  # not searched, and said
            assert found.found == []
            assert any(s.path.endswith(".drafts") for s in found.skipped)
            return
        assert found.found == [path]
        assert discover([root]) == [path]  # check DIR and notices DIR
        assert _manifests((root,), ()) == ([path], [])  # discover DIR


@pytest.mark.slow
@settings(
    max_examples=20,
    deadline=None,
    # `run` reads what each command printed (capsys.readouterr), so nothing carries over
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(manifests(), folders)
def test_the_commands_report_it(
    capsys: pytest.CaptureFixture[str], manifest: tuple[str, bytes], where: list[str]
) -> None:
    """The same through the command line: `check` reports the product, `notices` lists it and
    `discover` names it among the manifests."""
    name, data = manifest
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "repo"
        folder = root.joinpath(*where)
        folder.mkdir(parents=True)
        (folder / name).write_bytes(data)
        shown = str(folder / name)
        code, out, err = run(capsys, "evaluate", shown, "--no-waivers", "-f", "json")
        assert code in (0, 1), err
        verdict = json.loads(out)["products"][0]["verdict"]
        code_check, out, _ = run(capsys, "check", str(root), "--no-waivers", "-f", "json")
        products = json.loads(out)["products"]
        assert (code_check, [(p["file"], p["verdict"]) for p in products]) == (
            code,
            [(shown, verdict)],
        )
        code, out, _ = run(capsys, "notices", str(root), "-f", "json")
        assert (code, [p["file"] for p in json.loads(out)["products"]]) == (0, [shown])
        code, out, _ = run(capsys, "discover", str(root), "-f", "json")
        assert (code, json.loads(out)["manifests"]) == (0, [shown])


KEYS = ["product", "'product'", '"product"', '"prod\\x75ct"', "owner", "components", "Product",
        "other", "? product\n", "<<", "'<<'", "&k product", "*k", "a"]  # fmt: skip
VALUES = ["x", "", "[a, product]", "{product: y}", "&k product", "*k", "~", "'owner'"]


@st.composite
def yaml_texts(draw: st.DrawFn) -> str:
    """YAML-ish text: top-level and nested keys among a manifest's and others, any break."""
    indent = " " * draw(st.sampled_from([0, 0, 1, 2, 4]))
    lines = []
    for key in draw(
        st.lists(
            st.sampled_from(KEYS),
            min_size=int(draw(st.integers(0, 9)) > 0),
            max_size=5,
            unique=True,
        )
    ):
        value = draw(st.sampled_from(VALUES))
        if draw(st.integers(0, 3)) == 0:  # a nested mapping holding a manifest's keys
            value = "".join(
                f"\n{indent}  {k}: {draw(st.sampled_from(VALUES))}"
                for k in draw(st.lists(st.sampled_from(KEYS[:6]), min_size=1, unique=True))
            )
        lines.append(f"{indent}{key}{'' if key.endswith(chr(10)) else ':'} {value}")
    text = "\n".join(lines)
    if draw(st.booleans()):
        text = draw(st.sampled_from(["---\n", "# c\n", "%YAML 1.1\n---\n", "- ", "--- |\n"])) + text
    elif draw(st.integers(0, 3)) == 0:
        text = "{" + ", ".join(ln.strip() for ln in lines if "\n" not in ln) + "}"
    return text.replace("\n", draw(st.sampled_from(BREAKS)))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(yaml_texts())
def test_the_rule_decides_as_the_loader_reads(text: str) -> None:
    """On every text the loader reads, `why_not_manifest` decides exactly by the document: a
    mapping with `product` (or `owner` and `components`), or no data at all, is a manifest;
    anything else is not.  (A text the loader refuses is unconstrained here: the gate tables
    cover it.)"""
    from licheck.files.discovery import why_not_manifest

    try:
        data = yamlsafe.parse(text, "x.yaml").data
    except InputError:
        return
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "x.yaml"
        path.write_bytes(text.encode("utf-8"))
        verdict = why_not_manifest(path)
    if data is None or data == {}:
        expected = True  # an emptied file: the loader refuses it, never skipped
    elif isinstance(data, dict):
        expected = "product" in data or {"owner", "components"} <= data.keys()
    else:
        expected = False
    assert (verdict is None) is expected, (text, data, verdict)
