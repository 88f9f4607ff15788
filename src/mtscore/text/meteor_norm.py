"""The METEOR 1.5 jar's ``-norm`` for English (``edu.cmu.meteor.util.Normalizer.normalizeLine`` with
punctuation kept, then lowercased as ``MeteorScorer`` does), as tokenizer ``meteor-norm``.

Rules in the jar's order: pad every character that is not alphanumeric, white space, ``. ' ` , -``
or a curly single quote; protect runs of dots; split commas except between digits; normalise quotes
(`` ` ‘ ’`` → ``'``, ``“ ” ''`` → ``"``) and dashes (``–``, ``--`` → ``-``); split a dash between
alphanumerics (``U.S.-based`` → ``U.S. based``); split English contractions to the right
(``don't`` → ``don 't``); then split a final dot from a word unless the word is a nonbreaking prefix
(the jar's ``nonbreaking/english.prefixes``, shipped in ``lexicon/data``), is followed by a word that
starts with a lowercase ASCII letter, or is a numeric-only prefix followed by a number; dotted
abbreviations lose their dots (``U.S.`` → ``US``). Java's classes are ASCII here: ``\\s``,
``\\p{Digit}`` (0-9) and ``\\p{Lower}`` (a-z); words are split as ``StringTokenizer`` splits them.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

_ALPHA = "A-Za-zŠŽšžŸÀ-ÖØ-öø-ž" + "Ѐ-ӿԀ-ԧꙀ-ꙮ꙾-ꚗᴀ-ᵿ"
_ALNUM = "0-9" + _ALPHA

_SEP_OTHER = re.compile(f"([^{_ALNUM} \\t\\n\\x0b\\f\\r.'`,\\-‘’])")
_MULTI_DOT = re.compile(r"\.([.]+)")
_MULTI_DOT2 = re.compile(r"DOTMULTI\.([^.])")
_COMMAS = (re.compile(r"([^0-9]),([^0-9])"), re.compile(r"([0-9]),([^0-9])"), re.compile(r"([^0-9]),([0-9])"))
_QUOTE = re.compile("[`‘’]")
_QUOTE2 = re.compile("[“”]|''")
_RM_DASH = re.compile(f"([{_ALNUM}.])-([{_ALNUM}])")
_CONTRACTIONS = (
    (re.compile(f"([^{_ALPHA}])'([^{_ALPHA}])"), r"\1 ' \2"),
    (re.compile(f"([^{_ALPHA}0-9])'([{_ALPHA}])"), r"\1 ' \2"),
    (re.compile(f"([{_ALPHA}])'([^{_ALPHA}])"), r"\1 ' \2"),
    (re.compile(f"([{_ALPHA}])'([{_ALPHA}])"), r"\1 '\2"),
    (re.compile("([0-9])'(s)"), r"\1 '\2"),
)
_HAS_ALPHA = re.compile(f"[{_ALPHA}]")
_LOWER_START = re.compile("^[a-z]")
_NUMBER_START = re.compile("^[0-9]+")
_WHITE = re.compile("[  \u2000-\u200a\u202f\u205f\u3000\xa0]+")
#: Java's StringTokenizer delimiters
_SPLIT = re.compile("[ \t\n\r\f]+")
#: the nonbreaking-prefix types of the jar's list
ANY, NUMERIC_ONLY = 1, 2
PREFIXES = Path(__file__).resolve().parents[1] / "lexicon" / "data" / "meteor-english.prefixes"


@functools.cache
def nonbreaking_prefixes() -> dict[str, int]:
    """Prefix → ``ANY`` or ``NUMERIC_ONLY``, read as the jar reads its list (comments start with #)."""
    out: dict[str, int] = {}
    for line in PREFIXES.read_text(encoding="utf-8").split("\n"):
        tokens = [t for t in _SPLIT.split(line) if t]
        if not tokens or tokens[0].startswith("#"):
            continue
        out[tokens[0]] = NUMERIC_ONLY if len(tokens) > 1 and tokens[1] == "#NUMERIC_ONLY#" else ANY
    return out


def _keeps_dot(kind: int | None, following: str | None) -> bool:
    """A listed prefix of any kind, a word followed by one starting lowercase, or a numeric-only
    prefix followed by a number keeps its dot."""
    if kind == ANY or (following is not None and _LOWER_START.match(following)):
        return True
    return kind == NUMERIC_ONLY and following is not None and bool(_NUMBER_START.match(following))


def _dots(words: list[str]) -> str:
    """The words joined again, a final dot split off unless nonbreaking (module doc)."""
    nbp = nonbreaking_prefixes()
    out = list(words)
    for i, word in enumerate(words):
        if word[-1] != "." or len(word) < 2:
            continue
        following = words[i + 1] if i + 1 < len(words) else None
        pre = word[:-1]
        if "." in pre and _HAS_ALPHA.search(pre):
            out[i] = word.replace(".", "")
        elif not _keeps_dot(nbp.get(pre), following):
            out[i] = pre + " ."
    return " ".join(out) + " " if out else ""


def _java_trim(text: str) -> str:
    """Java's ``String.trim``: characters up to U+0020 removed at both ends."""
    start, end = 0, len(text)
    while start < end and text[start] <= " ":
        start += 1
    while end > start and text[end - 1] <= " ":
        end -= 1
    return text[start:end]


def normalize_line(line: str) -> str:
    """The jar's ``Normalizer.normalizeLine(line, English, keepPunctuation=true)`` (not lowercased)."""
    return finish_line(character_rules(f" {line} "))


def character_rules(text: str) -> str:
    """The rules that look at a character and its neighbours (separators, dots, commas, quotes,
    dashes, contractions), on a line padded with a space at both ends, in the jar's order. None
    of them matches a newline next to a padding space, so they can run on many padded lines
    joined by newlines at once (:mod:`.meteor_norm_corpus`)."""
    text = _SEP_OTHER.sub(r" \1 ", text)
    text = _MULTI_DOT.sub(r" DOTMULTI\1", text)
    while "DOTMULTI." in text:
        text = _MULTI_DOT2.sub(r"DOTDOTMULTI \1", text)
        text = text.replace("DOTMULTI.", "DOTDOTMULTI")
    for pattern in _COMMAS:
        text = pattern.sub(r"\1 , \2", text)
    text = _QUOTE2.sub(' " ', _QUOTE.sub("'", text))
    text = text.replace("–", "-").replace("--", "-")
    text = _RM_DASH.sub(r"\1 \2", text)
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    return text


def finish_line(text: str) -> str:
    """The rest, word by word on one line: final dots (:func:`_dots`), protected dots restored,
    white space made single, the line trimmed."""
    text = _dots([w for w in _SPLIT.split(text) if w])
    while "DOTDOTMULTI" in text:
        text = text.replace("DOTDOTMULTI", "DOTMULTI.")
    text = text.replace("DOTMULTI", ".")
    return _java_trim(_WHITE.sub(" ", text))


def normalized_words(line: str) -> str:
    """The normalized line's words (split as the jar's ``StringTokenizer`` splits them) joined by
    single spaces."""
    return " ".join(w for w in _SPLIT.split(normalize_line(line)) if w)


def meteor_norm(line: str) -> str:
    """What the jar matches with ``-norm``: :func:`normalized_words`, lowercased (after the rules:
    the nonbreaking-prefix rule looks at case)."""
    return normalized_words(line).lower()
