"""A layered rule library: `--licenses DIR` adds to the built-in library, replaces entries with
the same id (and the report says so), and `--no-builtin-licenses` reads folders alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from licheck.files.safeio import default_directory
from licheck.library.compiled import load_library
from licheck.library.layers import load, source_of
from licheck.library.source import LibrarySource
from licheck.portfolio.workers import PARALLEL_MIN
from tests.clirun import run

KIMI = "kimi-k2.5-modified-mit.yaml"

ONE_MIT_MODEL = """\
models:
  - id: acme-coder-7b
    name: Acme Coder 7B
    aliases: [acme/coder-7b]
    family: acme
    licensor: acme
    license: mit
    source: "acme/coder-7b model card: MIT"
"""

PRODUCT = """\
product: {name}
owner: Someone
facts:
  commercial: true
  mau: 150M
  monthly_revenue: 1M USD/month
  ui_attribution: {{excludes: [Kimi K2.5]}}
  agreement_waives: {{value: []}}
components:
  - id: chat
    name: Chat
    delivery: [hosted_service]
    lineage: {{base: {base}}}
"""


def _product(tmp_path: Path, base: str, name: str = "Chat") -> Path:
    path = tmp_path / f"{name.lower()}-{base.replace('/', '-')}.yaml"
    path.write_text(PRODUCT.format(name=name, base=base), encoding="utf-8")
    return path


def _catalog_layer(tmp_path: Path, text: str = ONE_MIT_MODEL, name: str = "layer") -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "catalog.yaml").write_text(text, encoding="utf-8")
    return folder


def _kimi_layer(tmp_path: Path, threshold: str = "200M") -> Path:
    """A layer with one rule file: Kimi K2.5's license with another user threshold."""
    folder = tmp_path / "kimi-layer"
    folder.mkdir()
    text = (default_directory() / KIMI).read_text(encoding="utf-8")
    assert text.count("more_than: 100M}") == 1
    (folder / KIMI).write_text(text.replace("more_than: 100M}", f"more_than: {threshold}}}"))
    return folder


def test_a_catalog_only_layer_adds_one_mit_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Adding one MIT model is one catalog entry naming the built-in `mit`, not a copy of the
    library; without the layer the model is unknown (exit 2)."""
    layer = _catalog_layer(tmp_path)
    product = _product(tmp_path, "acme/coder-7b")
    code, out, err = run(capsys, "evaluate", str(product), "--licenses", str(layer), "-f", "json")
    assert code == 0, err
    report = json.loads(out)
    licenses = {f["license"] for f in report["products"][0]["findings"]}
    assert licenses == {"mit"}
    assert report["library"] == {
        "builtin": True,
        "layers": [str(layer)],
        "policies": [],
        "replaced": [],
    }
    code, out, err = run(capsys, "evaluate", str(product))
    assert code == 2 and "unknown model 'acme/coder-7b'" in err


def test_the_built_in_library_alone_has_no_library_section(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "evaluate", str(_product(tmp_path, "kimi-k2.5")), "-f", "json")
    assert code == 1, err
    assert "library" not in json.loads(out)


def test_a_layer_replaces_a_license_and_the_report_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A layer holding only Kimi's rule file with a 200M threshold decides the verdict (150M
    users no longer trigger attribution), and the text and JSON reports name the replacement."""
    monkeypatch.setenv("COLUMNS", "1000")  # lines read whole: no wrapping
    layer = _kimi_layer(tmp_path)
    product = _product(tmp_path, "kimi-k2.5")
    code, out, _ = run(capsys, "check", str(product), "-f", "json")
    verdicts = {f["clause"]: f["verdict"] for f in json.loads(out)["products"][0]["findings"]}
    assert code == 1 and verdicts["ui-attribution"] == "violation"
    code, out, err = run(capsys, "check", str(product), "--licenses", str(layer), "-f", "json")
    assert code == 0, err
    report = json.loads(out)
    verdicts = {f["clause"]: f["verdict"] for f in report["products"][0]["findings"]}
    assert verdicts["ui-attribution"] == "not_applicable"
    assert report["library"]["replaced"] == [
        {
            "kind": "license",
            "id": "kimi-k2.5-modified-mit",
            "file": str(layer / KIMI),
            "replaced": f"built-in {KIMI}",
        }
    ]
    code, out, err = run(capsys, "check", str(product), "--licenses", str(layer))
    assert code == 0, err
    assert f"Rule library: built-in + {layer}" in out
    assert f"{layer / KIMI} replaces license kimi-k2.5-modified-mit (from built-in {KIMI})" in out

    for fmt, replaced in (
        ("markdown", f"{layer / KIMI} replaces license kimi-k2.5-modified-mit"),
        ("html", f"{layer / KIMI} replaces license kimi-k2.5-modified-mit"),
        ("compact", f"{layer / KIMI} replaces license kimi-k2.5-modified-mit"),
    ):
        code, out, err = run(capsys, "check", str(product), "--licenses", str(layer), "-f", fmt)
        assert code == 0, err
        assert replaced in out.replace("\\", ""), fmt  # markdown escapes punctuation


def test_a_replaced_license_has_the_layers_licensor(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A layer's rule file with another licensor replaces the built-in one's licensor too: the
    library reports the layer's, and an agreement is checked against it."""
    layer = _kimi_layer(tmp_path)
    rule = layer / KIMI
    text = rule.read_text(encoding="utf-8")
    assert text.count("licensor: moonshot-ai\n") == 1
    rule.write_text(text.replace("licensor: moonshot-ai\n", "licensor: acme-licensing\n"))
    builtin = load_library()
    library = load(LibrarySource((layer,)))
    assert builtin.licenses.licensor("kimi-k2.5-modified-mit") == "moonshot-ai"
    assert library.licenses.licensor("kimi-k2.5-modified-mit") == "acme-licensing"
    assert library.licenses.licensors() == {
        **builtin.licenses.licensors(),
        "kimi-k2.5-modified-mit": "acme-licensing",
    }
    product = _product(tmp_path, "kimi-k2.5")
    waiver = "agreements:\n  - {licensor: moonshot-ai, waives: [kimi-k2.5-modified-mit/*]}\n"
    text = product.read_text(encoding="utf-8").replace("  agreement_waives: {value: []}\n", "")
    product.write_text(text.replace("components:\n", waiver + "components:\n"))
    code, _, err = run(capsys, "check", str(product), "--licenses", str(layer))
    assert code == 2 and "is acme-licensing's to grant or waive, not moonshot-ai's" in err
    code, _, err = run(capsys, "check", str(product))
    assert "to grant or waive" not in err


def test_later_layers_win_and_name_the_layer_they_replace(tmp_path: Path) -> None:
    first = _catalog_layer(tmp_path, name="first")
    second = _catalog_layer(
        tmp_path, ONE_MIT_MODEL.replace("Acme Coder 7B", "Acme Coder 7B v2"), name="second"
    )
    library = load(LibrarySource((first, second)))
    model = library.model("acme/coder-7b")
    assert model is not None and model.name == "Acme Coder 7B v2"
    assert library.origin is not None
    (replaced,) = library.origin.replacements
    assert (replaced.kind, replaced.id) == ("model", "acme-coder-7b")
    assert (replaced.file, replaced.replaced) == (
        str(second / "catalog.yaml"),
        str(first / "catalog.yaml"),
    )


def test_a_replaced_model_takes_its_aliases_with_it(tmp_path: Path) -> None:
    builtin = load_library()
    glm = builtin.model("glm-4.6")
    assert glm is not None and glm.aliases
    layer = _catalog_layer(
        tmp_path,
        "models:\n  - {id: glm-4.6, name: Ours, license: apache-2.0, source: legal}\n",
    )
    library = load(LibrarySource((layer,)))
    replaced = library.model("glm-4.6")
    assert replaced is not None and replaced.license == "apache-2.0"
    assert library.model(glm.aliases[0]) is None
    assert len(library.models) == len(builtin.models)


def test_an_alias_of_another_model_is_a_located_error(tmp_path: Path) -> None:
    builtin = load_library()
    glm = builtin.model("glm-4.6")
    assert glm is not None
    text = f"models:\n  - id: mine\n    name: Mine\n    aliases: [{glm.aliases[0]}]\n"
    layer = _catalog_layer(tmp_path, text + "    license: mit\n    source: us\n")
    with pytest.raises(Exception) as caught:
        load(LibrarySource((layer,)))
    (problem,) = caught.value.diagnostics  # type: ignore[attr-defined]
    assert problem.file == str(layer / "catalog.yaml") and problem.line == 2
    assert "names both 'glm-4.6' and 'mine'" in problem.message


@pytest.mark.parametrize(
    ("catalog", "where", "words"),
    [
        ("models:\n  - id: x\n    name: X\n    licence: mit\n    source: s\n", ":4:", "licence"),
        ("models:\n  - id: x\n    name: X\n    license: mitt\n    source: s\n", ":4:", "'mit'"),
        ("models: [}\n", ":1:", ""),
    ],
    ids=["unknown-key", "unknown-license", "broken-yaml"],
)
def test_errors_in_a_layer_are_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], catalog: str, where: str, words: str
) -> None:
    layer = _catalog_layer(tmp_path, catalog)
    code, out, err = run(
        capsys, "evaluate", str(_product(tmp_path, "kimi-k2.5")), "--licenses", str(layer)
    )
    assert code == 2 and out == ""
    assert f"{layer / 'catalog.yaml'}{where}" in err and words in err


def test_a_broken_rule_file_in_a_layer_is_located(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layer = _kimi_layer(tmp_path, threshold="lots")
    code, _, err = run(
        capsys, "evaluate", str(_product(tmp_path, "kimi-k2.5")), "--licenses", str(layer)
    )
    assert code == 2 and f"{layer / KIMI}:" in err


def test_without_the_built_in_library_a_catalog_only_layer_is_incomplete(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layer = _catalog_layer(tmp_path)
    product = str(_product(tmp_path, "acme/coder-7b"))
    code, _, err = run(
        capsys, "evaluate", product, "--licenses", str(layer), "--no-builtin-licenses"
    )
    assert code == 2
    assert f"{layer / 'catalog.yaml'}:7:14" in err and "'mit', which is not in the library" in err
    code, _, err = run(capsys, "evaluate", product, "--no-builtin-licenses")
    assert code == 2 and "--no-builtin-licenses needs at least one --licenses DIR" in err


def test_a_missing_layer_folder_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere"
    code, _, err = run(
        capsys, "evaluate", str(_product(tmp_path, "kimi-k2.5")), "--licenses", str(missing)
    )
    assert code == 2 and f"{missing}: error: the license library folder is missing" in err


def test_licenses_commands_work_over_layers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = _catalog_layer(tmp_path)
    kimi = _kimi_layer(tmp_path)
    layers = ["--licenses", str(catalog), "--licenses", str(kimi)]
    code, out, err = run(capsys, "licenses", "models", *layers, "-f", "json")
    assert code == 0, err
    assert "acme-coder-7b" in out and "glm-4.6" in out
    code, out, err = run(capsys, "licenses", "show", "kimi-k2.5-modified-mit", *layers)
    assert code == 0, err
    assert "200M" in out and "100M" not in out
    code, out, err = run(capsys, "licenses", "list", *layers, "-f", "json")
    assert code == 0, err
    assert {e["id"] for e in json.loads(out)} >= {"mit", "kimi-k2.5-modified-mit"}


def test_a_worker_loads_the_same_layers_again(tmp_path: Path) -> None:
    """A worker process that does not inherit the library (spawned) loads it from its source."""
    layer = _catalog_layer(tmp_path)
    library = load(LibrarySource((layer,)))
    again = load(source_of(library))
    assert again.licenses.keys() == library.licenses.keys()
    assert again.models == library.models and again.origin == library.origin
    alone = load_library(default_directory())
    assert load(source_of(alone)).licenses.keys() == alone.licenses.keys()


@pytest.mark.slow
def test_a_large_portfolio_with_layers_uses_them_in_every_worker(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Worker processes evaluate with the same layered library as the parent."""
    layer = _catalog_layer(tmp_path)
    folder = tmp_path / "products"
    folder.mkdir()
    count = PARALLEL_MIN + 10
    for number in range(count):
        _product(folder, "acme/coder-7b", name=f"P{number}")
    code, out, err = run(capsys, "check", str(folder), "--licenses", str(layer), "-f", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["summary"]["products"] == count
    assert {f["license"] for p in report["products"] for f in p["findings"]} == {"mit"}
    assert report["library"]["layers"] == [str(layer)]


def test_an_empty_layer_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A folder with nothing licheck reads is a mistake (a mistyped path, .yml files), not an
    empty layer."""
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "catalog.yml").write_text(ONE_MIT_MODEL, encoding="utf-8")
    code, _, err = run(
        capsys, "evaluate", str(_product(tmp_path, "kimi-k2.5")), "--licenses", str(folder)
    )
    assert code == 2 and f"{folder}: error: the license library layer holds no rule file" in err


def test_the_streamed_report_and_the_held_one_say_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`check` streams its report, or holds it for --also: the library section is the same."""
    layer = _kimi_layer(tmp_path)
    product = str(_product(tmp_path, "kimi-k2.5"))
    held = tmp_path / "held.json"
    argv = ["check", product, "--licenses", str(layer), "-f", "json"]
    code, streamed, err = run(capsys, *argv)
    assert code == 0, err
    code, _, err = run(capsys, *argv, "--also", f"json={held}")
    assert code == 0, err
    assert json.loads(streamed) == json.loads(held.read_text(encoding="utf-8"))
    assert json.loads(streamed)["library"]["replaced"][0]["id"] == "kimi-k2.5-modified-mit"


def test_a_model_listed_twice_in_a_layer_is_named_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    layer = tmp_path / "twice"
    layer.mkdir()
    entry = (
        "  - id: acme-7b\n    name: Acme 7B\n    license: mit\n"
        "    release_date: 2025-01-01\n    source: a test\n"
    )
    (layer / "catalog.yaml").write_text("models:\n" + entry + entry, encoding="utf-8")
    code, _, err = run(capsys, "licenses", "models", "--licenses", str(layer))
    assert code == 2
    assert "catalog.yaml:7:5: error: model 'acme-7b' is listed twice in the catalog" in err


# A layer reads the rule files directly in its folder; a rule file or a catalog in a subfolder is
# refused at its key (it was dropped in silence), other YAML there (scenario tests) is left alone.
SUBFOLDER_CASES = {
    "rule-file": ("sub/acme-mit.yaml", "MIT", "a rule file in a subfolder of the layer"),
    "deep-rule-file": ("a/b/acme-mit.YML", "MIT", "a rule file in a subfolder of the layer"),
    "catalog": ("more/catalog.yaml", ONE_MIT_MODEL, "a catalog in a subfolder of the layer"),
    "broken": ("sub/x.yaml", "clauses: [\n", "not valid YAML, in a subfolder of the layer"),
    "scenarios": ("tests/mit.yaml", "license: mit\nmodel: x\nscenarios: []\n", None),
    "hidden": (".git/x.yaml", "MIT", None),
    "empty": ("sub/x.yaml", "# nothing\n", None),
}


@pytest.mark.parametrize("case", SUBFOLDER_CASES)
def test_a_rule_file_in_a_layer_subfolder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    where, text, message = SUBFOLDER_CASES[case]
    layer = tmp_path / "layer"
    (layer / where).parent.mkdir(parents=True)
    mit = (default_directory() / "mit.yaml").read_text(encoding="utf-8")
    (layer / "apache.yaml").write_text(
        (default_directory() / "apache-2.0.yaml").read_text(encoding="utf-8"), encoding="utf-8"
    )
    if text == "MIT":
        text = mit.replace("id: mit\n", "id: acme-mit\n")
    (layer / where).write_text(text, encoding="utf-8")
    product = _product(tmp_path, "kimi-k2.5")
    code, _, err = run(capsys, "evaluate", str(product), "--licenses", str(layer), "--no-waivers")
    if message is None:
        assert code == 1, err  # read, and the violation found
        return
    assert code == 2
    assert f"{layer / where}:" in err and message in err
    # naming the subfolder as a layer of its own reads it
    if case in ("rule-file", "catalog"):
        sub = str((layer / where).parent)
        argv = ["evaluate", str(product), "--licenses", str(layer), "--licenses", sub]
        assert run(capsys, *argv, "--no-waivers")[0] == 1


def test_validate_reads_the_layers_evaluate_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`validate` accepts what `evaluate --licenses` accepts, from the option or from the
    configuration's `licenses:`, and refuses it without the layer."""
    layer = _catalog_layer(tmp_path)
    product = _product(tmp_path, "acme/coder-7b")
    code, out, err = run(capsys, "validate", str(product), "--licenses", str(layer))
    assert code == 0, err
    assert out.startswith("ok: ")
    code, _, err = run(capsys, "validate", str(product), "--no-config")
    assert code == 2 and "acme/coder-7b" in err
    (tmp_path / ".licheck.yaml").write_text(f"licenses: [{layer.name}]\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "validate", product.name)
    assert code == 0, err
