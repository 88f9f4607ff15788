"""Helpers shared by subcommands: reading systems and references, output options.

**Precision rule** (every command): numbers in text, Markdown, LaTeX and TSV tables are shown with
:data:`DEFAULT_DECIMALS` (4) decimals unless ``--width`` says otherwise; JSON, JSON Lines, CSV and the
long score format keep full precision; a p-value at the floor of R resamples is shown as
``< 1/(R+1)`` (``< 0.0001`` …), never as ``0.0000``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..errors import InputError
from ..io.text import read_lines, read_stream
from ..report.formats import FORMATS

if TYPE_CHECKING:
    from ..report.tables import Table

#: decimals shown by default (see the module's precision rule)
DEFAULT_DECIMALS = 4

#: formats written by :func:`emit`: the table renderer's, and CSV and JSON Lines of each table's rows
OUTPUT_FORMATS: tuple[str, ...] = (*FORMATS, *(f for f in ("csv", "jsonl") if f not in FORMATS))


def add_output_options(parser: argparse.ArgumentParser, default_width: int = DEFAULT_DECIMALS
                       ) -> None:
    group = parser.add_argument_group("output")
    group.add_argument("--format", "-f", default="text", choices=OUTPUT_FORMATS, metavar="FORMAT",
                       help=f"output format: {', '.join(OUTPUT_FORMATS)} (default text; json, "
                            "jsonl and csv keep full precision)")
    group.add_argument("--width", "-w", type=int, default=default_width,
                       help=f"decimals shown (default {default_width}; not applied to json, jsonl "
                            "and csv)")
    group.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def emit(tables: Table | Sequence[Table], args: argparse.Namespace) -> None:
    """Print tables in ``args.format``; CSV and JSON Lines: each table's rows with full precision
    (tables separated by a blank line)."""
    from ..report.tables import Table, render  # (the renderer: not loaded by a command that has none)

    if args.format in ("csv", "jsonl") and args.format not in FORMATS:
        from ..io.scores import format_table

        parts = [tables] if isinstance(tables, Table) else list(tables)
        sys.stdout.write("\n\n".join(format_table(t.columns, t.rows, args.format) for t in parts)
                         + "\n")
        return
    sys.stdout.write(render(tables, args.format, args.width) + "\n")


def system_name(path: str) -> str:
    if path == "-":
        return "stdin"
    base = os.path.basename(path)
    for ending in (".gz", ".xz", ".bz2"):  # Online-A.txt.gz is Online-A, as Online-A.txt is
        base = base.removesuffix(ending)
    return base.removesuffix(".txt")


def read_systems_and_refs(hyp_paths: list[str] | None, ref_paths: list[str]
                          ) -> tuple[list[tuple[str, list[str]]], list[list[str]]]:
    """Read reference files and system files; every file must have as many lines as the first reference."""
    refs = [read_lines(p) for p in ref_paths]
    n = len(refs[0])
    for path, lines in zip(ref_paths[1:], refs[1:]):
        if len(lines) != n:
            raise InputError(f"has {len(lines)} lines but reference {ref_paths[0]} has {n}",
                             source=path)
    if not hyp_paths:
        if sys.stdin.isatty():
            raise InputError("no hypotheses: give -i FILE or pipe them on standard input")
        systems = [("stdin", read_stream(sys.stdin.buffer, "<stdin>"))]
        hyp_paths = ["<stdin>"]
    else:
        systems = [(system_name(p), read_lines(p)) for p in hyp_paths]
    for path, (_, lines) in zip(hyp_paths, systems):
        if len(lines) != n:
            raise InputError(f"has {len(lines)} lines but reference {ref_paths[0]} has {n}",
                             source=path)
    names = [name for name, _ in systems]
    if len(set(names)) != len(names):
        systems = [(p, lines) for p, (_, lines) in zip(hyp_paths, systems)]
    return systems, refs


def check_distinct_files(paths: Sequence[str], option: str) -> None:
    """Refuse a file given twice (``compare -i A.txt A.txt``): name it. A path no file can have (a NUL
    in it) is refused here, as opening it would."""
    seen: dict[str, str] = {}
    for path in paths:
        try:
            key = os.path.realpath(path) if path != "-" else "-"
        except ValueError as err:  # a NUL in the path
            raise InputError(f"cannot be opened: {err}", source=path) from None
        if key in seen:
            same = "" if seen[key] == path else f" (the same file as {seen[key]})"
            raise InputError(f"given twice in {option}{same}: give each system once "
                             "(to compare a system with a copy of itself, copy the file)",
                             source=path)
        seen[key] = path
