"""The scanner of the PTB lexer: the longest match among the rules, the earlier rule on a tie.

:func:`tokenize_lines` is the rule: at each position every rule (:data:`.rules.RULES`) that can
start with the character there is tried, each matched leftmost-longest (POSIX), trailing context
counted in the match's length, as JFlex does; the winner's action makes the token and says how far
the scan moves on. Only the rules whose pattern can begin with the current character are tried
(found once per character by partial matching), which changes nothing but the speed.

:func:`fast_words` is a faster path for the commonest token, a run of ASCII letters followed by a
space, a line break or the end: no rule can match past such a run except with the same token
(``Mr`` + space as an abbreviation), so the run is the token, unless it is one of the lexer's
split words (``cannot``, ``gonna``, ...); ``tests/test_ptb_tokenizer.py`` checks it equals the rule.

The text is scanned as UTF-16 code units, as Java does: a character outside the Basic
Multilingual Plane (most emoji) is two surrogates, matched by no rule but the untokenizable one
(deleted) or inside a URL, an e-mail address or a likely URL, where it is kept whole.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence

import regex

from .rules import (
    RULES,
    Action,
    Rule,
    latex_quotes,
    normalize_amp,
    normalize_currency,
    normalize_fractions,
    parentheses,
    remove_soft_hyphens,
)

_FLAGS = regex.POSIX | regex.VERSION0


class _Compiled:
    """A rule's pattern compiled once: the token is group 1, the trailing context follows it."""

    __slots__ = ("pattern", "rule")

    def __init__(self, rule: Rule):
        self.rule = rule
        #: leftmost-longest (POSIX): the match JFlex's automaton finds
        self.pattern = regex.compile(f"({rule.pattern}){rule.trail or ''}", _FLAGS)

    def match(self, text: str, pos: int) -> regex.Match[str] | None:
        """The leftmost-longest match at ``pos``, or None."""
        return self.pattern.match(text, pos)


_COMPILED = tuple(_Compiled(rule) for rule in RULES[:-1])
#: the last rule: any character but a newline, deleted; it wins only where no other rule matches
_UNTOKENIZABLE = RULES[-1]
_CANDIDATES: dict[str, tuple[_Compiled, ...]] = {}
_BLANKS = regex.compile(" +")


def candidates(ch: str) -> tuple[_Compiled, ...]:
    """The rules whose pattern (with its trailing context) can begin with ``ch``, in order."""
    found = _CANDIDATES.get(ch)
    if found is None:
        found = tuple(c for c in _COMPILED if c.pattern.match(ch, partial=True) is not None)
        _CANDIDATES[ch] = found
    return found


def utf16_units(text: str) -> str:
    """``text`` with every character above U+FFFF written as its two UTF-16 surrogates."""
    if not text or max(text) <= "\uffff":
        return text
    return "".join(map(chr, array("H", text.encode("utf-16-le"))))


def from_utf16_units(token: str) -> str:
    """A token back from UTF-16 code units (surrogate pairs joined; lone surrogates kept)."""
    if not any("\ud800" <= ch <= "\udfff" for ch in token):
        return token
    return token.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def longest_match(text: str, pos: int) -> tuple[Rule, str, int]:
    """The rule that wins at ``pos`` (longest match, earlier rule on ties), its token text
    (without trailing context) and the match's end."""
    best: tuple[Rule, str, int] | None = None
    best_len = 0
    for compiled in candidates(text[pos]):
        match = compiled.match(text, pos)
        if match is not None and match.end() - pos > best_len:
            best, best_len = (compiled.rule, match.group(1), match.end()), match.end() - pos
    if best is None:  # the untokenizable rule: one character (never a newline: NEWLINE matches)
        return _UNTOKENIZABLE, text[pos], pos + 1
    return best


def apply_action(action: Action, text: str) -> tuple[str | None, int]:
    """(the token or None, how many characters of ``text`` it consumes) for a rule's action."""
    n = len(text)
    if action in (Action.KEEP, Action.SOFT, Action.AMP, Action.NBSP):
        token = text
        if action is Action.SOFT:
            token = remove_soft_hyphens(text)
        elif action is Action.AMP:
            token = normalize_amp(text)
        elif action is Action.NBSP:
            token = text.replace(" ", "\u00a0")
        return token, n
    if action in (Action.QUOTE_LEFT, Action.QUOTE_RIGHT):
        return latex_quotes(text, action is Action.QUOTE_LEFT), n
    if action in (Action.PUSHBACK2, Action.PUSHBACK3):
        keep = n - (2 if action is Action.PUSHBACK2 else 3)
        return text[:keep], keep
    return _special_action(action, text)


def _special_action(action: Action, text: str) -> tuple[str | None, int]:
    n = len(text)
    if action is Action.ACRONYM:
        text = text.rstrip(" \t\n\u000b\u000c\r\u0085")
        if len(text) == 2:  # "I." and the like: the letter, then the period
            return text[:1], 1
        return text, len(text) - 1  # the acronym with its period, then the period again
    if action is Action.TRIM:
        text = text.rstrip(" \t\n\u000b\u000c\r\u0085")
        return text, len(text)
    if action is Action.PERIOD_AGAIN:
        return text, n - 1
    if action is Action.PHONE:
        return parentheses(text.replace(" ", "\u00a0")), n
    if action is Action.SMILEY:
        return parentheses(text), n
    if action is Action.FRACTION:
        return normalize_fractions(text), n
    if action is Action.CURRENCY:
        return normalize_currency(text), n
    if action is Action.MDASH:
        return "--", n
    if action is Action.ELLIPSIS:
        return "...", n
    if action is Action.HYPHENS:
        return ("--" if 3 <= n <= 4 else text), n
    if action is Action.LESS:
        return "<", n
    if action is Action.GREATER:
        return ">", n
    if action in (Action.SKIP, Action.DELETE, Action.NEWLINE):
        return None, n
    return action.value, n  # the bracket tokens: -LCB- -RCB- -LSB- -RSB- -LRB- -RRB-


def scan(text: str, fast: bool = True) -> Iterator[str | None]:
    """The tokens of ``text`` (UTF-16 code units) in order, ``None`` for each line break; with
    ``fast``, context-free words from the cache (:func:`cacheable`)."""
    pos, n = 0, len(text)
    cache = _CHUNK_CACHE if fast else None
    while pos < n:
        if cache is not None and text[pos] == " ":  # spaces: only SPACES begins with one
            pos = _BLANKS.match(text, pos).end()
            continue
        if cache is not None and (pos == 0 or text[pos - 1] in " \n"):
            chunk = _CHUNK.match(text, pos)
            if chunk is not None and chunk.end() < n and cacheable(chunk.group()):
                tokens = cache.get(chunk.group())
                if tokens is None:
                    tokens = word_tokens(chunk.group())
                    if len(cache) >= _CACHE_SIZE:
                        cache.clear()
                    cache[chunk.group()] = tokens
                yield from tokens
                pos = chunk.end()
                continue
        token, pos = _step(text, pos)
        if token is not _NOTHING:
            yield token


_NOTHING = ""


def _step(text: str, pos: int) -> tuple[str | None, int]:
    """One step of the rule at ``pos``: (token, None for a line break or "" for no token; the
    position after it)."""
    rule, matched, end = longest_match(text, pos)
    action = rule.action
    if action is Action.NEWLINE:
        return None, end
    token, consumed = apply_action(action, matched)
    return (_NOTHING if token is None else token), pos + consumed


def word_tokens(chunk: str) -> tuple[str, ...]:
    """The tokens of a cacheable word followed by a space: a run of ASCII letters is one token
    (no rule matches past it but with the same token: an abbreviation or acronym followed by a
    space), unless it is one of the lexer's split words; any other word by the rule."""
    if _LETTERS.fullmatch(chunk) is not None and chunk.lower() not in _SPLIT_WORDS:
        return (chunk,)
    return tuple(t for t in _scan_rule(chunk + " ") if t is not None)


def _scan_rule(text: str) -> Iterator[str | None]:
    """The rule alone, position by position (no cache)."""
    pos, n = 0, len(text)
    while pos < n:
        token, pos = _step(text, pos)
        if token is not _NOTHING:
            yield token


_CHUNK = regex.compile(r"[^ \n]+")
_LETTERS = regex.compile("[A-Za-z]+")
_SPLIT_WORDS = frozenset(("cannot", "gonna", "gotta", "lemme", "gimme", "wanna"))
_CHUNK_CACHE: dict[str, tuple[str, ...]] = {}
_CACHE_SIZE = 200_000
_CONTEXT_FREE = regex.compile(r"[^\s<]*[^\s<.)\p{Nd}\u07c0-\u07c9]", regex.VERSION0)


def cacheable(chunk: str) -> bool:
    """Whether a word (a run of characters between spaces or newlines, not the text's last) is
    tokenized the same whatever follows it, so its tokens can be cached: no white space or ``<``
    in it (SGML tags and the tokens that hold spaces start with ``<``, a digit, ``(`` or ``.``
    and end before their word's last character only if that is a digit, ``)`` or ``.``), and no
    ``.``, ``)`` or digit at its end (abbreviations and acronyms look past the space after their
    period; fractions and phone numbers continue after a space). The trailing contexts of every
    other rule read one character after the word, a space or a newline, which they treat alike.
    """
    return _CONTEXT_FREE.fullmatch(chunk) is not None


def tokenize_lines(lines: Sequence[str], fast: bool = True) -> list[str]:
    """What ``PTBTokenizer -preserveLines`` prints for ``lines`` joined by newlines, one string per
    output line (tokens joined by single spaces), before any lowercasing.

    A line with another line-break character (``\\r``, U+2028, ...) gives more output lines than
    input lines, as the Java tokenizer does; callers that need one line per input line replace
    those characters first (:func:`mtscore.text.ptb.coco.caption_lines`).
    """
    text = utf16_units("\n".join(lines))
    out: list[str] = []
    current: list[str] = []
    for token in scan(text, fast):
        if token is None:
            out.append(" ".join(current))
            current = []
        else:
            current.append(from_utf16_units(token))
    out.append(" ".join(current))
    return out
