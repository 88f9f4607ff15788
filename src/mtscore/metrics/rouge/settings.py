"""ROUGE's settings: one frozen dataclass, validated once; the signature, the statistics' key and
the command line all read it. Changing a setting makes a new object (:meth:`ROUGESettings.replace`).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from ...errors import OptionError
from .tokenize import SPLITTERS, TOKENIZERS

#: the variants: ``rouge-score`` (Google's rouge-score 0.1.2, the default)
VARIANTS = ("rouge-score",)
#: how several references combine per segment: rouge-score's reference of best F; ROUGE-1.5.5's
#: ``-f A`` (hits and totals summed over the references) and ``-f B`` (the reference of best recall)
MULTIREF = ("best-f", "average", "best-recall")
#: corpus score: mean of the per-segment scores (both tools' default) or pooled counts (1.5.5 ``-t 1``)
AGGREGATIONS = ("mean", "pooled")
#: the measure ``score`` reports (×100)
MEASURES = ("fmeasure", "precision", "recall")
_TYPE = re.compile(r"rouge([1-9][0-9]*|L|Lsum)")


def check_type(rouge_type: str) -> str:
    """``rougeN`` (N ≥ 1), ``rougeL`` or ``rougeLsum``; anything else is an error."""
    if not isinstance(rouge_type, str) or not _TYPE.fullmatch(rouge_type):
        raise OptionError("ROUGE type", rouge_type, ("rouge1", "rouge2", "rougeN", "rougeL",
                                                      "rougeLsum"))
    return rouge_type


def type_label(rouge_type: str) -> str:
    """``rouge2`` -> ``ROUGE-2``, ``rougeLsum`` -> ``ROUGE-Lsum``."""
    return "ROUGE-" + rouge_type[5:]


@dataclass(frozen=True)
class ROUGESettings:
    """Every setting that can change a ROUGE score."""

    #: ``rougeN`` (any N ≥ 1), ``rougeL`` (sentence-level LCS) or ``rougeLsum`` (summary-level LCS)
    rouge_type: str = "rougeL"
    #: the implementation followed exactly
    variant: str = "rouge-score"
    #: Porter stemming of tokens longer than 3 characters (rouge-score's ``use_stemmer``)
    stemmer: bool = False
    #: ``rouge-score`` (the variant's own), or an opt-in Unicode tokenizer (13a, intl, zh, ...)
    tokenize: str = "rouge-score"
    #: lowercase before a Unicode tokenizer (rouge-score's tokenizer always lowercases)
    lowercase: bool = True
    #: ROUGE-Lsum's sentence splitter
    splitter: str = "newline"
    #: F's β: recall weighs β times precision (1: rouge-score's F1; 1.5.5's α = 1 / (1 + β²))
    beta: float = 1.0
    #: corpus aggregation: ``mean`` of per-segment scores, or ``pooled`` counts
    aggregation: str = "mean"
    #: several references: ``best-f``, ``average`` (1.5.5 -f A), ``best-recall`` (1.5.5 -f B)
    multiref: str = "best-f"
    #: the measure reported as ``score``
    measure: str = "fmeasure"

    def __post_init__(self) -> None:
        check_type(self.rouge_type)
        for option, value, valid in (("ROUGE variant", self.variant, VARIANTS),
                                     ("ROUGE tokenizer", self.tokenize, TOKENIZERS),
                                     ("ROUGE-Lsum sentence splitter", self.splitter, SPLITTERS),
                                     ("ROUGE aggregation", self.aggregation, AGGREGATIONS),
                                     ("ROUGE multi-reference rule", self.multiref, MULTIREF),
                                     ("ROUGE measure", self.measure, MEASURES)):
            if value not in valid:
                raise OptionError(option, value, valid)
        if not isinstance(self.beta, (int, float)) or not self.beta > 0 or self.beta == float("inf"):
            raise OptionError("ROUGE beta", self.beta, detail="β must be a positive finite number")
        object.__setattr__(self, "beta", float(self.beta))
        object.__setattr__(self, "stemmer", bool(self.stemmer))
        object.__setattr__(self, "lowercase", bool(self.lowercase))

    def replace(self, **changes: object) -> ROUGESettings:
        """New settings with ``changes`` (validated again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    @property
    def order(self) -> int | None:
        """N of ROUGE-N (None for the LCS types)."""
        tail = self.rouge_type[5:]
        return int(tail) if tail.isdigit() else None

    def token_key(self) -> tuple[object, ...]:
        """What the tokens depend on."""
        lower = self.lowercase if self.tokenize != "rouge-score" else True
        return (self.variant, self.tokenize, lower, self.stemmer,
                self.splitter if self.rouge_type == "rougeLsum" else None)

    def statistics_key(self) -> tuple[object, ...]:
        """What the per-segment statistics depend on (``aggregation`` and ``measure`` act in
        ``compute`` alone)."""
        return ("ROUGE", self.rouge_type, *self.token_key(), self.beta, self.multiref)

    def signature_fields(self) -> list[tuple[str, object]]:
        """The signature's fields (after ``nrefs``), each setting by its short key."""
        if self.tokenize == "rouge-score":
            tok = "rouge-score"
        else:
            tok = f"{self.tokenize}+{'lc' if self.lowercase else 'mixed'}"
        split = self.splitter if self.rouge_type == "rougeLsum" else "none"
        return [("variant", self.variant), ("multiref", self.multiref), ("tok", tok),
                ("stem", "porter" if self.stemmer else "no"), ("split", split),
                ("beta", f"{self.beta:g}"), ("agg", self.aggregation),
                ("measure", {"fmeasure": "F", "precision": "P", "recall": "R"}[self.measure]),
                ("limit", "none")]
