"""The scanner of the PTB lexer: the longest match among the rules, the earlier rule on a tie.

:func:`scan_rule` is the rule: at each position every rule (:data:`.rules.RULES`) that can start
with the characters there is tried, each matched leftmost-longest (POSIX), trailing context counted
in the match's length, as JFlex does (:func:`longest_match`); the winner's action makes the token
and says how far the scan moves on (:func:`apply_action`, :func:`step`). Only the rules whose
pattern can begin with the next two characters are tried (found once per pair by partial
matching), which changes nothing but the speed; so does matching the rules that cannot match
white space (:data:`WITHIN_RUN`) only up to the next white space. :mod:`.words` is the faster path.

The text is scanned as UTF-16 code units, as Java does: a character outside the Basic
Multilingual Plane (most emoji) is two surrogates, matched by no rule but the untokenizable one
(deleted) or inside a URL, an e-mail address or a likely URL, where it is kept whole.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator

import regex

from .compiled import compile_patterns
from .prefixes import PrefixTable, prefix_table
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
_SURROGATE = regex.compile("[\ud800-\udfff]")


#: The rules whose every character class (and literal) excludes the run-ending characters
#: :data:`RUN_END` (``EMAIL``: ``[^ \t\n\f\r"<>|()...]``; ``THING3``, ``HTHING``, ``HTHING./``,
#: ``ABBREV2``: letters, digits, ``. , - / \\ \u00ad`` and ``[,;:\u3001]``), so that a match of
#: theirs at ``pos`` ends before the next of those characters: matching them up to it
#: (``endpos``) gives the same match. It is only faster: each holds a required literal (``@``,
#: ``/``, ``-``, ``.``) that the ``regex`` module first searches for in the whole rest of the text,
#: the whole corpus (``tests/test_ptb_tokenizer.py`` checks the bounded match equals the unbounded).
WITHIN_RUN = frozenset(("EMAIL", "THING3", "HTHING", "HTHING./", "ABBREV2"))
#: the characters that end a run for :data:`WITHIN_RUN`
RUN_END = regex.compile("[ \t\n\f\r]")


class _Compiled:
    """A rule's pattern compiled once (:func:`rule_source`; kept between runs: :mod:`.compiled`);
    ``within_run``: the rule is one of :data:`WITHIN_RUN`."""

    __slots__ = ("pattern", "rule", "within_run")

    def __init__(self, rule: Rule, pattern: regex.Pattern[str]):
        self.rule = rule
        self.pattern = pattern
        self.within_run = rule.name in WITHIN_RUN


def rule_source(rule: Rule) -> tuple[str, int]:
    """A rule's pattern as compiled: the token as group 1, then the trailing context;
    leftmost-longest (POSIX), the match JFlex's automaton finds."""
    return f"({rule.pattern}){rule.trail or ''}", _FLAGS


_SOURCES = [rule_source(rule) for rule in RULES[:-1]]
_COMPILED = tuple(_Compiled(rule, pattern) for rule, pattern in zip(
    RULES[:-1], compile_patterns(_SOURCES)))
#: the last rule: any character but a newline, deleted; it wins only where no other rule matches
_UNTOKENIZABLE = RULES[-1]
_CANDIDATES: dict[str, tuple[_Compiled, ...]] = {}


def rule_candidates(prefix: str) -> tuple[_Compiled, ...]:
    """The rules whose pattern (with its trailing context) can begin with ``prefix`` (the text's
    next one or two characters), in order: those that match it or a part of it, or that it could
    begin (partial matching). A rule that matches at a position begins with the next two
    characters there, or is one character long there: skipping the others changes nothing."""
    pool = _COMPILED if len(prefix) == 1 else candidates(prefix[0])
    return tuple(c for c in pool if c.pattern.match(prefix, partial=True) is not None)


def candidates(prefix: str) -> tuple[_Compiled, ...]:
    """:func:`rule_candidates` of ``prefix``, found once per prefix: from the table of ASCII
    prefixes (:mod:`.prefixes`) or by partial matching."""
    found = _CANDIDATES.get(prefix)
    if found is None:
        mask = _ASCII.mask(prefix) if _ASCII is not None else None
        found = rule_candidates(prefix) if mask is None else tuple(
            c for i, c in enumerate(_COMPILED) if mask >> i & 1)
        _CANDIDATES[prefix] = found
    return found


def _mask(prefix: str) -> int:
    """:func:`rule_candidates` of ``prefix`` as a bit mask (bit i: the i-th rule)."""
    found = {id(c) for c in rule_candidates(prefix)}
    return sum(1 << i for i, c in enumerate(_COMPILED) if id(c) in found)


#: the bit masks of :func:`rule_candidates` of every ASCII prefix (:mod:`.prefixes`; None while
#: they are found)
_ASCII: PrefixTable | None = None
_ASCII = prefix_table(_SOURCES, _mask)


def utf16_units(text: str) -> str:
    """``text`` with every character above U+FFFF written as its two UTF-16 surrogates."""
    if not text or max(text) <= "\uffff":
        return text
    return "".join(map(chr, array("H", text.encode("utf-16-le"))))


def from_utf16_units(token: str) -> str:
    """A token back from UTF-16 code units (surrogate pairs joined; lone surrogates kept)."""
    if _SURROGATE.search(token) is None:
        return token
    return token.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def longest_match(text: str, pos: int) -> tuple[Rule, str, int]:
    """The rule that wins at ``pos`` (longest match, earlier rule on ties), its token text
    (without trailing context) and the match's end."""
    best: tuple[Rule, str, int] | None = None
    best_len = 0
    run_end = -1
    for compiled in candidates(text[pos:pos + 2]):
        if compiled.within_run:  # (the same match, sooner: see WITHIN_RUN)
            if run_end < 0:
                found = RUN_END.search(text, pos)
                run_end = len(text) if found is None else found.start()
            match = compiled.pattern.match(text, pos, run_end)
        else:
            match = compiled.pattern.match(text, pos)
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


#: what :func:`step` returns for a match that makes no token
NOTHING = ""


def step(text: str, pos: int) -> tuple[str | None, int]:
    """One step of the rule at ``pos``: (token, None for a line break or "" for no token; the
    position after it)."""
    rule, matched, end = longest_match(text, pos)
    action = rule.action
    if action is Action.NEWLINE:
        return None, end
    token, consumed = apply_action(action, matched)
    return (NOTHING if token is None else token), pos + consumed


def scan_rule(text: str) -> Iterator[str | None]:
    """The tokens of ``text`` (UTF-16 code units) by the rule alone, position by position, ``None``
    for each line break."""
    pos, n = 0, len(text)
    while pos < n:
        token, pos = step(text, pos)
        if token is not NOTHING:
            yield token
