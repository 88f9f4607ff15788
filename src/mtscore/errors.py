"""Errors raised for bad input. Every message names where the problem is and what it is.

A message is always one line: control characters (a newline in a file name) and bytes that were not
UTF-8 (surrogate escapes in names the OS gives) are shown escaped, as ``\\n`` and ``\\udcff``.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any


@cache
def _unprintable() -> re.Pattern[str]:
    """C0 and C1 control characters, DEL, line and paragraph separators, and lone surrogates
    (compiled on the first error: most runs have none)."""
    return re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]")


def one_line(text: str) -> str:
    """``text`` with every control character and lone surrogate escaped (``\\n``, ``\\udcff``)."""
    return _unprintable().sub(lambda m: m.group().encode("unicode_escape").decode("ascii")
                              if not "\ud800" <= m.group() <= "\udfff" else f"\\u{ord(m.group()):04x}",
                              text)


class MtscoreError(ValueError):
    """Base class of every error mtscore raises on bad input or options."""

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled whole (message and fields), whatever its constructor takes: an error raised in a
        worker process (:mod:`mtscore.pool`) reaches the caller as it was raised."""
        return _restore, (type(self), self.args, self.__dict__)


def _restore(cls: type[MtscoreError], args: tuple[Any, ...], state: dict[str, Any]) -> MtscoreError:
    error = cls.__new__(cls)
    error.args = args
    error.__dict__.update(state)
    return error


class InputError(MtscoreError):
    """A problem in an input file or stream: names the source, the line (1-based) and the problem."""

    def __init__(self, problem: str, *, source: str | None = None, line: int | None = None):
        self.problem = problem
        self.source = source
        self.line = line
        where = ""
        if source is not None:
            where = f"{source}"
            if line is not None:
                where += f", line {line}"
            where += ": "
        elif line is not None:
            where = f"line {line}: "
        super().__init__(one_line(where + problem))


class OptionError(MtscoreError):
    """An unknown or invalid option; names the option and lists the valid choices when there are some."""

    def __init__(self, option: str, value: object, valid: list[str] | tuple[str, ...] | None = None,
                 detail: str | None = None):
        self.option = option
        self.value = value
        self.valid = tuple(valid) if valid is not None else None
        msg = f"invalid {option} {value!r}"
        if detail:
            msg += f": {detail}"
        if self.valid:
            msg += f" (valid: {', '.join(self.valid)})"
        super().__init__(one_line(msg))


class MissingExtraError(MtscoreError, ImportError):
    """An optional dependency is not installed; the message names the extra to install (an
    ``ImportError`` too, as the errors it replaces were)."""


def require_extra(module: str, extra: str, what: str) -> Any:
    """Import the optional ``module`` (a dependency of the ``extra``), or raise
    :class:`MissingExtraError`: ``<what> needs <module>, which is not installed: pip install
    'mtscore[<extra>]'`` (the one behaviour of every optional import: pandas, matplotlib, dask)."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingExtraError(f"{what} needs {module}, which is not installed: "
                                f"pip install 'mtscore[{extra}]'") from None
