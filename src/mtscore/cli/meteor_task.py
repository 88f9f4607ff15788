"""The options of ``mtscore study``, ``mtscore report`` and ``mtscore mbr`` for METEOR 1.5 with a jar
task (``--meteor-task``, its paraphrase table and its search): an extra studied metric, or MBR's
utility."""

from __future__ import annotations

import argparse
from typing import Any

from ..errors import OptionError
from .options.meteor import SEARCHES, TASKS


def add_meteor_task_options(parser: argparse.ArgumentParser, utility: bool = False) -> None:
    """The options; ``utility``: for ``mtscore mbr -m meteor`` (the utility is that METEOR)."""
    group = parser.add_argument_group(
        "METEOR 1.5 with a jar task" + ("" if utility else " (studied besides the default metrics)"))
    group.add_argument("--meteor-task", default=None, choices=TASKS,
                       help="with -m meteor: METEOR 1.5 with this task of the jar (rank: the jar's "
                            "default, with paraphrases)" if utility else
                            "also study METEOR 1.5 with this task of the jar (rank: the jar's "
                            "default, with paraphrases), labelled METEOR-1.5-TASK")
    group.add_argument("--meteor-paraphrase", default=None, metavar="FILE",
                       help="its paraphrase table (default: the installed pycocoevalcap's)")
    group.add_argument("--meteor-search", default=None, choices=SEARCHES,
                       help="search it with the jar's beam (default: the jar's numbers) or exactly")
    group.add_argument("--meteor-jar-beam", type=int, default=None, metavar="N",
                       help="search it with the jar's beam of width N (default 40: the jar's numbers)")


def task_meteor(args: argparse.Namespace) -> Any:
    """METEOR 1.5 with ``--meteor-task`` and its options, or None without it."""
    if args.meteor_task is None:
        if args.meteor_paraphrase is not None or args.meteor_jar_beam is not None \
                or args.meteor_search is not None:
            raise OptionError("--meteor-paraphrase/--meteor-search/--meteor-jar-beam", "set",
                              detail="they apply to --meteor-task: give it too")
        return None
    from ..metrics.meteor import METEOR

    return METEOR(variant="1.5", task=args.meteor_task, paraphrase=args.meteor_paraphrase,
                  jar_beam=args.meteor_jar_beam, search=args.meteor_search)


def task_metrics(args: argparse.Namespace) -> list[Any]:
    """METEOR 1.5 with ``--meteor-task`` as a study's extra metric (none without it)."""
    metric = task_meteor(args)
    if metric is None:
        return []
    from ..study.model import MetricSpec

    return [MetricSpec(f"METEOR-1.5-{args.meteor_task}", metric, metric)]
