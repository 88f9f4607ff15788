"""Reading plain-text segment files: one segment per line, strict UTF-8.

A line is what lies between two '\\n'. A UTF-8 BOM at the start is dropped and a '\\r' before the
'\\n' (CRLF files) is removed; blank lines are valid (empty) segments. Invalid UTF-8 is an error
that names the file and the line; nothing is guessed or replaced. A file whose lines end in '\\r'
alone (old Mac line ends) is refused with a hint: read by the rule above it would be one line.
Every failure to read a path (missing, a folder, permission, symlink loop, name too long, a socket
...) is an :class:`~mtscore.errors.InputError` naming the path and the system's reason.

Compressed input is read as sacreBLEU reads it, whatever the file's name: gzip, xz and bzip2 data
are recognized by their first bytes (:func:`decompressed`) and decompressed as they are read;
corrupt or truncated data is an error naming the file. A UTF-16 byte-order mark is refused with
the conversion to make (mtscore reads UTF-8 only; nothing is guessed).
"""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from typing import BinaryIO, TypeVar, cast

from ..errors import InputError

_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = {b"\xff\xfe": "FF FE (UTF-16 little-endian)", b"\xfe\xff": "FE FF (UTF-16 big-endian)"}
#: the first bytes of each compressed format read transparently, and its name
_MAGIC = ((b"\x1f\x8b", "gzip"), (b"\xfd7zXZ\x00", "xz"), (b"BZh", "bzip2"))

T = TypeVar("T")


def compression(head: bytes) -> str | None:
    """The compressed format whose magic bytes ``head`` starts with (gzip, xz, bzip2), or None."""
    return next((name for magic, name in _MAGIC if head.startswith(magic)), None)


def decompressed(handle: BinaryIO) -> BinaryIO:
    """``handle`` itself, or a stream of its decompressed bytes when it starts with gzip, xz or
    bzip2 data (peeked, not consumed; ``handle`` must have ``peek``, as files and stdin do)."""
    peek = getattr(handle, "peek", None)
    kind = compression(peek(6)[:6]) if peek is not None else None
    if kind == "gzip":
        import gzip

        return cast(BinaryIO, gzip.GzipFile(fileobj=handle, mode="rb"))
    if kind == "xz":
        import lzma

        return cast(BinaryIO, lzma.LZMAFile(handle, mode="rb"))
    if kind == "bzip2":
        import bz2

        return cast(BinaryIO, bz2.BZ2File(handle, mode="rb"))
    return handle


def read_error(err: Exception, source: str) -> InputError | None:
    """The :class:`InputError` for a failure while reading (decompressing) ``source``: an OS error,
    or corrupt or truncated compressed data; None for any other exception."""
    import lzma

    if isinstance(err, EOFError):
        return InputError("compressed data ends early (a truncated file?)", source=source)
    if isinstance(err, lzma.LZMAError) or type(err).__name__ == "BadGzipFile":
        return InputError(f"corrupt compressed data: {err}", source=source)
    if isinstance(err, OSError):
        reason = err.strerror or str(err)
        return InputError(f"cannot be read: {reason}", source=source)
    return None


def checked_read(read: Callable[[], T], source: str, expected: str | None = None) -> T:
    """``read()``, a failure of it raised as the :class:`InputError` naming ``source``
    (:func:`read_error`; with ``expected``, an OS error with an errno as :func:`os_input_error`);
    any other exception propagates unchanged."""
    try:
        return read()
    except Exception as err:  # e.g. EIO, EISDIR from read() on some systems, corrupt gzip data
        if expected is not None and isinstance(err, OSError) and err.errno is not None:
            raise os_input_error(err, source, expected) from None
        error = read_error(err, source)
        if error is None:
            raise
        raise error from None


def may_be_cut_bom(head: bytes) -> bool:
    """Whether ``head`` (the first bytes read, fewer than a UTF-8 BOM's three) may be a byte-order
    mark, UTF-8's or UTF-16's, cut by the read: read more before deciding what the file starts with."""
    return len(head) < len(_BOM) and any(bom.startswith(head) for bom in (_BOM, *_UTF16_BOMS))


def check_not_utf16(head: bytes, source: str) -> None:
    """Refuse input that starts with a UTF-16 byte-order mark, saying how to convert it."""
    for bom, what in _UTF16_BOMS.items():
        if head.startswith(bom):
            raise InputError(f"starts with the byte-order mark {what}: mtscore reads UTF-8; convert "
                             "it first, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8", source=source)


def open_binary(path: str | os.PathLike[str], expected: str = "a text file with one segment per line"
                ) -> BinaryIO:
    """``path`` opened for reading bytes; any failure is an :class:`InputError` naming the path and
    the reason (the OS's, e.g. "Too many levels of symbolic links"). ``expected`` says what the path
    should have been (in the messages for a folder or a socket)."""
    name = os.fspath(path)
    try:
        handle = open(name, "rb")  # noqa: SIM115 (returned: the caller closes it)
    except OSError as err:
        raise os_input_error(err, name, expected) from None
    except ValueError as err:  # a NUL in the path, a name the file system cannot encode
        raise InputError(f"cannot be opened: {err}", source=name) from None
    try:
        return decompressed(handle)
    except OSError as err:  # e.g. EISDIR from the first read on some systems
        handle.close()
        raise os_input_error(err, name, expected) from None


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
        return checked_read(handle.read, name, expected)


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
    check_not_utf16(data, source)
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
    """Read segments from a binary stream (e.g. ``sys.stdin.buffer``; compressed data is
    decompressed, as from a file)."""
    data = checked_read(lambda: decompressed(stream).read(), source)
    lines = decode_lines(data, source)
    if not lines and not allow_empty:
        raise InputError("empty input: no segments", source=source)
    return lines
