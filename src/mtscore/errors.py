"""Errors raised for bad input. Every message names where the problem is and what it is."""

from __future__ import annotations


class MtscoreError(ValueError):
    """Base class of every error mtscore raises on bad input or options."""


class InputError(MtscoreError):
    """A problem in an input file or stream: names the source, the line (1-based) and the problem."""

    def __init__(self, problem: str, *, source: str | None = None, line: int | None = None):
        self.problem = problem
        self.source = source
        self.line = line
        where = ""
        if source is not None:
            where = f"{source}"
            if line is not None:
                where += f", line {line}"
            where += ": "
        elif line is not None:
            where = f"line {line}: "
        super().__init__(where + problem)


class OptionError(MtscoreError):
    """An unknown or invalid option; names the option and lists the valid choices when there are some."""

    def __init__(self, option: str, value: object, valid: list[str] | tuple[str, ...] | None = None,
                 detail: str | None = None):
        self.option = option
        self.value = value
        self.valid = tuple(valid) if valid is not None else None
        msg = f"invalid {option} {value!r}"
        if detail:
            msg += f": {detail}"
        if self.valid:
            msg += f" (valid: {', '.join(self.valid)})"
        super().__init__(msg)
