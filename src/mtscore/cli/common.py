"""Helpers shared by subcommands: reading systems and references, output options."""

from __future__ import annotations

import argparse
import os
import sys

from ..errors import InputError
from ..io.text import read_lines, read_stream
from ..report.tables import FORMATS, Table, render


def add_output_options(parser: argparse.ArgumentParser, default_width: int = 2) -> None:
    group = parser.add_argument_group("output")
    group.add_argument("--format", "-f", default="text", choices=FORMATS,
                       help="output format (default text; json keeps full precision)")
    group.add_argument("--width", "-w", type=int, default=default_width,
                       help=f"decimals shown (default {default_width}; not applied to json)")
    group.add_argument("--quiet", "-q", action="store_true", help="no progress bar")


def emit(tables: Table | list[Table], args: argparse.Namespace) -> None:
    sys.stdout.write(render(tables, args.format, args.width) + "\n")


def system_name(path: str) -> str:
    if path == "-":
        return "stdin"
    base = os.path.basename(path)
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
