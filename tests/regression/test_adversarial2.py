"""The standing adversarial suite, continued (round two; `test_adversarial.py` is round one):
each case with its exact outcome.

Classes: what-if scales over every accepted value (rates of 1e308 and 5e-324, thirty-digit
amounts, tiny ranges); escaping in the what-if, licenses, validate and check outputs (rule text
from a --licenses folder, a `::` that wrapping or a file name puts at a line start, bidi in XML);
exit codes for every command (Ctrl-C 130, a closed pipe 1, a full disk 2); outputs onto the
installation, onto /dev/stdout, with long names, and empty paths; reading through the bounded
reader (a FIFO swapped in, canonical texts); waiver identity (shared names, paths) and dates
(days, not months); importers and discovery at scale.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import pytest

import licheck
from licheck.files.safeio import default_directory
from licheck.outputs.whatif.scale import Scale
from tests.clirun import run

ROOT = Path(__file__).resolve().parents[2]
COMPOSER = ROOT / "products" / "composer2.yaml"

# ------------------------------------------------------- what-if scales: every accepted value

BIG = "9" * 30  # the most digits a number may have
TINY = "0." + "0" * 27 + "1"  # 30 characters: the smallest amount one may write
RATES = [f'"{BIG}"', f'"{TINY}"', BIG, "1"]  # the extremes one may write (no exponents)
SWEEPS = {
    "huge-range": ["--sweep", f"monthly_revenue=1 EUR/month..{BIG}T EUR/month"],
    "tiny-range": ["--sweep", f"monthly_revenue=0 EUR/month..{TINY} EUR/month"],
    "tiny-to-one": ["--sweep", f"monthly_revenue={TINY} EUR/month..1 EUR/month"],
    # a yearly fact: a monthly one is swept per month (a year's total is not a month of it)
    "per-year": ["--sweep", f"licensee_annual_revenue=1 EUR/year..{BIG}T EUR/year"],
    "map-huge": [
        "--sweep",
        f"licensee_annual_revenue={TINY} EUR/year..{BIG}T EUR/year",
        "--sweep",
        f"mau=0..{BIG}T",
    ],
    "set-huge": ["--set", f"monthly_revenue={BIG}T EUR/year", "--sweep", f"mau=1..{BIG}T"],
}


@pytest.mark.parametrize("rate", ["1e308", "1.7976931348623157e308", "5e-324", '"2e7"'])
def test_a_rate_in_scientific_notation_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, rate: str
) -> None:
    """Exponents are refused alike in manifests, --set and --sweep (issue 12): never a float
    that overflows or underflows."""
    path = _with_rate(tmp_path, rate)
    code, out, err = run(capsys, "whatif", str(path), "--sweep", "mau=0..1B")
    assert code == 2 and out == ""
    lines = path.read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(lines, 1) if text.startswith("currency_rates:"))
    assert f"m.yaml:{line}:23:" in err and "scientific notation is not accepted" in err


def _with_rate(tmp_path: Path, rate: str) -> Path:
    text = COMPOSER.read_text(encoding="utf-8")
    path = tmp_path / "m.yaml"
    rates = f"product: Composer 2\ncurrency_rates: {{EUR: {rate}}}"
    path.write_text(text.replace("product: Composer 2", rates), encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["text", "json"])
@pytest.mark.parametrize("sweep", SWEEPS)
@pytest.mark.parametrize(
    "rate",
    # the plain rate in the quick loop; the extremes (each a full what-if run per case) are slow
    [pytest.param(r, marks=() if r == "1" else pytest.mark.slow) for r in RATES],
    ids=[f"rate{n}" for n in range(len(RATES))],
)
def test_whatif_handles_every_accepted_value(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, rate: str, sweep: str, fmt: str
) -> None:
    manifest = _with_rate(tmp_path, rate)
    plot = tmp_path / "x.svg"
    code, out, err = run(
        capsys, "whatif", str(manifest), *SWEEPS[sweep], "-f", fmt, "--plot", str(plot)
    )
    assert (code, err) == (0, "")
    ET.fromstring(plot.read_bytes())
    if fmt == "json":
        json.loads(out)
    assert re.search(r"\b(nan|inf|infinity)\b", out + plot.read_text("utf-8"), re.I) is None


SCALES = [
    (Fraction(0), Fraction(1, 10**28), False),
    (Fraction(1, 10**300), Fraction(10**330), True),
    (Fraction(10**400), Fraction(10**400 + 1), False),
    (Fraction(5, 10**324), Fraction(1, 10**300), True),
]


@pytest.mark.parametrize(("lower", "upper", "log"), SCALES)
def test_scale_positions_are_finite(lower: Fraction, upper: Fraction, log: bool) -> None:
    scale = Scale.of(lower, upper)
    assert scale.log is log
    assert (scale.position(lower), scale.position(upper)) == (0.0, 1.0)
    middle = scale.value(0.5)
    assert lower < middle < upper
    assert 0.49 < scale.position(middle) < 0.51
    assert (scale.position(lower - 1), scale.position(upper * 2 + 1)) == (0.0, 1.0)  # clamped


# ------------------------------------------- escaping: rich output, what-if and licenses text

HOSTILE = (
    "Evil\x1b]0;T\x07\x1b[2J [/x] [bold]B[/bold] [link=https://e.x]go[/link]\n::error::f \u202e"
)
CONTROL = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
COMMAND = re.compile(r"^\s*::", re.M)


@pytest.mark.parametrize(
    "text", ["::error::x", "a:::b", "x ::warning file=a::y", "std::vector", ":", "a: b"]
)
def test_rich_text_has_no_colon_pair(text: str) -> None:
    from licheck.text import escape

    out = escape.rich(text)
    assert "::" not in out
    assert escape.rich(out) == out
    assert out.replace("\\x3a", ":") == text


def _named(tmp_path: Path, name: str, *, owner: str | None = None) -> Path:
    lines = COMPOSER.read_text(encoding="utf-8").split("\n")
    swap = {"product:": name, "owner:": owner if owner is not None else name}
    for n, line in enumerate(lines):
        for key, value in swap.items():
            if line.startswith(key):
                lines[n] = f"{key} {json.dumps(value)}"
    path = tmp_path / "m.yaml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


WHATIF_RUNS = {
    "plain": [],
    "sweep": ["--sweep", "mau=1M..1000M"],
    "map": ["--sweep", "mau=1M..1000M", "--sweep", "monthly_revenue=1M..100M"],
    "set-swap": ["--set", "mau=150M", "--set", "derivative=true"],
}


@pytest.mark.parametrize("case", WHATIF_RUNS)
def test_whatif_text_escapes_user_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str
) -> None:
    manifest = _named(tmp_path, HOSTILE)
    code, out, err = run(capsys, "whatif", str(manifest), *WHATIF_RUNS[case])
    assert (code, err) == (0, "")
    assert CONTROL.search(out.replace("\n", "")) is None
    assert COMMAND.search(out) is None
    assert "What-if: Evil\\e]0;T\\x07\\e[2J [/x] [bold]B[/bold] [link=https://e.x]go[/link]" in out


# A name whose `::` lands at the start of a wrapped line at one of these lengths.
WRAPPED = [("x" * n) + " ::error file=a::forged ::warning::w" for n in (60, 63, 66, 69, 84, 93)]


@pytest.mark.parametrize("name", WRAPPED, ids=[f"len{len(n)}" for n in WRAPPED])
@pytest.mark.parametrize(
    "argv",
    [["check", "--no-waivers"], ["whatif"], ["whatif", "--sweep", "mau=1M..1000M"]],
    ids=["check", "whatif", "whatif-sweep"],
)
def test_wrapping_never_starts_a_workflow_command(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, argv: list[str]
) -> None:
    manifest = _named(tmp_path, name, owner="Cursor")
    code, out, err = run(capsys, argv[0], str(manifest), *argv[1:])
    assert (code, err) == (0, "")
    assert COMMAND.search(out) is None
    assert ":\\x3aerror" in out and ":\\x3aforged" in out


def _hostile_library(tmp_path: Path) -> Path:
    import shutil

    library = tmp_path / "lib"
    shutil.copytree(ROOT / "licenses", library)
    rule = library / "apache-2.0.yaml"
    quoted = json.dumps(HOSTILE)
    text = rule.read_text(encoding="utf-8")
    text = text.replace("name: Apache License 2.0", f"name: {quoted}")
    text = text.replace("title: Give recipients a copy of the License", f"title: {quoted}")
    rule.write_text(text, encoding="utf-8")
    return library


@pytest.mark.parametrize(
    "argv", [["list"], ["show", "apache-2.0"], ["models"]], ids=["list", "show", "models"]
)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_licenses_escape_library_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str], fmt: str
) -> None:
    library = _hostile_library(tmp_path)
    code, out, err = run(capsys, "licenses", *argv, "--licenses", str(library), "-f", fmt)
    # `show` notes on stderr that the layer's apache-2.0 replaces the built-in one
    noted = "licheck: note: license apache-2.0 comes from " if argv[0] == "show" else ""
    assert code == 0 and err.startswith(noted) and err.count("\n") == (1 if noted else 0), err
    assert "\x1b" not in err + out and "\x07" not in err + out
    assert COMMAND.search(out) is None
    if fmt == "json":
        json.loads(out)
    elif argv[0] == "show":
        assert "Evil\\e]0;T\\x07\\e[2J [/x] [bold]B[/bold]" in out.replace("\n", " ")


# ------------------------------------------ exit codes: Ctrl-C and a closed pipe, every command

COMMANDS = {
    "evaluate": ["evaluate", str(COMPOSER), "--no-waivers"],
    "whatif": ["whatif", str(COMPOSER)],
    "licenses-list": ["licenses", "list"],
    "licenses-show": ["licenses", "show", "apache-2.0"],
    "licenses-models": ["licenses", "models"],
    "schema": ["schema", "report"],
    "validate": ["validate", str(COMPOSER)],
    "import-hf": [
        "import",
        "hf",
        str(ROOT / "tests" / "data" / "import" / "kimi-finetune-README.md"),
    ],
    "import-bom": [
        "import",
        "cyclonedx",
        str(ROOT / "tests" / "data" / "import" / "bom-kimi-1.6.json"),
    ],
}


def _leaf(argv: list[str]) -> object:
    """The click command that `argv` runs."""
    from licheck.cli import load_command

    command = load_command(argv[0])
    if argv[0] in ("licenses", "import"):
        group = command
        assert hasattr(group, "commands")
        command = group.commands[argv[1]]
    return command


@pytest.mark.parametrize("name", COMMANDS)
def test_ctrl_c_exits_130_for_every_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(_leaf(COMMANDS[name]), "callback", interrupted)
    code, out, err = run(capsys, *COMMANDS[name])
    assert (code, out, err.strip()) == (130, "", "Interrupted.")


@pytest.mark.slow  # a new interpreter per case
@pytest.mark.parametrize("name", [*COMMANDS, "evaluate-failing", "check"])
def test_closed_pipe_never_exits_0(name: str) -> None:
    import os
    import subprocess
    import sys

    argv = {
        "evaluate-failing": ["evaluate", str(COMPOSER), "--no-waivers", "--fail-on", "risk"],
        "check": ["check", str(COMPOSER), "--no-waivers"],
    }.get(name) or COMMANDS[name]
    process = subprocess.Popen(
        [sys.executable, "-m", "licheck", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert process.stdout is not None
    process.stdout.close()  # the reader goes away before anything is written
    _, err = process.communicate(timeout=120)
    assert process.returncode == 1, err
    assert b"Traceback" not in err


# ------------------------------------------------ outputs onto licheck's own installation

# Where licheck is installed: the checkout's src/ under an editable install, site-packages
# under CI's ordinary one.  Targeting the checkout instead would make a non-editable run write
# into the repository (it is not licheck's installation there, so nothing refuses it).
PACKAGE = Path(licheck.__file__).resolve().parent
RULES = default_directory().resolve()
IMPORT = ROOT / "tests" / "data" / "import"
OWN_FILES = {
    "library-json": PACKAGE / "library" / "library.json",
    "rule-file": RULES / "apache-2.0.yaml",
    "module": PACKAGE / "escape.py",
    "new-in-rules": RULES / "report.txt",
}
WRITERS = {
    "evaluate": ["evaluate", str(COMPOSER), "--no-waivers", "-o"],
    "check": ["check", str(COMPOSER), "--no-waivers", "-o"],
    "whatif": ["whatif", str(COMPOSER), "-o"],
    "whatif-plot": ["whatif", str(COMPOSER), "--sweep", "mau=1M..1000M", "--plot"],
    "import-hf": ["import", "hf", str(IMPORT / "kimi-finetune-README.md"), "-o"],
    "import-bom": ["import", "cyclonedx", str(IMPORT / "bom-kimi-1.6.json"), "-o"],
}


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
@pytest.mark.parametrize("target", OWN_FILES)
@pytest.mark.parametrize("writer", WRITERS)
def test_outputs_never_touch_the_installation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, writer: str, target: str
) -> None:
    path = OWN_FILES[target]
    before = path.read_bytes() if path.exists() else None
    link = tmp_path / "link.out"  # through a symlink too
    link.symlink_to(path)
    try:
        for output in (path, link):
            code, out, err = run(capsys, *WRITERS[writer], str(output))
            assert (code, out) == (2, "")
            assert "inside licheck's installation" in err and "never overwrites it" in err
        assert (path.read_bytes() if path.exists() else None) == before
    finally:  # a failing refusal must not leave the installation damaged for later tests
        if before is None:
            path.unlink(missing_ok=True)
        elif path.read_bytes() != before:
            path.write_bytes(before)


# ------------------------------------- reading: a FIFO swapped in after the check cannot hang


def _swapped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A FIFO that the first look (`os.stat`) sees as a regular file, as if swapped in after."""
    import os
    import stat as stat_module

    fifo = tmp_path / "m.yaml"
    os.mkfifo(fifo)
    real_stat = os.stat
    regular = real_stat(COMPOSER)

    def lying(path: object, *args: object, **kwargs: object) -> os.stat_result:
        found = real_stat(path, *args, **kwargs)  # type: ignore[arg-type]
        return regular if stat_module.S_ISFIFO(found.st_mode) else found

    monkeypatch.setattr(os, "stat", lying)
    return fifo


def _within(seconds: float, work: Callable[[], object]) -> object:
    """`work()`'s result or exception, failing (not hanging) past `seconds`."""
    import threading

    box: list[object] = []

    def target() -> None:
        try:
            box.append(work())
        except BaseException as exc:
            box.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert box, "hung"
    return box[0]


@pytest.mark.parametrize("reader", ["safeio", "yamlsafe", "hf"])
def test_fifo_swapped_in_is_refused_not_opened_blocking(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, reader: str
) -> None:
    from licheck.core.diagnostics import InputError
    from licheck.files import safeio, yamlsafe
    from licheck.importers import hf

    fifo = _swapped(monkeypatch, tmp_path)
    work: dict[str, Callable[[], object]] = {
        "safeio": lambda: safeio.read_bytes(fifo, "m.yaml", 1 << 20),
        "yamlsafe": lambda: yamlsafe.read_text(fifo, "m.yaml"),
        "hf": lambda: hf._read(fifo, "m.yaml"),
    }
    outcome = _within(10, work[reader])
    assert isinstance(outcome, InputError)
    assert outcome.diagnostics[0].message == "is a FIFO (named pipe), not a regular file"


# ---------------------------------------------------------------- waivers: product identity


def _waiver_file(tmp_path: Path, product: str) -> Path:
    path = tmp_path / "w.yaml"
    entry = {
        "id": "w1",
        "product": product,
        "license": "kimi-k2.5-modified-mit",
        "clause": "ui-attribution",
        "reason": "facts_pending",
        "comment": "c",
        "owner": "o",
        "expires": "2026-06-30",
    }
    body = "\n    ".join(f"{k}: {json.dumps(v)}" for k, v in entry.items())
    path.write_text(f"waivers:\n  - {body}\n", encoding="utf-8")
    return path


SHARED = {
    # (the waiver's product, exit code, message)
    "by-name": ("Composer 2", 2, "which 2 manifests of this run share"),
    "by-path": ("{d}/a.yaml", 1, ""),  # b.yaml's own risks still fail the gate
    "by-dotted-path": ("{d}/./a.yaml", 1, ""),
}


@pytest.mark.parametrize("case", SHARED)
def test_shared_name_is_ambiguous_even_where_only_one_matches(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, case: str
) -> None:
    """b.yaml shares the name but has no finding the waiver matches (another base model):
    the name is still ambiguous, since b's findings may change."""
    import shutil

    folder = tmp_path / "d"
    folder.mkdir()
    shutil.copy(COMPOSER, folder / "a.yaml")
    other = (ROOT / "products" / "composer1.yaml").read_text(encoding="utf-8")
    (folder / "b.yaml").write_text(
        other.replace("product: Composer 1", "product: Composer 2"), encoding="utf-8"
    )
    named, expected, message = SHARED[case]
    waivers = _waiver_file(tmp_path, named.replace("{d}", str(folder)))
    code, out, err = run(
        capsys,
        "check",
        str(folder),
        "--waivers",
        str(waivers),
        "--today",
        "2026-04-01",
        "--fail-on",
        "risk",
        "--format",
        "json",
    )
    assert code == expected, err
    assert message in err
    if out:
        report = json.loads(out)
        waived = {p["file"]: sum(f["waived"] for f in p["findings"]) for p in report["products"]}
        assert waived == {str(folder / "a.yaml"): 1, str(folder / "b.yaml"): 0}


# ------------------------------------------------------------------- importers at scale


@pytest.mark.slow
def test_a_40000_model_bom_imports_end_to_end(tmp_path: Path) -> None:
    """Every component becomes one, same-named models included; a hang guard, no timing."""
    import os
    import subprocess
    import sys

    base = json.loads((IMPORT / "bom-kimi-1.6.json").read_text(encoding="utf-8"))
    base["components"] = [
        {"type": "machine-learning-model", "name": "model", "group": "acme"} for _ in range(40_000)
    ]
    bom = tmp_path / "bom.json"
    bom.write_text(json.dumps(base, separators=(",", ":")), encoding="utf-8")
    out = tmp_path / "m.yaml"
    result = subprocess.run(
        [sys.executable, "-m", "licheck", "import", "cyclonedx", str(bom), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert result.returncode == 0, result.stderr
    ids = re.findall(r"^- id: (\S+)$", out.read_text(encoding="utf-8"), re.M)
    assert len(ids) == len(set(ids)) == 40_000
    assert ids[:3] == ["model", "model-2", "model-3"]


# ------------------------------------------ discovery: the documented rule (docs/check.md)

SNIFFED = {
    "first-line": (b"product: X\n", True),
    "first-line-bom": (b"\xef\xbb\xbfproduct: X\n", True),
    "explicit-first": (b"? product\n: X\n", True),
    "crlf": (b"owner: Y\r\nproduct: X\r\n", True),
    "last-line-no-newline": (b"owner: Y\nproduct: X", True),
    "key-alone-last": (b"owner: Y\nproduct", True),
    "after-large-data": (b"k: v product\n" * 300_000 + b"product: X\n", True),
    "indented": (b"a:\n  product: X\n", False),
    "longer-key": (b"productx: 1\nproducts: 2\n", False),
    # not valid YAML (a tab cannot indent), but it may be a manifest: the loader says why
    "tab-first": (b"\tproduct: X\n", True),
    "large-data-only": (b"k: v, not a product key\n" * 150_000, False),
}


@pytest.mark.parametrize("case", SNIFFED)
def test_sniff_finds_the_top_level_key_as_the_documented_rule(tmp_path: Path, case: str) -> None:
    from licheck.files.discovery import is_manifest

    body, expected = SNIFFED[case]
    path = tmp_path / "x.yaml"
    path.write_bytes(body)
    assert is_manifest(path) is expected


# ------------------------------------------------- outputs: /dev/stdout is a pipe, written through


@pytest.mark.parametrize(
    "argv",
    [
        ["evaluate", str(COMPOSER), "--no-waivers", "-f", "json", "-o", "/dev/stdout"],
        ["check", str(COMPOSER), "--no-waivers", "-f", "json", "-o", "/dev/stdout"],
        ["whatif", str(COMPOSER), "--sweep", "mau=1M..1000M", "--plot", "/dev/stdout", "-o", "-"],
    ],
    ids=["evaluate", "check", "whatif-plot"],
)
def test_dev_stdout_as_output_is_written_through(tmp_path: Path, argv: list[str]) -> None:
    import os
    import subprocess
    import sys

    if not Path("/dev/stdout").exists():
        pytest.skip("no /dev/stdout")
    argv = [a if a != "-" else str(tmp_path / "report.txt") for a in argv]
    result = subprocess.run(
        [sys.executable, "-m", "licheck", *argv],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert (result.returncode, result.stderr) == (0, "")
    if argv[0] == "whatif":
        ET.fromstring(result.stdout)
    else:
        assert json.loads(result.stdout)["tool"] == "licheck"


# ---------------------------------- every check format escapes rule text from a --licenses folder

RULE_TEXT = "Evil\x1b]0;T\x07 [bold]B[/bold] </details><script>x</script>\n::error::x \u202e ]]> &"


def _hostile_rules(tmp_path: Path) -> Path:
    import shutil

    library = tmp_path / "lib"
    shutil.copytree(ROOT / "licenses", library)
    rule = library / "kimi-k2.5-modified-mit.yaml"
    quoted = json.dumps(RULE_TEXT)
    text = rule.read_text("utf-8")
    text = re.sub(r"^name: .*$", lambda _: f"name: {quoted}", text, count=1, flags=re.M)
    text = re.sub(r"^(    title: ).*$", lambda m: m.group(1) + quoted, text, flags=re.M)
    rule.write_text(text, encoding="utf-8")
    return library


@pytest.mark.parametrize(
    "fmt", ["text", "markdown", "github", "junit", "json", "sarif", "html", "compact"]
)
def test_check_formats_escape_rule_text(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, fmt: str
) -> None:
    library = _hostile_rules(tmp_path)
    argv = ["check", str(COMPOSER), "--no-waivers", "--licenses", str(library), "-f", fmt, "-v"]
    code, out, err = run(capsys, *argv, "--fail-on", "risk")
    assert (code, err) == (1, "")
    assert "\x1b" not in out and "\x07" not in out
    lines = out.splitlines()
    if fmt == "github":
        assert all(
            line.startswith(("::error ", "::warning ", "::notice "))
            for line in lines
            if line.lstrip().startswith("::")
        )
        assert not any("Evil" in line.split("::")[1] for line in lines if line.startswith("::"))
    else:
        assert COMMAND.search(out) is None
    if fmt in ("json", "sarif"):
        json.loads(out)
    else:
        assert "\u202e" not in out
    if fmt == "junit":
        ET.fromstring(out.encode("utf-8"))
    if fmt == "markdown":
        assert "<script" not in out and out.count("</details>") == out.count("<details>")
    if fmt == "html":
        assert "<script" not in out


@pytest.mark.parametrize(
    ("text", "expected"),
    [("a\u202eb", "a\\u202eb"), ("c1\x85", "c1\\x85"), ("del\x7f", "del\\x7f"), ("é ok", "é ok")],
)
def test_xml_chars_show_invisible_controls(text: str, expected: str) -> None:
    from licheck.text import escape

    assert escape.xml_chars(text) == expected


# ----------------------------------------------- canonical texts: bounded, special files named


@pytest.mark.parametrize("kind", ["fifo", "folder", "too-large"])
@pytest.mark.parametrize("command", ["verify", "coverage"])
def test_canonical_texts_are_read_bounded(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, kind: str, command: str
) -> None:
    import os

    texts = tmp_path / "texts"
    texts.mkdir()
    text = texts / "apache-2.0-standard.txt"
    if kind == "fifo":
        os.mkfifo(text)
    elif kind == "folder":
        text.mkdir()
    else:
        text.write_bytes(b"x" * (4 * 1024 * 1024 + 1))
    reason = {
        "fifo": "is a FIFO (named pipe), not a regular file",
        "folder": "is a directory, not a regular file",
        "too-large": "file is too large (4,194,305 bytes; the limit is 4,194,304)",
    }[kind]
    code, _, err = run(capsys, "licenses", command, "--texts", str(texts))
    assert "Traceback" not in err
    if command == "verify":
        assert code == 1
        shown = f"apache-2.0: canonical text apache-2.0-standard.txt in {texts} cannot be read: "
        assert shown + reason in err
    else:
        assert code == 2
        assert f"{text}: error: {reason}" in err


@pytest.mark.parametrize("name", ["v\x1b[31mx.yaml", "v\x1b]0;t\x07.yaml", "bidi\u202e.yaml"])
def test_validate_escapes_file_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, unwrapped: None, name: str
) -> None:
    from licheck.text import escape

    path = tmp_path / name
    path.write_bytes(COMPOSER.read_bytes())
    code, out, err = run(capsys, "validate", str(path))
    assert (code, err) == (0, "")
    assert out == f"ok: {escape.terminal(str(path))} (manifest)\n"


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("expires", "2026-06", 2),
        ("expires", "'2026-06'", 2),
        ("granted", "2026-03", 2),
        ("expires", "2026-06-30", 0),
        ("granted", "2026-03-01", 0),
    ],
)
def test_waiver_dates_are_days_not_months(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, field: str, value: str, expected: int
) -> None:
    waivers = _waiver_file(tmp_path, "Composer 2")
    text = waivers.read_text(encoding="utf-8")
    if field == "expires":
        text = text.replace('expires: "2026-06-30"', f"expires: {value}")
    else:
        text += f"    granted: {value}\n"
    waivers.write_text(text, encoding="utf-8")
    code, _, err = run(
        capsys, "check", str(COMPOSER), "--waivers", str(waivers), "--today", "2026-04-01"
    )
    assert code == expected, err
    if expected:
        assert "expected a day as YYYY-MM-DD, got the month" in err


@pytest.mark.slow  # a new interpreter per case
@pytest.mark.parametrize(
    "argv",
    [
        ["check", str(COMPOSER), "--no-waivers"],
        ["check", str(COMPOSER), "--no-waivers", "-f", "json"],
        ["evaluate", str(COMPOSER), "--no-waivers"],
        ["whatif", str(COMPOSER)],
        ["licenses", "list"],
    ],
    ids=["check", "check-json", "evaluate", "whatif", "licenses"],
)
def test_full_disk_on_stdout_is_a_clear_error(argv: list[str]) -> None:
    import os
    import subprocess
    import sys

    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "licheck", *argv],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        )
    assert result.returncode == 2
    assert result.stderr == (
        "licheck: error: cannot write standard output: No space left on device\n"
    )


# ------------------------------------------------ paths: empty ones refused, long ones written

EMPTY = {
    "check-path": ["check", ""],
    "evaluate-manifest": ["evaluate", ""],
    "evaluate-output": ["evaluate", str(COMPOSER), "-o", ""],
    "check-waivers": ["check", str(COMPOSER), "--waivers", ""],
    "check-licenses": ["check", str(COMPOSER), "--licenses", ""],
    "whatif-manifest": ["whatif", ""],
    "whatif-plot": ["whatif", str(COMPOSER), "--sweep", "mau=1..100M", "--plot", ""],
    "import-output": ["import", "hf", str(IMPORT / "kimi-finetune-README.md"), "-o", ""],
}


@pytest.mark.usefixtures("unwrapped")  # reads a long stderr message whole
@pytest.mark.parametrize("case", EMPTY)
def test_an_empty_path_is_not_the_current_folder(
    capsys: pytest.CaptureFixture[str], case: str
) -> None:
    code, out, err = run(capsys, *EMPTY[case])
    assert (code, out) == (2, "")
    assert "an empty path (an unset variable?): name a file or folder" in err


@pytest.mark.parametrize("length", [200, 250, 255])
def test_an_output_name_near_the_limit_is_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, length: int
) -> None:
    output = tmp_path / ("r" * (length - 5) + ".json")
    code, _, err = run(
        capsys, "evaluate", str(COMPOSER), "--no-waivers", "-f", "json", "-o", str(output)
    )
    assert (code, err) == (0, "")
    assert json.loads(output.read_text(encoding="utf-8"))["tool"] == "licheck"
    assert [p.name for p in tmp_path.iterdir()] == [output.name]  # no temporary file left


# ------------------------------------- stderr: a file name cannot start a workflow command

COMMAND_NAMES = ["::error::x.yaml", "::warning file=a::x.yaml", "  ::notice::x.yaml"]


@pytest.mark.parametrize("name", COMMAND_NAMES, ids=["error", "warning", "spaced"])
@pytest.mark.parametrize("command", ["check", "evaluate", "validate", "whatif"])
def test_a_file_name_cannot_start_a_workflow_command(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    name: str,
    command: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text("product: [\n", encoding="utf-8")
    code, out, err = run(capsys, command, name)
    assert code == 2
    assert COMMAND.search(out + err) is None
    assert ":\\x3a" in err


def test_a_waiver_file_name_cannot_start_a_workflow_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    waivers = _waiver_file(tmp_path, "Composer 2")
    named = tmp_path / "::error::w.yaml"
    named.write_text(
        waivers.read_text("utf-8").replace("2026-06-30", "2026-03-01"), encoding="utf-8"
    )
    argv = ["check", str(COMPOSER), "--waivers", named.name, "--today", "2026-04-01"]
    for fmt in ("text", "markdown", "github"):
        code, out, err = run(capsys, *argv, "-f", fmt)
        assert code == 0, err
        lines = (out + err).splitlines()
        assert all(
            line.startswith(("::warning ", "::notice ", "::error "))
            for line in lines
            if line.lstrip().startswith("::")
        )
        assert "expired on 2026-03-01" in out
