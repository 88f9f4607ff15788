"""Reading plain-text segment files: one segment per line, strict UTF-8.

A line is what lies between two '\\n'. A UTF-8 BOM at the start is dropped and a '\\r' before the
'\\n' (CRLF files) is removed; blank lines are valid (empty) segments. Invalid UTF-8 is an error
that names the file and the line; nothing is guessed or replaced.
"""

from __future__ import annotations

import os
import sys
from typing import BinaryIO

from ..errors import InputError

_BOM = b"\xef\xbb\xbf"


def decode_lines(data: bytes, source: str) -> list[str]:
    """Split raw bytes into segments (see module doc). ``source`` names the input in errors."""
    data = data.removeprefix(_BOM)
    raw_lines = data.split(b"\n")
    if raw_lines and raw_lines[-1] == b"":
        raw_lines.pop()  # the final newline ends the last line; it does not start a new one
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        for number, raw in enumerate(raw_lines, start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as err:
                raise InputError(
                    f"invalid UTF-8 (byte 0x{raw[err.start]:02x} at column {err.start + 1})",
                    source=source, line=number) from None
        raise InputError("invalid UTF-8", source=source) from None
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def read_lines(path: str | os.PathLike[str], *, allow_empty: bool = False) -> list[str]:
    """Read a segment file; ``-`` reads standard input. An empty file is an error unless allowed."""
    name = os.fspath(path)
    if name == "-":
        return read_stream(sys.stdin.buffer, "<stdin>", allow_empty=allow_empty)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise InputError("no such file", source=name) from None
    except IsADirectoryError:
        raise InputError("is a directory, expected a text file with one segment per line",
                         source=name) from None
    except PermissionError:
        raise InputError("permission denied", source=name) from None
    lines = decode_lines(data, name)
    if not lines and not allow_empty:
        raise InputError("empty file: no segments", source=name)
    return lines


def read_stream(stream: BinaryIO, source: str, *, allow_empty: bool = False) -> list[str]:
    """Read segments from a binary stream (e.g. ``sys.stdin.buffer``)."""
    lines = decode_lines(stream.read(), source)
    if not lines and not allow_empty:
        raise InputError("empty input: no segments", source=source)
    return lines
