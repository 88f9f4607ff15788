"""The PTB lexer's patterns compiled once per machine, as ``.pyc`` files keep compiled Python.

Compiling the lexer's 80 patterns with the ``regex`` module (its parser is Python) costs more than
tokenizing a few hundred captions. :func:`compile_patterns` compiles them once and keeps the
compiled form in the user cache directory (:func:`mtscore.lexicon.cache.cache_root`, folder
``ptb``), in the ``regex`` module's own pickle format (a pattern pickles as its source, flags and
compiled code); later runs load them. The file's name is a digest of the ``regex`` version, the
Python version and every pattern with its flags, so a change to any of them makes a new file, never
a misread one; a loaded pattern must have its source's text and flags, and the unpickler accepts
nothing but the ``regex`` module's compile function. Anything unreadable is compiled again; a cache
that cannot be written is skipped. The patterns are the same either way: the rules stay their
source text (:mod:`.rules`), the cache only saves the parsing.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import regex

#: bump when the file's layout changes
CACHE_VERSION = 1


def cache_file(sources: Sequence[tuple[str, int]], stem: str = "patterns",
               suffix: str = ".pickle") -> Path:
    """Where the compiled ``sources`` (pattern, flags) are kept (``stem``, ``suffix``: or what
    else is derived from them, :mod:`.prefixes`): named by their digest."""
    from ...lexicon.cache import cache_root

    digest = hashlib.sha256(repr((CACHE_VERSION, regex.__version__, sys.version, list(sources)))
                            .encode("utf-8", "surrogatepass")).hexdigest()
    return cache_root() / "ptb" / f"{stem}-{digest[:24]}{suffix}"


class _PatternUnpickler(pickle.Unpickler):
    """Unpickles compiled ``regex`` patterns and nothing else."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("regex._regex", "compile"):
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f"{module}.{name} is not a compiled pattern")


def load_patterns(path: Path, sources: Sequence[tuple[str, int]]) -> list[Any] | None:
    """The compiled patterns kept at ``path``, or None if there are none or they are not exactly
    ``sources`` (each pattern's text and flags)."""
    try:
        patterns = _PatternUnpickler(io.BytesIO(path.read_bytes())).load()
    except (OSError, pickle.UnpicklingError, EOFError, ValueError, TypeError, AttributeError,
            IndexError, regex.error):
        return None
    if not isinstance(patterns, list) or len(patterns) != len(sources):
        return None
    for pattern, (text, flags) in zip(patterns, sources):
        if not isinstance(pattern, regex.Pattern) or pattern.pattern != text \
                or pattern.flags & flags != flags:
            return None
    return patterns


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole, then rename it there (skipped if the cache directory
    cannot be written)."""
    import tempfile

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    except OSError:
        pass


def save_patterns(path: Path, patterns: Sequence[Any]) -> None:
    """Keep compiled ``patterns`` at ``path`` (:func:`write_atomically`)."""
    write_atomically(path, pickle.dumps(list(patterns), protocol=pickle.HIGHEST_PROTOCOL))


def compile_patterns(sources: Sequence[tuple[str, int]], use_cache: bool = True) -> list[Any]:
    """``regex.compile(pattern, flags)`` of every source, from the cache when it holds them
    (``use_cache`` False: compiled here, the cache untouched)."""
    try:
        path = cache_file(sources) if use_cache else None
    except (OSError, RuntimeError):  # (no home directory to find the cache in)
        path = None
    if path is None:
        return [regex.compile(text, flags) for text, flags in sources]
    patterns = load_patterns(path, sources)
    if patterns is None:
        patterns = [regex.compile(text, flags) for text, flags in sources]
        save_patterns(path, patterns)
    return patterns
