"""METEOR's synonym keys from a compact WordNet 3.0 index that is mapped, not loaded.

The synonym module (Banerjee & Lavie 2005, §2.2 "WN synonymy"; METEOR 1.5's ``SynonymMatcher``) needs
three things of WordNet: whether a string is a lemma of any part of speech, the synsets of a lemma
(all parts of speech), and the exception lists merged over the parts of speech (the jar's morphology,
:meth:`.wordnet.WordNet.base_forms` with ``"meteor"``). Two files hold exactly that, derived from
``wordnet-3.0.txt.gz`` by ``scripts/build_lexicon.py``:

* ``data/wordnet-3.0-synonyms.txt``, the text. ``[lemmas]``: one line per lemma of any part of speech,
  sorted, ``lemma offset offset ...`` -- its synset offsets (n, v, a, r, each in sense order; 8 digits
  each). ``[exceptions]``: ``form base base ...`` -- the bases of ``form`` in the exception lists of
  all parts of speech, in n, v, a, r order, deduplicated (:meth:`.wordnet.WordNet.exceptions`).
* ``data/wordnet-3.0-synonyms.idx``, two hash tables of its lines (one of lemmas, one of exception
  forms) and the lemmas' synonymy keys, little-endian: a header ``<8sQQIIIII`` (:data:`INDEX_MAGIC`,
  :data:`HASH_MODULUS`, :data:`HASH_MIX`, each table's bucket bits, each table's number of entries,
  the number of keys listed); then per table (lemmas first) its bucket directory (uint32, 2**bits + 1:
  the entries of bucket b are ``dir[b]:dir[b+1]``), per table its entries' fingerprints (uint32), per
  table their lines' byte offsets in the text (uint32), each lemma's first key in the key list
  (uint32), the key list (uint32), each lemma's number of keys (uint8).

Keys. Two words are synonyms when the synsets of their base forms meet. A synset whose member lemmas
all belong to another synset too adds nothing to that test: any two of its members share the larger
one. So each lemma keeps, as its keys, only its synsets whose member sets are maximal (in no other
synset's), one key per distinct member set: 174,283 keys instead of 206,941 synset senses, and about
40% fewer for the words of a typical text. Two sets of lemmas share a key exactly when they share a
synset (the build checks both directions over all of WordNet); :meth:`SynonymIndex.synset_ids` gives
the synsets themselves.

A string's hash is ``string_hash`` (the polynomial ``sum(byte[i] * 256**i)`` modulo a prime below
2**48), mixed by one multiplication modulo 2**64 into a bucket (top bits) and a fingerprint (low 32
bits). A lookup compares the fingerprints of one bucket, then verifies the line against the text (it
starts with the string and a space), so a collision can never give a wrong answer.

Both files are memory-mapped: loading reads the header and nothing else; a lookup touches only the
pages it needs. :meth:`SynonymIndex.synset_keys_many` looks up a batch of words with numpy: the hashes
of every word and of every detachment-rule candidate come from prefix sums (no candidate string is
built), then one bucket search and one vectorized verification for all of them.

:meth:`SynonymIndex.synset_ids` equals :meth:`.wordnet.WordNet.synset_ids` for every word (tests check
every lemma, every exception form and random inflections), and the batch equals the word-by-word API.
"""

from __future__ import annotations

import mmap
import re
import struct
import sys
import threading
from collections.abc import Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..ragged import ranges
from .morphology import DETACHMENT_RULES

_DATA_DIR = Path(__file__).parent / "data"
_TEXT_FILE = "wordnet-3.0-synonyms.txt"
_INDEX_FILE = "wordnet-3.0-synonyms.idx"

#: the index file's first 8 bytes (format version 3)
INDEX_MAGIC = b"MTSYNIX3"
#: the prime modulus of :func:`string_hash` (2**48 - 59: a sum of 256 ASCII bytes times weights below
#: it stays below 2**63, so prefix sums need no reduction)
HASH_MODULUS = (1 << 48) - 59
#: the odd multiplier that spreads a hash over 64 bits: bucket = top bits, fingerprint = low 32 bits
HASH_MIX = 0x9E3779B97F4A7C15
#: bucket bits of the two tables (about one lemma a bucket)
LEMMA_BUCKET_BITS, EXCEPTION_BUCKET_BITS = 17, 13
_MASK = (1 << 64) - 1
#: any whitespace but a newline (what ``str.strip`` and ``str.split`` count as whitespace)
_SPACE_BUT_NEWLINE = re.compile(r"[^\S\n]")
HEADER = struct.Struct("<8sQQIIIII")

#: batch words up to this long (a longer one is looked up alone): 256 * 2**7 * 2**48 = 2**63
_MAX_BATCH_LEN = 256

#: the jar's morphology tries all 20 detachment rules of morph.c in noun, verb, adjective order; a
#: repeated rule (noun and verb "s" -> "", "ies" -> "y") is tried once, as the first try already decided it
_RULES: tuple[tuple[str, str], ...] = tuple(
    dict.fromkeys(rule for pos in "nva" for rule in DETACHMENT_RULES[pos]))

#: the same rules by the last letter of their suffix (only those can apply to a word ending in it), in
#: that order
_RULES_BY_LAST: dict[str, tuple[tuple[str, str], ...]] = {
    last: tuple(rule for rule in _RULES if rule[0][-1] == last) for last in {s[-1] for s, _ in _RULES}}


def string_hash(data: bytes) -> int:
    """``sum(data[i] * 256**i) mod HASH_MODULUS``: a polynomial hash whose prefix sums give the hash
    of any prefix, and so of a prefix plus a new ending, without building the string."""
    return int.from_bytes(data, "little") % HASH_MODULUS


def bucket_and_fingerprint(h: int, bits: int) -> tuple[int, int]:
    """The bucket (of ``2**bits``) and the 32-bit fingerprint of a :func:`string_hash` value."""
    mixed = h * HASH_MIX & _MASK
    return mixed >> (64 - bits), mixed & 0xFFFFFFFF


def _suffix_code(suffix: str) -> int:
    """A word's last bytes as one number, last byte lowest (see ``_last4`` in :meth:`SynonymIndex._batch`)."""
    return sum(ord(ch) << (8 * t) for t, ch in enumerate(reversed(suffix)))


# the rules as arrays; row len(_RULES) is "no rule" (a word looked up as it is)
_SUFFIX_LEN = np.array([len(s) for s, _ in _RULES] + [0])
_SUFFIX_MASK = np.array([(1 << (8 * len(s))) - 1 for s, _ in _RULES], np.int64)
_SUFFIX_CODE = np.array([_suffix_code(s) for s, _ in _RULES], np.int64)
_ENDING_LEN = np.array([len(e) for _, e in _RULES] + [0])
_ENDING_BYTES = np.zeros((len(_RULES) + 1, int(_ENDING_LEN.max())), np.uint8)
for _r, (_, _e) in enumerate(_RULES):
    _ENDING_BYTES[_r, :len(_e)] = list(_e.encode("ascii"))
_ENDING_MATRIX = _ENDING_BYTES.astype(np.uint64)

@cache
def _weights() -> np.ndarray:
    """``256**i mod HASH_MODULUS`` for i <= _MAX_BATCH_LEN + 3 (a word and a rule's ending); computed once."""
    table, w = [], 1
    for _ in range(_MAX_BATCH_LEN + 4):
        table.append(w)
        w = w * 256 % HASH_MODULUS
    return np.array(table, np.uint64)


class _Table:
    """One hash table of the index: bucket directory, fingerprints and line offsets, as numpy
    arrays (for batches) and as sequences that index fast from Python (for single words)."""

    def __init__(self, bits: int, directory: np.ndarray, fingerprint: np.ndarray, position: np.ndarray):
        self.bits = bits
        self.shift = 64 - bits
        self.directory, self.fingerprint, self.position = directory, fingerprint, position
        self.seq = tuple(_sequence(a) for a in (directory, fingerprint, position))

    def search(self, hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(query, entry) for every entry whose bucket and fingerprint equal a query hash's, by query."""
        mixed = hashes * np.uint64(HASH_MIX)  # modulo 2**64
        bucket = (mixed >> np.uint64(64 - self.bits)).astype(np.intp)
        lo = self.directory[bucket].astype(np.intp)
        size = self.directory[bucket + 1].astype(np.intp) - lo
        query = np.repeat(np.arange(len(hashes)), size)
        entry = ranges(lo, size)
        same = self.fingerprint[entry] == (mixed & np.uint64(0xFFFFFFFF)).astype(np.uint32)[query]
        return query[same], entry[same]


def _sequence(column: np.ndarray) -> Any:
    """A uint32 column as a memoryview (little-endian machines: the file's order), else a list."""
    if sys.byteorder == "little":
        return column.data.cast("B").cast("I")
    return column.tolist()


class SynonymIndex:
    """Lemma lookups, merged exception lists and synset sets for METEOR's synonym module."""

    def __init__(self, text: Any, index: Any):
        """``text``, ``index``: buffers (bytes or read-only mmaps) of the two files (module docstring)."""
        if len(index) < HEADER.size:
            raise ValueError("corrupt synonym index: no header")
        magic, modulus, mix, lbits, ebits, n_lemmas, n_exc, n_keys = HEADER.unpack_from(index, 0)
        if (magic, modulus, mix) != (INDEX_MAGIC, HASH_MODULUS, HASH_MIX):
            raise ValueError("synonym index of another format or hash: "
                             "rebuild it with scripts/build_lexicon.py")
        shapes = [("<u4", (1 << lbits) + 1), ("<u4", (1 << ebits) + 1), ("<u4", n_lemmas), ("<u4", n_exc),
                  ("<u4", n_lemmas), ("<u4", n_exc), ("<u4", n_lemmas), ("<u4", n_keys), ("u1", n_lemmas)]
        if len(index) != HEADER.size + sum(np.dtype(d).itemsize * n for d, n in shapes):
            raise ValueError("corrupt synonym index: wrong size")
        columns, offset = [], HEADER.size
        for dtype, count in shapes:
            columns.append(np.frombuffer(index, dtype, count, offset))
            offset += np.dtype(dtype).itemsize * count
        ldir, edir, lfp, efp, lpos, epos, self._key_start, self._keys, self._key_count = columns
        self._lemmas = _Table(lbits, ldir, lfp, lpos)
        self._exception_forms = _Table(ebits, edir, efp, epos)
        self._key_start_seq, self._keys_seq = _sequence(self._key_start), _sequence(self._keys)
        self._key_count_seq = self._key_count.data if sys.byteorder == "little" else self._key_count.tolist()
        self._text, self._index = text, index
        self._chars = np.frombuffer(text, np.uint8)
        self._ids: dict[str, frozenset[int]] = {}

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        """Pickles as the receiving process's shared index (mapped there), or else as its two files' bytes."""
        if _load.cache_info().currsize and _load() is self:
            return load_synonyms, ()
        return SynonymIndex, (bytes(self._text), bytes(self._index))

    def __len__(self) -> int:
        """The number of distinct lemmas (147,306 in WordNet 3.0)."""
        return len(self._key_count)

    # -- one word at a time ------------------------------------------------------------------------
    def _entry(self, table: _Table, word: str) -> int:
        """The entry (of ``table``) of the text line whose first field is ``word``, or -1."""
        if not word.isascii() or not word or " " in word or "\n" in word:
            return -1  # no lemma or exception form is empty or holds these
        data = word.encode("ascii")
        mixed = int.from_bytes(data, "little") % HASH_MODULUS * HASH_MIX & _MASK  # bucket_and_fingerprint
        directory, fingerprint, position = table.seq
        bucket = mixed >> table.shift
        fp = mixed & 0xFFFFFFFF
        for e in range(directory[bucket], directory[bucket + 1]):
            if fingerprint[e] == fp:
                pos = position[e]
                end = pos + len(data)
                if self._text[pos:end + 1] == data + b" ":
                    return e
        return -1

    def _offsets(self, word: str) -> str | None:
        """The synset offsets of lemma ``word`` as the raw field ``"02958343 02959942"``, or None."""
        e = self._entry(self._lemmas, word)
        if e < 0:
            return None
        start = self._lemmas.seq[2][e] + len(word) + 1
        return self._text[start:self._text.find(b"\n", start)].decode("ascii")

    def _exceptions(self, word: str) -> tuple[str, ...] | None:
        """The merged exception lists' bases of ``word``, or None when it is in none."""
        e = self._entry(self._exception_forms, word)
        if e < 0:
            return None
        pos = self._exception_forms.seq[2][e]
        return tuple(self._text[pos:self._text.find(b"\n", pos)].decode("ascii").split(" ")[1:])

    def is_lemma(self, word: str) -> bool:
        """Whether ``word`` (lowercase, ``_`` between the words of a collocation) is a lemma."""
        return self._entry(self._lemmas, word) >= 0

    def synsets(self, lemma: str) -> frozenset[int]:
        """The synset offsets of every sense of ``lemma`` (empty if it is no lemma)."""
        found = self._offsets(lemma)
        return frozenset(map(int, found.split())) if found is not None else frozenset()

    def _bases(self, word: str) -> dict[str, int]:
        """Base form -> its lemma entry, in :meth:`base_forms` order."""
        find, lemmas = self._entry, self._lemmas
        found: dict[str, int] = {}
        own = find(lemmas, word)
        if own >= 0:
            found[word] = own
        exc = self._exceptions(word)
        if exc is not None:
            for base in exc:
                if base not in found and (e := find(lemmas, base)) >= 0:
                    found[base] = e
        elif len(word) > 2 and not word.endswith("ss"):
            for suffix, ending in _RULES_BY_LAST.get(word[-1], ()):
                if word.endswith(suffix):
                    candidate = word[: len(word) - len(suffix)] + ending
                    if (e := find(lemmas, candidate)) >= 0:
                        found.setdefault(candidate, e)
                        break
        return found

    def base_forms(self, word: str) -> tuple[str, ...]:
        """The jar's base forms (``SynonymDictionary.getStemSynSets``), the word itself first when
        it is a lemma: the exception lists' bases if any; else, unless the word ends in "ss" or has at
        most 2 letters, the first detachment rule whose result is a lemma. Only lemmas are kept."""
        return tuple(self._bases(word.strip().lower().replace(" ", "_")))

    def synset_ids(self, word: str) -> frozenset[int]:
        """The synsets of all base forms of ``word``: two words are synonyms when these sets meet
        (as their :meth:`synset_keys` do)."""
        return frozenset().union(*map(self.synsets, self.base_forms(word)))

    def _keys_of(self, norm: str) -> frozenset[int]:
        if not norm.isascii():  # no lemma, exception form or rule candidate (it keeps the non-ASCII
            return frozenset()  # characters: rules strip ASCII suffixes) is ASCII
        start, count, keys = self._key_start_seq, self._key_count_seq, self._keys_seq
        return frozenset(k for e in self._bases(norm).values() for k in keys[start[e]:start[e] + count[e]])

    def synset_keys(self, word: str) -> frozenset[int]:
        """The synonymy keys of all base forms of ``word`` (module docstring): two words share a key
        exactly when they share a synset (what the synonym module tests); cached per word."""
        hit = self._ids.get(word)
        if hit is None:
            norm = word.strip().lower().replace(" ", "_")
            hit = self._ids.get(norm)
            if hit is None:
                hit = self._ids[norm] = self._keys_of(norm)
            self._ids[word] = hit
        return hit

    # -- many words at once ------------------------------------------------------------------------
    def synset_keys_many(self, words: Sequence[str]) -> list[frozenset[int]]:
        """:meth:`synset_keys` of every word (the same sets, kept in the same cache), the words not
        yet cached looked up together (:meth:`_batch`): several times faster than one by one."""
        ids = self._ids
        missing = [w for w in words if w not in ids]
        if missing:
            joined = "\n".join(missing)
            if (joined.count("\n") == len(missing) - 1 and _SPACE_BUT_NEWLINE.search(joined) is None
                    and joined.lower() == joined):  # no whitespace, no upper case: normalized already
                new = list(dict.fromkeys(missing))
                ids.update(zip(new, self._batch(new, joined if len(new) == len(missing) else None)))
            else:
                norms = [w.strip().lower().replace(" ", "_") for w in missing]
                new = [n for n in dict.fromkeys(norms) if n not in ids]
                if new:
                    ids.update(zip(new, self._batch(new)))
                ids.update(zip(missing, map(ids.__getitem__, norms)))
        return [ids[w] for w in words]

    def _batch(self, norms: list[str], joined: str | None = None) -> list[frozenset[int]]:
        """:meth:`_keys_of` of distinct normalized words, vectorized.

        Queries, each a string to find among the lemmas: every word itself; for an exception form, the
        bases its line in the text gives; for any other word, unless it ends in "ss" or has at most 2
        letters, each rule of ``_RULES`` that applies, of which the first that finds a lemma counts.
        All are hashed (prefix sums), searched and verified at once, then the found lines' synset
        fields are read. A non-ASCII word has no keys (:meth:`_keys_of`); an empty word, one with a
        newline or one longer than ``_MAX_BATCH_LEN`` is looked up alone. ``joined``: the words joined
        by newlines, if the caller has it."""
        n = len(norms)
        out: list[frozenset[int]] = [frozenset()] * n
        if joined is None:
            joined = "\n".join(norms)
        if (not joined or joined.count("\n") != n - 1 or "\n\n" in joined
                or joined[0] == "\n" or joined[-1] == "\n"):
            odd = [i for i, w in enumerate(norms) if not w or "\n" in w]  # (no newline separates them)
            for i in odd:
                out[i] = self._keys_of(norms[i])
            rest = sorted(set(range(n)).difference(odd))
            if rest:
                for i, keys in zip(rest, self._batch([norms[i] for i in rest])):
                    out[i] = keys
            return out
        data = joined.encode("ascii", "replace")  # one byte a character ("?" for a non-ASCII one)
        chars = np.frombuffer(data, np.uint8)
        ends = np.append(np.flatnonzero(chars == 10), len(chars))
        starts = np.empty_like(ends)
        starts[0] = 0
        starts[1:] = ends[:-1] + 1
        lens = ends - starts
        usable = lens <= _MAX_BATCH_LEN
        if not usable.all():  # (no lemma is that long) one by one, where the hash has no limit
            for i in np.flatnonzero(~usable).tolist():
                out[i] = self._keys_of(norms[i])
        if not joined.isascii():  # non-ASCII words: no keys
            usable &= np.fromiter(map(str.isascii, norms), bool, n)
        modulus = np.uint64(HASH_MODULUS)
        weight = _weights()
        # prefix sums of chars[p] * 256**(p - start of its word): sums of at most 256 terms below
        # 2**55 wrap modulo 2**64 over the whole batch, but never within a word
        within = np.arange(len(chars)) - np.repeat(starts, lens + 1)[:len(chars)]
        prefix = np.zeros(len(chars) + 1, np.uint64)
        np.cumsum(chars * weight[np.minimum(within, _MAX_BATCH_LEN)], out=prefix[1:])
        own = (prefix[ends] - prefix[starts]) % modulus
        short = np.flatnonzero(usable)

        is_exc, bases = self._exception_bases(own, short, chars, starts, lens, n)
        base_words = bases[0]
        base_lens = np.fromiter(map(len, base_words), np.intp, len(base_words))
        base_starts = len(data) + 1 + np.cumsum(base_lens + 1) - (base_lens + 1)
        if base_words:
            chars = np.frombuffer(data + b"\n" + b"\n".join(base_words), np.uint8)
        cw, cr, ck, ch = _rule_candidates(chars, prefix, starts, ends, lens, usable & ~is_exc, weight,
                                          modulus)
        # all queries: (word, column, hash, start in chars, length kept, rule); column 0 the word
        # itself, 1 its rule candidate, 1.. an exception form's bases
        none = len(_RULES)
        queries = (
            np.concatenate([short, cw, np.array(bases[1], np.intp)]),
            np.concatenate([np.zeros(len(short), np.intp), np.ones(len(cw), np.intp),
                            np.array(bases[2], np.intp)]),
            np.concatenate([own[short], ch, np.array([string_hash(b) for b in base_words], np.uint64)]),
            np.concatenate([starts[short], starts[cw], base_starts]),
            np.concatenate([lens[short], ck, base_lens]),
            np.concatenate([np.full(len(short), none), cr, np.full(len(base_words), none)]))
        self._fill(out, *self._found_lines(queries, chars, is_exc), 1 + max(1, max(bases[2], default=0)))
        return out

    def _exception_bases(self, own: np.ndarray, short: np.ndarray, chars: np.ndarray,
                         starts: np.ndarray, lens: np.ndarray, n: int
                         ) -> tuple[np.ndarray, tuple[list[bytes], list[int], list[int]]]:
        """Which words are exception forms, and the bases on their lines (which become queries):
        the bases, the word each is of, and its column (1, 2, ...)."""
        query, entry = self._exception_forms.search(own[short])
        good = self._verify(self._exception_forms.position[entry], chars, starts[short[query]],
                            lens[short[query]], np.full(len(query), len(_RULES)))
        exc_words = short[query[good]]
        is_exc = np.zeros(n, bool)
        is_exc[exc_words] = True
        text = self._text
        base_words: list[bytes] = []
        base_owner: list[int] = []
        base_col: list[int] = []
        for i, pos in zip(exc_words.tolist(), self._exception_forms.position[entry[good]].tolist()):
            bases = text[pos:text.find(b"\n", pos)].split(b" ")[1:]
            base_words.extend(bases)
            base_owner.extend([i] * len(bases))
            base_col.extend(range(1, len(bases) + 1))
        return is_exc, (base_words, base_owner, base_col)

    def _found_lines(self, queries: tuple[np.ndarray, ...], chars: np.ndarray, is_exc: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The lemma lines the queries find: (entry, word, column); of a word's rule candidates only
        the first found counts (queries are by word, then rule)."""
        qw, qc, qh, qs, qk, qr = queries
        query, entry = self._lemmas.search(qh)
        pos = self._lemmas.position[entry].astype(np.intp)
        good = self._verify(pos, chars, qs[query], qk[query], qr[query])
        query, entry = query[good], entry[good]
        w, c = qw[query], qc[query]
        rule = (c == 1) & ~is_exc[w]
        later = rule & np.concatenate([[False], (w[1:] == w[:-1]) & rule[:-1]])
        keep = np.flatnonzero(~later)
        return entry[keep], w[keep], c[keep]

    def _fill(self, out: list[frozenset[int]], entry: np.ndarray, w: np.ndarray, c: np.ndarray,
              cols: int) -> None:
        """Each word's found lines' keys, as one frozenset per word, into ``out``."""
        n = len(out)
        first = np.zeros((n, cols), np.intp)
        first[w, c] = self._key_start[entry]
        counts = np.zeros((n, cols), np.intp)
        counts[w, c] = self._key_count[entry]
        found = np.flatnonzero(counts.ravel())
        if len(found) == 0:
            return
        start, size = first.ravel()[found], counts.ravel()[found]
        keys = self._keys[ranges(start, size)].tolist()
        per_word = counts.sum(axis=1)
        words = np.flatnonzero(per_word)
        stop = np.cumsum(per_word)[words]
        for i, keyset in zip(words.tolist(), map(frozenset, map(keys.__getitem__, map(
                slice, (stop - per_word[words]).tolist(), stop.tolist())))):
            out[i] = keyset

    def _verify(self, pos: np.ndarray, chars: np.ndarray, start: np.ndarray, keep: np.ndarray,
                rule: np.ndarray) -> np.ndarray:
        """Whether the text line at each offset ``pos`` has as its first field exactly the string
        ``chars[start:start + keep]`` + rule ``rule``'s ending (i.e. starts with it and a space)."""
        text = self._chars
        last = len(text) - 1
        ending = _ENDING_LEN[rule]
        over = pos + keep + ending > last  # the text ends first: no match (only near the text's end)
        if over.any():
            pos, keep, ending = np.where(over, 0, pos), np.where(over, 0, keep), np.where(over, 0, ending)
        # the kept prefixes, all at once: chars index c of a query's byte t is start + t, text index pos + t
        ends = np.cumsum(keep)
        c = np.repeat(start - (ends - keep), keep) + np.arange(int(ends[-1]) if len(ends) else 0)
        differ = np.flatnonzero(chars[c] != text[c + np.repeat(pos - start, keep)])
        bad = np.zeros(len(pos), bool)
        bad[np.searchsorted(ends, differ, side="right")] = True
        for j in range(_ENDING_BYTES.shape[1]):  # the ending's bytes
            bad |= (j < ending) & (text[np.minimum(pos + keep + j, last)] != _ENDING_BYTES[rule, j])
        bad |= text[pos + keep + ending] != 32  # the first field ends there
        return ~(bad | over)


def _rule_candidates(chars: np.ndarray, prefix: np.ndarray, starts: np.ndarray, ends: np.ndarray,
                     lens: np.ndarray, usable: np.ndarray, weight: np.ndarray, modulus: np.uint64
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The detachment rules' candidates (by word, then rule) of the usable words that are not
    exception forms, unless a word ends in "ss" or has at most 2 letters: (word, rule, length kept,
    hash), hashed from the prefix sums."""
    last4 = np.zeros(len(lens), np.int64)
    for t in range(4):
        byte = chars[np.maximum(ends - 1 - t, 0)].astype(np.int64)
        last4 |= (byte if t < 3 else np.where(lens > t, byte, 0)) << (8 * t)  # lens > 2 where it counts
    eligible = usable & (lens > 2) & ((last4 & 0xFFFF) != _suffix_code("ss"))
    cw, cr = np.nonzero(((last4[:, None] & _SUFFIX_MASK) == _SUFFIX_CODE) & eligible[:, None])
    ck = lens[cw] - _SUFFIX_LEN[cr]
    nonempty = ck + _ENDING_LEN[cr] > 0  # an empty candidate is no lemma
    cw, cr, ck = cw[nonempty], cr[nonempty], ck[nonempty]
    ch = prefix[starts[cw] + ck] - prefix[starts[cw]]
    for j in range(_ENDING_MATRIX.shape[1]):  # + ending[j] * 256**(ck + j): still below 2**64
        ch += _ENDING_MATRIX[cr, j] * weight[ck + j]
    ch %= modulus
    return cw, cr, ck, ch


_lock = threading.Lock()


def _map(path: Path) -> Any:
    with open(path, "rb") as f:
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


@lru_cache(maxsize=1)
def _load() -> SynonymIndex:
    return SynonymIndex(_map(_DATA_DIR / _TEXT_FILE), _map(_DATA_DIR / _INDEX_FILE))


def load_synonyms() -> SynonymIndex:
    """The shipped synonym index, mapped once (on first use) and shared."""
    with _lock:
        return _load()


__all__ = ["HASH_MIX", "HASH_MODULUS", "INDEX_MAGIC", "SynonymIndex", "bucket_and_fingerprint",
           "load_synonyms", "string_hash"]
