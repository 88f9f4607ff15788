"""Readers and writers: plain text, references, data sets."""
