"""The options of ``mtscore study`` and ``mtscore report`` that add METEOR 1.5 with a jar task
(``--meteor-task``, its paraphrase table and its search) to the studied metrics."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import OptionError
from .options.meteor import SEARCHES, TASKS


def add_meteor_task_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("METEOR 1.5 with a jar task (studied besides the default metrics)")
    group.add_argument("--meteor-task", default=None, choices=TASKS,
                       help="also study METEOR 1.5 with this task of the jar (rank: the jar's "
                            "default, with paraphrases), labelled METEOR-1.5-TASK")
    group.add_argument("--meteor-paraphrase", default=None, metavar="FILE",
                       help="its paraphrase table (default: the installed pycocoevalcap's)")
    group.add_argument("--meteor-search", default=None, choices=SEARCHES,
                       help="search it with the jar's beam (default: the jar's numbers) or exactly")
    group.add_argument("--meteor-jar-beam", type=int, default=None, metavar="N",
                       help="search it with the jar's beam of width N (default 40: the jar's numbers)")


def task_metrics(args: argparse.Namespace) -> list[Any]:
    """METEOR 1.5 with ``--meteor-task`` as a study's extra metric (none without it)."""
    if args.meteor_task is None:
        if args.meteor_paraphrase is not None or args.meteor_jar_beam is not None \
                or args.meteor_search is not None:
            raise OptionError("--meteor-paraphrase/--meteor-search/--meteor-jar-beam", "set",
                              detail="they apply to --meteor-task: give it too")
        return []
    from ..metrics.meteor import METEOR
    from ..study.model import MetricSpec

    metric = METEOR(variant="1.5", task=args.meteor_task, paraphrase=args.meteor_paraphrase,
                    jar_beam=args.meteor_jar_beam, search=args.meteor_search)
    return [MetricSpec(f"METEOR-1.5-{args.meteor_task}", metric, metric)]
