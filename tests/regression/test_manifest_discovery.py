"""Adversarial cases for manifest discovery (issue 21, "every manifest found"), kept as data.

Each case is a file (its path in a scanned folder, and its bytes) beside a clean manifest, and
what `check DIR`, `notices DIR` and `discover DIR` must all make of it (docs/check.md, "Which
files are manifests"):

- "violation": found and evaluated: `check` reports the product with that verdict (exit 1),
  `notices` lists it, `discover` counts it among the manifests;
- "unread": handed to the loader and listed as not read at its location: exit 2 from all three
  (an emptied manifest, one that may be a manifest but cannot be read);
- "ignored": not a manifest: the run is the clean manifest's alone (exit 0).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.clirun import run
from tests.conftest import ROOT

VIOLATION = """\
product: Open Bound
owner: Test Co
release_date: 2026-03-19
facts:
  commercial: true
  mau: 200M
  monthly_revenue: 1M USD/month
  ui_attribution: []
  agreement_waives: []
components:
  - id: chat
    name: Chat
    delivery: [hosted_service]
    lineage:
      base: {model: kimi-k2.5}
"""
CLEAN = VIOLATION.replace("Open Bound", "Small Clean").replace("200M", "1M")
HEADED = "# the product's manifest\nformat: 2\n" + VIOLATION  # `product` is not on line 1
FLOW = (
    '{"product": "Open Bound", "owner": "Test Co", "release_date": "2026-03-19", '
    '"facts": {"commercial": true, "mau": "200M", "monthly_revenue": "1M USD/month", '
    '"ui_attribution": [], "agreement_waives": []}, "components": [{"id": "chat", '
    '"name": "Chat", "delivery": ["hosted_service"], "lineage": {"base": {"model": '
    '"kimi-k2.5"}}}]}'
)


def _lines(text: str, end: str) -> bytes:
    return text.replace("\n", end).encode()


def _indented(text: str, by: str = "  ") -> bytes:
    return "".join(by + line + "\n" for line in text.splitlines()).encode()


def _quoted(text: str, quote: str) -> bytes:
    top = ("product", "owner", "release_date", "facts", "components")
    lines = [
        f"{quote}{line.split(':', 1)[0]}{quote}:{line.split(':', 1)[1]}"
        if line.split(":", 1)[0] in top
        else line
        for line in text.splitlines()
    ]
    return ("\n".join(lines) + "\n").encode()


RULE_FILE = (ROOT / "licenses" / "mit.yaml").read_bytes()
POLICY_FILE = (ROOT / "docs" / "policy-example.yaml").read_bytes()
CATALOG_HEAD = b"models:\n  - id: acme\n    name: Acme\n    license: mit\n"
WAIVERS = b"waivers:\n  - id: w\n    product: Open Bound\n    clause: x\n"
KUBERNETES = (
    b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {product: shop}\n---\n"
    b"apiVersion: v1\nkind: Service\nmetadata:\n  labels:\n    product: shop\n"
)
GITHUB_CI = b"on: [push]\njobs:\n  gate:\n    steps:\n      - run: licheck check products/\n"

# (name, path in the scanned folder, bytes, expected)
CASES: list[tuple[str, str, bytes, str]] = [
    # found, whatever way YAML allows it to be written
    ("plain", "m.yaml", VIOLATION.encode(), "violation"),
    ("suffix-upper", "m.YAML", VIOLATION.encode(), "violation"),
    ("suffix-mixed-yml", "m.Yml", VIOLATION.encode(), "violation"),
    ("crlf", "m.yaml", _lines(HEADED, "\r\n"), "violation"),
    ("cr", "m.yaml", _lines(HEADED, "\r"), "violation"),
    ("nel", "m.yaml", _lines(HEADED, "\x85"), "violation"),
    ("line-separator", "m.yaml", _lines(HEADED, "\u2028"), "violation"),
    ("paragraph-separator", "m.yaml", _lines(HEADED, "\u2029"), "violation"),
    ("indented-mapping", "m.yaml", _indented(VIOLATION), "violation"),
    ("indented-four-after-comment", "m.yaml", b"# x\n" + _indented(HEADED, "    "), "violation"),
    ("bom", "m.yaml", b"\xef\xbb\xbf" + HEADED.encode(), "violation"),
    ("double-quoted-keys", "m.yaml", _quoted(VIOLATION, '"'), "violation"),
    ("single-quoted-keys", "m.yaml", _quoted(VIOLATION, "'"), "violation"),
    (
        "escaped-key",
        "m.yaml",
        VIOLATION.replace("product:", '"prod\\x75ct":').encode(),
        "violation",
    ),
    ("flow-json", "m.json.yaml", FLOW.encode(), "violation"),
    ("flow-over-lines", "m.yml", FLOW.replace(", ", ",\r\n  ").encode(), "violation"),
    ("directive-and-marker", "m.yaml", b"%YAML 1.1\n---\n" + VIOLATION.encode(), "violation"),
    ("marker-and-comment", "m.yaml", b"--- # manifest\n" + HEADED.encode(), "violation"),
    (
        "product-last",
        "m.yaml",
        ("owner: Test Co\n" + VIOLATION.split("\n", 2)[2] + "product: Open Bound\n").encode(),
        "violation",
    ),
    (
        "str-tagged-key",
        "m.yaml",
        VIOLATION.replace("product:", "!!str product:").encode(),
        "violation",
    ),
    ("deep-folder", "a/b/c/d/e/m.yaml", VIOLATION.encode(), "violation"),
    # deeper than Python's recursion limit (the search was recursive: exit 2, nothing judged)
    ("deeper-than-recursion", "d/" * 1100 + "m.yaml", VIOLATION.encode(), "violation"),
    # emptied: no data left, so it is reported, never passed
    ("zero-bytes", "m.yaml", b"", "unread"),
    ("white-space", "m.yaml", b"  \n\t\n\r\n", "unread"),
    (
        "comments-only",
        "m.yaml",
        b"".join(b"# " + ln.encode() + b"\n" for ln in VIOLATION.split("\n")),
        "unread",
    ),
    ("marker-only", "m.yaml", b"---\n", "unread"),
    ("markers-and-directive", "m.yaml", b"%YAML 1.1\n---\n...\n", "unread"),
    ("null", "m.yaml", b"~\n", "unread"),
    ("empty-mapping", "m.yml", b"{}\n", "unread"),
    # could be a manifest, cannot be read
    ("tab-indented", "m.yaml", VIOLATION.replace("product", "\tproduct", 1).encode(), "unread"),
    ("truncated", "m.yaml", VIOLATION[:200].encode() + b"\n  - [", "unread"),
    ("not-utf8", "m.yaml", VIOLATION.encode().replace(b"Open", b"Op\xe9n"), "unread"),
    ("utf16", "m.yaml", VIOLATION.encode("utf-16"), "unread"),
    ("misspelt-product", "m.yaml", VIOLATION.replace("product:", "Product:").encode(), "unread"),
    ("two-documents", "m.yaml", (VIOLATION + "---\n" + CLEAN).encode(), "unread"),
    ("merge-key", "m.yaml", b"base: &b {product: X}\n<<: *b\nowner: Y\n", "unread"),
    ("alias-key", "m.yaml", b"name: &k product\n*k : X\nowner: Y\n", "unread"),
    ("tagged-key", "m.yaml", VIOLATION.replace("product:", "!custom product:").encode(), "unread"),
    ("nul-byte", "m.yaml", VIOLATION.encode() + b"\x00", "unread"),
    # not manifests
    ("ci-config", "ci.yml", GITHUB_CI, "ignored"),
    ("rule-file", "rules/mit.yaml", RULE_FILE, "ignored"),
    ("policy-file", "policy.yaml", POLICY_FILE, "ignored"),
    ("catalog", "catalog.yaml", CATALOG_HEAD, "ignored"),
    ("waiver-file", "waivers.yaml", WAIVERS, "ignored"),
    ("kubernetes-documents", "k8s.yaml", KUBERNETES, "ignored"),
    ("nested-product", "release.yaml", b"release:\n  product: X\n  owner: Y\n", "ignored"),
    ("list-of-products", "list.yaml", b"- product: X\n  owner: Y\n  components: []\n", "ignored"),
    ("product-in-a-value", "v.yaml", b"name: my product\nkind: product\n", "ignored"),
    (
        "helm-template",
        "chart/t.yaml",
        b"{{- if .Values.product }}\nkind: [\n{{- end }}\n",
        "ignored",
    ),
    ("empty-list", "l.yaml", b"[]\n", "ignored"),
    ("hidden-folder", ".drafts/m.yaml", VIOLATION.encode(), "ignored"),
    ("hidden-file", ".m.yaml", VIOLATION.encode(), "ignored"),
    ("not-a-yaml-name", "m.yaml.bak", VIOLATION.encode(), "ignored"),
    ("text-file", "m.txt", VIOLATION.encode(), "ignored"),
]


@pytest.fixture(autouse=True)
def _wide(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "1000")


@pytest.mark.slow
@pytest.mark.parametrize(
    ("where", "data", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_discovery_case(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    where: str,
    data: bytes,
    expected: str,
) -> None:
    root = tmp_path / "repo"
    (root / "products").mkdir(parents=True)
    (root / "products" / "clean.yaml").write_text(CLEAN, encoding="utf-8")
    case = root / "products" / where
    folder = root / "products"
    for part in Path(where).parent.parts:  # (Path.mkdir(parents=True) recurses per level)
        folder = folder / part
        folder.mkdir(exist_ok=True)
    case.write_bytes(data)
    monkeypatch.chdir(tmp_path)
    try:
        _judged_alike(capsys, f"repo/products/{where}", expected)
    finally:  # a tree deeper than the recursion limit, removed level by level (rmtree recurses)
        case.unlink()
        while folder != root / "products":
            folder.rmdir()
            folder = folder.parent


def _judged_alike(capsys: pytest.CaptureFixture[str], shown: str, expected: str) -> None:
    """What check, notices and discover make of the case at `shown`, beside the clean one."""
    code, out, _ = run(capsys, "check", "repo", "--no-waivers", "-f", "json")
    report = json.loads(out)
    products = {p["file"]: p["verdict"] for p in report["products"]}
    unread = {e["file"] for e in report["errors"]}
    if expected == "violation":
        assert (code, products, unread) == (1, {shown: "violation", **_clean()}, set())
        # the verdict `evaluate` gives the same file alone
        code, out, _ = run(capsys, "evaluate", shown, "--no-waivers", "-f", "json")
        assert (code, json.loads(out)["products"][0]["verdict"]) == (1, "violation")
    elif expected == "unread":
        assert (code, products, unread) == (2, _clean(), {shown})
        assert all(e["line"] >= 0 for e in report["errors"])
    else:
        assert (code, products, unread) == (0, _clean(), set())

    code, out, _ = run(capsys, "notices", "repo", "-f", "json")
    notices = json.loads(out)
    listed = {p["file"] for p in notices["products"]}
    not_read = {e["file"] for e in notices["errors"]}
    found = {shown} if expected == "violation" else set()
    assert (code, listed, not_read) == (
        2 if expected == "unread" else 0,
        {"repo/products/clean.yaml", *found},
        {shown} if expected == "unread" else set(),
    )

    code, out, _ = run(capsys, "discover", "repo", "-f", "json")
    discovered = json.loads(out)
    manifests = set(discovered["manifests"]) | {e["file"] for e in discovered["manifest_errors"]}
    assert code == (2 if expected == "unread" else 0)
    assert manifests == {
        "repo/products/clean.yaml",
        *found,
        *({shown} if expected == "unread" else ()),
    }


def _clean() -> dict[str, str]:
    return {"repo/products/clean.yaml": "not_applicable"}


def test_the_table_is_large_and_names_are_unique() -> None:
    assert len(CASES) >= 20 and len({c[0] for c in CASES}) == len(CASES)
    assert {c[3] for c in CASES} == {"violation", "unread", "ignored"}


def _hook_argv(args: list[str] | None = None) -> list[str]:
    """The command line the pre-commit hook runs (`.pre-commit-hooks.yaml`), without `licheck`."""
    import shlex

    import yaml

    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    entry = shlex.split(hook["entry"])
    assert entry[:2] == ["licheck", "check"]
    return [*entry[1:], *(hook["args"] if args is None else args)]


@pytest.mark.parametrize("emptied", [b"", b"\n\n", b"# product: gone\n", b"---\n", b"{}\n"])
@pytest.mark.parametrize("args", [None, ["products/"]])
def test_the_pre_commit_hook_fails_when_the_only_manifest_is_emptied(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    emptied: bytes,
    args: list[str] | None,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "products").mkdir()
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n", encoding="utf-8")
    only = tmp_path / "products" / "only.yaml"
    only.write_text(CLEAN, encoding="utf-8")
    assert run(capsys, *_hook_argv(args), "--no-waivers")[0] == 0
    only.write_bytes(emptied)
    code, out, err = run(capsys, *_hook_argv(args), "--no-waivers")
    assert code == 2
    assert "products/only.yaml:" in out and "could not be read" in err


def test_the_pre_commit_hook_runs_for_any_yaml_name() -> None:
    import re

    import yaml

    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
    files = re.compile(hook["files"])  # pre-commit: re.search on each staged path
    assert all(files.search(p) for p in ("products/a.yaml", "m.YAML", "x/m.Yml", "ci.yml"))
    assert not files.search("notes.txt")


def test_a_virtual_environment_at_the_scanned_root_is_scanned(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `pyvenv.cfg` at the root named made `discover` read nothing and pass
    `--fail-on-undeclared`; one in a subfolder still skips that folder, and says so."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "app"
    (root / "src").mkdir(parents=True)
    (root / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (root / "src" / "load.py").write_text('from_pretrained("acme/secret-model")\n', "utf-8")
    (root / "env" / "lib").mkdir(parents=True)
    (root / "env" / "pyvenv.cfg").write_text("home = /usr/bin\n", encoding="utf-8")
    (root / "env" / "lib" / "x.py").write_text('from_pretrained("acme/vendored")\n', "utf-8")
    code, out, _ = run(capsys, "discover", "app", "--fail-on-undeclared", "-f", "json")
    found = json.loads(out)
    assert code == 1
    assert [m["id"] for m in found["models"]] == ["acme/secret-model"]
    assert found["skipped_folders"] == [
        {"folder": "app/env", "why": "a virtual environment (it holds a pyvenv.cfg)"}
    ]
    code, out, _ = run(capsys, "discover", "app")
    assert "Folders not scanned" in out and "app/env: a virtual environment" in out


def test_check_v_lists_what_it_skipped(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "repo" / ".github").mkdir(parents=True)
    (tmp_path / "repo" / "m.yaml").write_text(CLEAN, encoding="utf-8")
    (tmp_path / "repo" / "ci.yml").write_bytes(b"on: [push]\njobs: {}\n")
    (tmp_path / "repo" / "values.YAML").write_bytes(b"release:\n  product: X\n")
    code, _, err = run(capsys, "check", "repo", "-v", "--no-waivers")
    assert code == 0
    assert err.splitlines() == [
        "licheck: skipped repo/.github: hidden (its name starts with '.')",
        "licheck: skipped repo/ci.yml: not a manifest: no `product` key anywhere in it",
        "licheck: skipped repo/values.YAML: not a manifest: no top-level `product` key (nor "
        "both `owner` and `components`)",
    ]
    assert run(capsys, "check", "repo", "--no-waivers")[2] == ""  # without -v: nothing
