"""METEOR's settings (:class:`.metric.METEOR`'s arguments): one frozen dataclass, validated once.

The signature (:meth:`METEORSettings.signature`) is derived from it, in the order of
``SIGNATURE``; a new setting is one field (with its signature ``key``) here, its key in
``SIGNATURE`` and its check in ``validate`` (``docs/contributing.md``, "Declaring a metric's
settings").
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from ...errors import OptionError
from ...languages import MeteorLanguage, meteor_language
from ..settings import Settings, check_tokenizer, setting, tokenizer_signature, yes_no
from .matchers import check_modules
from .score import Parameters

VARIANTS = ("2005", "1.5")
#: variant 1.5's searches of the jar's objective: exact (dynamic programming) or the jar's own beam
SEARCHES = ("exact", "beam")
#: the jar's beam width (``-x``, default 40)
JAR_BEAM = 40


def _parameters(variant: str, alpha: float, beta: float, gamma: float, delta: float | None,
                weights: Sequence[float] | None, n_modules: int) -> Parameters:
    """The checked scoring parameters."""
    if variant not in VARIANTS:
        raise OptionError("METEOR variant", variant, VARIANTS)
    if not 0.0 <= alpha <= 1.0:
        raise OptionError("alpha", alpha, detail="must be within [0, 1]")
    if not (0 <= beta < math.inf and 0 <= gamma <= 1):
        raise OptionError("beta/gamma", (beta, gamma), detail="need beta >= 0 and 0 <= gamma <= 1")
    if delta is not None and not 0.0 <= delta <= 1.0:
        raise OptionError("delta", delta, detail="must be within [0, 1] (or None)")
    if weights is None:
        weights = (1.0,) * n_modules
    weights = tuple(float(w) for w in weights)
    if len(weights) != n_modules:
        raise OptionError("METEOR weights", weights, detail=f"give one weight per module ({n_modules})")
    if not all(0 <= w < math.inf for w in weights):
        raise OptionError("METEOR weights", weights, detail="weights must be finite and >= 0")
    return Parameters(float(alpha), float(beta), float(gamma), None if delta is None else float(delta),
                      weights)


def _search(settings: METEORSettings) -> str | None:
    """Variant 1.5's search: ``exact`` or ``beamN`` (the jar's own beam); None for 2005."""
    if settings.variant != "1.5":
        return None
    return "exact" if settings.beam_width is None else f"beam{settings.beam_width}"


def beam_width(variant: str, search: str | None, jar_beam: int | None, task: str | None) -> int | None:
    """The width of the jar's beam variant 1.5 searches with, None for the exact search (and for
    2005). Default: a task is the jar's run, so it searches as the jar does (beam 40); variant 1.5
    without a task searches the jar's objective exactly; ``jar_beam`` alone means the beam."""
    if search is not None and search not in SEARCHES:
        raise OptionError("METEOR search", search, SEARCHES)
    if variant != "1.5":
        if search is not None or jar_beam is not None:
            raise OptionError("METEOR search", search or f"beam {jar_beam}",
                              detail="the search is variant 1.5's: use variant 1.5")
        return None
    if jar_beam is not None and (isinstance(jar_beam, bool) or int(jar_beam) < 1):
        raise OptionError("jar_beam", jar_beam, detail="a positive beam width")
    if search == "exact":
        if jar_beam is not None:
            raise OptionError("jar_beam", jar_beam, detail="the exact search has no beam: give "
                                                           "search='exact' or a beam width, not both")
        return None
    if search == "beam" or jar_beam is not None or task is not None:
        return JAR_BEAM if jar_beam is None else int(jar_beam)
    return None


def _task(name: str, variant: str, english: bool, params: tuple[Any, ...]) -> Any:
    """The checked jar task (:data:`.paraphrase.TASKS`)."""
    from .paraphrase import TASKS

    if name not in TASKS:
        raise OptionError("METEOR task", name, tuple(TASKS))
    if variant != "1.5":
        raise OptionError("METEOR task", name, detail="the tasks are METEOR 1.5's: use variant 1.5")
    if not english:
        raise OptionError("METEOR task", name,
                          detail="the jar's task parameters shipped here are English's")
    if params != (0.9, 3.0, 0.5, None):
        raise OptionError("METEOR task", name,
                          detail="a task sets alpha, beta, gamma and delta: give a task or them, "
                                 "not both")
    return TASKS[name]


def _paraphrase_signature(settings: METEORSettings) -> str | None:
    """``FILE@SHA256[:12]`` of the paraphrase table, when the paraphrase module is used."""
    if not settings.two_sided:
        return None
    from ...lexicon.paraphrase import load_paraphrase_table

    return str(load_paraphrase_table(settings.paraphrase).signature())


@dataclass(frozen=True)
class METEORSettings(Settings):
    """METEOR's settings, as :func:`.metric.corpus_meteor` documents them (``jar_beam``,
    ``workers`` and ``fast`` as :class:`.metric.METEOR`)."""

    NAME: ClassVar[str] = "METEOR"
    SIGNATURE: ClassVar[tuple[str, ...]] = (
        "variant", "task", "modules", "paraphrase", "weights", "alpha", "beta", "gamma", "delta", "stop",
        "search", "nrefs", "case", "tok", "lang", "fallback", "version")
    FACTS: ClassVar[Mapping[str, tuple[str, str | None]]] = MappingProxyType(
        {"nrefs": ("nrefs", "?"), "fallback": ("fallback_segments", None)})

    #: matching modules in order (None: the language's default)
    modules: Sequence[str] | str | None = setting(
        None, key="modules", show=lambda s: "+".join(s.module_names))
    variant: str = setting("2005", key="variant")
    #: the jar's task (``rank``, ``adq``, ``hter``, ``li``, ``tune``: α β γ δ, modules and weights;
    #: :mod:`.paraphrase`), or None
    task: str | None = setting(None, key="task")
    #: the paraphrase table file (None: the installed pycocoevalcap's), read on first use
    paraphrase: str | None = setting(None, key="paraphrase", show=_paraphrase_signature)
    alpha: float = setting(0.9, key="alpha", show=lambda s: f"{s.params.alpha:g}")
    beta: float = setting(3.0, key="beta", show=lambda s: f"{s.params.beta:g}")
    gamma: float = setting(0.5, key="gamma", show=lambda s: f"{s.params.gamma:g}")
    delta: float | None = setting(
        None, key="delta", show=lambda s: "none" if s.params.delta is None else format(s.params.delta, "g"))
    #: one weight per module (None: 1 each)
    weights: Sequence[float] | None = setting(
        None, key="weights", show=lambda s: "+".join(f"{w:g}" for w in s.params.weights))
    #: a tokenizer name (None: the language's default)
    tokenize: str | None = setting(
        None, key="tok", show=lambda s: tokenizer_signature(s.tokenizer_name), references=True)
    lowercase: bool = setting(True, key="case", show=yes_no("lowercase", "lc", "mixed"),
                              references=True)
    exclude_stopwords: bool = setting(False, key="stop", show=yes_no("exclude_stopwords"))
    language: str = setting("en", key="lang", show=lambda s: s.target.code)
    #: variant 1.5 only: ``exact`` (the jar's objective, searched exactly) or ``beam`` (the jar's
    #: own beam search); default: ``beam`` with a task (the jar's run), ``exact`` without
    search: str | None = setting(None, key="search", show=_search)
    #: variant 1.5 only: the width of the jar's beam (default 40, the jar's ``-x``); implies
    #: ``search="beam"`` (shown within ``search``)
    jar_beam: int | None = setting(None)
    #: processes that align a corpus (forked, Linux only; 0: one per idle CPU; None: as many as its
    #: work pays for, :mod:`.workers`); same statistics
    workers: int | None = setting(None, speed=True)
    #: the 2005 stages of a whole corpus at once (:mod:`.align.corpus`), the jar's beam over phrases
    #: by :mod:`.align.phrases_batch` / :mod:`.align.phrases_beam`; False: segment by segment, the rule
    fast: bool = setting(True, speed=True)

    # values computed from the settings in ``validate`` (not arguments)
    #: the target language's resources (:func:`mtscore.languages.meteor_language`)
    target: MeteorLanguage = field(init=False, repr=False, compare=False)
    #: the modules, checked (the language's default when none were given)
    module_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    #: the checked scoring parameters
    params: Parameters = field(init=False, repr=False, compare=False)
    #: the tokenizer's name (the language's default when none was given)
    tokenizer_name: str = field(init=False, repr=False, compare=False)
    #: the jar task's parameters (:class:`.paraphrase.Task`), or None
    task_spec: Any = field(init=False, repr=False, compare=False)
    #: the paraphrase module's phrase matches cover different numbers of words on each side
    two_sided: bool = field(init=False, repr=False, compare=False)
    #: the width of the jar's beam the 1.5 search uses; None: the exact search (:func:`beam_width`)
    beam_width: int | None = field(init=False, repr=False, compare=False)

    def validate(self) -> None:
        language = self.language
        if not (isinstance(language, str) and language.isascii() and language.isalpha()
                and 2 <= len(language) <= 3):
            raise OptionError("METEOR language", language,
                              detail="an ISO 639-1 code such as en, de or zh")
        target = meteor_language(language)
        self._set("target", target)
        alpha, beta, gamma, delta = self.alpha, self.beta, self.gamma, self.delta
        task = None if self.task is None else _task(self.task, self.variant, target.english,
                                                    (alpha, beta, gamma, delta))
        self._set("task_spec", task)
        default_modules = target.modules
        if task is not None:
            from .paraphrase import TASK_MODULES

            default_modules = TASK_MODULES
            alpha, beta, gamma, delta = task.alpha, task.beta, task.gamma, task.delta
        modules = check_modules(default_modules if self.modules is None else self.modules, target)
        self._set("module_names", tuple(modules))
        if self.modules is not None:
            self._set("modules", tuple(modules))
        self._set("two_sided", "paraphrase" in modules)
        if self.two_sided and self.variant != "1.5":
            raise OptionError("METEOR module", "paraphrase",
                              detail="the paraphrase module is METEOR 1.5's: use variant 1.5")
        if self.paraphrase is not None:
            self._set("paraphrase", os.fspath(self.paraphrase))
        if not target.english and (self.delta is not None or self.exclude_stopwords):
            raise OptionError("delta/exclude_stopwords", "set",
                              detail=f"the shipped function-word list is English; target language "
                                     f"{target.code!r} has none")
        weights = self.weights
        if task is not None and weights is None:  # by position, as the jar sizes its list
            weights = task.weights[:len(modules)]
        self._set("params", _parameters(self.variant, alpha, beta, gamma, delta, weights, len(modules)))
        if self.weights is not None:
            self._set("weights", self.params.weights)
        tokenize = self.tokenize
        if tokenize is None and task is not None:
            tokenize = "meteor-norm"  # a task is the jar's run with -norm (its normalizer)
        self._set("tokenizer_name", target.tokenize if tokenize is None else tokenize)
        check_tokenizer(self.tokenizer_name)
        self._set("lowercase", bool(self.lowercase))
        self._set("exclude_stopwords", bool(self.exclude_stopwords))
        self._set("beam_width", beam_width(self.variant, self.search, self.jar_beam, self.task))
        self._set("jar_beam", None if self.jar_beam is None else int(self.jar_beam))
        if self.workers is not None and int(self.workers) < 0:
            raise OptionError("workers", self.workers,
                              detail="a number of processes >= 1, or 0 for automatic")
        self._set("workers", None if self.workers is None else int(self.workers))
        self._set("fast", bool(self.fast))

    def reference_key(self) -> tuple[object, ...]:
        """What prepared references depend on: the tokenizer and the case (references prepared
        by a METEOR object with other modules are re-encoded, not refused)."""
        return (type(self).__qualname__, tokenizer_signature(self.tokenizer_name), self.lowercase)
