"""The packaging: metadata, the optional core's fallback build, the wheel's size budget,
the workflows. None of it depends on the kernels, so every test here runs once.

The tests read the files beside this one (pyproject.toml, setup.py, .github/, tools/): in a
git checkout and in the sdist (which holds the tracked files). The repository's CI files
are only checked where they are there: an sdist built from a tree whose new files are not
yet tracked lacks them, and a checkout without them fails.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest

import sanggong
from sanggong._kernels import FALLBACK_COST

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = ROOT / "pyproject.toml"
IN_SDIST = (ROOT / "PKG-INFO").exists()

pytestmark = [
    pytest.mark.skipif(not PYPROJECT.exists(), reason="no source tree beside the tests"),
]


def _pyproject() -> dict[str, Any]:
    with PYPROJECT.open("rb") as f:
        return tomllib.load(f)


def _repo_file(relative: str) -> Path:
    """A file of the repository that an sdist may lack (see the module's docstring)."""
    path = ROOT / relative
    if not path.exists() and IN_SDIST:
        pytest.skip(f"{relative} is not in this sdist")
    assert path.exists(), f"{relative} is missing"
    return path


# --- metadata -------------------------------------------------------------------------


def test_the_version_comes_from_the_git_tag() -> None:
    """setuptools-scm: a build requirement, the version dynamic, written to _version.py
    (git-ignored: it is generated)."""
    config = _pyproject()
    assert "version" not in config["project"]
    assert config["project"]["dynamic"] == ["version"]
    requires = config["build-system"]["requires"]
    assert any(re.match(r"setuptools[-_]scm\b", r) for r in requires), requires
    assert config["tool"]["setuptools_scm"]["version_file"] == "src/sanggong/_version.py"
    ignored = _repo_file(".gitignore").read_text(encoding="utf-8").splitlines()
    assert "src/sanggong/_version.py" in ignored
    assert "src/sanggong/_core_build_failed.txt" in ignored


def test_the_extras() -> None:
    extras = _pyproject()["project"]["optional-dependencies"]
    assert extras["frame"] == ["pandas>=2"]
    assert {"test", "bench", "distributed", "plot", "docs", "frame"} <= set(extras)
    # the fallback build below runs without build isolation: the test extra brings what it needs
    assert any(re.match(r"setuptools[-_]scm\b", r) for r in extras["test"]), extras["test"]


def test_the_urls() -> None:
    urls = _pyproject()["project"]["urls"]
    assert set(urls) == {"Homepage", "Documentation", "Source", "Issues"}
    assert all(url.startswith("https://") for url in urls.values()), urls


def test_the_installed_metadata_is_the_pyprojects() -> None:
    """What pip installed says what pyproject.toml says (a stale install, such as an old
    editable one, fails here: reinstall)."""
    config = _pyproject()["project"]
    dist = importlib.metadata.distribution("sanggong")
    assert dist.version == sanggong.__version__
    assert set(dist.metadata.get_all("Provides-Extra") or []) >= set(config["optional-dependencies"])
    urls = dict(entry.split(", ", 1) for entry in dist.metadata.get_all("Project-URL") or [])
    assert urls == config["urls"]


# --- the optional core --------------------------------------------------------------------

BUILD_WHEEL = "import sys; from setuptools import build_meta; print(build_meta.build_wheel(sys.argv[1]))"
BANNER = "sanggong: the compiled core could not be built ("


def _source_copy(tmp_path: Path) -> Path:
    """What the build needs (the sdist's files), copied: no build/, no built core, no git,
    so nothing of an earlier build can stand in for this one."""
    if not (ROOT / "setup.py").exists():
        pytest.skip("no setup.py beside the tests")
    src = tmp_path / "src"
    for name in ("setup.py", "pyproject.toml", "README.md", "LICENSE", "MANIFEST.in", "PKG-INFO",
                 "tools/gen_lookups.py", "tools/gen_headers.py"):
        if (ROOT / name).exists():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, src / name)
    skip = re.compile(r"\.(so|pyd|dll|dylib|pyc)$|^_version\.py$|^_core_build_failed\.txt$")
    package = ROOT / "src" / "sanggong"
    for path in package.rglob("*"):  # the package and its subpackages (sanggong.cli)
        if path.is_file() and not skip.search(path.name) and "__pycache__" not in path.parts:
            # copy2 keeps the times: a generated _core.c newer than _core.pyx is not regenerated
            target = src / "src" / "sanggong" / path.relative_to(package)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
    return src


def _build(src: Path, out: Path, **environ: str) -> subprocess.CompletedProcess[str]:
    """The PEP 517 build of a wheel, as pip runs it without build isolation (and without
    needing pip: cibuildwheel's test environments may have none)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("SANGGONG_")}
    env.pop("LDSHARED", None)
    env.update(environ)
    return subprocess.run([sys.executable, "-c", BUILD_WHEEL, str(out)], cwd=src, env=env,
                          capture_output=True, text=True)


@pytest.mark.skipif(sys.platform == "win32", reason="MSVC builds do not read CC")
def test_without_a_compiler_the_pure_python_package_is_installed(tmp_path: Path) -> None:
    """CC=false: the build warns loudly, records why, and makes a wheel without the core,
    whose import warns and uses the reference. SANGGONG_REQUIRE_CORE=1 makes it an error."""
    src = _source_copy(tmp_path)
    out = tmp_path / "wheel"
    build = _build(src, out, CC="false", SANGGONG_REQUIRE_CORE="0")
    assert build.returncode == 0, build.stdout + build.stderr
    assert BANNER in build.stderr
    assert f"); installing the pure-Python reference: {FALLBACK_COST}\n" in build.stderr
    [wheel] = out.glob("*.whl")
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        note = z.read("sanggong/_core_build_failed.txt").decode()
        z.extractall(tmp_path / "installed")
    assert not [n for n in names if re.search(r"sanggong/_core[^/]*\.(so|pyd)$", n)], names
    assert note.startswith("sanggong._core: CompileError: ")

    probe = textwrap.dedent(
        """
        import json, warnings
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import sanggong
            label = sanggong.evaluate("Kh Qs 9d").label
        print(json.dumps([sanggong.IMPLEMENTATION, label, sanggong.__file__,
                          [str(w.message) for w in caught if w.category is RuntimeWarning]]))
        """
    )
    env = {key: value for key, value in os.environ.items() if key != "SANGGONG_NO_EXTENSIONS"}
    env["PYTHONPATH"] = str(tmp_path / "installed")
    run = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True,
                         cwd=tmp_path, check=True)
    implementation, label, package, warned = json.loads(run.stdout)
    assert (implementation, label) == ("python", "2P9")
    assert package == str(tmp_path / "installed" / "sanggong" / "__init__.py")
    [message] = warned
    assert message.startswith("sanggong: the compiled core could not be built when sanggong was installed "
                              "(sanggong._core: CompileError: ")

    required = _build(src, tmp_path / "required", CC="false", SANGGONG_REQUIRE_CORE="1")
    assert required.returncode != 0
    assert BANNER not in required.stderr
    assert re.search(r"error: command .*'false'.* (failed|exit status 1)", required.stderr, re.I | re.S), required.stderr
    assert not list((tmp_path / "required").glob("*.whl"))


def test_the_build_switches_are_read_strictly(tmp_path: Path) -> None:
    """SANGGONG_REQUIRE_CORE is "1", "0" or unset: anything else stops the build, naming it."""
    src = _source_copy(tmp_path)
    build = _build(src, tmp_path / "wheel", SANGGONG_REQUIRE_CORE="yes")
    assert build.returncode != 0
    assert "SANGGONG_REQUIRE_CORE must be '1' or '0' (or unset), not 'yes'" in build.stderr


# --- the size budget and the stripped core ------------------------------------------------


def test_the_core_is_built_without_debug_information() -> None:
    """-g0 everywhere but the sanitizer build; a stripped symbol table on Linux (-s) and
    macOS (ld64's -S -x): the x86-64 wheel is 0.50 MB instead of about 1.7 MB."""
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert re.search(r'extra_compile_args = \["-O3", "-fno-strict-aliasing", "-g0"\]', setup)
    assert 'extra_link_args = ["-s"]' in setup
    assert 'extra_link_args = ["-Wl,-S", "-Wl,-x"]' in setup


def test_the_wheel_size_budget() -> None:
    """The budget is a byte count, and the wheels workflow checks every wheel against it.
    (Its value is pyproject.toml's alone: the test once repeated it, and failed only when
    the budget was raised.)"""
    budget = _pyproject()["tool"]["sanggong"]["wheel"]["max-bytes"]
    assert type(budget) is int and budget > 0
    workflow = _repo_file(".github/workflows/wheels.yml").read_text(encoding="utf-8")
    assert "tools/check_wheel.sh --size wheelhouse/*.whl" in workflow


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_check_wheel_refuses_a_wheel_over_budget(tmp_path: Path) -> None:
    """tools/check_wheel.sh --size, as the wheels workflow runs it on every wheel."""
    script = _repo_file("tools/check_wheel.sh")
    budget = _pyproject()["tool"]["sanggong"]["wheel"]["max-bytes"]
    small, large = tmp_path / "small.whl", tmp_path / "large.whl"
    small.write_bytes(b"\0" * budget)
    large.write_bytes(b"\0" * (budget + 1))
    ok = subprocess.run(["bash", str(script), "--size", str(small)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert f"small.whl: {budget:,} bytes (budget {budget:,}, 100%)" in ok.stdout
    over = subprocess.run(["bash", str(script), "--size", str(small), str(large)], capture_output=True, text=True)
    assert over.returncode != 0
    assert f"over the size budget of {budget:,} bytes: large.whl" in over.stderr


def test_cibuildwheel_configuration() -> None:
    """CPython 3.11-3.14 and 3.14t; manylinux and musllinux; Windows on Arm; a core that does
    not build fails the wheel. (`cibuildwheel --print-build-identifiers` lists them.)"""
    cibw = _pyproject()["tool"]["cibuildwheel"]
    assert cibw["build"].split() == ["cp311-*", "cp312-*", "cp313-*", "cp314-*", "cp314t-*"]
    assert "musllinux" not in cibw["skip"].replace("*-musllinux_i686", "")
    assert "enable" not in cibw  # 3.14t needs none; cibuildwheel 4 refuses cpython-freethreading
    assert cibw["environment"]["SANGGONG_REQUIRE_CORE"] == "1"
    assert cibw["linux"]["archs"] == ["x86_64", "aarch64"]
    assert cibw["macos"]["archs"] == ["x86_64", "arm64"]
    assert cibw["windows"]["archs"] == ["AMD64", "ARM64"]


# --- workflows ----------------------------------------------------------------------------


def _yaml(relative: str) -> Any:
    yaml = pytest.importorskip("yaml")
    return yaml.safe_load(_repo_file(relative).read_text(encoding="utf-8"))


def _triggers(workflow: dict[Any, Any]) -> Any:
    return workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true


def test_dependabot_updates_the_actions_and_pip_weekly_after_a_cooldown() -> None:
    config = _yaml(".github/dependabot.yml")
    assert config["version"] == 2
    updates = {u["package-ecosystem"]: u for u in config["updates"]}
    assert set(updates) == {"github-actions", "pip"}
    for update in updates.values():
        assert update["schedule"]["interval"] == "weekly"
        assert update["cooldown"]["default-days"] >= 7  # a release is a week old before it is proposed


def _steps(workflow: dict[Any, Any]) -> list[dict[str, Any]]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


@pytest.mark.parametrize("name", ["tests.yml", "wheels.yml"])
def test_every_action_is_pinned_and_no_checkout_keeps_the_token(name: str) -> None:
    workflow = _yaml(f".github/workflows/{name}")
    for step in _steps(workflow):
        uses = step.get("uses")
        if uses is None:
            continue
        action, _, ref = uses.partition("@")
        assert re.fullmatch(r"[0-9a-f]{40}", ref), f"{uses}: pin to a full commit hash"
        if action == "actions/checkout":
            assert step.get("with", {}).get("persist-credentials") is False, f"{name}: {uses} keeps the token"
    text = _repo_file(f".github/workflows/{name}").read_text(encoding="utf-8")
    assert all("# v" in line or "# release" in line for line in text.splitlines() if "uses:" in line and "@" in line)


def test_the_tests_workflow() -> None:
    workflow = _yaml(".github/workflows/tests.yml")
    assert {"push", "pull_request"} <= set(_triggers(workflow))
    job = workflow["jobs"]["tests"]
    assert job["strategy"]["matrix"]["os"] == ["ubuntu-latest", "macos-latest", "windows-latest"]
    assert job["strategy"]["matrix"]["python"] == ["3.11", "3.12", "3.13", "3.14", "3.14t"]
    runs = " ".join(step.get("run", "") for step in job["steps"])
    for command in ("pytest", "mypy", "tools/build_docs.sh"):
        assert command in runs, command
    sanitizers = " ".join(step.get("run", "") for step in workflow["jobs"]["sanitizers"]["steps"])
    assert "tools/sanitize.sh" in sanitizers  # on every pull request, not only in .ci/run
    assert "ruff check" in " ".join(step.get("run", "") for step in workflow["jobs"]["lint"]["steps"])


def test_the_wheels_workflow() -> None:
    workflow = _yaml(".github/workflows/wheels.yml")
    triggers = _triggers(workflow)
    assert "v*" in triggers["push"]["tags"] and "pull_request" in triggers and triggers["schedule"]
    jobs = workflow["jobs"]
    plan = jobs["plan"]["steps"][0]["run"]
    full, subset = (json.loads(m) for m in re.findall(r"echo 'matrix=(\{.*\})'", plan))
    archs = {(entry["os"], entry["archs"]) for entry in full["include"]}
    assert ("windows-11-arm", "ARM64") in archs  # tags and the weekly run: every platform
    assert {a for _, a in archs} == {"x86_64", "aarch64", "arm64", "AMD64", "ARM64"}
    assert len(subset["include"]) < len(full["include"])  # pull requests: a small subset
    assert 'refs/tags/v*' in plan and '"schedule"' in plan
    assert jobs["wheels"]["strategy"]["matrix"] == "${{ fromJSON(needs.plan.outputs.matrix) }}"
    runs = [step.get("run", "") for step in jobs["wheels"]["steps"]]
    assert any("tools/check_wheel.sh --size wheelhouse/*.whl" in run for run in runs)
    assert jobs["sdist"]["steps"][0]["with"]["fetch-depth"] == 0  # the tags, for the version
    publish = [step.get("name", "") for step in jobs["publish"]["steps"]]
    assert publish.index("Refuse a tag that is not the built version") < len(publish) - 1


def _fake_dist(directory: Path, version: str, wheel_version: str | None = None) -> Path:
    directory.mkdir()
    metadata = "Metadata-Version: 2.4\nName: sanggong\nVersion: {}\n\n"
    sdist = directory / f"sanggong-{version}.tar.gz"
    pkg_info = directory / "PKG-INFO"
    pkg_info.write_text(metadata.format(version))
    with tarfile.open(sdist, "w:gz") as t:
        t.add(pkg_info, arcname=f"sanggong-{version}/PKG-INFO")
    pkg_info.unlink()
    wheel_version = wheel_version or version
    with zipfile.ZipFile(directory / f"sanggong-{wheel_version}-cp311-cp311-any.whl", "w") as z:
        z.writestr(f"sanggong-{wheel_version}.dist-info/METADATA", metadata.format(wheel_version))
    return directory


def test_the_publish_job_refuses_a_tag_that_is_not_the_version(tmp_path: Path) -> None:
    """The check of the publish job, run here on made-up dists."""
    text = _repo_file(".github/workflows/wheels.yml").read_text(encoding="utf-8")
    match = re.search(r"python - dist <<'PY'\n(.*?)\n *PY\n", text, re.S)
    assert match, "the publish job's check is not where this test looks"
    script = textwrap.dedent(match[1])

    def check(tag: str, dist: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", script, str(dist)], env={**os.environ, "TAG": tag},
                              capture_output=True, text=True)

    good = _fake_dist(tmp_path / "good", "1.2.0")
    assert check("v1.2.0", good).returncode == 0
    refused = check("v1.2.1", good)
    assert refused.returncode != 0
    assert refused.stderr.startswith("tag v1.2.1 asks for version 1.2.1, but ")
    assert "sanggong-1.2.0.tar.gz is version 1.2.0" in refused.stderr
    assert check("v1.2", good).returncode != 0  # not the version's own spelling
    mixed = _fake_dist(tmp_path / "mixed", "1.2.0", wheel_version="1.2.1.dev3+g1234567")
    assert "is version 1.2.1.dev3+g1234567" in check("v1.2.0", mixed).stderr


def test_ci_runs_check_wheel() -> None:
    """.ci/run runs the README's tests (on every core), the checks, tools/check_wheel.sh after
    the docs build, and last the sanitizer run over the whole compiled-core half, alone on
    every core (its failure fails the run: set -e)."""
    run = _repo_file(".ci/run").read_text(encoding="utf-8")
    tests = run.index('eval "$TESTS"')
    docs, wheel, sanitize = (run.index(f"bash tools/{name}") for name in ("build_docs.sh", "check_wheel.sh", "sanitize.sh"))
    assert tests < docs < wheel < sanitize
    assert 'bash tools/sanitize.sh -q -m "not slow and not fuzz"' in run  # the whole half, not the kernels-marked tests
    assert run.startswith("#!/usr/bin/env bash") and "set -euo pipefail" in run
