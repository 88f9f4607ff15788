"""Tokenizers and text normalization."""

from .tokenizers import TOKENIZERS, Tokenizer, get_tokenizer

__all__ = ["TOKENIZERS", "Tokenizer", "get_tokenizer"]
