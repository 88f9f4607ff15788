"""The named patterns ("macros") of Stanford CoreNLP 3.4.1's PTB lexer, as Python regular expressions.

Each constant below is one definition of the lexer's grammar (``PTBLexer.flex`` of CoreNLP 3.4.1,
the version coco-caption runs), rewritten for the ``regex`` module. Two conventions of that grammar
are made explicit here:

* the lexer is *caseless* for literal text but not for character classes (JFlex's ``%caseless``):
  :func:`ci` turns a literal into a case-insensitive pattern (``ci("etc")`` matches ``ETC``), while
  classes such as ``[A]`` stay case-sensitive;
* ``[:letter:]`` and ``[:digit:]`` are Java's ``Character.isLetter``/``isDigit`` on UTF-16 code
  units: the scanner (:mod:`.lexer`) feeds the text as UTF-16 code units, so a character outside
  the Basic Multilingual Plane (an emoji) is two surrogates, neither a letter nor a digit.
"""

from __future__ import annotations


def ci(literal: str) -> str:
    """A caseless literal: every ASCII letter ``x`` of ``literal`` becomes ``[xX]`` (JFlex's
    ``%caseless``: each letter its two cases, nothing else); other characters are kept (the caller
    escapes regex syntax where needed)."""
    return "".join(f"[{ch.lower()}{ch.upper()}]" if ch.isascii() and ch.isalpha() else ch
                   for ch in literal)


def alt(*words: str) -> str:
    """Caseless alternatives ``(?:w1|w2|...)``; each word may carry regex syntax."""
    return "(?:" + "|".join(ci(w) for w in words) + ")"


LETTER_CLASS = r"\p{L}"
DIGIT_CLASS = r"\p{Nd}"

SGML = (r"<(?:[!?][A-Za-z\-][^>\r\n]*|[A-Za-z][A-Za-z0-9_:.\-]*(?:[ ]+(?:[A-Za-z][A-Za-z0-9_:.\-]*"
        r"|[A-Za-z][A-Za-z0-9_:.\-]*[ ]*=[ ]*(?:'[^']*'|\"[^\"]*\")))*[ ]*/?"
        r"|/[A-Za-z][A-Za-z0-9_:.\-]*)[ ]*>")
SPMDASH = "&" + alt("MD", "mdash", "ndash") + ";|[\u0096\u0097\u2013\u2014\u2015]"
SPAMP = ci("&amp;")
SPPUNC = "&" + alt("HT", "TL", "UR", "LR", "QC", "QL", "QR", "odq", "cdq", "#[0-9]+") + ";"
SPLET = "&[aeiouAEIOU]" + alt("acute", "grave", "uml") + ";"
SPACE = "[ \t\u00a0\u2000-\u200a\u3000]"
SPACES = SPACE + "+"
NEWLINE = "(?:\r|\r?\n|\u2028|\u2029|\u000b|\u000c|\u0085)"
SPACENL = f"(?:{SPACE}|{NEWLINE})"
SPACENLS = SPACENL + "+"
SENTEND = f"{SPACENL}(?:{SPACENL}|\\p{{Lu}}|{SGML})"
DIGIT = f"[{DIGIT_CLASS}\u07c0-\u07c9]"
DATE = f"{DIGIT}{{1,2}}[\\-/]{DIGIT}{{1,2}}[\\-/]{DIGIT}{{2,4}}"
NUM = f"(?:{DIGIT}+|{DIGIT}*(?:[.:,\u00ad\u066b\u066c]{DIGIT}+)+)"
NUMBER = f"[\\-+]?{NUM}"
SUBSUPNUM = "[\u207a\u207b\u208a\u208b]?(?:[\u2070\u00b9\u00b2\u00b3\u2074-\u2079]+|[\u2080-\u2089]+)"
FRAC = f"(?:{DIGIT}{{1,4}}[\\- \u00a0])?{DIGIT}{{1,4}}(?:\\\\?/|\u2044){DIGIT}{{1,4}}"
FRAC2 = "[\u00bc\u00bd\u00be\u2153-\u215e]"
DOLSIGN = r"(?:[A-Z]*\$|#)"
DOLSIGN2 = ("[\u00a2\u00a3\u00a4\u00a5\u0080\u20a0\u20ac\u060b\u0e3f\u20a4\uffe0\uffe1\uffe5"
            "\uffe6]")
_LETTER_EXTRA = (
    "\u00ad\u0237-\u024f\u02c2-\u02c5\u02d2-\u02df\u02e5-\u02ff\u0300-\u036f\u0370-\u037d\u0384"
    "\u0385\u03cf\u03f6\u03fc-\u03ff\u0483-\u0487\u04cf\u04f6-\u04ff\u0510-\u0525\u055a-\u055f"
    "\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7\u0615-\u061a\u063b-\u063f\u064b-\u065e"
    "\u0670\u06d6-\u06ef\u06fa-\u06ff\u070f\u0711\u0730-\u074f\u0750-\u077f\u07a6-\u07b1"
    "\u07ca-\u07f5\u07fa\u0900-\u0903\u093c\u093e-\u094e\u0951-\u0955\u0962-\u0963\u0981-\u0983"
    "\u09bc-\u09c4\u09c7\u09c8\u09cb-\u09cd\u09d7\u09e2\u09e3\u0a01-\u0a03\u0a3c\u0a3e-\u0a4f"
    "\u0a81-\u0a83\u0abc-\u0acf\u0b82\u0bbe-\u0bc2\u0bc6-\u0bc8\u0bca-\u0bcd\u0c01-\u0c03"
    "\u0c3e-\u0c56\u0d3e-\u0d44\u0d46-\u0d48\u0e30-\u0e3a\u0e47-\u0e4e\u0eb1-\u0ebc\u0ec8-\u0ecd")
LETTER = f"(?:[{LETTER_CLASS}{_LETTER_EXTRA}]|{SPLET})"
LETTER_OR_DIGIT = f"(?:{LETTER}|{DIGIT})"
WORD = f"{LETTER}{LETTER_OR_DIGIT}*(?:[.!?]{LETTER}{LETTER_OR_DIGIT}*)*"
FILENAME_EXT = alt("bat", "bmp", "c", "class", "cgi", "cpp", "dll", "doc", "docx", "exe", "gif",
                   "gz", "h", "htm", "html", "jar", "java", "jpeg", "jpg", "mov", "mp3", "pdf",
                   "php", "pl", "png", "ppt", "ps", "py", "sql", "tar", "txt", "wav", "x", "xml",
                   "zip")
FILENAME = f"{LETTER_OR_DIGIT}+(?:[.]{LETTER_OR_DIGIT}+)*(?:[.]{FILENAME_EXT})"
APOS = "(?:['\u0092\u2019]|" + ci("&apos;") + ")"
APOSETCETERA = f"(?:{APOS}|[`\u0091\u2018\u201b])"
HYPHEN = "[\\-_\u058a\u2010\u2011]"
_LD = f"[{LETTER_CLASS}{DIGIT_CLASS}]"
THING = (f"(?:[dDoOlL]{APOSETCETERA}{_LD})?{_LD}+"
         f"(?:{HYPHEN}(?:[dDoOlL]{APOSETCETERA}{_LD})?{_LD}+)*")
THINGA = f"[A-Z]+(?:(?:[+&]|{SPAMP})[A-Z]+)+"
THING3 = r"[A-Za-z0-9]+(?:-[A-Za-z]+){0,2}(?:\\?/[A-Za-z0-9]+(?:-[A-Za-z]+){0,2}){1,2}"
_SPECIAL_ACRO = (alt("Canada", "Sino", "Korean", "EU", "Japan", "non") + ci(r"-U\.S") + "|"
                 + ci(r"U\.S\.-") + alt(r"U\.K", r"U\.S\.S\.R"))
ACRO = r"(?:[A-Za-z](?:\.[A-Za-z])*|" + _SPECIAL_ACRO + ")"
ACRO2 = r"(?:[A-Za-z](?:\.[A-Za-z])+|" + _SPECIAL_ACRO + ")"
HTHING = f"[A-Za-z0-9][A-Za-z0-9.,\u00ad]*(?:-(?:[A-Za-z0-9\u00ad]+|{ACRO2}\\.))+"
REDAUX = f"{APOS}(?:[msdMSD]|{ci('re')}|{ci('ve')}|{ci('ll')})"
SWORD = "[A-Za-z\u00ad]*[A-MO-Za-mo-z]\u00ad*"
SREDAUX = f"{ci('n')}{APOSETCETERA}{ci('t')}"
_L = LETTER_CLASS
APOWORD = "|".join((
    f"{APOS}{ci('n')}{APOS}?", f"[lLdDjJ]{APOS}", f"{ci('Dunkin')}{APOS}",
    f"{ci('somethin')}{APOS}", f"{ci('ol')}{APOS}", f"{APOS}{ci('em')}",
    f"[A-HJ-XZn]{APOSETCETERA}[{_L}]{{2}}[{_L}]*", f"{APOS}[2-9]0{ci('s')}",
    f"{APOS}{ci('till?')}", f"[{_L}][{_L}]*[aeiouyAEIOUY]{APOSETCETERA}[aeiouA-Z][{_L}]*",
    f"{APOS}{ci('cause')}", ci("cont'd") + r"\.?", ci("'twas"), ci("nor'easter"), ci("c'mon"),
    ci("e'er"), ci("s'mores"), ci("ev'ry"), ci("li'l"), ci("nat'l"), f"{ci('O')}{APOSETCETERA}{ci('o')}"))
APOWORD2 = f"{ci('y')}{APOS}"
FULLURL = ci("http") + "[sS]?" + r"://[^ \t\n\f\r\"<>|(){}]+[^ \t\n\f\r\"<>|.!?(){},-]"
LIKELYURL = (r"(?:(?:" + ci("www") + r"\.(?:[^ \t\n\f\r\"<>|.!?(){},]+\.)+[a-zA-Z]{2,4})"
             r"|(?:(?:[^ \t\n\f\r\"`'<>|.!?(){},-_$]+\.)+" + alt("com", "net", "org", "edu") + "))"
             r"(?:/[^ \t\n\f\r\"<>|()]+[^ \t\n\f\r\"<>|.!?(){},-])?")
EMAIL = (r"(?:" + ci("&lt;") + r"|<)?[a-zA-Z0-9][^ \t\n\f\r\"<>|()\u00a0{}]*@"
         r"(?:[^ \t\n\f\r\"<>|(){}.\u00a0]+\.)*(?:[^ \t\n\f\r\"<>|(){}.\u00a0]+)(?:"
         + ci("&gt;") + r"|>)?")
TWITTER = f"@[a-zA-Z_][a-zA-Z_0-9]*|#{LETTER}+"

ABMONTH = alt("Jan", "Feb", "Mar", "Apr", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec")
ABDAYS = alt("Mon", "Tue", "Tues", "Wed", "Thu", "Thurs", "Fri")
ABSTATE = "(?:" + "|".join((
    ci("Ala"), ci("Ariz"), "[A]" + ci("z"), "[A]" + ci("rk"), ci("Calif"), ci("Colo"), ci("Conn"),
    ci("Ct"), ci("Dak"), "[D]" + ci("el"), ci("Fla"), ci("Ga"), "[I]" + ci("ll"), ci("Ind"),
    ci("Kans?"), ci("Ky"), "[L]" + ci("a"), "[M]" + ci("ass"), ci("Md"), ci("Mich"),
    ci("Minn"), "[M]" + ci("iss"), ci("Mo"), ci("Mont"), ci("Neb"), ci("Nev"), ci("Okla"),
    "[O]" + ci("re"), "[P]" + ci("a"), ci("Penn"), ci("Tenn"), "[T]" + ci("ex"), ci("Va"),
    ci("Vt"), "[W]" + ci("ash"), ci("Wisc?"), ci("Wyo"))) + ")"
ABCOMP = ("(?:" + ci("Inc") + "|" + ci("Cos?") + "|" + ci("Corp") + "|" + ci("Pp?")
          + ci("t") + "[ye]" + ci("s?") + "|" + "|".join(ci(w) for w in (
              "Ltd", "Plc", "Rt", "Bancorp", "Bhd", "Assn", "Univ", "Intl", "Sys")) + ")")
ABNUM = alt("tel", "est", "ext", "sq")
ABPTIT = alt("Jr", "Sr", "Bros", r"Ed\.D", r"Ph\.D", "Blvd", "Rd", "Esq")
ABBREV1 = (f"(?:{ABMONTH}|{ABDAYS}|{ABSTATE}|{ABCOMP}|{ABNUM}|{ABPTIT}|"
           + alt("etc", "al", "seq", "Bldg") + r")\.")
ABTITLE = "(?:" + "|".join((
    ci("Mr"), ci("Mrs"), ci("Ms"), "[M]" + ci("iss"), ci("Drs?"), ci("Profs?"), ci("Sens?"),
    ci("Reps?"), ci("Attys?"), ci("Lt"), ci("Col"), ci("Gen"), ci("Messrs"), ci("Govs?"),
    ci("Adm"), ci("Rev"), ci("Maj"), ci("Sgt"), ci("Cpl"), ci("Pvt"), ci("Capt"), ci("Ste?"),
    ci("Ave"), ci("Pres"), ci("Lieut"), ci("Hon"), ci("Brig"), ci("Co?mdr"), ci("Pfc"),
    ci("Spc"), ci("Supts?"), ci("Det"), ci("Mt"), ci("Ft"), ci("Adj"), ci("Adv"), ci("Asst"),
    ci("Assoc"), ci("Ens"), ci("Insp"), ci("Mlle"), ci("Mme"), ci("Msgr"), ci("Sfc"))) + ")"
ABCOMP2 = "(?:" + ci("Invt") + "|" + ci("Elec") + "|" + ci("Natl") + "|" + ci("M") + "[ft]" \
          + ci("g") + "|" + ci("Dept") + ")"
ABBREV4 = (f"(?:{ABTITLE}|" + alt("vs", "Alex", "Wm", "Jos", "Cie", r"a\.k\.a", "cf", "TREAS", "Ph")
           + f"|{ACRO}|{ABCOMP2})")
ABBREV2 = ABBREV4 + r"\."
ACRONYM = ACRO + r"\."
ABBREV3 = alt("ca", "figs?", "prop", "nos?", "art", "bldg", "prop", "pp", "op") + r"\."
PHONE = (r"(?:\([0-9]{2,3}\)[ \u00a0]?|(?:\+\+?)?(?:[0-9]{2,4}[\- \u00a0])?[0-9]{2,4}[\- \u00a0])"
         r"[0-9]{3,4}[\- \u00a0]?[0-9]{3,5}"
         r"|(?:(?:\+\+?)?[0-9]{2,4}\.)?[0-9]{2,4}\.[0-9]{3,4}\.[0-9]{3,5}")
FAKEDUCKFEET = "<<|>>"
LESSTHAN = "<|" + ci("&lt;")
GREATERTHAN = ">|" + ci("&gt;")
HYPHENS = r"\-+"
LDOTS = "\\.{3,5}|(?:\\.[ \u00a0]){2,4}\\.|[\u0085\u2026]"
FNMARKS = "@+|#+|_+"
ASTS = r"\*+|(?:\\\*){1,3}"
INSENTP = "[,;:\u3001]"
QUOTES = (f"{APOS}|''|[`\u2018\u2019\u201a\u201b\u201c\u201d\u0091\u0092\u0093\u0094\u201e\u201f"
          "\u2039\u203a\u00ab\u00bb]{1,2}")
DBLQUOT = '"|' + ci("&quot;")
TBSPEC = ("-" + alt("RRB", "LRB", "RCB", "LCB", "RSB", "LSB") + "-|" + ci(r"C\.D\.s") + "|"
          + ci("pro-") + "|" + ci("anti-") + "|" + ci("S") + "(?:&|" + SPAMP + ")" + ci("P-500")
          + "|" + ci("S") + "(?:&|" + SPAMP + ")" + ci("Ls") + "|" + ci("Cap") + APOS + ci("n")
          + "|" + ci("c") + APOS + ci("est"))
TBSPEC2 = f"{APOS}[0-9][0-9]"
SMILEY = r"[<>]?[:;=][\-o*']?[()DPdpO\\{@|\[\]]"
_AS = r"[\^x=~<>']"
ASIANSMILEY = (r"[\^x=~<>]\.\[\^" + ci("x") + r"=~<>\]|[\-\^x=~<>']_[\-\^x=~<>']"
               r"|\([\-\^x=~<>'][_.]?[\-\^x=~<>']\)|\([\^x=~<>']-[\^x=~<>'`]\)")
MISCSYMBOL = (
    "[+%&~\\^|\\\\\u00a6\u00a7\u00a8\u00a9\u00ac\u00ae\u00af\u00b0-\u00b3\u00b4-\u00ba\u00d7"
    "\u00f7\u0387\u05be\u05c0\u05c3\u05c6\u05f3\u05f4\u0600-\u0603\u0606-\u060a\u060c\u0614"
    "\u061b\u061e\u066a\u066d\u0703-\u070d\u07f6\u07f7\u07f8\u0964\u0965\u0e4f\u1fbd\u2016"
    "\u2017\u2020-\u2023\u2030-\u2038\u203b\u203e-\u2042\u2044\u207a-\u207f\u208a-\u208e"
    "\u2100-\u214f\u2190-\u21ff\u2200-\u2bff\u3012\u30fb\uff01-\uff0f\uff1a-\uff20"
    "\uff3b-\uff40\uff5b-\uff65]")
#: the words after which an acronym's period also ends the sentence (case-sensitive first letter)
ACRONYM_FOLLOWERS = "(?:" + "|".join(
    f"[{w[0]}]{ci(w[1:])}" for w in (
        "About", "According", "Additionally", "After", "An", "A", "As", "At", "But", "Earlier",
        "He", "Her", "Here", "However", "If", "In", "It", "Last", "Many", "More", r"Mr\.",
        r"Ms\.", "Now", "Once", "One", "Other", "Our", "She", "Since", "So", "Some", "Such",
        "That", "The", "Their", "Then", "There", "These", "They", "This", "We", "When", "While",
        "What", "Yet", "You")) + f"|{SGML})"
