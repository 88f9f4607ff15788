"""Command-line options of ROUGE (``mtscore score -m rouge1 rouge2 rougeL rougeLsum rougeN``).

The names ``rouge1``, ``rouge2``, ``rougeL``, ``rougeLsum`` are rouge-score's types; ``rougeN`` is
ROUGE-N of ``--rouge-n`` (default 3). The printed score is F×100 (``--rouge-measure`` picks P or R);
JSON output carries P, R and F (0–1) too.
"""

from __future__ import annotations

import argparse
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...metrics.rouge import ROUGE

#: literals of ``metrics.rouge.settings`` / ``.tokenize`` (this module does not import the metric)
TOKENIZERS = ("rouge-score", "13a", "intl", "zh", "char", "ja-mecab", "none")
MULTIREF = ("best-f", "average", "best-recall")
AGGREGATIONS = ("mean", "pooled")
MEASURES = ("fmeasure", "precision", "recall")
SPLITTERS = ("newline",)
#: parsers that have the options already (every ROUGE name shares this module; added once)
_GIVEN: weakref.WeakSet[argparse.ArgumentParser] = weakref.WeakSet()


def add_options(parser: argparse.ArgumentParser) -> None:
    """ROUGE's options, once per parser (the five ROUGE names share them)."""
    if parser in _GIVEN:
        return
    _GIVEN.add(parser)
    group = parser.add_argument_group(
        "ROUGE (-m rouge1 rouge2 rougeL rougeLsum rougeN); the score printed is F×100, JSON also "
        "carries P, R and F in [0, 1]")
    group.add_argument("--rouge-n", type=int, default=3, metavar="N",
                       help="N of -m rougeN (default 3)")
    group.add_argument("--rouge-stem", action="store_true",
                       help="Porter-stem tokens longer than 3 characters (rouge-score's "
                            "use_stemmer; needs nltk)")
    group.add_argument("--rouge-tokenize", default="rouge-score", choices=TOKENIZERS,
                       help="rouge-score (default: lowercase, a-z0-9 only) or an opt-in Unicode "
                            "tokenizer, then lowercased: its scores are NOT comparable with "
                            "rouge-score's")
    group.add_argument("--rouge-case", default="lc", choices=("lc", "mixed"),
                       help="with a Unicode tokenizer: lowercase first (default lc)")
    group.add_argument("--rouge-split", default="newline", choices=SPLITTERS,
                       help="rougeLsum's sentence splitter (default newline: a segment's "
                            "sentences are separated by \\n, e.g. a TSV/JSONL field)")
    group.add_argument("--rouge-beta", type=float, default=1.0, metavar="BETA",
                       help="F's β (default 1: F1, as rouge-score)")
    group.add_argument("--rouge-aggregation", default="mean", choices=AGGREGATIONS,
                       help="corpus score: mean of per-segment scores (default, as rouge-score "
                            "and ROUGE-1.5.5) or pooled counts (1.5.5 -t 1)")
    group.add_argument("--rouge-multiref", default="best-f", choices=MULTIREF,
                       help="several references: the one of best F (default, rouge-score), "
                            "average (1.5.5 -f A) or best recall (1.5.5 -f B)")
    group.add_argument("--rouge-measure", default="fmeasure", choices=MEASURES,
                       help="the measure printed ×100 (default fmeasure)")


def build(args: argparse.Namespace, rouge_type: str) -> ROUGE:
    """The ROUGE of type ``rouge_type`` with the parsed options."""
    from ...metrics.rouge import ROUGE

    return ROUGE(rouge_type, stemmer=args.rouge_stem, tokenize=args.rouge_tokenize,
                 lowercase=args.rouge_case == "lc", splitter=args.rouge_split,
                 beta=args.rouge_beta, aggregation=args.rouge_aggregation,
                 multiref=args.rouge_multiref, measure=args.rouge_measure)


def from_name(name: str, args: argparse.Namespace) -> ROUGE:
    """The metric of ``-m NAME``: ``rougeN`` is ROUGE-``--rouge-n``, the others their own type."""
    return build(args, f"rouge{args.rouge_n}" if name == "rougeN" else name)


def from_args(args: argparse.Namespace) -> ROUGE:
    """ROUGE-L with the parsed options (the names go through :func:`from_name`)."""
    return build(args, "rougeL")
