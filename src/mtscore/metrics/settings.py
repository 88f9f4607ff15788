"""A metric's settings: one frozen dataclass, validated once, from which the rest is derived.

Each metric declares its settings as a subclass of :class:`Settings` (the subclass a frozen
dataclass whose fields are the constructor's keyword arguments, declared with :func:`setting`).
From it come:

* ``settings_key()`` (what prepared references record): the fields declared ``references=True``;
* the signature (:meth:`Settings.signature`): ``NAME|key:value|...`` in the order of
  :attr:`Settings.SIGNATURE`, each field shown under its short ``key`` (``show`` formats it, or
  leaves it out by returning None), the data facts of the statistics (``nrefs``) and the version;
* the shared objects of the module functions (:func:`shared_metric`: ``corpus_bleu`` called in a
  loop builds its ``BLEU`` once);
* a changed setting is a new object: ``metric.replace(smooth="floor")`` (assigning a setting on
  a metric raises :class:`FrozenSettingError`), so a signature never outlives its settings.

Speed switches (``fast``, ``workers``) are settings declared ``speed=True``: they change no
statistic and no score, so they are in neither the key nor the signature. Runtime counters and
caches (METEOR's ``bounded_searches``, ``stage_cache``) are not settings at all.

Declaring a metric's settings (``docs/contributing.md`` walks through it)::

    @dataclass(frozen=True)
    class ROUGESettings(Settings):
        NAME: ClassVar[str] = "ROUGE"
        SIGNATURE: ClassVar[tuple[str, ...]] = ("nrefs", "type", "stem", "version")

        rouge_type: str = setting("rougeL", key="type")
        use_stemmer: bool = setting(False, key="stem", show=yes_no("use_stemmer"),
                                    references=True)
        fast: bool = setting(True, speed=True)

        def validate(self) -> None:
            if self.rouge_type not in TYPES:
                raise OptionError("ROUGE type", self.rouge_type, TYPES)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import field
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from ..version import __version__

S = TypeVar("S", bound="Settings")
M = TypeVar("M")


class FrozenSettingError(AttributeError):
    """A setting was assigned on a metric object: settings are frozen, make a new metric."""


def setting(default: Any = dataclasses.MISSING, *, key: str | None = None,
            show: Callable[[Any], object] | None = None, references: bool = False,
            speed: bool = False) -> Any:
    """One setting (a field of a :class:`Settings` dataclass).

    ``key``: its short key in the signature (None: not shown under a key of its own, e.g. BLEU's
    ``smooth_value`` is shown within ``smooth``); ``show``: the text of that key from the whole
    settings object (default: the value; None leaves the key out); ``references``: prepared
    references depend on it (it is part of ``settings_key()``); ``speed``: a speed switch, which
    changes no result (in neither the key nor the signature).
    """
    return field(default=default, metadata={"key": key, "show": show,
                                            "references": references, "speed": speed})


def yes_no(name: str, yes: str = "yes", no: str = "no") -> Callable[[Any], str]:
    """``show`` for a boolean setting ``name``: ``yes``/``no`` (or the texts given)."""
    return lambda settings: yes if getattr(settings, name) else no


class Settings:
    """Base of every metric's settings (see the module's docstring). Each subclass is a frozen
    dataclass; this base, which has no fields, is not one (its methods would be generated at every
    start-up for nothing: each subclass generates its own)."""

    #: set on each subclass by ``@dataclass`` (declared for the type checker)
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]

    #: the signature's name (:meth:`signature_name` may derive it from the settings)
    NAME: ClassVar[str] = ""
    #: the signature's keys in order: a setting's ``key``, a data fact (:attr:`FACTS`),
    #: ``key=value`` (a constant) or ``version``
    SIGNATURE: ClassVar[tuple[str, ...]] = ()
    #: facts about the data: signature key -> (its name in the statistics' ``meta``, its text when
    #: ``meta`` has none; None: the key is left out)
    FACTS: ClassVar[Mapping[str, tuple[str, str | None]]] = MappingProxyType({"nrefs": ("nrefs", "?")})

    def __post_init__(self) -> None:
        self.validate()
        object.__setattr__(self, "_signatures", {})
        object.__setattr__(self, "_key", None)

    def validate(self) -> None:
        """Check every value (an ``OptionError`` naming the bad one), normalize values with
        :meth:`_set` and compute the derived values (fields declared ``field(init=False)``).
        Called once, on construction."""

    def _set(self, name: str, value: object) -> None:
        """Normalize one field in :meth:`validate` (the dataclass is frozen)."""
        object.__setattr__(self, name, value)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in ("_signatures", "_key")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        object.__setattr__(self, "_signatures", {})
        object.__setattr__(self, "_key", None)

    # ---- what the fields are ----------------------------------------------------------------------

    @classmethod
    def options(cls) -> tuple[dataclasses.Field[Any], ...]:
        """The settings (constructor arguments), in declaration order."""
        return tuple(f for f in dataclasses.fields(cls) if f.init)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every setting's name."""
        return tuple(f.name for f in cls.options())

    @classmethod
    def score_names(cls) -> tuple[str, ...]:
        """The settings that can change a statistic or a score (all but the speed switches)."""
        return tuple(f.name for f in cls.options() if not f.metadata.get("speed"))

    def arguments(self) -> dict[str, Any]:
        """The settings as the constructor's keyword arguments."""
        return {name: getattr(self, name) for name in self.names()}

    def replace(self: S, **changes: Any) -> S:
        """New settings with ``changes`` (validated again)."""
        return dataclasses.replace(self, **changes)

    def key(self) -> tuple[object, ...]:
        """What prepared references depend on (``Metric.settings_key()``), made once: by default
        the class and the fields declared ``references=True`` (:meth:`reference_key`)."""
        key: tuple[object, ...] | None = self.__dict__["_key"]
        if key is None:
            key = self.reference_key()
            object.__setattr__(self, "_key", key)
        return key

    def reference_key(self) -> tuple[object, ...]:
        """The class and the fields declared ``references=True``."""
        return (type(self).__qualname__,
                *(getattr(self, f.name) for f in self.options() if f.metadata.get("references")))

    # ---- the signature ----------------------------------------------------------------------------

    def signature_name(self) -> str:
        """The signature's first part (default :attr:`NAME`)."""
        return self.NAME

    def signature(self, meta: Mapping[str, object] | None = None) -> Any:
        """The :class:`~.base.Signature` of these settings and of the data facts in ``meta``
        (made once per distinct facts: sentence scores ask for it on every call)."""
        names = _FACT_NAMES.get(type(self)) or _fact_names(type(self))
        if meta is None:
            facts: object = None
        elif len(names) == 1:
            facts = meta.get(names[0])
        else:
            facts = tuple(meta.get(name) for name in names)
        known: dict[object, Any] = self.__dict__["_signatures"]
        found = known.get(facts)
        if found is None:
            from .signature import Signature

            found = known[facts] = Signature.of(self.signature_name(), self.signature_fields(meta))
        return found

    def signature_fields(self, meta: Mapping[str, object] | None = None) -> list[tuple[str, object]]:
        """(short key, text) of every part of the signature after its name, in order."""
        meta = meta or {}
        shown = _shown(type(self))
        out: list[tuple[str, object]] = []
        for key in self.SIGNATURE:
            if key in shown:
                value = shown[key](self)
            elif key in self.FACTS:
                name, default = self.FACTS[key]
                value = meta.get(name, default)
            elif key == "version":
                value = __version__
            else:
                key, _, value = key.partition("=")
            if value is not None:
                out.append((key, value))
        return out


def _shown(cls: type[Settings]) -> dict[str, Callable[[Any], object]]:
    """Short key -> how to show it, for the keyed fields of ``cls`` (checked against
    ``cls.SIGNATURE`` once: every keyed field is in it, and every entry of it is known)."""
    known = _SHOWN.get(cls)
    if known is not None:
        return known
    shown: dict[str, Callable[[Any], object]] = {}
    for f in cls.options():
        key = f.metadata.get("key")
        if key is None:
            continue
        if key not in cls.SIGNATURE:
            raise TypeError(f"{cls.__name__}.{f.name}: key {key!r} is not in SIGNATURE")
        show = f.metadata.get("show")
        shown[key] = show if show is not None else _attribute(f.name)
    for key in cls.SIGNATURE:
        if key not in shown and key not in cls.FACTS and key != "version" and "=" not in key:
            raise TypeError(f"{cls.__name__}.SIGNATURE: {key!r} is no setting's key, fact or constant")
    _SHOWN[cls] = shown
    return shown


_SHOWN: dict[type[Settings], dict[str, Callable[[Any], object]]] = {}


def _fact_names(cls: type[Settings]) -> tuple[str, ...]:
    """The names in the statistics' ``meta`` of the data facts ``cls``'s signature shows."""
    names = _FACT_NAMES[cls] = tuple(name for name, _ in cls.FACTS.values())
    return names


_FACT_NAMES: dict[type[Settings], tuple[str, ...]] = {}


def _attribute(name: str) -> Callable[[Any], object]:
    return lambda settings: getattr(settings, name)


def check_tokenizer(name: object) -> None:
    """An :class:`~mtscore.errors.OptionError` listing the tokenizers if ``name`` is none of them."""
    from ..errors import OptionError
    from ..text.tokenizers import TOKENIZERS

    if not isinstance(name, str) or name not in TOKENIZERS:
        raise OptionError("tokenizer", name, TOKENIZERS)


@cache
def tokenizer_signature(name: str) -> str:
    """What a signature records of tokenizer ``name`` (``tok:<signature>``)."""
    from ..text.tokenizers import get_tokenizer

    return get_tokenizer(name).signature()


def show_tokenizer(settings: Any) -> str:
    """``show`` for a ``tokenize`` setting: the tokenizer's signature."""
    return tokenizer_signature(settings.tokenize)


# ---- the module functions' shared metric objects -------------------------------------------------


def shared_metric(cls: Callable[..., M], **arguments: Any) -> M:
    """The metric ``cls(**arguments)``, made once per distinct arguments (their types included:
    ``max_order=4.0`` is refused, not served BLEU(max_order=4)'s object): the module functions
    (``corpus_bleu``, ``sentence_chrf``, ...) are called in loops."""
    try:
        metric: M = _shared(cls, **arguments)
    except TypeError:  # an unhashable argument: the constructor reports what is wrong with it
        return cls(**arguments)
    return metric


@lru_cache(maxsize=256, typed=True)
def _shared(cls: Callable[..., Any], **arguments: Any) -> Any:
    return cls(**arguments)
