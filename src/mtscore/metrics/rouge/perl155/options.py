"""Settings of the ROUGE-1.5.5 variant: the script's command-line options and the ROUGE types it prints."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal


def perl_number(value: float) -> str:
    """A number as Perl prints it (``%.15g``): ``95``, ``97.5``, ``1.2``."""
    return f"{value:.15g}"


@dataclass(frozen=True)
class Perl155Options:
    """The options of ROUGE-1.5.5.pl that change a score (defaults = the script's defaults).

    stem: ``-m``, MorphStem (WordNet 2.0 exceptions, then the script's Porter) on tokens longer than 3.
    remove_stopwords: ``-s``, drop the SMART stop words.
    word_limit: ``-l N``, keep the first N words of peer and models (0 = no limit, as in the script).
    byte_limit: ``-b N``, keep the first N bytes of peer and models (0 = no limit, as in the script).
    formula: ``-f A`` (sum the counts over the models) or ``-f B`` (the model with the best recall).
    alpha: ``-p``, F = 1 / (alpha/P + (1-alpha)/R).
    counting: ``-t 0`` (average the per-document scores) or ``-t 1`` (pool the counts, then score).
    resamples: ``-r``, bootstrap resamples behind the printed average and interval.
    confidence: ``-c``, the interval's coverage in percent.
    """

    stem: bool = False
    remove_stopwords: bool = False
    word_limit: int = 0
    byte_limit: int = 0
    formula: Literal["A", "B"] = "A"
    alpha: float = 0.5
    counting: Literal[0, 1] = 0
    resamples: int = 1000
    confidence: float = 95.0

    def __post_init__(self) -> None:
        if self.word_limit and self.byte_limit:
            raise ValueError("ROUGE-1.5.5: give a length limit in words (-l) or in bytes (-b), not both")
        if self.word_limit < 0 or self.byte_limit < 0:
            raise ValueError("ROUGE-1.5.5: a length limit (-l/-b) must be >= 0 (0 = no limit)")
        if self.formula not in ("A", "B"):
            raise ValueError(f"ROUGE-1.5.5: -f must be A or B, not {self.formula!r}")
        if not 0.0 <= self.alpha <= 1.0:
            raise ValueError(f"ROUGE-1.5.5: -p alpha must be within [0, 1], not {self.alpha}")
        if self.counting not in (0, 1):
            raise ValueError(f"ROUGE-1.5.5: -t must be 0 or 1, not {self.counting!r}")
        if self.resamples < 1:
            raise ValueError(f"ROUGE-1.5.5: -r must be >= 1 (the script divides by it), not {self.resamples}")
        if not 0.0 <= self.confidence <= 100.0:
            raise ValueError(f"ROUGE-1.5.5: -c must be within [0, 100], not {self.confidence}")

    def command_line(self) -> list[str]:
        """These options as arguments of ROUGE-1.5.5.pl."""
        args: list[str] = []
        if self.stem:
            args.append("-m")
        if self.remove_stopwords:
            args.append("-s")
        if self.word_limit:
            args += ["-l", str(self.word_limit)]
        if self.byte_limit:
            args += ["-b", str(self.byte_limit)]
        args += ["-f", self.formula, "-p", perl_number(self.alpha), "-t", str(self.counting),
                 "-r", str(self.resamples), "-c", perl_number(self.confidence)]
        return args


Kind = Literal["N", "L", "W", "S", "SU"]


@dataclass(frozen=True)
class RougeType:
    """One ROUGE measure of the script: ``N`` (n-grams of order ``n``), ``L`` (summary-level LCS),
    ``W`` (weighted LCS, ``weight`` = ``-w``), ``S``/``SU`` (skip bigrams with at most ``skip`` words
    between them, ``-2``; negative = no limit; ``SU`` also counts unigrams, ``-u``/``-U``)."""

    kind: Kind
    n: int = 1
    weight: float = 1.2
    skip: int = 4

    def __post_init__(self) -> None:
        if self.kind not in ("N", "L", "W", "S", "SU"):
            raise ValueError(f"ROUGE-1.5.5: unknown type {self.kind!r} (N, L, W, S or SU)")
        if self.kind == "N" and self.n < 1:
            raise ValueError(f"ROUGE-1.5.5: ROUGE-N needs n >= 1, not {self.n}")
        if self.kind == "W" and not self.weight > 0:
            raise ValueError("ROUGE-1.5.5: ROUGE-W weight factor must be greater than 0")

    @property
    def tag(self) -> str:
        """The name the script prints: ROUGE-2, ROUGE-L, ROUGE-W-1.2, ROUGE-S4, ROUGE-SU*."""
        if self.kind == "N":
            return f"ROUGE-{self.n}"
        if self.kind == "L":
            return "ROUGE-L"
        if self.kind == "W":
            return f"ROUGE-W-{perl_number(self.weight)}"
        return f"ROUGE-{self.kind}{self.skip if self.skip >= 0 else '*'}"


def script_types(n: int = 0, lcs: bool = True, weight: float | None = None, skip: int | None = None,
                 unigrams: Literal["", "u", "U"] = "") -> tuple[RougeType, ...]:
    """The types the script computes for ``-n n`` (``-x`` = ``lcs=False``), ``-w weight``, ``-2 skip``
    and ``-u``/``-U``, in the order it prints them."""
    types = [RougeType("N", n=k) for k in range(1, n + 1)]
    if lcs:
        types.append(RougeType("L"))
    if weight is not None:
        types.append(RougeType("W", weight=weight))
    if skip is not None:
        if unigrams != "u":
            types.append(RougeType("S", skip=skip))
        if unigrams:
            types.append(RougeType("SU", skip=skip))
    return tuple(types)


@dataclass(frozen=True)
class ScriptCall:
    """A parsed ROUGE-1.5.5.pl command line: the options, the types it prints, and ``-d``."""

    options: Perl155Options
    types: tuple[RougeType, ...]
    per_document: bool


_FLAGS = {"-m", "-s", "-d", "-u", "-U", "-x"}
_VALUED = {"-n", "-l", "-b", "-f", "-p", "-t", "-r", "-c", "-w", "-2"}


def parse_command_line(args: list[str] | tuple[str, ...]) -> ScriptCall:
    """The scoring options of a ROUGE-1.5.5.pl command line (``-a``, ``-e``, ``-z``, ``-3``, ``-v`` and
    the config file are not scoring options and are rejected here)."""
    flags: set[str] = set()
    values: dict[str, str] = {}
    rest = list(args)
    while rest:
        arg = rest.pop(0)
        if arg in _FLAGS:
            flags.add(arg)
        elif arg in _VALUED and rest:
            values[arg] = rest.pop(0)
        else:
            raise ValueError(f"ROUGE-1.5.5: unsupported or incomplete option {arg!r}")
    counting: Literal[0, 1] = 1 if values.get("-t") == "1" else 0
    if values.get("-t") == "2":
        raise ValueError("ROUGE-1.5.5: -t 2 (raw counts instead of scores) is not supported")
    options = Perl155Options(
        stem="-m" in flags, remove_stopwords="-s" in flags, word_limit=int(values.get("-l", "0")),
        byte_limit=int(values.get("-b", "0")), formula=values.get("-f", "A"),  # type: ignore[arg-type]
        alpha=float(values.get("-p", "0.5")), counting=counting,
        resamples=int(values.get("-r", "1000")), confidence=float(values.get("-c", "95")))
    unigrams: Literal["", "u", "U"] = "u" if "-u" in flags else "U" if "-U" in flags else ""
    types = script_types(n=int(values.get("-n", "0")), lcs="-x" not in flags,
                         weight=float(values["-w"]) if "-w" in values else None,
                         skip=int(values["-2"]) if "-2" in values else None, unigrams=unigrams)
    return ScriptCall(options, types, "-d" in flags)
