"""Which rules can begin with each ASCII prefix, found once per machine (a faster path to
:func:`.lexer.rule_candidates`).

At each position the scanner tries only the rules whose pattern can begin with the text's next two
characters; :func:`.lexer.rule_candidates` finds them by partial matching, once per prefix a run
meets, about a tenth of the tokenizer's time on a few thousand captions. This module keeps what
that same function gives for every prefix of one or two characters of :data:`ALPHABET` (printable
ASCII and the newline) as a bit mask per prefix (bit *i*: the lexer's *i*-th rule), in the user
cache directory beside the compiled patterns (:mod:`.compiled`, whose digest of the rules names
the file); later runs read a mask where they would match. The table depends on the rules alone,
never on the text tokenized; any other prefix is still found by partial matching.
``tests/test_ptb_tokenizer.py`` checks that the kept masks equal the partial matching's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .compiled import cache_file, write_atomically

#: the characters of the prefixes kept: printable ASCII, then the newline
ALPHABET = "".join(chr(c) for c in range(0x20, 0x7F)) + "\n"
#: what a kept table starts with (the alphabet its masks are in the order of)
HEADER = b"mtscore PTB prefixes 1\n" + ALPHABET.encode("ascii") + b"\0"


def alphabet_prefixes() -> list[str]:
    """Every prefix kept, in the table's order: each character, then each pair."""
    return [*ALPHABET, *(a + b for a in ALPHABET for b in ALPHABET)]


class PrefixTable:
    """The masks of every prefix of :data:`ALPHABET`, ``width`` bytes each (little-endian), in the
    order of :func:`alphabet_prefixes`, read from ``data`` as they are looked up."""

    __slots__ = ("data", "width")

    def __init__(self, data: bytes, width: int):
        self.data = data
        self.width = width

    @classmethod
    def of(cls, masks: Sequence[int], rules: int) -> PrefixTable:
        width = (rules + 7) // 8
        return cls(b"".join(m.to_bytes(width, "little") for m in masks), width)

    @classmethod
    def read(cls, data: bytes, rules: int) -> PrefixTable | None:
        """A kept table (:meth:`to_bytes`), or None unless it is one for ``rules`` rules."""
        width = (rules + 7) // 8
        n = len(ALPHABET) * (len(ALPHABET) + 1)
        if not data.startswith(HEADER) or len(data) != len(HEADER) + n * width:
            return None
        return cls(data[len(HEADER):], width)

    def to_bytes(self) -> bytes:
        return HEADER + self.data

    def mask(self, prefix: str) -> int | None:
        """The mask of a prefix of one or two characters, None if it is not all :data:`ALPHABET`'s."""
        first = ALPHABET.find(prefix[0])
        if first < 0:
            return None
        if len(prefix) == 1:
            at = first
        else:
            second = ALPHABET.find(prefix[1])
            if second < 0:
                return None
            at = len(ALPHABET) * (first + 1) + second
        return int.from_bytes(self.data[at * self.width:(at + 1) * self.width], "little")


def prefix_table(sources: Sequence[tuple[str, int]], find: Callable[[str], int],
                 use_cache: bool = True) -> PrefixTable:
    """The bit mask of the rules that can begin with each prefix of :data:`ALPHABET`:
    ``find(prefix)`` (the partial matching) of each, or the table kept for these rules'
    ``sources`` (kept when it was not; ``use_cache`` False: found here, nothing kept)."""
    path = None
    if use_cache:
        try:
            path = cache_file(sources, "prefixes", ".bin")
        except (OSError, RuntimeError):  # (no home directory to find the cache in)
            path = None
    if path is not None:
        try:
            table = PrefixTable.read(path.read_bytes(), len(sources))
        except OSError:
            table = None
        if table is not None:
            return table
    table = PrefixTable.of([find(prefix) for prefix in alphabet_prefixes()], len(sources))
    if path is not None:
        write_atomically(path, table.to_bytes())
    return table
