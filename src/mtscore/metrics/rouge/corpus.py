"""Texts as token ids, for the whole corpus at once: what the ROUGE kernels read."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True, eq=False)
class EncodedTexts:
    """One token-id sequence per text, concatenated; missing texts (``None`` references) are
    empty and not ``present``. With sentences (ROUGE-Lsum), ``sentence_lengths`` holds the tokens
    of every sentence in order and ``sentence_counts`` the sentences of every text."""

    ids: np.ndarray
    lengths: np.ndarray
    present: np.ndarray
    sentence_lengths: np.ndarray | None = None
    sentence_counts: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.lengths)

    def starts(self) -> np.ndarray:
        """Where each text's tokens start in ``ids``."""
        return np.concatenate(([0], np.cumsum(self.lengths)[:-1])).astype(np.int64)

    def token_lists(self) -> list[list[int]]:
        """Every text's ids as a Python list (for the rules)."""
        flat = self.ids.tolist()
        out, pos = [], 0
        for n in self.lengths.tolist():
            out.append(flat[pos:pos + n])
            pos += n
        return out

    def sentence_lists(self) -> list[list[list[int]]]:
        """Every text's sentences, each a list of ids (for the rules; Lsum only)."""
        assert self.sentence_lengths is not None and self.sentence_counts is not None
        flat, sent = self.ids.tolist(), self.sentence_lengths.tolist()
        out, pos, s = [], 0, 0
        for count in self.sentence_counts.tolist():
            text = []
            for n in sent[s:s + count]:
                text.append(flat[pos:pos + n])
                pos += n
            s += count
            out.append(text)
        return out


class Vocabulary:
    """Token -> id, growing as texts are encoded."""

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}

    def encode(self, texts: Sequence[str | None], tokens_of: Callable[[str], list[str]],
               split: Callable[[str], list[str]] | None = None) -> EncodedTexts:
        """The ids of ``texts`` (sentence by sentence when ``split`` is given)."""
        ids = self.ids
        flat: list[int] = []
        lengths, present, sent_lengths, sent_counts = [], [], [], []
        for text in texts:
            present.append(text is not None)
            if text is None:
                lengths.append(0)
                sent_counts.append(0)
                continue
            start = len(flat)
            pieces = [text] if split is None else split(text)
            for piece in pieces:
                tokens = tokens_of(piece)
                flat.extend([ids.setdefault(t, len(ids)) for t in tokens])
                sent_lengths.append(len(tokens))
            lengths.append(len(flat) - start)
            sent_counts.append(len(pieces))
        as_int = np.asarray
        return EncodedTexts(as_int(flat, dtype=np.int64), as_int(lengths, dtype=np.int64),
                            as_int(present, dtype=bool),
                            None if split is None else as_int(sent_lengths, dtype=np.int64),
                            None if split is None else as_int(sent_counts, dtype=np.int64))
