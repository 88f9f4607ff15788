"""Readable output: tables in text, JSON, TSV, Markdown and LaTeX; HTML reports and plots."""
