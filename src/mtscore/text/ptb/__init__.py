"""Stanford CoreNLP 3.4.1's PTB tokenizer, as coco-caption runs it, in Python (no Java).

* :mod:`.macros` — the lexer grammar's named patterns;
* :mod:`.rules`  — its rules, in order, and their actions;
* :mod:`.lexer`  — the longest-match scanner (:func:`tokenize_lines`);
* :mod:`.coco`   — coco-caption's use of it: ``-lowerCase``, then its punctuation removal
  (:func:`coco_tokenize`).
"""

from .coco import PUNCTUATIONS, coco_tokenize, ptb_lowercase_lines, remove_punctuation
from .lexer import tokenize_lines

__all__ = ["PUNCTUATIONS", "coco_tokenize", "ptb_lowercase_lines", "remove_punctuation",
           "tokenize_lines"]
