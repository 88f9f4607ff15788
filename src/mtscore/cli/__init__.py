"""The ``mtscore`` command. Thin: it parses arguments and calls the API.

Each subcommand is a module in this package with ``register(subparsers)``; the parser it adds has
``func`` set to a function ``run(args) -> int``.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from ..errors import MtscoreError
from ..version import __version__

#: subcommand modules, in the order ``mtscore --help`` lists them
COMMANDS = ["score", "demo", "correlate", "compare", "study", "report", "explain"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mtscore",
        description="Reference-based MT evaluation: BLEU and METEOR exact to the papers and their "
                    "reference tools, with the statistics that say whether a score can be trusted.")
    parser.add_argument("--version", action="version", version=f"mtscore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    from .. import progress

    progress.set_quiet(getattr(args, "quiet", False))
    try:
        return int(args.func(args) or 0)
    except MtscoreError as err:
        print(f"mtscore {args.command}: error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. piped into head
        return 0
    except KeyboardInterrupt:
        return 130
