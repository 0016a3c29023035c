"""Crashes, noise and false passes: hostile bytes, option values, paths and environments given to
every command, each with the answer it must get — an exit code and, for a bad input, the located
message (file:line:column where a file is involved) on stderr; never a traceback, never exit 3
(an internal error), and never a pass (exit 0) for a gate whose input could not be read.

One table, one test.  Every case runs `licheck ARGV` in a fresh folder (a repository: `.git`)
holding `m.yaml` (Composer 2: a governance risk, passes the default gate) and `v.yaml` (a
violation: fails it) and the case's own files.  A case with `env` runs the console script in a
subprocess (the environment and the interpreter's own standard streams are then the real ones)."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.clirun import run
from tests.conftest import PRODUCTS

VIOLATION = """\
format: 2
product: Vee
owner: Acme
release_date: 2026-03-19
sources:
  s: {title: Our own statement, kind: declared, date: 2026-03-19}
facts:
  commercial: {value: true, evidence: [{source: s}]}
  mau: {value: 200M, evidence: [{source: s}]}
  monthly_revenue: {value: 1M USD/month, evidence: [{source: s}]}
  ui_attribution: {value: [], evidence: [{source: s}]}
agreements: none
components:
  - id: vee
    name: Vee
    delivery: [hosted_service]
    lineage:
      base:
        model: kimi-k2.5
        evidence: [{source: s}]
"""

WAIVER = """\
waivers:
  - id: w1
    product: Vee
    license: {license}
    clause: ui-attribution
    component: {component}
    reason: facts_pending
    comment: Asking.
    owner: legal@example.com
    expires: {expires}
"""


def waiver(
    license: str = "kimi-k2.5-modified-mit", component: str = "vee", expires: str = "2026-06-30"
) -> str:
    return WAIVER.format(license=license, component=component, expires=expires)


@dataclass(frozen=True)
class Link:
    """A symlink to `target` (a path from the case's folder, or an absolute one)."""

    target: str


@dataclass(frozen=True)
class Fifo:
    """A named pipe: no writer ever opens it, so reading it would hang the run."""


@dataclass(frozen=True)
class Folder:
    """An empty folder."""


File = str | bytes | Link | Fifo | Folder


@dataclass(frozen=True)
class Case:
    name: str
    argv: tuple[str, ...]
    code: int
    err: tuple[str, ...] = ()  # each on stderr
    out: tuple[str, ...] = ()  # each on standard output
    files: dict[str, File] = field(default_factory=dict)
    env: dict[str, str] | None = None  # run the console script in a subprocess with these set
    cwd: str = "."  # the folder the run starts in (from the case's folder)


def case(name: str, *argv: str, code: int, err: tuple[str, ...] = (), **more: object) -> Case:
    return Case(name, argv, code, err, **more)  # type: ignore[arg-type]


DEEP = "a: " + "[" * 5000 + "]" * 5000 + "\n"
LOOP = {"loop1": Link("loop2"), "loop2": Link("loop1")}

CASES = [
    # --- paths: what cannot be read is named, and nothing is evaluated as if it were fine
    case(
        "discover-names-a-symlink-loop",
        "discover",
        "loop1",
        code=2,
        err=("loop1: error: a broken symlink, or a symlink loop",),
        files=LOOP,
    ),
    case(
        "discover-scans-a-folder-with-a-symlink-loop",
        "discover",
        "sub",
        code=2,
        err=("sub/loop1: error: cannot be read: a symlink loop",),
        out=("sub/loop1: cannot be read", "sub/loop2: cannot be read"),
        files={"sub/loop1": Link("loop2"), "sub/loop2": Link("loop1")},
    ),
    case(
        "check-a-folder-with-a-symlink-loop-fails",
        "check",
        "sub",
        code=2,
        err=("sub/loop1: error: cannot be read: a symlink loop",),
        files={"sub/v.yaml": VIOLATION, "sub/loop1": Link("loop2"), "sub/loop2": Link("loop1")},
    ),
    # an unreadable manifest fails the run (2) whatever lets the rest pass
    case(
        "unreadable-manifest-beside-fail-on-never",
        "check",
        "v.yaml",
        "x.yaml",
        "--fail-on",
        "never",
        "-f",
        "github",
        code=2,
        err=("x.yaml:1:10: error: not valid UTF-8 text",),
        files={"x.yaml": b"product: \xff\n"},
    ),
    case(
        "unreadable-manifest-with-allow-no-manifests",
        "check",
        "sub",
        "--allow-no-manifests",
        code=2,
        err=("sub/x.yaml:1:10: error: not valid UTF-8 text",),
        files={"sub/x.yaml": b"product: \xff\n"},
    ),
    case(
        "evaluate-a-symlink-loop",
        "evaluate",
        "loop1",
        code=2,
        err=("loop1: error: cannot read the file",),
        files=LOOP,
    ),
    case(
        "check-a-dangling-symlink-beside-a-passing-manifest",
        "check",
        "m.yaml",
        "gone.yaml",
        code=2,
        err=("gone.yaml: error: a broken symlink",),
        files={"gone.yaml": Link("nowhere.yaml")},
    ),
    case(
        "evaluate-a-fifo",
        "evaluate",
        "pipe.yaml",
        code=2,
        err=("pipe.yaml: error: is a FIFO (named pipe), not a regular file",),
        files={"pipe.yaml": Fifo()},
    ),
    case(
        "check-a-device",
        "check",
        "zero.yaml",
        code=2,
        err=("zero.yaml: error: is a device, not a regular file",),
        files={"zero.yaml": Link("/dev/zero")},
    ),
    case(
        "evaluate-a-folder",
        "evaluate",
        "sub",
        code=2,
        err=("sub: error: is a directory, not a regular file",),
        files={"sub": Folder()},
    ),
    case(
        "check-a-folder-of-nothing",
        "check",
        "sub",
        code=2,
        err=("sub: error: no manifests found",),
        files={"sub": Folder()},
    ),
    # --- hostile bytes: located at line:column
    case(
        "invalid-utf8",
        "check",
        "x.yaml",
        code=2,
        err=("x.yaml:2:10: error: not valid UTF-8 text",),
        files={"x.yaml": b"format: 2\nproduct: \xff\xfe\n"},
    ),
    case(
        "utf16",
        "evaluate",
        "x.yaml",
        code=2,
        err=("x.yaml:1:1: error: the file is UTF-16 or UTF-32 text",),
        files={"x.yaml": "format: 2\nproduct: X\n".encode("utf-16")},
    ),
    case(
        "a-nul-byte",
        "validate",
        "x.yaml",
        code=2,
        err=("x.yaml:1:10: error: binary data (a NUL byte)",),
        files={"x.yaml": b"format: 2\x00\n"},
    ),
    case(
        "a-lone-surrogate-escape",
        "notices",
        "x.yaml",
        code=2,
        err=("x.yaml:1:13: error: invalid YAML",),
        files={"x.yaml": 'product: "\\ud800"\n'},
    ),
    case(
        "deep-nesting",
        "timeline",
        "x.yaml",
        code=2,
        err=("x.yaml:1:1003: error: invalid YAML: exceeded maximum nesting depth",),
        files={"x.yaml": DEEP},
    ),
    case(
        "an-enormous-line",
        "check",
        "x.yaml",
        code=2,
        err=("x.yaml: error: file is too large",),
        files={"x.yaml": "format: 2\nproduct: " + "x" * 5_000_000 + "\n"},
    ),
    case(
        "a-bom-nested-too-deep",
        "import",
        "cyclonedx",
        "bom.json",
        code=2,
        err=("bom.json:1:100000: error: invalid JSON: nested 100,000 levels deep",),
        files={"bom.json": "[" * 100_000 + "]" * 100_000},
    ),
    # --- option values
    case(
        "as-of-not-a-real-date",
        "evaluate",
        "m.yaml",
        "--as-of",
        "2026-02-30",
        code=2,
        err=("not a real date: '2026-02-30'",),
    ),
    case(
        "as-of-year-zero",
        "check",
        "m.yaml",
        "--as-of",
        "0000-01-01",
        code=2,
        err=("year 0 is out of range",),
    ),
    case(
        "today-not-a-real-date",
        "check",
        "m.yaml",
        "--today",
        "2026-02-30",
        code=2,
        err=("not a real date",),
    ),
    case(
        "far-future-as-of-still-fails-a-violation",
        "check",
        "v.yaml",
        "--as-of",
        "9999-12-31",
        code=1,
        out=("Gate (--fail-on violation): FAILS",),
    ),
    case(
        "annotations-negative",
        "check",
        "m.yaml",
        "--annotations",
        "-1",
        code=2,
        err=("-1 is not in the range x>=0",),
    ),
    case(
        "evidence-empty-list",
        "check",
        "v.yaml",
        "--evidence",
        ",",
        code=2,
        err=("--evidence: unknown evidence policy ','",),
    ),
    case(
        "config-shows-no-evidence-policy-a-run-refuses",
        "config",
        "--evidence",
        "nonsense",
        code=2,
        err=("--evidence: unknown evidence policy 'nonsense'",),
    ),
    case("set-nan", "whatif", "m.yaml", "--set", "mau=nan", code=2, err=("got 'nan'",)),
    case(
        "set-huge-exponent",
        "whatif",
        "m.yaml",
        "--set",
        "mau=1e999999999",
        code=2,
        err=("scientific notation is not accepted",),
    ),
    case(
        "sweep-too-many-digits",
        "whatif",
        "m.yaml",
        "--sweep",
        "mau=0.." + "9" * 200,
        code=2,
        err=("has too many digits",),
    ),
    case(
        "sweep-three-ends",
        "whatif",
        "m.yaml",
        "--sweep",
        "mau=1..2..3",
        code=2,
        err=("got '2..3'",),
    ),
    case(
        "output-a-folder",
        "check",
        "m.yaml",
        "-o",
        "sub",
        code=2,
        err=("is a directory",),
        files={"sub": Folder()},
    ),
    case(
        "output-empty-path",
        "check",
        "m.yaml",
        "-o",
        "",
        code=2,
        err=("an empty path",),
    ),
    case(
        "texts-a-device",
        "licenses",
        "verify",
        "--texts",
        "zero",
        code=2,
        err=("'zero' is not a folder",),
        files={"zero": Link("/dev/zero")},
        # click's Directory check let a device through; each text was then "not found": exit 1
        # (drift) for what is bad input
    ),
    # --- settings and companion files: bad ones refuse the run, never weaken it
    case(
        "waiver-license-wildcard",
        "check",
        "v.yaml",
        "--waivers",
        "w.yaml",
        "--today",
        "2026-04-01",
        code=2,
        err=("w.yaml:4:14: error:",),
        files={"w.yaml": waiver(license="'*'")},
    ),
    case(
        "waiver-component-wildcard",
        "check",
        "v.yaml",
        "--waivers",
        "w.yaml",
        "--today",
        "2026-04-01",
        code=2,
        err=("w.yaml:6:16: error:",),
        files={"w.yaml": waiver(component="'*'")},
    ),
    case(
        "waiver-expires-not-a-real-date",
        "check",
        "v.yaml",
        "--waivers",
        "w.yaml",
        "--today",
        "2026-04-01",
        code=2,
        err=("w.yaml:10:14: error: not a real date",),
        files={"w.yaml": waiver(expires="2026-02-30")},
    ),
    # a waiver names a product by its path, or by a name unique in the run: a name that is one
    # manifest's path and another product's name waived both (the gate passed on a violation)
    case(
        "waiver-product-is-a-path-and-another-products-name",
        "check",
        "a.yaml",
        "b.yaml",
        "--waivers",
        "w.yaml",
        "--today",
        "2026-04-01",
        code=2,
        err=(
            "w.yaml:2:5: error: waiver w1 names product 'b.yaml', which is the path of b.yaml and"
            " the product name of a.yaml",
        ),
        files={
            "a.yaml": VIOLATION.replace("product: Vee", "product: b.yaml"),
            "b.yaml": VIOLATION.replace("product: Vee", "product: Bee"),
            "w.yaml": waiver().replace("product: Vee", "product: b.yaml"),
        },
    ),
    case(
        "waiver-product-by-dot-path-names-that-manifest-alone",
        "check",
        "a.yaml",
        "b.yaml",
        "--waivers",
        "w.yaml",
        "--today",
        "2026-04-01",
        code=1,
        out=("1 waived", "Gate (--fail-on violation): FAILS"),
        files={
            "a.yaml": VIOLATION.replace("product: Vee", "product: b.yaml"),
            "b.yaml": VIOLATION.replace("product: Vee", "product: Bee"),
            "w.yaml": waiver().replace("product: Vee", "product: ./b.yaml"),
        },
    ),
    case(
        "waivers-a-device",
        "check",
        "v.yaml",
        "--waivers",
        "zero",
        code=2,
        err=("zero: error: is a device",),
        files={"zero": Link("/dev/zero")},
    ),
    case(
        "baseline-a-folder",
        "check",
        "v.yaml",
        "--baseline",
        "sub",
        code=2,
        err=("is a directory",),
        files={"sub": Folder()},
    ),
    case(
        "baseline-a-manifest",
        "check",
        "v.yaml",
        "--baseline",
        "m.yaml",
        code=2,
        err=("m.yaml:1:1: error: not valid JSON",),
    ),
    case(
        "policy-a-manifest",
        "check",
        "v.yaml",
        "--policy",
        "m.yaml",
        code=2,
        err=("m.yaml:11:1: error: unknown key 'sources'",),
    ),
    case(
        "config-fail-on-in-capitals",
        "check",
        "v.yaml",
        code=2,
        err=(".licheck.yaml:1:10: error: expected one of violation, evidence-risk, risk, never",),
        files={".licheck.yaml": "fail-on: NEVER\n"},
    ),
    case(
        "config-fail-on-a-boolean",
        "check",
        "v.yaml",
        code=2,
        err=(".licheck.yaml:1:10: error:", "got a boolean"),
        files={".licheck.yaml": "fail-on: false\n"},
    ),
    # a settings file that cannot be read is an error, not skipped: skipped, a parent folder's
    # file applied in its place (here `fail-on: never`, and the gate passed on a violation)
    *(
        case(
            f"pyproject-{kind}-below-a-weaker-file",
            "check",
            "v.yaml",
            code=2,
            err=(f"pyproject.toml: error: {message}",),
            files={
                ".licheck.yaml": "fail-on: never\n",
                "sub/v.yaml": VIOLATION,
                "sub/pyproject.toml": made,
            },
            cwd="sub",
        )
        for kind, made, message in [
            ("dangling-link", Link("shared/pyproject.toml"), "no such file"),
            ("link-loop", Link("pyproject.toml"), "cannot read the file"),
            ("fifo", Fifo(), "is a FIFO"),
            ("folder", Folder(), "is a directory"),
        ]
    ),
    # the default waiver file, present but unreadable: an error, not a run without its waivers
    *(
        case(
            f"default-waivers-{kind}",
            "check",
            "m.yaml",
            code=2,
            err=(f".licheck-waivers.yaml: error: {message}",),
            files={".licheck-waivers.yaml": made},
        )
        for kind, made, message in [
            ("dangling-link", Link("nowhere.yaml"), "no such file"),
            ("folder", Folder(), "is a directory"),
        ]
    ),
    case(
        "no-waivers-ignores-an-unreadable-default-file",
        "check",
        "m.yaml",
        "--no-waivers",
        code=0,
        files={".licheck-waivers.yaml": Link("nowhere.yaml")},
    ),
    # Python converts integers of at most 4,300 digits: tomllib's ValueError was exit 3
    case(
        "pyproject-integer-of-5000-digits",
        "check",
        "v.yaml",
        code=2,
        err=("pyproject.toml:3:15: error: an integer of more than 4,300 digits",),
        files={"pyproject.toml": "[tool.licheck]\n\nannotations = " + "9" * 5000 + "\n"},
    ),
    case(
        "config-toml-integer-of-5000-digits",
        "--config",
        "ci.toml",
        "config",
        code=2,
        err=("ci.toml:2:5: error: an integer of more than 4,300 digits",),
        files={"ci.toml": "[tool.licheck]\nx = " + "1_" * 4500 + "1\n"},
    ),
    case(
        "config-a-device",
        "--config",
        "zero",
        "check",
        "v.yaml",
        code=2,
        err=("zero: error: is a device",),
        files={"zero": Link("/dev/zero")},
    ),
    case(
        "layer-names-a-device",
        "check",
        "v.yaml",
        "--licenses",
        "zero",
        code=2,
        err=("'zero' is not a folder",),
        files={"zero": Link("/dev/zero")},
    ),
    # --- environments: output that cannot be encoded or sized is still a clean answer
    case(
        "stdout-ascii-only",
        "check",
        "v.yaml",
        code=1,
        out=("Gate (--fail-on violation): FAILS",),
        env={"PYTHONIOENCODING": "ascii", "LANG": "C", "LC_ALL": "C"},
    ),
    case(
        "columns-zero",
        "check",
        "v.yaml",
        "-v",
        code=1,
        out=("Gate (--fail-on violation): FAILS",),
        env={"COLUMNS": "0"},
    ),
    case(
        "columns-huge",
        "timeline",
        "m.yaml",
        code=0,
        env={"COLUMNS": "99999999999"},
    ),
]


def _build(folder: Path, files: dict[str, File]) -> None:
    (folder / ".git").mkdir()
    (folder / "m.yaml").write_text((PRODUCTS / "composer2.yaml").read_text("utf-8"), "utf-8")
    (folder / "v.yaml").write_text(VIOLATION, "utf-8")
    for name, content in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, Link):
            path.symlink_to(content.target)
        elif isinstance(content, Fifo):
            os.mkfifo(path)
        elif isinstance(content, Folder):
            path.mkdir()
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, "utf-8")


def _subprocess(argv: tuple[str, ...], env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("LICHECK", "GITHUB"))}
    done = subprocess.run(
        [sys.executable, "-m", "licheck", *argv],
        cwd=cwd,
        env=environment | env,
        capture_output=True,
        timeout=120,
        check=False,
    )
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8")


def _name(c: Case | object) -> str:
    return c.name if isinstance(c, Case) else c.values[0].name  # type: ignore[attr-defined]


@pytest.mark.parametrize("c", CASES, ids=[_name(c) for c in CASES])
def test_hostile_input_gets_a_clean_answer(
    c: Case, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _build(tmp_path, c.files)
    monkeypatch.chdir(tmp_path / c.cwd)
    monkeypatch.setenv("PWD", str(tmp_path / c.cwd))
    monkeypatch.setenv("COLUMNS", "1000")  # a long message on one line
    monkeypatch.delenv("LICHECK_CONFIG", raising=False)
    if c.env is None:
        code, out, err = run(capsys, *c.argv)
    else:
        code, out, err = _subprocess(c.argv, c.env, tmp_path / c.cwd)
    assert "Traceback" not in out + err
    assert "internal error" not in err
    assert code == c.code, f"exit {code}, not {c.code}:\n{err}\n{out[-2000:]}"
    for text in c.err:
        assert text in err, err
    for text in c.out:
        assert text in out, out
    if c.code == 2:
        assert "error" in err.lower(), err
