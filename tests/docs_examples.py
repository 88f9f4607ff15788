"""Run the examples of the documentation: every fenced block of ``README.md`` and ``docs/**/*.md``.

The convention (also in ``docs/development.md``, "Every example runs"):

* A ````` ```pycon ````` block is a doctest: ``>>> `` and ``... `` prompts, then the printed output,
  compared with ``ELLIPSIS`` and ``NORMALIZE_WHITESPACE``. The blocks of one page share one namespace,
  in page order, as a reader who types them one after the other would, in the page's folder (below).
* A ````` ```console ````` block holds commands, each on a line starting with ``$ `` (a line ending
  in ``\\`` continues on the next), followed by the lines the command prints. A command runs in
  ``bash`` (pipes, ``> FILE``, ``< FILE``, ``*`` patterns, ``#`` comments, ``VAR=value`` lines kept
  for the block's later commands), but only the programs of ``PROGRAMS`` may be called: ``mtscore``
  runs as ``python -m mtscore`` and ``python`` is the interpreter running the tests. All blocks of a
  page run, in page order, in one fresh temporary folder that mirrors the repository root (each
  top-level entry is a symbolic link) beside a link ``../shared`` to the shared data, so paths such as
  ``src/mtscore/data/sample/wmt22-de-en/references/A.txt`` read as from the root, and files written by
  one command (``> s.tsv``, ``-o report.html``) are there for the next ones.
* Expected output: every line of standard output, trailing white space ignored. A line ``...``
  matches any number of lines (none included); ``...`` inside a line matches any text. A command with
  no lines after it must print nothing. A command must exit with status 0, unless its expected
  output shows an error (a line containing ``error:``): then it must fail, and its standard output
  and standard error together are compared.
* A ````` ```python ````` block runs as a script (``python -``) in the page's folder. It must print
  nothing, unless the next block is its output: a ````` ```text title="Output" ````` fence right
  after it, compared as a console command's output is.
* A block that takes more than about 20 s has ``<!-- slow: REASON -->`` on the line before its
  fence: it still runs (CI runs every test), but under ``pytest.mark.slow``, out of the fast tier.
* Any other block must say why it is not run: an HTML comment ``<!-- not run: REASON -->`` on the
  line before its fence (e.g. ``pip install`` from the network, a Dask cluster's address, a citation).
  ``tests/test_docs_examples.py`` lists those blocks, so a new unmarked block fails the suite.
"""

from __future__ import annotations

import doctest
import itertools
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
RUN_LANGUAGES = ("pycon", "console", "python")
PROGRAMS = frozenset({"mtscore", "python", "head", "tail", "cat", "cut", "sort", "uniq", "wc", "grep",
                      "gzip", "zcat", "paste", "diff", "ls", "echo", "printf", "mkdir"})
_FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<lang>[\w+.-]*)(?P<info>[^`]*)$")
_NOT_RUN = re.compile(r"^\s*<!--\s*not run:\s*(?P<reason>.*?)\s*-->\s*$")
_SLOW = re.compile(r"^\s*<!--\s*slow:\s*(?P<reason>.*?)\s*-->\s*$")
_OUTPUT_INFO = re.compile(r"""title=["']Output["']""")
_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*=")
COMMAND_TIMEOUT = 600


@dataclass(frozen=True)
class Block:
    """One fenced block of a Markdown file: its language and text; ``line`` is the fence's line."""

    path: Path
    line: int
    lang: str
    text: str
    info: str = ""
    not_run: str | None = None  # the reason given by a ``<!-- not run: ... -->`` line before the fence
    slow: str | None = None  # ``<!-- slow: ... -->`` before the fence: run, marked ``slow`` (> ~20 s)

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
        before = next((line for line in reversed(lines[:i]) if line.strip()), "")
        marker, slow = _NOT_RUN.match(before), _SLOW.match(before)
        blocks.append(Block(path, i + 1, opening["lang"].lower(), "\n".join(body) + "\n",
                            opening["info"].strip(), marker["reason"] if marker else None,
                            slow["reason"] if slow else None))
        i = j + 1
    return blocks


def documentation_files(root: Path = REPO) -> list[Path]:
    """README.md and every Markdown page under docs/, in a stable order."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def is_output(block: Block, previous: Block | None) -> bool:
    """True for a ``text title="Output"`` block right after a python block: that block's output."""
    return (block.lang == "text" and bool(_OUTPUT_INFO.search(block.info)) and previous is not None
            and previous.lang == "python" and block.not_run is None)


def runnable_blocks(paths: list[Path]) -> list[Block]:
    return [b for p in paths for b in fenced_blocks(p) if b.lang in RUN_LANGUAGES and b.not_run is None]


def output_blocks(paths: list[Path]) -> dict[Block, Block]:
    """Each python block followed by its ``Output`` block -> that output block."""
    outputs: dict[Block, Block] = {}
    for path in paths:
        blocks = fenced_blocks(path)
        for previous, block in itertools.pairwise(blocks):
            if is_output(block, previous) and _only_blank_between(path, previous, block):
                outputs[previous] = block
    return outputs


def _only_blank_between(path: Path, first: Block, second: Block) -> bool:
    lines = path.read_text(encoding="utf-8").split("\n")
    end = first.line + first.text.count("\n")  # the closing fence's index (0-based)
    return all(not line.strip() for line in lines[end + 1:second.line - 1])


def unmarked_blocks(paths: list[Path]) -> list[Block]:
    """Blocks that are neither run, nor a python block's output, nor marked ``not run`` with a reason."""
    outputs = set(output_blocks(paths).values())
    return [b for p in paths for b in fenced_blocks(p)
            if b.lang not in RUN_LANGUAGES and b not in outputs and not (b.not_run or "").strip()]


def not_run_blocks(paths: list[Path]) -> list[Block]:
    return [b for p in paths for b in fenced_blocks(p) if (b.not_run or "").strip()]


def needs_shared(block: Block) -> bool:
    """The block reads the shared data (``../shared``), which a developer's checkout may lack."""
    return "../shared" in block.text


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


def mirror_repository(workdir: Path, root: Path = REPO, shared: Path = SHARED) -> None:
    """Make ``workdir`` read like the repository root: a symbolic link per top-level entry, and
    ``../shared`` (a link beside ``workdir``) the shared data when it exists."""
    for entry in root.iterdir():
        if entry.name != ".git" and not (workdir / entry.name).exists():
            (workdir / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    beside = workdir.parent / "shared"
    if shared.is_dir() and not beside.exists():
        beside.symlink_to(shared, target_is_directory=True)


def _environment() -> dict[str, str]:
    path = os.pathsep.join([str(REPO / "src"), *filter(None, [os.environ.get("PYTHONPATH")])])
    return dict(os.environ, PYTHONPATH=path, COLUMNS="100", DOCS_PYTHON=sys.executable)


_PRELUDE = ('set -o pipefail\n'
            'mtscore() { "$DOCS_PYTHON" -m mtscore "$@"; }\n'
            'python() { "$DOCS_PYTHON" "$@"; }\n')


def check_programs(text: str, where: str) -> None:
    """Raise AssertionError unless every program ``text`` calls is one of ``PROGRAMS``."""
    if "$(" in text or "`" in text:
        raise AssertionError(f"{where}: no command substitution in examples: {text!r}")
    lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    starts_command = True
    for word in lexer:
        if word in ("|", "||", "&&", ";", "&", "(", ")", "|&"):
            starts_command = True
        elif starts_command and not _ASSIGNMENT.match(word):
            if word not in PROGRAMS:
                raise AssertionError(f"{where}: only {', '.join(sorted(PROGRAMS))} can be run in an "
                                     f"example, not {word!r}: {text!r}")
            starts_command = False


def run_command(command: Command, workdir: Path, where: str, assignments: str = "") -> None:
    """Run one console command in bash in ``workdir``; raise AssertionError saying what differs."""
    check_programs(command.text, where)
    proc = subprocess.run(["bash", "-c", _PRELUDE + assignments + command.text], cwd=workdir,
                          env=_environment(), capture_output=True, text=True,
                          timeout=COMMAND_TIMEOUT, check=False)
    wants_error = any("error:" in line for line in command.expected)
    if wants_error != (proc.returncode != 0):
        raise AssertionError(
            f"{where}: $ {command.text}\nexit status {proc.returncode}, "
            f"{'a failure' if wants_error else 'success'} expected\nstderr:\n{proc.stderr[-3000:]}")
    shown = proc.stdout + proc.stderr if wants_error else proc.stdout
    if not output_matches(command.expected, shown):
        raise AssertionError(
            f"{where}: $ {command.text}\n--- expected\n" + "\n".join(command.expected)
            + f"\n--- got\n{shown}")


def run_console(block: Block, workdir: Path) -> None:
    """Run every command of a console block in ``workdir``, in order; a ``VAR=value`` line holds for
    the block's later commands."""
    assignments = ""
    for command in console_commands(block):
        where = f"{block.path.name}:{command.line}"
        words = shlex.split(command.text, comments=True)
        if words and all(_ASSIGNMENT.match(w) for w in words) and not command.expected:
            assignments += command.text + "\n"
            continue
        run_command(command, workdir, where, assignments)


# --- python ------------------------------------------------------------------------------------------

def run_python(block: Block, workdir: Path, output: Block | None = None) -> None:
    """Run a python block as a script in ``workdir``; its standard output must be ``output``'s text
    (nothing without an output block). Raise AssertionError saying what differs."""
    proc = subprocess.run([sys.executable, "-"], input=block.text, cwd=workdir, env=_environment(),
                          capture_output=True, text=True, timeout=COMMAND_TIMEOUT, check=False)
    if proc.returncode != 0:
        raise AssertionError(f"{block.test_id}: the script failed (exit status {proc.returncode}):\n"
                             f"{proc.stderr[-3000:]}")
    expected = tuple(output.text.rstrip("\n").split("\n")) if output is not None else ()
    if not output_matches(tuple(line.rstrip() for line in expected), proc.stdout):
        shown = f"{output.test_id}" if output is not None else "nothing (no Output block)"
        raise AssertionError(f"{block.test_id}: printed\n{proc.stdout}\n--- expected {shown}:\n"
                             + "\n".join(expected))
