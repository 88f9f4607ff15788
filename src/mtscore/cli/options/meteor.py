"""Command-line options of METEOR (``mtscore score -m meteor``, ``mtscore explain``)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ...errors import OptionError
from ...text.tokenizers import TOKENIZERS

if TYPE_CHECKING:
    from ...metrics.meteor.metric import METEOR

#: ``metrics.meteor``'s MODULES, DEFAULT_MODULES and VARIANTS (literals: this module does not import
#: METEOR, whose import loads numpy and the aligner)
MODULES = ("exact", "porter", "stem", "wn_stem", "synonym", "paraphrase")
DEFAULT_MODULES = ("exact", "porter", "synonym")
VARIANTS = ("2005", "1.5")
#: ``metrics.meteor.paraphrase.TASKS``' names
TASKS = ("rank", "adq", "hter", "li", "tune")
#: ``metrics.meteor.settings.SEARCHES``
SEARCHES = ("exact", "beam")


def add_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("METEOR")
    group.add_argument("--meteor-modules", nargs="+", default=None, metavar="MODULE",
                       help=f"matching modules in order ({', '.join(MODULES)}; default "
                            f"{' '.join(DEFAULT_MODULES)}, the paper's; with -l and a target "
                            "language other than English: exact stem, or exact)")
    group.add_argument("--meteor-variant", default=None, choices=VARIANTS,
                       help="2005: the paper's staged aligner; 1.5: the METEOR 1.5 jar's objective "
                            "and its no-penalty rule for complete one-chunk matches (default 2005; "
                            "1.5 with --meteor-task)")
    group.add_argument("--meteor-task", default=None, choices=TASKS,
                       help="the METEOR 1.5 jar's task: its alpha beta gamma delta and module "
                            "weights, modules exact stem synonym paraphrase (rank: the jar's default, "
                            "as coco-caption runs it); needs the paraphrase table")
    group.add_argument("--meteor-paraphrase", default=None, metavar="FILE",
                       help="the paraphrase table (paraphrase-en.gz) of the paraphrase module "
                            "(default: the one of an installed pycocoevalcap, "
                            "pip install 'mtscore[paraphrase]')")
    group.add_argument("--meteor-search", default=None, choices=SEARCHES,
                       help="variant 1.5: beam, the jar's own beam search (its scores), or exact, "
                            "the jar's objective maximised exactly (default beam with --meteor-task, "
                            "exact without)")
    group.add_argument("--meteor-jar-beam", type=int, default=None, metavar="N",
                       help="variant 1.5: search with the jar's own beam of width N (default 40, the "
                            "jar's; implies --meteor-search beam)")
    group.add_argument("--meteor-alpha", type=float, default=0.9, metavar="A",
                       help="Fmean = PR/(aP + (1-a)R) (default 0.9: the paper's 10PR/(R+9P))")
    group.add_argument("--meteor-beta", type=float, default=3.0, metavar="B",
                       help="Penalty = gamma * (chunks/matches)^beta (default 3)")
    group.add_argument("--meteor-gamma", type=float, default=0.5, metavar="G",
                       help="maximum penalty (default 0.5)")
    group.add_argument("--meteor-delta", type=float, default=None, metavar="D",
                       help="content words weigh D, function words 1-D (default: no distinction)")
    group.add_argument("--meteor-weights", type=float, nargs="+", default=None, metavar="W",
                       help="one weight per module (default 1 each)")
    group.add_argument("--meteor-tokenize", default=None, choices=TOKENIZERS, metavar="NAME",
                       help="tokenizer for METEOR (default 13a; with -l: zh for Chinese, ja-mecab for "
                            "Japanese; 'none' for pre-tokenized text)")
    group.add_argument("--meteor-case", default="lc", choices=("lc", "mixed"),
                       help="lowercase before matching (lc, default, as METEOR) or keep case")
    group.add_argument("--meteor-workers", type=int, default=None, metavar="N",
                       help="align with N processes (Linux; 0: one per idle CPU; default: a second "
                            "process only for a corpus with enough work, e.g. long segments). "
                            "The scores are identical; only the wall time changes")
    group.add_argument("--meteor-stopwords", action="store_true",
                       help="leave the shipped function words out of the exact stage (2005 paper §3.6)")


def from_args(args: argparse.Namespace) -> METEOR:
    from ...metrics.meteor.metric import METEOR
    from . import target_of

    if args.meteor_weights is not None and args.meteor_modules is not None \
            and len(args.meteor_weights) != len(args.meteor_modules):
        raise OptionError("--meteor-weights", " ".join(map(str, args.meteor_weights)),
                          detail=f"give one weight per module ({len(args.meteor_modules)})")
    task = getattr(args, "meteor_task", None)
    variant = args.meteor_variant or ("1.5" if task is not None else "2005")
    if task is not None and (args.meteor_alpha, args.meteor_beta, args.meteor_gamma,
                             args.meteor_delta) != (0.9, 3.0, 0.5, None):
        raise OptionError("--meteor-task", task, detail="the task sets --meteor-alpha/beta/gamma/delta: "
                                                        "give the task or them, not both")
    return METEOR(modules=args.meteor_modules, variant=variant, alpha=args.meteor_alpha,
                  beta=args.meteor_beta, gamma=args.meteor_gamma, delta=args.meteor_delta,
                  weights=args.meteor_weights, tokenize=args.meteor_tokenize,
                  lowercase=args.meteor_case == "lc", exclude_stopwords=args.meteor_stopwords,
                  jar_beam=args.meteor_jar_beam, search=getattr(args, "meteor_search", None),
                  workers=args.meteor_workers, task=task,
                  paraphrase=getattr(args, "meteor_paraphrase", None),
                  language=target_of(args) or "en")
