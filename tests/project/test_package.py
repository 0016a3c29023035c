"""The package's metadata: classifiers, a license every pip shows, one version with its changelog
section, no address the project does not own, and an sdist that carries everything its tests
read (.ci/run builds both distributions and runs `twine check`; this file checks what can be
checked without building)."""

from __future__ import annotations

import re
import tomllib

import licheck
from tests.conftest import ROOT

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
HATCH = PYPROJECT["tool"]["hatch"]


def test_the_license_is_an_spdx_expression_with_its_file() -> None:
    assert PROJECT["license"] == "Apache-2.0"
    assert PROJECT["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").is_file()


def test_every_pip_shows_the_license() -> None:
    """Core metadata 2.4 states it only as License-Expression, which the pip of Python 3.11's
    venv (23.2) does not show; 2.3 writes `License: Apache-2.0` (pyproject.toml says why)."""
    targets = HATCH["build"]["targets"]
    assert targets["wheel"]["core-metadata-version"] == "2.3"
    assert targets["sdist"]["core-metadata-version"] == "2.3"


def test_classifiers_name_the_pythons_supported() -> None:
    classifiers = PROJECT["classifiers"]
    assert len(classifiers) == len(set(classifiers))
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert PROJECT["requires-python"] == ">=3.11"
    # PEP 639: the license is the expression; a license classifier would say it twice
    assert not any(c.startswith("License ::") for c in classifiers)
    assert (ROOT / "src" / "licheck" / "py.typed").is_file()  # "Typing :: Typed"


def test_one_version_with_its_changelog_section() -> None:
    assert PROJECT["dynamic"] == ["version"]
    assert HATCH["version"]["path"] == "src/licheck/_version.py"
    assert re.fullmatch(r"\d+\.\d+\.\d+", licheck.__version__)
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"\n## {licheck.__version__}\n" in changelog
    assert "## Version policy" in changelog


def test_no_address_the_project_does_not_own() -> None:
    """The project has no public repository or site yet: no invented or placeholder URL."""
    for url in PROJECT.get("urls", {}).values():
        assert "YOUR-ORG" not in url and "example" not in url and "licheck.dev" not in url


def test_the_sdist_carries_every_file_the_tests_read() -> None:
    """Each top-level file or folder a test names (`ROOT / "action.yml"`) is in the sdist."""
    included = set(HATCH["build"]["targets"]["sdist"]["include"])
    named = {
        match
        for test in (ROOT / "tests").rglob("*.py")
        for match in re.findall(r'ROOT / "([\w.-]+)"', test.read_text(encoding="utf-8"))
    }
    assert {"action.yml", ".pre-commit-hooks.yaml", "bench", ".ci"} <= named
    assert named - included == set()
    assert all((ROOT / name).exists() for name in included)


def test_ci_builds_both_distributions_and_checks_them() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "-m build" in ci and "twine check --strict" in ci
    dev = PROJECT["optional-dependencies"]["dev"]
    assert any(re.fullmatch(r"build==[\d.]+", d) for d in dev)
    assert any(re.fullmatch(r"twine==[\d.]+", d) for d in dev)
