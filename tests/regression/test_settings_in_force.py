"""No setting weakens the gate in silence: configuration files as an attacker or a careless
hand writes them, each with the setting that must be in force (and named beside the gate line,
with where it came from), or the located error (exit 2) it must give.

One table, one test.  Every case runs `licheck check m.yaml` (m.yaml: Composer 2, a governance
risk: it fails `--fail-on risk`, passes the default and `never`) from `repo/sub`, a folder of
a repository (`repo/.git`), unless it says otherwise; `repo/.licheck.yaml` is a team file a
folder up, and a parent of the repository (`.`) may hold files no run in it should read."""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.clirun import run
from tests.conftest import PRODUCTS

NEVER = "fail-on: never\n"  # what a weaker file up the tree says
RISK_TOML = 'fail-on = "risk"\n'
ABOVE = "fail-on: risk\n"  # above the repository: read, it would fail the run (exit 1)


@dataclass(frozen=True)
class Huge:
    """A sparse file of `size` bytes that starts with `head`: never to be read whole."""

    head: str
    size: int = 2 * 1024 * 1024 * 1024


@dataclass(frozen=True)
class Baseline:
    """A JSON report of m.yaml, as a previous run wrote it."""


POLICY = """\
policy: acme
name: Acme
clauses:
  - id: notice
    kind: obligation
    title: A notice
    text: Ship a notice.
    requirement: {fact: notice_included, is: true}
"""


@dataclass(frozen=True)
class Case:
    name: str
    files: dict[str, str | Huge | Baseline]  # path (from the test's folder) -> text
    code: int  # the exit code of `licheck check m.yaml`
    # the setting in force: key, value, and where it came from (a path from the resolved folder)
    setting: tuple[str, object, str] | None = None
    out: tuple[str, ...] = ()  # in the text report (the gate line and the settings line)
    err: tuple[str, ...] = ()  # on stderr (a located error)
    links: dict[str, str] = field(default_factory=dict)  # link -> target (from the folder)
    git: str = "folder"  # repo/.git: folder, file (a worktree's), dangling (a link), none
    cwd: str = "repo/sub"  # the folder as the user reached it ($PWD)
    pwd: str | None = None  # $PWD when the shell's is stale (default: `cwd`)
    argv: tuple[str, ...] = ()  # more options for `check`


def gate(policy: str, at: str, result: str) -> str:
    return f"Gate (--fail-on {policy}, set at {at}): {result}"


CASES = [
    # --- TOML: however it writes tool.licheck, the table is read (the team's `never` is not)
    Case(
        "toml-escaped-table-name",
        {
            "repo/.licheck.yaml": NEVER,
            "repo/sub/pyproject.toml": '[tool."lich\\u0065ck"]\n' + RISK_TOML,
        },
        1,
        ("fail-on", "risk", "pyproject.toml:2:1"),
        out=(gate("risk", "pyproject.toml:2:1", "FAILS"),),
    ),
    Case(
        "toml-escaped-tool",
        {
            "repo/.licheck.yaml": NEVER,
            "repo/sub/pyproject.toml": '["t\\u006fol".licheck]\n' + RISK_TOML,
        },
        1,
        ("fail-on", "risk", "pyproject.toml:2:1"),
    ),
    Case(
        "toml-literal-quoted-and-spaced",
        {
            "repo/.licheck.yaml": NEVER,
            "repo/sub/pyproject.toml": "[ tool . 'licheck' ]\n" + RISK_TOML,
        },
        1,
        ("fail-on", "risk", "pyproject.toml:2:1"),
    ),
    Case(
        "toml-dotted-key-at-top",
        {"repo/.licheck.yaml": NEVER, "repo/sub/pyproject.toml": 'tool.licheck.fail-on = "risk"\n'},
        1,
        ("fail-on", "risk", "pyproject.toml:1:14"),
        out=(gate("risk", "pyproject.toml:1:14", "FAILS"),),
    ),
    Case(
        "toml-tool-table-dotted-key",
        {
            "repo/.licheck.yaml": NEVER,
            "repo/sub/pyproject.toml": '[tool]\nruff.line-length = 100\nlicheck.fail-on = "risk"\n',
        },
        1,
        ("fail-on", "risk", "pyproject.toml:3:9"),
    ),
    Case(
        "toml-inline-tables",
        {
            "repo/.licheck.yaml": NEVER,
            "repo/sub/pyproject.toml": 'tool = {licheck = {fail-on = "risk"}}\n',
        },
        1,
        ("fail-on", "risk", "pyproject.toml:1:20"),
    ),
    Case(
        "toml-escaped-key-inside",
        {
            "repo/.licheck.yaml": NEVER,
            "repo/sub/pyproject.toml": '[tool.licheck]\n"fail\\u002Don" = "risk"\n',
        },
        1,
        ("fail-on", "risk", "pyproject.toml:2:1"),
    ),
    Case(
        "toml-bom-and-crlf",
        {
            "repo/.licheck.yaml": NEVER,
            "repo/sub/pyproject.toml": '\ufeff[project]\r\nname = "x"\r\n'
            '[tool.licheck]\r\nfail-on = "risk"\r\n',
        },
        1,
        ("fail-on", "risk", "pyproject.toml:4:1"),
    ),
    Case(
        "toml-decoy-in-a-multiline-string",
        {
            "repo/sub/pyproject.toml": '[project]\ndescription = """\n'
            '[tool.licheck]\nfail-on = "never"\n"""\n'
            '[tool.licheck]\nfail-on = "risk"\n',
        },
        1,
        ("fail-on", "risk", "pyproject.toml:7:1"),
    ),
    Case(
        "toml-evidence-weakened-is-named",
        {"repo/sub/pyproject.toml": '[tool.licheck]\nevidence = "community_inference,declared"\n'},
        0,
        ("evidence", "community_inference,declared", "pyproject.toml:2:1"),
        out=(
            "Settings in force: --evidence community_inference,declared (pyproject.toml:2:1; "
            "weaker than the default: community_inference can establish a fact;",
        ),
    ),
    # --- TOML mistakes: every one located, exit 2, nothing evaluated
    Case(
        "toml-escaped-table-bad-value",
        {
            "repo/.licheck.yaml": NEVER,
            "repo/sub/pyproject.toml": '[tool."lich\\u0065ck"]\nfail-on = "nevr"\n',
        },
        2,
        err=("pyproject.toml:2:11: error: expected one of violation, evidence-risk, risk, never",),
    ),
    Case(
        "toml-dotted-unknown-key",
        {"repo/sub/pyproject.toml": 'tool.licheck.evidnce = "estimates"\n'},
        2,
        err=("pyproject.toml:1:14: error: unknown key 'evidnce' (did you mean 'evidence'?)",),
    ),
    Case(
        "toml-inline-wrong-type",
        {"repo/sub/pyproject.toml": "tool = {licheck = {fail-on = 1}}\n"},
        2,
        err=("pyproject.toml:1:30: error:",),
    ),
    Case(
        "toml-subtable-is-an-unknown-key",
        {
            "repo/sub/pyproject.toml": "[tool.licheck]\n"
            + RISK_TOML
            + "[tool.licheck.extra]\nx = 1\n"
        },
        2,
        err=("pyproject.toml:3:1: error: unknown key 'extra'",),
    ),
    Case(
        "toml-array-of-tables",
        {"repo/sub/pyproject.toml": "[[tool.licheck]]\n" + RISK_TOML},
        2,
        err=("pyproject.toml:1:1: error: expected a mapping",),
    ),
    Case(
        "toml-invalid-with-an-escaped-name",
        {"repo/.licheck.yaml": NEVER, "repo/sub/pyproject.toml": '[tool."lich\\u0065ck"\n'},
        2,
        err=("pyproject.toml:1:21: error: not valid TOML",),
    ),
    Case(
        "toml-nested-too-deeply",
        {"repo/sub/pyproject.toml": "[tool.licheck]\nx = " + "[" * 5000 + "]" * 5000 + "\n"},
        2,
        err=("pyproject.toml:1:1: error: the TOML is nested too deeply to read",),
    ),
    Case(
        "toml-too-large-in-the-repository",
        {"repo/sub/pyproject.toml": Huge("[tool.licheck]\n")},
        2,
        err=("pyproject.toml:1:1: error: 2,147,483,648 bytes, over the 1,048,576",),
    ),
    Case(
        "toml-a-deeper-tool-table-is-not-licheck-s",
        {
            "repo/.licheck.yaml": "fail-on: risk\n",
            "repo/sub/pyproject.toml": '[project.tool.licheck]\nfail-on = "never"\n',
        },
        1,
        ("fail-on", "risk", "../.licheck.yaml:1:1"),
    ),
    Case(
        "toml-tool-as-an-array-of-tables",
        {
            "repo/.licheck.yaml": NEVER,
            "repo/sub/pyproject.toml": '[[tool]]\nlicheck.fail-on = "never"\n',
        },
        2,
        err=("pyproject.toml:1:1: error: no [tool.licheck] table in pyproject.toml",),
    ),
    # --- YAML: the hardened reader's semantics
    Case(
        "yaml-quoted-key",
        {"repo/.licheck.yaml": NEVER, "repo/sub/.licheck.yaml": '"fail-on": risk\n'},
        1,
        ("fail-on", "risk", ".licheck.yaml:1:1"),
        out=(gate("risk", ".licheck.yaml:1:1", "FAILS"),),
    ),
    Case(
        "yaml-anchor-and-alias",
        {"repo/sub/.licheck.yaml": "evidence: &e strict\nfail-on: &f risk\n"},
        1,
        ("fail-on", "risk", ".licheck.yaml:2:1"),
    ),
    Case(
        "yaml-flow-mapping",
        {"repo/.licheck.yaml": NEVER, "repo/sub/.licheck.yaml": "{fail-on: risk}\n"},
        1,
        ("fail-on", "risk", ".licheck.yaml:1:2"),
    ),
    Case(
        "yaml-duplicate-key",
        {"repo/sub/.licheck.yaml": "fail-on: risk\nfail-on: never\n"},
        2,
        err=(".licheck.yaml:2:1: error:",),
    ),
    Case(
        "yaml-merge-key-is-not-a-setting",
        {"repo/sub/.licheck.yaml": "base: &b {fail-on: never}\n<<: *b\n"},
        2,
        err=(".licheck.yaml:2:1: error: merge keys ('<<') are not supported",),
    ),
    Case(
        "yaml-second-document",
        {"repo/sub/.licheck.yaml": "fail-on: risk\n---\nfail-on: never\n"},
        2,
        err=(".licheck.yaml:",),
    ),
    Case(
        "yaml-evidence-weakened-is-named",
        {"repo/sub/.licheck.yaml": "evidence: community_inference,declared\n"},
        0,
        ("evidence", "community_inference,declared", ".licheck.yaml:1:1"),
        out=("--evidence community_inference,declared (.licheck.yaml:1:1; weaker than",),
    ),
    Case(
        "yaml-too-large",
        {"repo/sub/.licheck.yaml": Huge("fail-on: risk\n", 2 * 1024 * 1024)},
        2,
        err=(".licheck.yaml:1:1: error: 2,097,152 bytes, over the 1,048,576",),
    ),
    # --- discovery: the repository the user is in, and where it ends
    Case(
        "a-parent-file-applies-without-a-nearer-one",
        {"repo/.licheck.yaml": NEVER},
        0,
        ("fail-on", "never", "../.licheck.yaml:1:1"),
        out=(gate("never", "../.licheck.yaml:1:1", "passes"),),
    ),
    Case(
        "symlinked-subfolder-reads-its-repositorys-file",
        {"repo/.licheck.yaml": "fail-on: risk\n", "outside/.licheck.yaml": NEVER},
        1,
        ("fail-on", "risk", "../../repo/.licheck.yaml:1:1"),  # from the resolved folder
        links={"repo/sub": "outside/target"},
    ),
    Case(
        "link-from-outside-into-the-repository",
        {"repo/.licheck.yaml": "fail-on: risk\n", ".licheck.yaml": NEVER},
        1,
        ("fail-on", "risk", "../.licheck.yaml:1:1"),
        links={"shortcut": "repo/sub"},
        cwd="shortcut",
    ),
    Case(
        "dangling-git-link-ends-the-repository",
        {".licheck.yaml": ABOVE},
        0,
        ("fail-on", "violation", "default"),
        git="dangling",
    ),
    Case(
        "worktree-git-file-ends-the-repository",
        {".licheck.yaml": ABOVE},
        0,
        ("fail-on", "violation", "default"),
        git="file",
    ),
    Case(
        "huge-pyproject-above-the-repository-is-not-read",
        {"pyproject.toml": Huge("[tool.licheck]\n")},
        0,
        ("fail-on", "violation", "default"),
    ),
    Case(
        "outside-any-repository-the-parent-file-applies",
        {".licheck.yaml": NEVER},
        0,
        ("fail-on", "never", "../../.licheck.yaml:1:1"),
        git="none",
    ),
    Case(
        "stale-pwd-is-not-followed",
        {"repo/.licheck.yaml": "fail-on: risk\n", "elsewhere/.licheck.yaml": NEVER},
        1,
        ("fail-on", "risk", "../.licheck.yaml:1:1"),
        pwd="elsewhere",  # the shell's $PWD names another folder: not where licheck runs
    ),
    # --- the command line, named beside the gate line too
    Case(
        "as-of-typed",
        {},
        0,
        ("as-of", "2026-03-19", "command line"),
        out=("Settings in force: --as-of 2026-03-19 (command line); the rest licheck's defaults",),
        argv=("--as-of", "2026-03-19"),
    ),
    Case(
        "estimates-typed",
        {"repo/.licheck.yaml": "evidence: strict\n"},
        0,
        ("evidence", "estimates", "command line"),
        out=("--evidence estimates (command line; weaker than the default: community_inference,",),
        argv=("--evidence", "estimates"),
    ),
    Case(
        "layer-and-waivers-from-the-file",
        {
            "repo/rules/catalog.yaml": "models: []\n",
            "repo/w.yaml": "waivers: []\n",
            "repo/.licheck.yaml": "licenses: rules\nwaivers: w.yaml\n",
        },
        0,
        ("waivers", "../w.yaml", "../.licheck.yaml:2:1"),
        out=(
            "Settings in force: --licenses ../rules (../.licheck.yaml:1:1), --waivers ../w.yaml "
            "(../.licheck.yaml:2:1); the rest",
        ),
    ),
    Case(
        "policy-from-the-file",
        {"repo/p.yaml": POLICY, "repo/.licheck.yaml": "policy: p.yaml\n"},
        0,
        ("policy", ["../p.yaml"], "../.licheck.yaml:1:1"),
        out=("Settings in force: --policy ../p.yaml (../.licheck.yaml:1:1); the rest",),
    ),
    Case(
        "no-builtin-library-from-the-file",
        {
            "repo/rules/catalog.yaml": "models: []\n",
            "repo/.licheck.yaml": "licenses: rules\nbuiltin-licenses: false\n",
        },
        2,  # m.yaml names models of the built-in library: unread, and the report says why
        ("builtin-licenses", False, "../.licheck.yaml:2:1"),
        out=("--no-builtin-licenses (../.licheck.yaml:2:1)",),
        err=("m.yaml:96:7: error: unknown model 'kimi-k2.5'",),
    ),
    Case(
        "baseline-and-today-typed",
        {"repo/sub/base.json": Baseline()},
        0,
        ("baseline", "base.json", "command line"),
        out=(
            "Settings in force: --baseline base.json (command line), --today 2026-04-01 "
            "(command line); the rest licheck's defaults",
        ),
        argv=("--baseline", "base.json", "--today", "2026-04-01"),
    ),
    Case(
        "no-waivers-leaving-the-default-file-unread",
        {"repo/sub/.licheck-waivers.yaml": "waivers: []\n"},
        0,
        ("waivers", False, "command line"),
        out=("--no-waivers (command line; no waiver file is read)",),
        argv=("--no-waivers",),
    ),
    Case(
        "default-waiver-file-found",
        {"repo/sub/.licheck-waivers.yaml": "waivers: []\n"},
        0,
        ("waivers", ".licheck-waivers.yaml", "found in the working folder"),
        out=("--waivers .licheck-waivers.yaml (found in the working folder)",),
    ),
]


def _build(root: Path, case: Case) -> Path:
    """The case's folders under `root`; the working folder as the user reached it."""
    (root / "repo" / "sub").mkdir(parents=True)
    git = root / "repo" / ".git"
    if case.git == "folder":
        git.mkdir()
    elif case.git == "file":
        git.write_text("gitdir: /nowhere/.git/worktrees/repo\n", encoding="utf-8")
    elif case.git == "dangling":
        git.symlink_to(root / "no-such-git-dir")
    for link, target in case.links.items():
        (root / target).mkdir(parents=True, exist_ok=True)
        shutil.rmtree(root / link, ignore_errors=True)
        (root / link).symlink_to(root / target)
    for name, text in case.files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, Baseline):
            continue  # written by the test, once m.yaml is there
        if isinstance(text, Huge):
            with path.open("wb") as stream:
                stream.write(text.head.encode("utf-8"))
                stream.truncate(text.size)
        else:
            path.write_bytes(text.encode("utf-8"))
    here = root / case.cwd
    shutil.copy(PRODUCTS / "composer2.yaml", here / "m.yaml")
    return here


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_setting_is_in_force_and_named_or_the_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], case: Case
) -> None:
    here = _build(tmp_path, case)
    monkeypatch.chdir(here)  # the resolved folder
    pwd = tmp_path / case.pwd if case.pwd else here
    pwd.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("PWD", str(pwd))  # as the shell keeps it, links and all
    monkeypatch.delenv("LICHECK_CONFIG", raising=False)
    for name, text in case.files.items():
        if isinstance(text, Baseline):
            written = run(capsys, "--no-config", "check", "m.yaml", "-f", "json")[1]
            (tmp_path / name).write_text(written, encoding="utf-8")
    code, out, err = run(capsys, "check", "m.yaml", *case.argv)
    assert code == case.code, err
    assert "Traceback" not in err
    for words in case.out:
        assert words in " ".join(out.split()), out  # the text wraps at the terminal's width
    for words in case.err:
        assert words in err, err
    if case.setting is None:
        return
    key, value, source = case.setting
    for fmt in ("json", "sarif"):
        code, out, err = run(capsys, "check", "m.yaml", *case.argv, "-f", fmt)
        assert code == case.code, err
        document = json.loads(out)
        listed = (
            document["gate_settings"]
            if fmt == "json"
            else document["runs"][0]["properties"]["gateSettings"]
        )
        setting = next(s for s in listed if s["key"] == key)
        assert setting["value"] == value, fmt
        assert setting["source"] == source, (fmt, setting)
