"""The ``mtscore`` command. Thin: it parses arguments and calls the API.

Each subcommand is a module in this package with ``register(subparsers)``; the parser it adds has
``func`` set to a function ``run(args) -> int``. Only the module of the subcommand being run is
imported (the others are listed by name and one-line help), so start-up stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys
import typing

from ..errors import InputError, MtscoreError
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
    "mbr": "minimum-Bayes-risk selection: the candidate of highest expected utility per source",
    "caption": "coco-caption's caption evaluation (BLEU-1..4, METEOR, ROUGE-L, CIDEr-D)",
    "meta-eval": "the WMT23/24/25 metrics task sets (SPA, acc23, rank clusters) on data sets",
}


#: argparse's message for a mistyped choice (compiled when a usage error needs it, not at start-up)
_INVALID_CHOICE = r"invalid choice: '?(?P<given>[^']*?)'? \(choose from (?P<choices>.*)\)$"


def with_suggestion(message: str) -> str:
    """argparse's message for a mistyped choice, with the closest choice named first ("did you
    mean"); any other message unchanged."""
    import difflib

    found = re.search(_INVALID_CHOICE, message)
    if not found:
        return message
    choices = [c.strip().strip("'") for c in found["choices"].split(",")]
    close = difflib.get_close_matches(found["given"], choices, n=1, cutoff=0.5) or \
        [c for c in choices if c.lower() == found["given"].lower()]
    if not close:
        return message
    return f"{message[:found.start()]}invalid choice: '{found['given']}' (did you mean '{close[0]}'? " \
           f"choose from {', '.join(choices)})"


class Parser(argparse.ArgumentParser):
    """argparse's parser with one-line usage errors: ``mtscore score: error: …`` and no usage block
    (``--help`` shows it); a mistyped choice names the closest one."""

    def error(self, message: str) -> typing.NoReturn:
        self.exit(2, f"{self.prog}: error: {with_suggestion(message)} (see '{self.prog} --help')\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full parser, or (``only``) one with just that subcommand's module imported: a known
    subcommand's parser alone (the others, which argparse would build a parser each for, cannot be
    chosen then), or, for ``""``, every subcommand's name and one-line help."""
    parser = Parser(
        prog="mtscore",
        description="Reference-based evaluation of MT and generated text: BLEU, chrF/chrF++, TER, NIST, "
                    "METEOR, ROUGE and captioning metrics, faithful to the papers and exact against their "
                    "reference tools, with the statistics that say whether a score can be trusted.")
    parser.add_argument("--version", action="version", version=f"mtscore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, summary in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(f"{__name__}.{name.replace('-', '_')}").register(sub)
        elif not only:
            sub.add_parser(name, help=summary)
    return parser


def _one_blas_thread(command: str | None) -> None:
    """``score`` does no large matrix products: numpy need not start a BLAS thread pool when it loads
    (a third of its import time on a small, busy machine). The statistics commands, which multiply
    resample matrices, keep the pool. A user's own setting is kept."""
    if command == "score" and "numpy" not in sys.modules:
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def _stdout_to_devnull() -> None:
    """After a broken pipe or a failed write: point standard output at ``os.devnull`` so that the
    interpreter's last flush finds nothing to fail on (the Python documentation's recipe for
    SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real file descriptor (e.g. captured output)
        pass


def os_error_message(err: OSError) -> str:
    """One line for an error of the operating system: the path (if any) and what went wrong."""
    what = err.strerror or str(err) or err.__class__.__name__
    if err.filename is not None:
        where = os.fsdecode(err.filename) if isinstance(err.filename, bytes) else str(err.filename)
        return str(InputError(what, source=where))
    return str(InputError(what, source="writing the output"))


def main(argv: list[str] | None = None) -> int:
    """Run the ``mtscore`` command line; the exit code: 0, 1 (an error, one line on standard error),
    2 (a usage error), 130 (interrupted)."""
    as_program = argv is None  # run as the ``mtscore`` command, not called from Python
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    prefix = f"mtscore {command}" if command in COMMANDS else "mtscore"
    try:
        _one_blas_thread(command)
        parser = build_parser(only=command if command in COMMANDS else "")
        args, unknown = parser.parse_known_args(argv)
        if unknown:  # named by the subcommand that was given them
            parser.exit(2, f"{prefix}: error: unrecognized arguments: {' '.join(unknown)} "
                           f"(see '{prefix} --help')\n")
        if not getattr(args, "func", None):
            parser.print_help(sys.stderr)
            return 2
        from .. import progress
        from ..report.formats import check_decimals

        progress.set_quiet(getattr(args, "quiet", False))
        if getattr(args, "width", None) is not None:  # every command's --width: one rule
            check_decimals(args.width, "--width")
        code = int(args.func(args) or 0)
        sys.stdout.flush()  # a failed write (a full disk) is reported here, not at exit
        return code
    except MtscoreError as err:
        print(f"{prefix}: error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # e.g. piped into head: quiet, as other command-line tools
        if as_program:
            _stdout_to_devnull()
        return 0
    except OSError as err:
        if as_program:
            _stdout_to_devnull()
        print(f"{prefix}: error: {os_error_message(err)}", file=sys.stderr)
        return 1
    except UnicodeEncodeError as err:
        print(f"{prefix}: error: cannot write {err.object[err.start:err.end]!a} in the output's "
              f"encoding {err.encoding} (set PYTHONIOENCODING=utf-8:surrogateescape)", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("mtscore: interrupted", file=sys.stderr)
        return 130
