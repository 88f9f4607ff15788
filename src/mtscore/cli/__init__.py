"""The ``mtscore`` command. Thin: it parses arguments and calls the API.

Each subcommand is a module in this package with ``register(subparsers)``; the parser it adds has
``func`` set to a function ``run(args) -> int``. Only the module of the subcommand being run is
imported (the others are listed by name and one-line help), so start-up stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import NoReturn

from ..errors import MtscoreError
from ..version import __version__

#: subcommand modules and their one-line help, in the order ``mtscore --help`` lists them
COMMANDS = {
    "score": "score systems against references",
    "demo": "study the embedded WMT22 de-en sample and write its HTML report",
    "correlate": "correlation of metric scores with human scores (TSV files)",
    "compare": "significance of differences between systems",
    "study": "the BLEU and METEOR papers' analyses on a data set",
    "report": "the study of a data set as one HTML file with the papers' figures",
    "explain": "show how METEOR scored one segment",
}


def build_parser(only: str | None = None,
                 parser_class: type[argparse.ArgumentParser] = argparse.ArgumentParser
                 ) -> argparse.ArgumentParser:
    """The full parser, or (``only``) one with just that subcommand's module imported."""
    parser = parser_class(
        prog="mtscore",
        description="Reference-based MT evaluation: BLEU and METEOR exact to the papers and their "
                    "reference tools, with the statistics that say whether a score can be trusted.")
    parser.add_argument("--version", action="version", version=f"mtscore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, summary in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(f"{__name__}.{name}").register(sub)
        else:
            sub.add_parser(name, help=summary)
    return parser


class _NotSure(Exception):
    """The fast parse cannot vouch for its result: the full parser decides (and reports errors)."""


class _StrictParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _NotSure(message)


def _parse_score_fast(argv: list[str]) -> argparse.Namespace | None:
    """``score`` parsed with the options of the metrics named on the command line only, so that the
    other metrics' modules are not imported. The result is what the full parser gives (less the other
    metrics' options, which these metrics do not read: ``registry.SELF_CONTAINED``) when every option is
    one of this parser's, written in full, and the metrics asked for are among those included;
    otherwise None, and the full parser parses."""
    from ..metrics import registry

    if argv[0] != "score" or "--" in argv or "-h" in argv or "--help" in argv:
        return None
    metrics = [a for a in argv if a in registry.names()]
    if not metrics or not set(metrics) <= registry.SELF_CONTAINED:
        return None
    if "numpy" not in sys.modules:
        # these metrics do no linear algebra: no BLAS thread pool to start when numpy loads (a third
        # of numpy's import time on a small machine); a user's own setting is kept
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    with registry.options_of(metrics):
        parser = build_parser(only="score", parser_class=_StrictParser)
    score = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["score"]
    for arg in argv[1:]:
        if arg.startswith("-") and arg != "-" and \
                (arg.split("=", 1)[0] if arg.startswith("--") else arg) not in score._option_string_actions:
            return None  # an abbreviation, a negative number, another metric's option ...
    try:
        args = parser.parse_args(argv)
    except _NotSure:
        return None
    return args if set(args.metrics) <= set(metrics) else None


def main(argv: list[str] | None = None) -> int:
    as_program = argv is None  # run as the ``mtscore`` command, not called from Python
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    args = _parse_score_fast(argv) if command == "score" else None
    fast = args is not None
    if args is None:
        parser = build_parser(only=command if command in COMMANDS else "")
        args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    from .. import progress

    progress.set_quiet(getattr(args, "quiet", False))
    if as_program and fast:
        # a one-shot scoring process that ends in _leave: the cycle collector would only walk the
        # word tables again and again (tens of collections, ~20 ms for a METEOR corpus), and the
        # few cycles made are freed with the process
        import gc

        gc.disable()
    try:
        code = int(args.func(args) or 0)
    except MtscoreError as err:
        print(f"mtscore {args.command}: error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. piped into head
        return 0
    except KeyboardInterrupt:
        return 130
    if as_program and fast:
        _leave(code)
    return code


def _leave(code: int) -> None:
    """End the process now that the scores are written: flush the output and exit without tearing
    down the interpreter's heap (tens of milliseconds for a scored corpus; ``score`` -m meteor has no
    exit handlers or files to close)."""
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:  # e.g. piped into head
        code = 0
    os._exit(code)
