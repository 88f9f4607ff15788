"""Stanford CoreNLP 3.4.1's PTB tokenizer, as coco-caption runs it, in Python (no Java).

* :mod:`.macros` — the lexer grammar's named patterns;
* :mod:`.rules`  — its rules, in order, and their actions;
* :mod:`.lexer`  — the longest-match scanner, the rule (:func:`.lexer.scan_rule`);
* :mod:`.words`  — its faster path: context-free words tokenized once and cached;
* :mod:`.lines`  — the output lines of ``-preserveLines`` (:func:`tokenize_lines`);
* :mod:`.cut`    — where one run over lines can be cut into two runs with the same output;
* :mod:`.coco`   — coco-caption's use of it: ``-lowerCase``, then its punctuation removal
  (:func:`coco_tokenize`).
"""

from .coco import PUNCTUATIONS, coco_tokenize, ptb_lowercase_lines, remove_punctuation
from .lines import tokenize_lines

__all__ = ["PUNCTUATIONS", "coco_tokenize", "ptb_lowercase_lines", "remove_punctuation",
           "tokenize_lines"]
