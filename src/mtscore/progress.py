"""Progress bars on standard error for long work, shown only on a terminal (never in pipes or with
--quiet)."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")

#: set by the CLI's ``--quiet``; the API is silent unless a caller asks for progress
_STATE = {"quiet": False}


def set_quiet(quiet: bool) -> None:
    _STATE["quiet"] = bool(quiet)


def enabled() -> bool:
    return not _STATE["quiet"] and sys.stderr.isatty()


def track(iterable: Iterable[T], *, total: int | None = None, desc: str = "",
          min_total: int = 0) -> Iterator[T]:
    """Wrap ``iterable`` in a tqdm bar on stderr when it is a terminal and ``total >= min_total``."""
    if not enabled() or (total is not None and total < min_total):
        yield from iterable
        return
    from tqdm import tqdm

    yield from tqdm(iterable, total=total, desc=desc, file=sys.stderr, leave=False,
                    dynamic_ncols=True)
