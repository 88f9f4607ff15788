"""Token spans of a whole corpus, found with numpy on its UTF-8 bytes (13a, intl, zh, zh-fixed, char,
none).

The corpus is the segments joined by ``\\n``; the result is the byte offsets where each token starts
and ends, in order, and how many tokens each segment has. White space (every character that
``str.split`` splits on) separates tokens; a tokenizer only adds *cuts* between two characters.
Every rule looks at ASCII characters and at whether a neighbour is an ASCII digit, and a byte of a
multi-byte character is never an ASCII character, so the rules can run on bytes.

mteval-v13a's rules (sacreBLEU's ``TokenizerRegexp``), applied in order to a segment padded with a
space, become cuts as follows (``x``/``y``: the character before/after; a line edge is a space):

1. ``([\\{-\\~\\[-\\`\\!-\\&\\(-\\+\\:-\\@\\/])`` -> `` \\1 ``: a cut on both sides of each such symbol;
2. ``([^0-9])([\\.,])`` -> ``\\1 \\2 `` and 3. ``([\\.,])([^0-9])`` -> `` \\1 \\2`` run left to right and
   consume what they match, so inside a maximal run ``c1..cm`` of ``.``/``,`` rule 2 pairs
   ``(x,c1),(c2,c3),…`` when x is not a digit and ``(c1,c2),(c3,c4),…`` when it is. Every gap inside
   the run is then cut; the run is cut before ``c1`` when m ≥ 2, or when x or y is not a digit; and
   after ``cm`` when y is not a digit, or when rule 2 paired ``cm`` (x not a digit and m odd, or x a
   digit and m even). Symbols of rule 1 and spaces are non-digits, so the rules see the same
   neighbour classes before and after the cuts of earlier rules;
4. ``([0-9])(-)`` -> ``\\1 \\2 ``: a cut on both sides of each ``-`` that follows a digit.

``zh`` first cuts around every CJK character of sacreBLEU's ranges (without 13a's entity and
``<skipped>`` replacements); CJK characters are non-digits, so 13a's rules then apply unchanged.
``intl`` (mteval-v14: ``(\\P{N})(\\p{P})`` -> ``\\1 \\2 ``, ``(\\p{P})(\\P{N})`` -> `` \\1 \\2``,
``(\\p{S})`` -> `` \\1 ``) is rules 2-3 with Unicode punctuation for ``[.,]`` and Unicode numbers for
``[0-9]``, then a cut around every symbol; the segment is not padded, so a run at the start of a
line, or at its end after sacreBLEU's ``rstrip``, has no neighbour there (like a number); a run may
hold multi-byte characters, whose bytes are never cut apart.
``char`` cuts before every character; ``none`` only splits on white space. Tests compare the tokens
with sacreBLEU's tokenizers on random text.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

#: tokenizers with a span kernel
SPAN_TOKENIZERS = frozenset({"13a", "intl", "zh", "zh-fixed", "char", "none"})

#: every non-ASCII code point str.split() splits on (``chr(c).isspace()``), written out: finding them
#: at import (a loop over 12,000 code points) was a quarter of this package's import cost; a test
#: checks the list against every code point
UNICODE_SPACES = np.array((0x85, 0xA0, 0x1680, *range(0x2000, 0x200B), 0x2028, 0x2029, 0x202F, 0x205F,
                           0x3000), dtype=np.int64)

#: ASCII bytes str.split() splits on: \t \n \v \f \r, \x1c-\x1f and space
_ASCII_SPACES = ((9, 13), (28, 32))
#: 13a rule 1's symbols: [\{-\~\[-\`\!-\&\(-\+\:-\@\/]
_SYMBOLS = ((123, 126), (91, 96), (33, 38), (40, 43), (58, 64), (47, 47))
_DOT, _COMMA, _HYPHEN = ord("."), ord(","), ord("-")
#: ASCII \p{P}, \p{S} and \p{N} (intl): !"#%&'()*,-./:;?@[\]_{} and $+<=>^`|~ and 0-9
_INTL_ASCII = (((33, 35), (37, 42), (44, 47), (58, 59), (63, 64), (91, 93), (95, 95), (123, 123),
                (125, 125)),
               ((36, 36), (43, 43), (60, 62), (94, 94), (96, 96), (124, 124), (126, 126)),
               ((48, 57),))


def _in_ranges(b: np.ndarray, ranges: Sequence[tuple[int, int]]) -> np.ndarray:
    """Bytes within any of the inclusive ranges (``b - lo`` wraps around for bytes below ``lo``)."""
    out = np.zeros(len(b), dtype=bool)
    for lo, hi in ranges:
        out |= (b - np.uint8(lo)) <= np.uint8(hi - lo)
    return out


def _symbols_13a(b: np.ndarray, digit: np.ndarray) -> np.ndarray:
    """``_in_ranges(b, _SYMBOLS)`` (13a rule 1's symbols) in 12 passes instead of 18: the printable
    ASCII characters ``!`` to ``~`` that are not letters, digits (``digit``: :func:`_is_digit` of
    ``b``), ``'`` or one of ``,-.`` (for booleans, ``x > y`` is ``x and not y``)."""
    t = b - np.uint8(33)
    symbol = t <= np.uint8(ord("~") - 33)
    np.greater(symbol, digit, out=symbol)
    np.bitwise_or(b, np.uint8(0x20), out=t)  # a letter's lower case
    t -= np.uint8(ord("a"))
    np.greater(symbol, t <= np.uint8(25), out=symbol)
    np.subtract(b, np.uint8(ord(",")), out=t)
    np.greater(symbol, t <= np.uint8(2), out=symbol)
    np.greater(symbol, b == np.uint8(ord("'")), out=symbol)
    return symbol


def _is_digit(b: np.ndarray) -> np.ndarray:
    return (b - np.uint8(48)) <= np.uint8(9)


def sparse_flatnonzero(mask: np.ndarray) -> np.ndarray:
    """``np.flatnonzero`` of a contiguous bool array in which few elements are True (line breaks,
    punctuation, non-ASCII lead bytes of mostly ASCII text): the 8-byte words that hold a True
    are found first, then the Trues inside those words only (a plain pass when they are many)."""
    full = len(mask) & ~7
    packed = mask[:full].view(np.uint64)
    words = (packed != 0).nonzero()[0]  # (nonzero of a bool array is faster)
    if 4 * len(words) > full >> 3:  # a quarter of the words or more: one plain pass is cheaper
        return mask.nonzero()[0]
    # (the words gathered as uint64: numpy's row indexing of the 8-byte rows costs several times more)
    inside = packed.take(words, mode="clip").view(np.bool_).nonzero()[0]
    at = words[inside >> 3]
    at <<= 3
    at += inside & 7
    if full == len(mask) or not mask[full:].any():
        return at
    return np.concatenate((at, full + mask[full:].nonzero()[0]))


_PADDING = b" " * 24  # (token_words reads up to 24 bytes from a token start)
#: mteval-v13a's entities (:func:`unescape_13a`)
_ENTITIES = (b"&quot;", b"&amp;", b"&lt;", b"&gt;")


def corpus_bytes(lines: Sequence[str], tokenizer: str, lowercase: bool) -> bytes:
    """The segments joined by ``\\n``, lowercased if asked, with 13a's replacements, UTF-8 encoded,
    followed by 24 spaces.

    sacreBLEU also strips trailing white space; that changes no token. The caller makes sure no
    segment contains ``\\n``.
    """
    # line by line: cheaper than encoding (and first allocating) the whole text as one string
    try:
        encoded = list(map(str.encode, map(str.lower, lines) if lowercase else lines))
    except UnicodeEncodeError:  # lone surrogates (possible only through the API) are kept as such
        encoded = [(line.lower() if lowercase else line).encode("utf-8", "surrogatepass")
                   for line in lines]
    if encoded:  # trailing spaces change no token and let readers of 8 bytes stay inside
        encoded[-1] += _PADDING
    data = b"\n".join(encoded)
    if tokenizer == "13a":  # mteval-v13a's language-independent part, in its order; ASCII patterns
        # (match the same characters in UTF-8 bytes as in the text; a search for one byte, memchr,
        # costs a fraction of one for nine)
        if b"<" in data and b"<skipped>" in data:
            data = data.replace(b"<skipped>", b"")
        if b"&" in data:
            data = unescape_13a(data)
    return data


def unescape_13a(data: bytes) -> bytes:
    """mteval-v13a's entity replacements, in its order: ``&quot;`` -> ``"``, then ``&amp;`` -> ``&``,
    then ``&lt;`` -> ``<``, then ``&gt;`` -> ``>``, each over the whole text. Every match starts at an
    ``&`` of the text (an ``&amp;`` leaves its ``&`` where it was), so the four passes are done at
    each ``&`` in turn, not over the whole corpus four times (and not at all when none of the four
    entities occurs: then every pass leaves the text as it is)."""
    at = data.find(b"&")
    while at >= 0 and not data.startswith(_ENTITIES, at):
        at = data.find(b"&", at + 1)
    if at < 0:
        return data
    parts = data.split(b"&")
    out = [parts[0]]
    for part in parts[1:]:
        if part.startswith(b"quot;"):
            out.append(b'"' + part[5:])
            continue
        if part.startswith(b"amp;"):
            part = part[4:]  # its "&" can still start an &lt; or &gt;, not an &quot; (done before)
        if part.startswith(b"lt;"):
            out.append(b"<" + part[3:])
        elif part.startswith(b"gt;"):
            out.append(b">" + part[3:])
        else:
            out.append(b"&" + part)
    return b"".join(out)


def _lead_code_points(b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Start offsets, code points and byte lengths of the non-ASCII characters of UTF-8 bytes."""
    pos = sparse_flatnonzero(b >= 0xC0)
    if len(pos) == 0:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty, empty
    padded = np.concatenate((b, np.zeros(3, dtype=np.uint8)))
    lead = padded[pos].astype(np.int64)
    c1, c2, c3 = ((padded[pos + k].astype(np.int64) & 0x3F) for k in (1, 2, 3))
    size = np.where(lead >= 0xF0, 4, np.where(lead >= 0xE0, 3, 2))
    cp = np.where(size == 2, ((lead & 0x1F) << 6) | c1,
                  np.where(size == 3, ((lead & 0x0F) << 12) | (c1 << 6) | c2,
                           ((lead & 0x07) << 18) | (c1 << 12) | (c2 << 6) | c3))
    return pos, cp, size


def _in_sorted(values: np.ndarray, table: np.ndarray) -> np.ndarray:
    """``np.isin(values, table)`` for a sorted ``table`` of a few numbers: one binary search per
    value (``np.isin`` sorts or builds a table on every call, a cost per call that dominates here)."""
    at = table.searchsorted(values)
    np.minimum(at, len(table) - 1, out=at)
    return table.take(at) == values


def _mark(flags: np.ndarray, pos: np.ndarray, size: np.ndarray) -> None:
    """Set ``flags`` on every byte of the characters starting at ``pos`` with ``size`` bytes."""
    for k in range(4):
        flags[pos[size > k] + k] = True


def _unicode_kinds(cp: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which code points are Unicode punctuation, symbols, numbers (``\\p{P}``, ``\\p{S}``,
    ``\\p{N}`` of the ``regex`` module, which sacreBLEU's intl uses), each distinct one asked once."""
    import regex

    distinct, inverse = np.unique(cp, return_inverse=True)
    text = "".join(map(chr, distinct.tolist()))  # no ASCII: the letters P, S, N cannot occur
    for kind in "PSN":
        text = regex.sub(rf"\p{{{kind}}}", kind, text)
    kinds = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)[inverse]
    return kinds == ord("P"), kinds == ord("S"), kinds == ord("N")


def _cjk_mask(cp: np.ndarray, ranges: Sequence[tuple[int, int]]) -> np.ndarray:
    inside = np.zeros(len(cp), dtype=bool)
    for lo, hi in ranges:
        inside |= (cp >= lo) & (cp <= hi)
    return inside


def line_breaks(data: bytes) -> np.ndarray:
    """The offsets of every ``\\n`` in ``data``."""
    return sparse_flatnonzero(np.frombuffer(data, dtype=np.uint8) == 10)


def token_spans(data: bytes, n_lines: int, tokenizer: str,
                cjk_ranges: Sequence[tuple[int, int]] = (), newlines: np.ndarray | None = None
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(token start offsets, token end offsets, tokens per line) of ``n_lines`` lines joined by \\n.

    ``cjk_ranges``: inclusive code point ranges split as characters by ``zh``/``zh-fixed``;
    ``newlines``: :func:`line_breaks` of ``data``, if the caller has them already.
    """
    b = np.frombuffer(data, dtype=np.uint8)
    L = len(b)
    rules = tokenizer in ("13a", "zh", "zh-fixed")
    space = _in_ranges(b, _ASCII_SPACES)
    cut = np.zeros(L + 1, dtype=bool)  # cut[i]: tokens break between byte i-1 and byte i
    if tokenizer == "intl":
        punct, symbol, number = (_in_ranges(b, ranges) for ranges in _INTL_ASCII)
    if not data.isascii():
        pos, cp, size = _lead_code_points(b)
        unicode_space = _in_sorted(cp, UNICODE_SPACES)
        if unicode_space.any():
            _mark(space, pos[unicode_space], size[unicode_space])
        if cjk_ranges:
            cjk = _cjk_mask(cp, cjk_ranges)
            cut[pos[cjk]] = True
            cut[pos[cjk] + size[cjk]] = True
        if tokenizer == "intl":
            for flags, kind in zip((punct, symbol, number), _unicode_kinds(cp)):
                _mark(flags, pos[kind], size[kind])
    if tokenizer == "char":
        cut[:L] |= (b & np.uint8(0xC0)) != np.uint8(0x80)  # before every character
    if newlines is None:
        newlines = line_breaks(data)
    if len(newlines) != n_lines - 1:
        raise ValueError("token_spans needs exactly one \\n between lines and none inside them")
    bounds = np.empty(n_lines + 1, dtype=np.int64)
    bounds[0], bounds[-1] = 0, L + 1
    bounds[1:-1] = newlines + 1
    solid = ~space
    if tokenizer == "intl":  # not stripped on the left, stripped on the right (sacreBLEU's rstrip)
        solid_at = solid.nonzero()[0]
        where = np.searchsorted(solid_at, bounds)
        has = where[1:] > where[:-1]  # lines with a non-space byte
        char_start = (b & np.uint8(0xC0)) != np.uint8(0x80)
        _cut_runs(cut, punct, number, char_start, bounds[:-1], solid_at[where[1:][has] - 1])
        if L > 1:  # a cut before and after every symbol character
            cut[1:L] |= symbol[:-1] & char_start[1:]
        symbol &= char_start
        cut[:L] |= symbol
    if rules:
        edges = None
        if tokenizer != "13a":
            solid_at = solid.nonzero()[0]
            where = np.searchsorted(solid_at, bounds)
            has = where[1:] > where[:-1]  # lines with a non-space byte
            edges = (solid_at[where[:-1][has]], solid_at[where[1:][has] - 1])
        _cut_13a(b, cut, edges)
    # a token is a run of non-space bytes between two breaks: a cut or white space on either side
    cut[0] = cut[L] = True
    cut[1:] |= space
    cut[:L] |= space
    starts = (solid & cut[:L]).nonzero()[0]
    ends = (solid & cut[1:]).nonzero()[0]
    ends += 1
    lengths = np.diff(starts.searchsorted(bounds))
    return starts, ends, lengths


def _cut_13a(b: np.ndarray, cut: np.ndarray, edges: tuple[np.ndarray, np.ndarray] | None) -> None:
    """Add the cuts of mteval-v13a's four rules (see the module doc) to ``cut``.

    ``edges``: for ``zh``, which strips the segment and does not pad it, the offsets of the first
    and of the last non-space byte of every line; a run of ``.``/``,`` there has no neighbour on that
    side, which the rules treat like a digit (neither rule 2 nor rule 3 can match across it).
    """
    L = len(b)
    digit = _is_digit(b)
    symbol = _symbols_13a(b, digit)
    cut[:L] |= symbol
    cut[1:] |= symbol
    if L > 1:  # rule 4: "-" after a digit
        hyphen = b[1:] == _HYPHEN
        hyphen &= digit[:-1]
        hyphen = sparse_flatnonzero(hyphen)
        hyphen += 1
        cut[hyphen] = True
        cut[hyphen + 1] = True
    x_edges, y_edges = edges if edges is not None else (None, None)
    _cut_runs(cut, (b == _DOT) | (b == _COMMA), digit, None, x_edges, y_edges)


def _cut_runs(cut: np.ndarray, punct: np.ndarray, number: np.ndarray, char_start: np.ndarray | None,
              x_edges: np.ndarray | None, y_edges: np.ndarray | None) -> None:
    """Cuts of ``([^N])(P)`` -> ``\\1 \\2 `` then ``(P)([^N])`` -> `` \\1 \\2`` (13a's rules 2-3 with
    P = ``[.,]``, N = ``[0-9]``; intl's first two rules with Unicode P and N): see the module doc.

    ``punct``/``number``: every byte of a P/N character; ``char_start``: bytes that start a
    character (None: all of them, ASCII runs); ``x_edges``/``y_edges``: offsets where a run that
    starts/ends there has no neighbour on that side (like an N: no rule matches across it).
    """
    L = len(punct)
    at = sparse_flatnonzero(punct)
    if len(at) == 0:
        return
    first = np.ones(len(at), dtype=bool)  # starts a run of P characters
    first[1:] = at[1:] != at[:-1] + 1
    last = np.ones(len(at), dtype=bool)
    last[:-1] = first[1:]
    run_start, run_end = at[first], at[last] + 1  # run_end exclusive
    if char_start is None:
        cut[at[~first]] = True  # every gap inside a run
        m = run_end - run_start  # characters per run
    else:
        starts_char = char_start[at]
        cut[at[starts_char & ~first]] = True
        counted = np.cumsum(starts_char)
        m = counted[last] - counted[first] + 1
    x_number = np.zeros(len(run_start), dtype=bool)
    inner = run_start > 0
    x_number[inner] = number[run_start[inner] - 1]
    y_number = np.zeros(len(run_end), dtype=bool)
    inner = run_end < L
    y_number[inner] = number[run_end[inner]]
    if x_edges is not None:
        x_number |= np.isin(run_start, x_edges)
    if y_edges is not None:
        y_number |= np.isin(run_end - 1, y_edges)
    single = m == 1
    either = ~x_number | ~y_number
    cut[run_start[~single | either]] = True
    paired_last = ~x_number == (m % 2 == 1)
    cut[run_end[np.where(single, either, ~y_number | paired_last)]] = True
