"""Run the examples of the documentation: every ``pycon`` and ``console`` fenced block of
``README.md`` and ``docs/**/*.md``.

The convention (also in ``docs/contributing.md``'s neighbour, ``docs/development.md``):

* A ````` ```pycon ````` block is a doctest: ``>>> `` and ``... `` prompts, then the printed output,
  compared with ``ELLIPSIS`` and ``NORMALIZE_WHITESPACE``. The blocks of one page share one namespace,
  in page order, as a reader who types them one after the other would, in the page's folder (below).
* A ````` ```console ````` block holds commands, each on a line starting with ``$ `` (a line ending
  in ``\\`` continues on the next), followed by the lines the command prints. Only ``mtscore ...``
  commands are allowed; each runs as ``python -m mtscore ...`` (arguments split as a POSIX shell
  does, ``#`` starts a comment, ``*``/``?`` patterns expanded, a final ``> FILE`` writes standard
  output to FILE). All blocks of a page run, in page order, in one fresh temporary folder that
  mirrors the repository root (each top-level entry is a symbolic link), so paths such as
  ``src/mtscore/data/sample/wmt22-de-en/references/A.txt`` read as from the root, and files written by
  one command (``> s.tsv``, ``-o report.html``) are there for the next ones.
* Expected output: every line of standard output, trailing white space ignored. A line ``...``
  matches any number of lines (none included); ``...`` inside a line matches any text. A command with
  no lines after it must print nothing. A command must exit with status 0, unless its expected
  output shows an error (a line containing ``error:``): then it must fail, and its standard output
  and standard error together are compared.
* Other fences (``python``, ``bash``, ``text``, …) are not run.
"""

from __future__ import annotations

import doctest
import glob
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUN_LANGUAGES = ("pycon", "console")
_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+.-]*)[^`]*$")
COMMAND_TIMEOUT = 600


@dataclass(frozen=True)
class Block:
    """One fenced block of a Markdown file: its language and text; ``line`` is the fence's line."""

    path: Path
    line: int
    lang: str
    text: str

    @property
    def test_id(self) -> str:
        try:
            name = self.path.relative_to(REPO).as_posix()
        except ValueError:
            name = self.path.name
        return f"{name}:{self.line}"


@dataclass(frozen=True)
class Command:
    """One ``$ `` command of a console block: its text, line, and the output shown after it."""

    line: int
    text: str
    expected: tuple[str, ...]


def fenced_blocks(path: Path) -> list[Block]:
    """Every fenced block of a Markdown file (indented fences too, their indentation removed)."""
    blocks: list[Block] = []
    lines = path.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        opening = _FENCE.match(lines[i])
        if not opening:
            i += 1
            continue
        indent, fence = opening["indent"], opening["fence"]
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not closing.match(lines[j]):
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j].lstrip())
            j += 1
        if j == len(lines):
            raise ValueError(f"{path}:{i + 1}: fenced block never closed")
        blocks.append(Block(path, i + 1, opening["lang"].lower(), "\n".join(body) + "\n"))
        i = j + 1
    return blocks


def documentation_files(root: Path = REPO) -> list[Path]:
    """README.md and every Markdown page under docs/, in a stable order."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def runnable_blocks(paths: list[Path]) -> list[Block]:
    return [b for p in paths for b in fenced_blocks(p) if b.lang in RUN_LANGUAGES]


# --- pycon -------------------------------------------------------------------------------------------

def run_pycon(block: Block, namespace: dict) -> str:
    """Run a pycon block as a doctest in ``namespace``; return the failure report ('' when it passed)."""
    parser = doctest.DocTestParser()
    test = parser.get_doctest(block.text, namespace, block.test_id, str(block.path), block.line)
    if not test.examples:
        return f"{block.test_id}: a pycon block without a '>>> ' example"
    report: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, out=report.append, clear_globs=False)
    namespace.update(test.globs)  # DocTest works on a copy: the page's next block sees these names
    return "".join(report)


# --- console -----------------------------------------------------------------------------------------

def console_commands(block: Block) -> list[Command]:
    """The commands of a console block and the output shown after each."""
    commands: list[Command] = []
    lines = block.text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            if lines[i].strip():
                raise ValueError(f"{block.test_id}: output line before any '$ ' command: {lines[i]!r}")
            i += 1
            continue
        start = block.line + 1 + i
        text = lines[i][2:]
        while text.endswith("\\") and i + 1 < len(lines):
            i += 1
            text = text[:-1] + " " + lines[i].strip()
        i += 1
        expected: list[str] = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i].rstrip())
            i += 1
        while expected and not expected[-1]:
            expected.pop()
        commands.append(Command(start, text, tuple(expected)))
    return commands


def output_matches(expected: tuple[str, ...], actual: str) -> bool:
    """True when ``actual`` (trailing white space of each line ignored) fits ``expected``."""
    got = [line.rstrip() for line in actual.split("\n")]
    while got and not got[-1]:
        got.pop()
    pattern = ""
    for line in expected:
        if line.strip() == "...":
            pattern += r"(?:[^\n]*\n)*?"
        else:
            pattern += ".*?".join(re.escape(part) for part in line.split("...")) + r"\n"
    return re.fullmatch(pattern, "".join(g + "\n" for g in got), flags=re.DOTALL) is not None


def mirror_repository(workdir: Path, root: Path = REPO) -> None:
    """Make ``workdir`` read like the repository root: a symbolic link per top-level entry."""
    for entry in root.iterdir():
        if entry.name != ".git" and not (workdir / entry.name).exists():
            (workdir / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())


def _arguments(command: Command, workdir: Path, where: str) -> tuple[list[str], Path | None]:
    words = shlex.split(command.text, comments=True)
    if not words or words[0] != "mtscore":
        raise AssertionError(f"{where}: only 'mtscore ...' commands can be run, not {command.text!r}")
    target = None
    if len(words) >= 3 and words[-2] == ">":
        target, words = workdir / words[-1], words[:-2]
    if ">" in words or "|" in words or "<" in words:
        raise AssertionError(f"{where}: only a final '> FILE' redirection is supported: {command.text!r}")
    arguments: list[str] = []
    for word in words[1:]:
        matches = sorted(glob.glob(word, root_dir=workdir)) if any(c in word for c in "*?[") else []
        arguments.extend(matches or [word])
    return arguments, target


def run_command(command: Command, workdir: Path, where: str) -> None:
    """Run one console command in ``workdir``; raise AssertionError saying what differs."""
    arguments, target = _arguments(command, workdir, where)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]), COLUMNS="100")
    proc = subprocess.run([sys.executable, "-m", "mtscore", *arguments], cwd=workdir, env=env,
                          capture_output=True, text=True, timeout=COMMAND_TIMEOUT, check=False)
    wants_error = any("error:" in line for line in command.expected)
    if wants_error != (proc.returncode != 0):
        raise AssertionError(
            f"{where}: $ {command.text}\nexit status {proc.returncode}, "
            f"{'a failure' if wants_error else 'success'} expected\nstderr:\n{proc.stderr[-3000:]}")
    shown = proc.stdout + proc.stderr if wants_error else proc.stdout
    if target is not None:
        target.write_text(proc.stdout, encoding="utf-8")
        shown = proc.stderr if wants_error else ""
    if not output_matches(command.expected, shown):
        raise AssertionError(
            f"{where}: $ {command.text}\n--- expected\n" + "\n".join(command.expected)
            + f"\n--- got\n{shown}")


def run_console(block: Block, workdir: Path) -> None:
    """Run every command of a console block in ``workdir``, in order."""
    for command in console_commands(block):
        run_command(command, workdir, f"{block.path.name}:{command.line}")
