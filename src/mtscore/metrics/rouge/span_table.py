"""Dense token ids for the byte spans of one corpus, all found at once: the fast path of
:class:`~mtscore.text.interning.TokenInterner` (``grow=True`` on a new interner) when every text is
encoded in one call, as :func:`.corpus.encode_streams` does (tested equal up to the numbering: equal
ids exactly for equal tokens).

No kernel of its own: each token is the two words of :func:`mtscore.text.interning.token_words`
(equal exactly when the tokens are), grouped by :func:`mtscore.metrics.grouping.representatives`
(hash grouping with exact comparison, as BLEU's clipping uses); the representatives, in order, are
the ids.
"""

from __future__ import annotations

import numpy as np

from ..grouping import representatives


def word_ids(words: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(the id of every token, ids 0 … V-1 equal exactly for equal tokens; for every id, the index
    of one of its tokens), from the tokens' two words (:func:`mtscore.text.interning.token_words`
    of their byte spans), so a caller can let the bytes go before the grouping."""
    n = len(words[0])
    if n == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    rep = representatives(list(words))
    own = rep == np.arange(n)
    dense = np.cumsum(own)  # (in place below: fresh memory costs more than the arithmetic)
    dense -= 1
    return dense.take(rep), np.flatnonzero(own)
