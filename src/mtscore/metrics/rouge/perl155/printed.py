"""Everything ROUGE-1.5.5.pl prints for a set of evaluations (``printResults``, ``printPerEvalData``),
computed without Perl."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import numpy as np

from .bootstrap import Perl155Average, bootstrap_average
from .document import document_rows
from .options import Perl155Options, RougeType, perl_number

RULE = "-" * 45
DOTS = "." * 45
_LEADING_DIGITS = re.compile(r"[0-9]+")


def test_id(eval_id: str, peer_id: str) -> str:
    """The script's key of one evaluation: ``"$evalID.$peerID"``."""
    return f"{eval_id}.{peer_id}"


def instance_order(eval_ids: Sequence[str], peer_id: str) -> list[int]:
    """``sort(keys %ROUGEScores)``: the evaluations ordered by their test ids as byte strings -- the
    order the bootstrap draws its indexes from (so "10" comes before "2")."""
    return sorted(range(len(eval_ids)), key=lambda i: test_id(eval_ids[i], peer_id).encode("utf-8"))


def _by_eval_id(a: str, b: str) -> int:
    """``by_evalID``: numerically by the leading digits when both ids have some, else as strings."""
    ma, mb = _LEADING_DIGITS.match(a), _LEADING_DIGITS.match(b)
    if ma and mb:
        x, y = int(ma.group()), int(mb.group())
        return (x > y) - (x < y)
    ab, bb = a.encode("utf-8"), b.encode("utf-8")
    return (ab > bb) - (ab < bb)


def per_document_order(eval_ids: Sequence[str], peer_id: str) -> list[int]:
    """The order of ``-d``'s per-evaluation lines (``sort by_evalID``)."""
    ids = [test_id(e, peer_id) for e in eval_ids]
    def compare(i: int, j: int) -> int:
        return _by_eval_id(ids[i], ids[j])

    return sorted(range(len(ids)), key=functools.cmp_to_key(compare))


def average_lines(peer_id: str, tag: str, average: Perl155Average, confidence: float) -> list[str]:
    """The three ``Average_R/P/F`` lines."""
    c = perl_number(confidence)
    return [f"{peer_id} {tag} Average_{name}: {part.average} ({c}%-conf.int. {part.low} - {part.high})"
            for name, part in (("R", average.recall), ("P", average.precision), ("F", average.f))]


def per_document_lines(peer_id: str, tag: str, rows: np.ndarray, eval_ids: Sequence[str],
                       counting: int) -> list[str]:
    """``-d``: one line per evaluation, R P F as rounded scores (``-t 0``) or the raw model total,
    peer total and hit (``-t 1``)."""
    lines = []
    for i in per_document_order(eval_ids, peer_id):
        if counting == 0:
            r, p, f = (f"{v:.5f}" for v in rows[i, 3:6])
        else:
            r, p, f = (perl_number(v) for v in rows[i, 0:3])
        lines.append(f"{peer_id} {tag} Eval {test_id(eval_ids[i], peer_id)} R:{r} P:{p} F:{f}")
    return lines


def perl155_report(peers: Sequence[str], models: Sequence[Sequence[str]], types: Sequence[RougeType],
                   options: Perl155Options, peer_id: str = "A", eval_ids: Sequence[str] | None = None,
                   per_document: bool = False) -> str:
    """The whole standard output of ``ROUGE-1.5.5.pl <options> config.xml peer_id`` for one peer:
    document i is evaluation ``eval_ids[i]`` (default ``"1"``, ``"2"``, ...) with peer text ``peers[i]``
    and model texts ``models[i]``; ``types`` in the script's order (``options.script_types``);
    ``per_document`` is ``-d``."""
    ids = [str(i + 1) for i in range(len(peers))] if eval_ids is None else list(eval_ids)
    if len(ids) != len(peers) or len(set(ids)) != len(ids):
        raise ValueError("ROUGE-1.5.5: need one distinct evaluation id per document")
    order = instance_order(ids, peer_id)
    lines: list[str] = []
    for rtype in types:
        rows = document_rows(peers, models, rtype, options)
        average = bootstrap_average(rows[order], options.counting, options.resamples,
                                    options.confidence, options.alpha)
        lines.append(RULE)
        lines += average_lines(peer_id, rtype.tag, average, options.confidence)
        if per_document:
            lines.append(DOTS)
            lines += per_document_lines(peer_id, rtype.tag, rows, ids, options.counting)
    return "".join(line + "\n" for line in lines)
