"""Reading plain-text segment files: one segment per line, strict UTF-8.

A line is what lies between two '\\n'. A UTF-8 BOM at the start is dropped and a '\\r' before the
'\\n' (CRLF files) is removed; blank lines are valid (empty) segments. Invalid UTF-8 is an error
that names the file and the line; nothing is guessed or replaced. A file whose lines end in '\\r'
alone (old Mac line ends) is refused with a hint: read by the rule above it would be one line.
Every failure to read a path (missing, a folder, permission, symlink loop, name too long, a socket
...) is an :class:`~mtscore.errors.InputError` naming the path and the system's reason.
"""

from __future__ import annotations

import os
import stat
import sys
from typing import BinaryIO

from ..errors import InputError

_BOM = b"\xef\xbb\xbf"


def open_binary(path: str | os.PathLike[str], expected: str = "a text file with one segment per line"
                ) -> BinaryIO:
    """``path`` opened for reading bytes; any failure is an :class:`InputError` naming the path and
    the reason (the OS's, e.g. "Too many levels of symbolic links"). ``expected`` says what the path
    should have been (in the messages for a folder or a socket)."""
    name = os.fspath(path)
    try:
        return open(name, "rb")
    except OSError as err:
        raise os_input_error(err, name, expected) from None
    except ValueError as err:  # a NUL in the path, a name the file system cannot encode
        raise InputError(f"cannot be opened: {err}", source=name) from None


def os_input_error(err: OSError, name: str, expected: str = "a text file with one segment per line"
                   ) -> InputError:
    """The :class:`InputError` for an OS error met opening or reading the input ``name``."""
    if isinstance(err, FileNotFoundError):
        return InputError("broken symbolic link" if os.path.islink(name) else "no such file",
                          source=name)
    if isinstance(err, IsADirectoryError):
        return InputError(f"is a directory, expected {expected}", source=name)
    if isinstance(err, PermissionError):
        return InputError("permission denied", source=name)
    kind = _special_kind(name)
    problem = f"is {kind}, expected {expected}" if kind else f"cannot be read: {err.strerror or err}"
    return InputError(problem, source=name)


def read_bytes(path: str | os.PathLike[str], expected: str = "a text file with one segment per line"
               ) -> bytes:
    """The whole content of ``path``; failures as :func:`open_binary`."""
    name = os.fspath(path)
    with open_binary(name, expected) as handle:
        try:
            return handle.read()
        except OSError as err:  # e.g. EIO, or EISDIR from read() on some systems
            raise os_input_error(err, name, expected) from None


def _special_kind(name: str) -> str | None:
    """"a socket" (or a device) when ``name`` is one: the reason open() fails on it."""
    try:
        mode = os.stat(name).st_mode
    except (OSError, ValueError):
        return None
    kinds = {stat.S_IFSOCK: "a socket", stat.S_IFCHR: "a character device", stat.S_IFBLK: "a block device"}
    return kinds.get(stat.S_IFMT(mode))


def check_line_ends(data: bytes, source: str) -> None:
    """Refuse CR-only line ends (no '\\n' at all, a '\\r' before the last byte)."""
    if b"\n" not in data and b"\r" in data[:-1]:
        crs = data.count(b"\r")
        raise InputError(f"has CR line ends only ({crs} '\\r', no '\\n'): mtscore reads "
                         "one segment per '\\n'-ended line, so this would be one segment; convert the "
                         "line ends first, e.g. tr '\\r' '\\n' < FILE > FILE.unix", source=source)


def decode_lines(data: bytes, source: str) -> list[str]:
    """Split raw bytes into segments (see module doc). ``source`` names the input in errors."""
    data = data.removeprefix(_BOM)
    check_line_ends(data, source)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raw_lines = data.split(b"\n")
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
        lines.pop()  # the final newline ends the last line; it does not start a new one
    return [line.removesuffix("\r") for line in lines]


def read_lines(path: str | os.PathLike[str], *, allow_empty: bool = False) -> list[str]:
    """Read a segment file; ``-`` reads standard input. An empty file is an error unless allowed."""
    name = os.fspath(path)
    if name == "-":
        return read_stream(sys.stdin.buffer, "<stdin>", allow_empty=allow_empty)
    lines = decode_lines(read_bytes(name), name)
    if not lines and not allow_empty:
        raise InputError("empty file: no segments", source=name)
    return lines


def read_stream(stream: BinaryIO, source: str, *, allow_empty: bool = False) -> list[str]:
    """Read segments from a binary stream (e.g. ``sys.stdin.buffer``)."""
    try:
        data = stream.read()
    except OSError as err:
        raise InputError(f"cannot be read: {err.strerror or err}", source=source) from None
    lines = decode_lines(data, source)
    if not lines and not allow_empty:
        raise InputError("empty input: no segments", source=source)
    return lines
