"""Lines as word ids in one flat array (what the span encoder gives), read as a sequence of lists.

The corpus-wide aligner (:class:`.align.corpus.Tokens`) reads the flat arrays as they are; the
segment-by-segment paths read one line at a time as a list. Lists are made only for the lines read,
so a corpus the corpus-wide stages settle is never split into millions of small lists.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any, overload

import numpy as np

from ...ragged import ranges


class WordIds(Sequence[list[int] | None]):
    """Line s is ``ids[start[s]:start[s] + lengths[s]]`` as a list, or None where ``present[s]`` is
    False (a missing reference: length 0)."""

    def __init__(self, ids: np.ndarray, lengths: np.ndarray, present: np.ndarray | None = None):
        self.ids = np.asarray(ids, dtype=np.int64)
        self.lengths = np.asarray(lengths, dtype=np.int64)
        self.present = np.ones(len(self.lengths), dtype=bool) if present is None else present
        self._lists: tuple[list[int], list[int], list[int], list[bool]] | None = None

    @classmethod
    def of(cls, lines: Sequence[Sequence[int] | None]) -> WordIds:
        """``lines`` as WordIds (itself if it is one)."""
        if isinstance(lines, WordIds):
            return lines
        present = np.fromiter((x is not None for x in lines), bool, len(lines))
        lengths = np.fromiter((0 if x is None else len(x) for x in lines), np.int64, len(lines))
        ids = np.fromiter(chain.from_iterable(x for x in lines if x is not None), np.int64,
                          int(lengths.sum()))
        return cls(ids, lengths, present)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickled as the arrays (the lists made so far are not sent)."""
        return WordIds, (self.ids, self.lengths, self.present)

    def __len__(self) -> int:
        return len(self.lengths)

    @overload
    def __getitem__(self, s: int) -> list[int] | None: ...

    @overload
    def __getitem__(self, s: slice) -> list[list[int] | None]: ...

    def __getitem__(self, s: int | slice) -> Any:
        if isinstance(s, slice):
            return [self[i] for i in range(*s.indices(len(self)))]
        if self._lists is None:  # the first line read: the arrays as lists, for fast slicing
            stop = np.cumsum(self.lengths)
            self._lists = (self.ids.tolist(), (stop - self.lengths).tolist(), stop.tolist(),
                           self.present.tolist())
        flat, starts, ends, present = self._lists
        return flat[starts[s]:ends[s]] if present[s] else None

    def starts(self) -> np.ndarray:
        """Where each line starts in ``ids``."""
        return np.cumsum(self.lengths) - self.lengths

    def take(self, lines: np.ndarray) -> WordIds:
        """The lines of indices ``lines``, in that order."""
        lengths = self.lengths[lines]
        return WordIds(self.ids[ranges(self.starts()[lines], lengths)], lengths, self.present[lines])

    def spread(self, where: Sequence[Sequence[int]], n: int) -> list[WordIds]:
        """Consecutive blocks of these lines, block k being the lines at positions ``where[k]`` of a
        sequence of ``n`` (the others missing)."""
        out, line, token = [], 0, 0
        for positions in where:
            lengths = self.lengths[line:line + len(positions)]
            size = int(lengths.sum())
            full = np.zeros(n, dtype=np.int64)
            present = np.zeros(n, dtype=bool)
            full[list(positions)] = lengths
            present[list(positions)] = True
            out.append(WordIds(self.ids[token:token + size], full, present))
            line, token = line + len(positions), token + size
        return out
