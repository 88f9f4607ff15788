"""ROUGE's settings: one frozen dataclass, validated once; the signature, the statistics' key and
the command line all read it. Changing a setting makes a new object (:meth:`ROUGESettings.replace`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from ...errors import OptionError
from ...version import __version__
from ..settings import Settings, setting
from .tokenize import TOKENIZERS

#: the variants: ``rouge-score`` (Google's rouge-score 0.1.2, the default) and ``1.5.5`` (the Perl
#: ROUGE-1.5.5 script, :mod:`.perl155`)
VARIANTS = ("rouge-score", "1.5.5")
#: how several references combine per segment: rouge-score's reference of best F; ROUGE-1.5.5's
#: ``-f A`` (hits and totals summed over the references) and ``-f B`` (the reference of best recall)
MULTIREF = ("best-f", "average", "best-recall")
#: corpus score: mean of the per-segment scores (both tools' default) or pooled counts (1.5.5 ``-t 1``)
AGGREGATIONS = ("mean", "pooled")
#: the measure ``score`` reports (×100)
MEASURES = ("fmeasure", "precision", "recall")
_TYPE = re.compile(r"rouge([1-9][0-9]*|L|Lsum)")
#: the types only the 1.5.5 variant has: ROUGE-W, ROUGE-S<k> and ROUGE-SU<k> (``*``: no distance limit)
_TYPE_155 = re.compile(r"rouge(W|S([0-9]+|\*)|SU([0-9]+|\*))")
#: ROUGE-Lsum's sentences: a summary is split at every newline (rouge-score 0.1.2's rule with
#: ``split_summaries=False``, its default, and the Perl script's one sentence per line); the only
#: splitter, so not a setting, but named in the signature (``split:newline``)
SPLITTER = "newline"
#: the tokenizer of the variant itself (rouge-score's, or the Perl script's)
DEFAULT_TOKENIZER = "default"


def check_type(rouge_type: str, variant: str = "rouge-score") -> str:
    """``rougeN`` (N ≥ 1), ``rougeL`` or ``rougeLsum`` (rouge-score); ``rougeN``, ``rougeL``,
    ``rougeW``, ``rougeS<k>``, ``rougeSU<k>`` (1.5.5); anything else is an error."""
    ok = isinstance(rouge_type, str) and (
        (_TYPE.fullmatch(rouge_type) and not (variant == "1.5.5" and rouge_type == "rougeLsum"))
        or (variant == "1.5.5" and _TYPE_155.fullmatch(rouge_type)))
    if not ok:
        valid = ("rouge1", "rouge2", "rougeN", "rougeL", "rougeLsum") if variant != "1.5.5" else (
            "rouge1", "rouge2", "rougeN", "rougeL (summary-level, the script's)", "rougeW",
            "rougeS4", "rougeSU4", "rougeS*")
        raise OptionError(f"ROUGE type of variant {variant}", rouge_type, valid)
    return rouge_type


def type_label(rouge_type: str) -> str:
    """``rouge2`` -> ``ROUGE-2``, ``rougeLsum`` -> ``ROUGE-Lsum``."""
    return "ROUGE-" + rouge_type[5:]


@dataclass(frozen=True)
class ROUGESettings(Settings):
    """Every setting of a ROUGE metric (:class:`~mtscore.metrics.settings.Settings`): its signature
    is laid out by :meth:`signature_fields`, under the type's name (``ROUGE-L``)."""

    NAME: ClassVar[str] = "ROUGE"
    #: the data fact and the version; the settings' keys are laid out by :meth:`signature_fields`
    SIGNATURE: ClassVar[tuple[str, ...]] = ("nrefs", "version")

    #: ``rougeN`` (any N ≥ 1), ``rougeL`` (sentence-level LCS) or ``rougeLsum`` (summary-level LCS)
    rouge_type: str = setting("rougeL")
    #: the implementation followed exactly
    variant: str = setting("rouge-score")
    #: Porter stemming of tokens longer than 3 characters (rouge-score's ``use_stemmer``)
    stemmer: bool = setting(False)
    #: ``default`` (the variant's own: rouge-score's or the script's), or an opt-in Unicode
    #: tokenizer (13a, intl, zh, ...; variant rouge-score only)
    tokenize: str = setting(DEFAULT_TOKENIZER)
    #: lowercase before a Unicode tokenizer (rouge-score's tokenizer always lowercases)
    lowercase: bool = setting(True)
    #: F's β: recall weighs β times precision (1: rouge-score's F1; 1.5.5's α = 1 / (1 + β²))
    beta: float = setting(1.0)
    #: corpus aggregation: ``mean`` of per-segment scores, or ``pooled`` counts
    aggregation: str = setting("mean")
    #: several references: ``best-f``, ``average`` (1.5.5 -f A), ``best-recall`` (1.5.5 -f B);
    #: empty: the variant's default (rouge-score: best-f; 1.5.5: average)
    multiref: str = setting("")
    #: the measure reported as ``score``
    measure: str = setting("fmeasure")
    #: 1.5.5 ``-s``: remove the SMART stop words
    stopwords: bool = setting(False)
    #: 1.5.5 ``-l N`` / ``-b N``: keep the first N words / bytes of every summary (0: no limit, as
    #: the script)
    word_limit: int = setting(0)
    byte_limit: int = setting(0)
    #: 1.5.5 ``-w``: ROUGE-W's weight factor
    weight: float = setting(1.2)
    #: the numpy kernels (True) or the rules, segment by segment (False): equal statistics
    fast: bool  = setting(True, speed=True)

    def validate(self) -> None:
        if not self.multiref:
            self._set("multiref", "average" if self.variant == "1.5.5" else "best-f")
        for option, value, valid in (("ROUGE variant", self.variant, VARIANTS),
                                     ("ROUGE tokenizer", self.tokenize, TOKENIZERS),
                                     ("ROUGE aggregation", self.aggregation, AGGREGATIONS),
                                     ("ROUGE multi-reference rule", self.multiref, MULTIREF),
                                     ("ROUGE measure", self.measure, MEASURES)):
            if value not in valid:
                raise OptionError(option, value, valid)
        if not isinstance(self.beta, (int, float)) or not self.beta > 0 or self.beta == float("inf"):
            raise OptionError("ROUGE beta", self.beta, detail="β must be a positive finite number")
        check_type(self.rouge_type, self.variant)
        self._check_variant_options()
        self._set("beta", float(self.beta))
        self._set("stemmer", bool(self.stemmer))
        self._set("lowercase", bool(self.lowercase))
        self._set("fast", bool(self.fast))

    def _check_variant_options(self) -> None:
        """Options that belong to one variant."""
        if self.variant == "1.5.5":
            if self.tokenize != DEFAULT_TOKENIZER:
                raise OptionError("ROUGE tokenizer", self.tokenize, detail="variant 1.5.5 reads "
                                  "text with the script's own tokenizer (tokenize=default)")
            if self.multiref == "best-f":
                raise OptionError("ROUGE multi-reference rule", self.multiref, detail="variant "
                                  "1.5.5 has -f A (average) and -f B (best-recall)")
            for name in ("word_limit", "byte_limit"):
                value = getattr(self, name)
                if not isinstance(value, int) or value < 0:
                    raise OptionError(f"ROUGE {name}", value, detail="a number of words/bytes "
                                      "≥ 0 (0: no limit, as the script)")
            if self.word_limit and self.byte_limit:
                raise OptionError("ROUGE length limit", f"{self.word_limit} words and "
                                  f"{self.byte_limit} bytes", detail="give one limit, not both")
            if not self.weight > 0:
                raise OptionError("ROUGE-W weight", self.weight, detail="must be > 0")
        elif self.stopwords or self.word_limit or self.byte_limit:
            raise OptionError("ROUGE variant", self.variant, detail="stop words and length limits "
                              "are options of variant 1.5.5")

    def replace(self, **changes: object) -> ROUGESettings:
        """New settings with ``changes`` (validated again); a new variant without a multi-reference
        rule takes that variant's default rule."""
        if "variant" in changes and "multiref" not in changes:
            changes["multiref"] = ""
        return super().replace(**changes)

    @property
    def order(self) -> int | None:
        """N of ROUGE-N (None for the LCS types)."""
        tail = self.rouge_type[5:]
        return int(tail) if tail.isdigit() else None

    def token_key(self) -> tuple[object, ...]:
        """What the tokens depend on."""
        lower = self.lowercase if self.tokenize != DEFAULT_TOKENIZER else True
        return (self.variant, self.tokenize, lower, self.stemmer,
                SPLITTER if self.rouge_type == "rougeLsum" else None, self.stopwords,
                self.word_limit, self.byte_limit)

    def statistics_key(self) -> tuple[object, ...]:
        """What the per-segment statistics depend on (``aggregation`` and ``measure`` act in
        ``compute`` alone)."""
        return ("ROUGE", self.rouge_type, *self.token_key(), self.beta, self.multiref,
                self.weight if self.rouge_type == "rougeW" else None)

    def tokenizer_name(self) -> str:
        """The tokenizer's name in the signature."""
        if self.tokenize == DEFAULT_TOKENIZER:
            return "rouge-1.5.5" if self.variant == "1.5.5" else "rouge-score"
        return f"{self.tokenize}+{'lc' if self.lowercase else 'mixed'}"

    def limit_name(self) -> str:
        """The length limit in the signature: ``none``, ``100w`` or ``665b``."""
        if self.word_limit:
            return f"{self.word_limit}w"
        return f"{self.byte_limit}b" if self.byte_limit else "none"

    def signature_name(self) -> str:
        """The type's name: ``ROUGE-L``, ``ROUGE-2``, ..."""
        return type_label(self.rouge_type)

    def reference_key(self) -> tuple[object, ...]:
        """The statistics' settings (both encodings give the same ids in the one vocabulary of the
        prepared references: ``fast`` is a speed switch)."""
        return self.statistics_key()

    def signature_fields(self, meta: Mapping[str, object] | None = None) -> list[tuple[str, object]]:
        """``nrefs``, each setting by its short key, then ``version``."""
        return [("nrefs", (meta or {}).get("nrefs", "?")), *self.setting_fields(),
                ("version", __version__)]

    def setting_fields(self) -> list[tuple[str, object]]:
        """The signature's fields after ``nrefs``, each setting by its short key."""
        by_sentence = self.rouge_type == "rougeLsum" or (
            self.variant == "1.5.5" and self.rouge_type in ("rougeL", "rougeW"))
        split = SPLITTER if by_sentence else "none"
        stem = "porter" if self.variant == "rouge-score" else "morphstem"
        fields: list[tuple[str, object]] = [
            ("variant", self.variant), ("multiref", self.multiref), ("tok", self.tokenizer_name()),
            ("stem", stem if self.stemmer else "no"), ("split", split),
            ("beta", f"{self.beta:g}"), ("agg", self.aggregation),
            ("measure", {"fmeasure": "F", "precision": "P", "recall": "R"}[self.measure]),
            ("limit", self.limit_name())]
        if self.variant == "1.5.5":
            fields.append(("stop", "smart" if self.stopwords else "no"))
            if self.rouge_type == "rougeW":
                fields.append(("weight", f"{self.weight:g}"))
        return fields
