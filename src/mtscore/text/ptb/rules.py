"""The rules of CoreNLP 3.4.1's PTB lexer, in its order, with what each does with its match.

A rule is a pattern, an optional *trailing context* (the lexer's ``r1/r2``: ``r2`` must follow and
counts for the longest match, but is not part of the token) and an action (:class:`Action`). The
scanner (:mod:`.lexer`) takes, at each position, the rule with the longest match, the earlier rule
on a tie — JFlex's rule. The options are those of ``PTBTokenizer -preserveLines`` as coco-caption
runs it: PTB3 escaping (``-LRB-``, LaTeX quotes ``` `` ``` and ``''``, ``--`` dashes, ``...``),
newlines as tokens, untokenizable characters deleted, assimilations split (``can not``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from . import macros as m


class Action(Enum):
    """What a rule makes of its match (the lexer's actions, with coco-caption's options)."""

    KEEP = "keep"                # the matched text
    SOFT = "soft"                # the text without soft hyphens (U+00AD)
    PUSHBACK2 = "pushback2"      # all but the last 2 characters (gonna -> gon + na)
    PUSHBACK3 = "pushback3"      # all but the last 3 (cannot -> can + not; 'twas -> 't + was)
    NBSP = "nbsp"                # spaces become no-break spaces (SGML tags, fractions)
    MDASH = "mdash"              # "--"
    AMP = "amp"                  # &amp; -> &
    QUOTE_LEFT = "quote_left"    # LaTeX quotes, as an opening quote
    QUOTE_RIGHT = "quote_right"  # LaTeX quotes, as a closing quote
    FRACTION = "fraction"        # ¼ ½ ¾ ⅓ ⅔ -> 1/4 ...
    CURRENCY = "currency"        # ¢ -> cents, £ -> #, € and others -> $
    ACRONYM = "acronym"          # sentence-final acronym: "U.S." then "." again; "I." -> "I" "."
    TRIM = "trim"                # the text without trailing white space
    PERIOD_AGAIN = "period_again"  # the text, then its final period again as the next token
    PHONE = "phone"              # spaces -> no-break spaces, parentheses -> -LRB- -RRB-
    SMILEY = "smiley"            # parentheses -> -LRB- -RRB-
    ELLIPSIS = "ellipsis"        # "..."
    HYPHENS = "hyphens"          # 3 or 4 hyphens -> "--"
    LESS = "less"                # "<"
    GREATER = "greater"          # ">"
    LCB = "-LCB-"
    RCB = "-RCB-"
    LSB = "-LSB-"
    RSB = "-RSB-"
    LRB = "-LRB-"
    RRB = "-RRB-"
    SKIP = "skip"                # white space and ignorable characters: no token
    NEWLINE = "newline"          # a line break (-preserveLines)
    DELETE = "delete"            # an untokenizable character: deleted


@dataclass(frozen=True)
class Rule:
    """One lexer rule: ``pattern``, then ``trail`` (trailing context) if any; ``action``."""

    name: str
    pattern: str
    action: Action
    trail: str | None = None


_NOT_LETTER = "[^A-Za-z]"
_ANY = "[\\s\\S]"
_A = Action

#: every rule in the lexer's order (the order breaks ties between matches of equal length)
RULES: tuple[Rule, ...] = (
    Rule("c++", m.ci("c") + r"[+][+]", _A.KEEP),
    Rule("c#", m.alt("c", "f") + "#", _A.KEEP),
    Rule("cannot", m.ci("cannot"), _A.PUSHBACK3),
    Rule("'twas", m.ci("'twas"), _A.PUSHBACK3),
    Rule("'tis", m.ci("'tis"), _A.PUSHBACK2),
    Rule("gonna", m.alt("gonna", "gotta", "lemme", "gimme", "wanna"), _A.PUSHBACK2),
    Rule("SGML", m.SGML, _A.NBSP),
    Rule("SPMDASH", m.SPMDASH, _A.MDASH),
    Rule("SPAMP", m.SPAMP, _A.AMP),
    Rule("SPPUNC", m.SPPUNC, _A.KEEP),
    Rule("WORD/REDAUX", m.WORD, _A.SOFT, m.REDAUX),
    Rule("SWORD/SREDAUX", m.SWORD, _A.SOFT, m.SREDAUX),
    Rule("WORD", m.WORD, _A.SOFT),
    Rule("APOWORD", m.APOWORD, _A.KEEP),
    Rule("APOWORD2", m.APOWORD2, _A.KEEP, f"[{m.LETTER_CLASS}]"),
    Rule("FULLURL", m.FULLURL, _A.KEEP),
    Rule("LIKELYURL", m.LIKELYURL, _A.KEEP),
    Rule("EMAIL", m.EMAIL, _A.KEEP),
    Rule("TWITTER", m.TWITTER, _A.KEEP),
    Rule("REDAUX/", m.REDAUX, _A.QUOTE_RIGHT, _NOT_LETTER),
    Rule("SREDAUX/", m.SREDAUX, _A.QUOTE_RIGHT, _NOT_LETTER),
    Rule("DATE", m.DATE, _A.KEEP),
    Rule("NUMBER", m.NUMBER, _A.SOFT),
    Rule("SUBSUPNUM", m.SUBSUPNUM, _A.KEEP),
    Rule("FRAC", m.FRAC, _A.NBSP),
    Rule("FRAC2", m.FRAC2, _A.FRACTION),
    Rule("TBSPEC", m.TBSPEC, _A.AMP),
    Rule("THING3", m.THING3, _A.KEEP),
    Rule("DOLSIGN", m.DOLSIGN, _A.KEEP),
    Rule("DOLSIGN2", m.DOLSIGN2, _A.CURRENCY),
    Rule("ACRONYM/", m.ACRONYM, _A.ACRONYM, f"{m.SPACENLS}{m.ACRONYM_FOLLOWERS}{m.SPACENL}"),
    Rule("ABBREV3/", m.ABBREV3, _A.TRIM, f"{m.SPACENL}?[{m.DIGIT_CLASS}]"),
    Rule("pty./", "(?:" + m.ci("pt") + "[eyEY]|" + m.ci("co") + r")\.", _A.KEEP,
         f"{m.SPACE}" + m.alt("ltd", "lim")),
    Rule("ABBREV1/SENTEND", m.ABBREV1, _A.PERIOD_AGAIN, m.SENTEND),
    Rule("ABBREV1/", m.ABBREV1, _A.KEEP, _ANY + _ANY),
    Rule("ABBREV1", m.ABBREV1, _A.PERIOD_AGAIN),
    Rule("ABBREV2", m.ABBREV2, _A.KEEP),
    Rule("ABBREV4/", m.ABBREV4, _A.KEEP, m.SPACE),
    Rule("ACRO/", m.ACRO, _A.KEEP, m.SPACENL),
    Rule("TBSPEC2/", m.TBSPEC2, _A.KEEP, m.SPACENL),
    Rule("FILENAME/", m.FILENAME, _A.KEEP, f"(?:{m.SPACENL}|[.?!,])"),
    Rule("WORD./", m.WORD + r"\.", _A.SOFT, m.INSENTP),
    Rule("PHONE", m.PHONE, _A.PHONE),
    Rule("DBLQUOT/", m.DBLQUOT, _A.QUOTE_LEFT, "[A-Za-z0-9$]"),
    Rule("DBLQUOT", m.DBLQUOT, _A.QUOTE_RIGHT),
    Rule("DEL", "\x7f", _A.SKIP),
    Rule("LESSTHAN", m.LESSTHAN, _A.LESS),
    Rule("GREATERTHAN", m.GREATERTHAN, _A.GREATER),
    Rule("SMILEY/", m.SMILEY, _A.SMILEY, "[^A-Za-z0-9]"),
    Rule("ASIANSMILEY", m.ASIANSMILEY, _A.SMILEY),
    Rule("{", r"\{", _A.LCB),
    Rule("}", r"\}", _A.RCB),
    Rule("[", r"\[", _A.LSB),
    Rule("]", r"\]", _A.RSB),
    Rule("(", r"\(", _A.LRB),
    Rule(")", r"\)", _A.RRB),
    Rule("HYPHENS", m.HYPHENS, _A.HYPHENS),
    Rule("LDOTS", m.LDOTS, _A.ELLIPSIS),
    Rule("FNMARKS", m.FNMARKS, _A.KEEP),
    Rule("ASTS", m.ASTS, _A.KEEP),
    Rule("INSENTP", m.INSENTP, _A.KEEP),
    Rule("?!", "[?!]+", _A.KEEP),
    Rule("period", "[.\u00a1\u00bf\u037e\u0589\u061f\u06d4\u0700-\u0702\u07fa\u3002]", _A.KEEP),
    Rule("=", "=", _A.KEEP),
    Rule("/", "/", _A.KEEP),
    Rule("HTHING./", m.HTHING + r"\.", _A.SOFT, m.INSENTP),
    Rule("HTHING", m.HTHING, _A.SOFT),
    Rule("THING./", m.THING + r"\.", _A.KEEP, m.INSENTP),
    Rule("THING", m.THING, _A.KEEP),
    Rule("THINGA./", m.THINGA + r"\.", _A.AMP, m.INSENTP),
    Rule("THINGA", m.THINGA, _A.AMP),
    Rule("'/", "'", _A.QUOTE_LEFT, "[A-Za-z][^ \t\n\r\u00a0]"),
    Rule("REDAUX", m.REDAUX, _A.QUOTE_RIGHT),
    Rule("SREDAUX", m.SREDAUX, _A.QUOTE_RIGHT),
    Rule("QUOTES", m.QUOTES, _A.QUOTE_RIGHT),
    Rule("FAKEDUCKFEET", m.FAKEDUCKFEET, _A.KEEP),
    Rule("MISCSYMBOL", m.MISCSYMBOL, _A.KEEP),
    Rule("SPACES", f"\x00|{m.SPACES}|[\u200b\u200e\u200f\ufeff]", _A.SKIP),
    Rule("NEWLINE", m.NEWLINE, _A.NEWLINE),
    Rule("&nbsp;", m.ci("&nbsp;"), _A.SKIP),
    Rule("untokenizable", "[^\n]", _A.DELETE),
)


# ---- the actions' text rules (the lexer's helper functions) ----

_SINGLE_QUOTE = re.compile("&apos;|'")
_DOUBLE_QUOTE = re.compile('"|&quot;')
_LATEX_QUOTES = (("[\u0091\u2018\u201b\u2039]", "`"), ("[\u0092\u2019\u203a]", "'"),
                 ("[\u0093\u201c\u00ab]", "``"), ("[\u0094\u201d\u00bb]", "''"))
_LATEX = tuple((re.compile(p), r) for p, r in _LATEX_QUOTES)
_AMP = re.compile("&amp;", re.IGNORECASE)
_FRACTIONS = {"\u00bc": "1/4", "\u00bd": "1/2", "\u00be": "3/4", "\u2153": "1/3", "\u2154": "2/3"}
_CURRENCY = (("\u00a2", "cents"), ("\u00a3", "#"), ("\u0080", "$"), ("\u00a4", "$"), ("\u20a0", "$"),
             ("\u20ac", "$"))


def latex_quotes(text: str, probably_left: bool) -> str:
    """PTB3's quotes: ``'`` and ``"`` become `` ` `` and ``` `` ``` when opening, ``'`` and ``''``
    when closing; curly quotes become the same by their direction."""
    text = _SINGLE_QUOTE.sub("`" if probably_left else "'", text)
    text = _DOUBLE_QUOTE.sub("``" if probably_left else "''", text)
    for pattern, replacement in _LATEX:
        text = pattern.sub(replacement, text)
    return text


def remove_soft_hyphens(text: str) -> str:
    """The text without soft hyphens (U+00AD); ``-`` if nothing is left."""
    if "\u00ad" not in text:
        return text
    return text.replace("\u00ad", "") or "-"


def normalize_fractions(text: str) -> str:
    """¼ ½ ¾ ⅓ ⅔ written with a slash (other vulgar fractions are kept)."""
    return "".join(_FRACTIONS.get(ch, ch) for ch in text)


def normalize_currency(text: str) -> str:
    """¢ -> cents, £ -> # (PTB3's pound), the euro and generic currency signs -> $."""
    for sign, replacement in _CURRENCY:
        text = text.replace(sign, replacement)
    return text


def parentheses(text: str) -> str:
    """( -> -LRB-, ) -> -RRB-."""
    return text.replace("(", "-LRB-").replace(")", "-RRB-")


def normalize_amp(text: str) -> str:
    return _AMP.sub("&", text)
