"""Command-line options of ROUGE (``mtscore score -m rouge1 rouge2 rougeL rougeLsum rougeN``).

The names ``rouge1``, ``rouge2``, ``rougeL``, ``rougeLsum`` are rouge-score's types; ``rougeN`` is
ROUGE-N of ``--rouge-n`` (default 3), or the type ``--rouge-type`` names (``rougeW``, ``rougeSU4``
with ``--rouge-variant 1.5.5``). The printed score is F×100 (``--rouge-measure`` picks P or R);
JSON output carries P, R and F (0–1) too.
"""

from __future__ import annotations

import argparse
import weakref
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...metrics.rouge import ROUGE

#: literals of ``metrics.rouge.settings`` / ``.tokenize`` (this module does not import the metric)
TOKENIZERS = ("default", "13a", "intl", "zh", "char", "ja-mecab", "none")
MULTIREF = ("best-f", "average", "best-recall")
VARIANTS = ("rouge-score", "1.5.5")
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
    group.add_argument("--rouge-variant", default="rouge-score", choices=VARIANTS,
                       help="rouge-score 0.1.2 (default) or the Perl ROUGE-1.5.5 script")
    group.add_argument("--rouge-n", type=int, default=3, metavar="N",
                       help="N of -m rougeN (default 3)")
    group.add_argument("--rouge-type", default=None, metavar="TYPE",
                       help="the type of -m rougeN instead: e.g. rouge4, or with --rouge-variant "
                            "1.5.5 rougeW, rougeS4, rougeSU4, rougeS*")
    group.add_argument("--rouge-stem", action="store_true",
                       help="stem tokens longer than 3 characters: rouge-score's Porter (needs "
                            "nltk), or 1.5.5's -m MorphStem")
    group.add_argument("--rouge-tokenize", default="default", choices=TOKENIZERS,
                       help="default: the variant's own (rouge-score: lowercase, a-z0-9 only), or "
                            "an opt-in Unicode tokenizer, then lowercased (variant rouge-score): "
                            "its scores are NOT comparable with rouge-score's")
    group.add_argument("--rouge-case", default="lc", choices=("lc", "mixed"),
                       help="with a Unicode tokenizer: lowercase first (default lc)")
    group.add_argument("--rouge-beta", type=float, default=1.0, metavar="BETA",
                       help="F's β (default 1: F1, as rouge-score)")
    group.add_argument("--rouge-aggregation", default="mean", choices=AGGREGATIONS,
                       help="corpus score: mean of per-segment scores (default, as rouge-score "
                            "and ROUGE-1.5.5) or pooled counts (1.5.5 -t 1)")
    group.add_argument("--rouge-multiref", default="", choices=MULTIREF,
                       help="several references: the one of best F (rouge-score's default), "
                            "average (-f A, 1.5.5's default) or best recall (-f B)")
    group.add_argument("--rouge-measure", default="fmeasure", choices=MEASURES,
                       help="the measure printed ×100 (default fmeasure)")
    group.add_argument("--rouge-stopwords", action="store_true",
                       help="1.5.5 -s: remove the SMART stop words")
    group.add_argument("--rouge-word-limit", type=int, default=0, metavar="N",
                       help="1.5.5 -l: keep the first N words of each summary (0: no limit)")
    group.add_argument("--rouge-byte-limit", type=int, default=0, metavar="N",
                       help="1.5.5 -b: keep the first N bytes of each summary (0: no limit)")
    group.add_argument("--rouge-weight", type=float, default=1.2, metavar="W",
                       help="1.5.5 -w: ROUGE-W's weight factor (default 1.2)")


def build(args: argparse.Namespace, rouge_type: str) -> ROUGE:
    """The ROUGE of type ``rouge_type`` with the parsed options."""
    from ...metrics.rouge import ROUGE

    return ROUGE(rouge_type, variant=args.rouge_variant, stemmer=args.rouge_stem,
                 tokenize=args.rouge_tokenize, lowercase=args.rouge_case == "lc",
                 beta=args.rouge_beta,
                 aggregation=args.rouge_aggregation, multiref=args.rouge_multiref,
                 measure=args.rouge_measure, stopwords=args.rouge_stopwords,
                 word_limit=args.rouge_word_limit, byte_limit=args.rouge_byte_limit,
                 weight=args.rouge_weight)


def from_name(name: str, args: argparse.Namespace) -> ROUGE:
    """The metric of ``-m NAME``: ``rougeN`` is ``--rouge-type`` or ROUGE-``--rouge-n``, the others
    their own type."""
    if name == "rougeN":
        return build(args, args.rouge_type or f"rouge{args.rouge_n}")
    return build(args, name)


def from_args(args: argparse.Namespace) -> ROUGE:
    """ROUGE-L with the parsed options (the names go through :func:`from_name`)."""
    return build(args, "rougeL")
