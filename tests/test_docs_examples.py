"""Every example of the documentation runs and prints what it shows (README.md and docs/**/*.md).

The rules for ``pycon``, ``console`` and ``python`` blocks are in ``tests/docs_examples.py`` and
``docs/development.md``; each test is named by the file and line of its block. The blocks of one
page share a namespace (pycon) and a working folder (all kinds), so a test first runs the page's
earlier blocks when they have not run yet (e.g. under ``-k``). A block that reads ``../shared`` is
skipped on a checkout without it, and fails under CI (``tests/conftest.py`` stops the run at once).
Every other block is marked ``<!-- not run: REASON -->`` and listed in ``NOT_RUN`` below.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from .docs_examples import (
    REPO,
    SHARED,
    Block,
    documentation_files,
    mirror_repository,
    needs_shared,
    not_run_blocks,
    output_blocks,
    run_console,
    run_pycon,
    run_python,
    runnable_blocks,
    unmarked_blocks,
)

PAGES = documentation_files()
BLOCKS = runnable_blocks(PAGES)
OUTPUTS = output_blocks(PAGES)


class _Pages:
    """Per page: the pycon namespace, the console folder and which blocks have run."""

    def __init__(self, factory: pytest.TempPathFactory) -> None:
        self.factory = factory
        self.namespaces: dict[Path, dict] = {}
        self.folders: dict[Path, Path] = {}
        self.done: set[Block] = set()

    def folder(self, page: Path) -> Path:
        if page not in self.folders:
            folder = self.factory.mktemp(page.stem) / "mtscore"  # ../shared beside it
            folder.mkdir()
            mirror_repository(folder)
            self.folders[page] = folder
        return self.folders[page]

    def run(self, block: Block) -> str:
        self.done.add(block)
        if block.lang == "pycon":
            namespace = self.namespaces.setdefault(block.path, {"__name__": "__docs__"})
            with pytest.MonkeyPatch.context() as mp:
                mp.chdir(self.folder(block.path))
                return run_pycon(block, namespace)
        if block.lang == "python":
            run_python(block, self.folder(block.path), OUTPUTS.get(block))
        else:
            run_console(block, self.folder(block.path))
        return ""

    def run_earlier(self, block: Block) -> None:
        for earlier in BLOCKS:
            if earlier.path == block.path and earlier.line < block.line and earlier not in self.done:
                with contextlib.suppress(AssertionError):  # reported by its own test
                    self.run(earlier)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> _Pages:
    return _Pages(tmp_path_factory)


@pytest.mark.parametrize("block", [pytest.param(b, marks=[pytest.mark.slow] if b.slow else [])
                                   for b in BLOCKS], ids=[b.test_id for b in BLOCKS])
def test_example(block: Block, pages: _Pages) -> None:
    if needs_shared(block) and not SHARED.is_dir() and not os.environ.get("CI"):
        pytest.skip(f"{SHARED} not present (under CI this fails)")
    pages.run_earlier(block)
    failures = pages.run(block)
    assert not failures, failures


WHAT_IT_IS = "BLEU, chrF/chrF++, TER, NIST, METEOR, ROUGE and captioning metrics"


def _one_line(text: str) -> str:
    return " ".join(text.split())


def test_readme_is_a_landing_page_with_the_ci_commands_first() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8").split("\n")
    assert len(readme) <= 200
    first_screen = "\n".join(readme[:25])
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    test_command = next(line.strip() for line in ci.split("\n") if line.startswith("python -m pytest"))
    assert f"&& {test_command}" in first_screen
    assert "&& mtscore demo" in first_screen


def test_the_same_words_say_what_mtscore_is() -> None:
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    description = next(line for line in pyproject.split("\n") if line.startswith("description = "))
    from mtscore.cli import build_parser

    places = {"pyproject.toml": description, "mtscore --help": build_parser().format_help(),
              "docs/index.md": (REPO / "docs" / "index.md").read_text(encoding="utf-8"),
              "README.md": (REPO / "README.md").read_text(encoding="utf-8")}
    for place, text in places.items():
        assert WHAT_IT_IS in _one_line(text.replace("**", "")), place


# The blocks shown but not run, each marked on its page with the reason: (page, the start of its
# first line). Keep this short: a new example should run.
NOT_RUN = {
    ("README.md", "pip install '.[report]' && mtscore demo "),
    ("README.md", '@software{mtscore,'),
    ("docs/benchmarks.md", 'python benchmarks/bleu.py             # '),
    ("docs/contributing.md", '@dataclass(frozen=True)'),
    ("docs/data-formats.md", 'system\tseg_id\tmetric\tscore\tsignature'),
    ("docs/data-formats.md", '# COMET scored elsewhere, one row per se'),
    ("docs/development.md", "pip install -e '.[test,report,ja]'   # t"),
    ("docs/getting-started.md", "pip install '.[report]'            # mts"),
    ("docs/getting-started.md", '# install mtscore, study the embedded WM'),
    ("docs/index.md", '# install mtscore, study the embedded WM'),
    ("docs/significance.md", "$ W=../shared/data/wmt22"),
    ("docs/meta-evaluation.md", 'mtscore meta-eval wmt22/cs-en wmt22/de-e'),
    ("docs/metrics/captioning.md", 'mtscore caption --annotations captions_v'),
    ("docs/metrics/meteor-paraphrase.md", 'java -Xmx2G -jar meteor-1.5.jar HYP REF '),
    ("docs/metrics/meteor-paraphrase.md", '$ mtscore score -m meteor --meteor-task '),
    ("docs/scale.md", 'mtscore score -r ref.txt -i sys.txt --sc'),
    ("docs/scale.md", 'import csv'),
}


def test_every_block_runs_or_says_why_not() -> None:
    unmarked = [f"{b.test_id} ({b.lang or 'no language'})" for b in unmarked_blocks(PAGES)]
    assert not unmarked, "blocks neither run nor marked '<!-- not run: REASON -->': " + ", ".join(unmarked)
    marked = {(b.path.relative_to(REPO).as_posix(), b.text.split("\n")[0][:40])
              for b in not_run_blocks(PAGES)}
    assert marked == NOT_RUN
