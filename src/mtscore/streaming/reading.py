"""Reading segment files in chunks: strict UTF-8 as :mod:`mtscore.io.text` (a BOM at the start dropped,
CRLF read as LF, blank lines are segments), errors naming the file and the line in whichever chunk
they occur; systems and references read in lockstep; files of different lengths are an error.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from ..errors import InputError
from ..io.text import (
    check_not_utf16,
    checked_read,
    decode_lines,
    decompressed,
    may_be_cut_bom,
    read_bytes,
)
from ..metrics.chunked import Chunk, iter_chunks

__all__ = ["BLOCK_BYTES", "Chunk", "Inputs", "LineReader", "TabSeparated", "iter_chunks", "open_inputs",
           "open_segments", "read_chunks"]

#: bytes read at once from a file
BLOCK_BYTES = 1 << 22
_BOM = b"\xef\xbb\xbf"


def open_segments(path: str | os.PathLike[str]) -> BinaryIO:
    """Open a segment file for reading in binary. Any failure is the :class:`InputError` that
    :func:`mtscore.io.text.read_bytes` gives for the path (its reason, named)."""
    name = os.fspath(path)
    try:
        return decompressed(open(name, "rb"))  # closed by its LineReader; gzip/xz/bzip2 read through
    except (OSError, ValueError):
        read_bytes(name)  # raises the error naming the path and the reason
        raise


class LineReader:
    """The segments of one file (``-``: standard input) or binary stream, ``take(n)`` at a time."""

    def __init__(self, source: str | os.PathLike[str] | BinaryIO, name: str | None = None,
                 block: int = BLOCK_BYTES):
        if isinstance(source, (str, os.PathLike)) and os.fspath(source) == "-":
            source, name = sys.stdin.buffer, name or "<stdin>"
        if isinstance(source, (str, os.PathLike)):
            self.name = name or os.fspath(source)
            self._handle, self._owned = open_segments(source), True
        else:
            self.name = name or str(getattr(source, "name", "<stream>"))
            self._handle, self._owned = decompressed(source), False
        self._block = block
        self._pending: list[str] = []
        self._pos = 0
        self._tail = b""
        self._eof = False
        self._started = False
        #: lines decoded so far (numbers the lines of the next block in errors)
        self._decoded = 0
        #: invalid UTF-8 found ahead, raised when its line is reached
        self._error: InputError | None = None
        #: segments handed out by :meth:`take`
        self.lines_read = 0

    def take(self, n: int) -> list[str]:
        """The next ``n`` segments (fewer only at the end of the input)."""
        while len(self._pending) - self._pos < n and not self._eof:
            self._fill()
        out = self._pending[self._pos:self._pos + n]
        if len(out) < n and self._error is not None:
            raise self._error
        self._pos += len(out)
        if self._pos >= len(self._pending):
            self._pending, self._pos = [], 0
        elif self._pos > 1 << 16:
            del self._pending[:self._pos]
            self._pos = 0
        if not out and not self.lines_read:
            raise InputError("empty file: no segments", source=self.name)
        self.lines_read += len(out)
        return out

    def count_rest(self) -> int:
        """How many segments are left (read to the end, not decoded): for length-mismatch errors."""
        rest = len(self._pending) - self._pos
        data = self._tail
        while not self._eof:
            block = self._handle.read(self._block)
            if not block:
                break
            rest += block.count(b"\n")
            data = block[block.rfind(b"\n") + 1:] if b"\n" in block else data + block
        self._eof = True
        return rest + (1 if data else 0)

    def close(self) -> None:
        if self._owned:
            self._handle.close()

    def _read(self) -> bytes:
        # read1: what one read gives (a pipe's lines as they come), not a full block
        read = getattr(self._handle, "read1", self._handle.read)
        # an OS error, or corrupt or truncated compressed data, is an InputError naming the file
        data: bytes = checked_read(lambda: read(self._block), self.name)
        return data

    def _fill(self) -> None:
        data = self._read()
        if not data:
            self._eof = True
            tail, self._tail = self._tail, b""
            if tail and not self._decoded:  # no newline at all: io.text's whole-file rules
                self._pending.extend(decode_lines(tail, self.name))  # (CR line ends refused)
            elif tail:  # a last line without a final newline
                self._pending.extend(self._decode([tail], b"\r" in tail))
            return
        data = self._tail + data
        if not self._started:
            if may_be_cut_bom(data):
                self._tail = data  # perhaps a BOM (UTF-8's or UTF-16's) cut by the read
                return
            self._started = True
            check_not_utf16(data, self.name)
            data = data.removeprefix(_BOM)
        if b"\n" not in data:
            self._tail = data
            return
        lines = data.split(b"\n")
        self._tail = lines.pop()  # the bytes after the last newline
        self._pending.extend(self._decode(lines, b"\r" in data))

    def _decode(self, lines: list[bytes], cr: bool) -> list[str]:
        """Complete lines (each one's bytes, without its newline) as strings; ``cr``: some of them
        may end in '\\r' (CRLF, removed). Decoded line by line: no string of the whole block is made
        (whose pages, as fresh memory, cost more than the calls)."""
        try:
            text = list(map(bytes.decode, lines))  # strict UTF-8
        except UnicodeDecodeError:  # the lines before it are segments; the error comes
            text = self._until_error(lines)  # when the bad line is reached
        self._decoded += len(text)
        if cr:
            text = [line.removesuffix("\r") for line in text]
        return text

    def _until_error(self, lines: list[bytes]) -> list[str]:
        """The lines before the first invalid UTF-8, and the error for it, raised when reached."""
        text: list[str] = []
        for line in lines:
            try:
                text.append(line.decode())
            except UnicodeDecodeError as err:
                self._error = InputError(
                    f"invalid UTF-8 (byte 0x{line[err.start]:02x} at column {err.start + 1})",
                    source=self.name, line=self._decoded + 1 + len(text))
                self._eof = True
                break
        return text


class TabSeparated:
    """Several systems in one input, one per tab-separated field, read as sacreBLEU reads standard
    input: the first line sets the number of systems (``System 1`` …), every line and field is
    right-stripped, and a line with another number of fields is an error."""

    def __init__(self, reader: LineReader):
        self.reader = reader
        first = reader.take(1)
        self._first = first
        self.width = len(self._fields(first[0]))
        self.names = [f"System {i + 1}" for i in range(self.width)]

    @staticmethod
    def _fields(line: str) -> list[str]:
        return [field.rstrip() for field in line.rstrip().split("\t")]

    def take(self, n: int) -> list[list[str]]:
        lines, self._first = self._first + self.reader.take(n - len(self._first)), []
        start = self.reader.lines_read - len(lines)
        rows = [self._fields(line) for line in lines]
        for number, row in enumerate(rows, start=start + 1):
            if len(row) != self.width:
                raise InputError(f"{len(row)} tab-separated fields but the first line has "
                                 f"{self.width} (standard input is read as sacreBLEU reads it: one "
                                 "system per tab-separated field)", source=self.reader.name,
                                 line=number)
        return [list(column) for column in zip(*rows)] if rows else [[] for _ in self.names]


@dataclass(eq=False)
class Inputs:
    """The systems (file per system, or tab-separated systems in one stream) and reference files
    (open readers: never compared, so no generated ``__eq__``)."""

    names: list[str]
    sources: list[LineReader | TabSeparated]
    refs: list[LineReader]
    ref_paths: list[str] = field(default_factory=list)

    def close(self) -> None:
        for source in [*self.sources, *self.refs]:
            (source.reader if isinstance(source, TabSeparated) else source).close()


def open_inputs(hyp_paths: Sequence[str] | None, ref_paths: Sequence[str],
                names: Sequence[str] | None = None) -> Inputs:
    """Readers for the system files (none: standard input, tab-separated systems as sacreBLEU) and
    the reference files; ``names``: the systems' names (default: the file names)."""
    refs = [LineReader(p) for p in ref_paths]
    if not hyp_paths:
        if sys.stdin.isatty():
            raise InputError("no hypotheses: give -i FILE or pipe them on standard input")
        tabbed = TabSeparated(LineReader(sys.stdin.buffer, "<stdin>"))
        return Inputs(["stdin"] if tabbed.width == 1 else tabbed.names, [tabbed], refs,
                      list(ref_paths))
    sources: list[LineReader | TabSeparated] = [LineReader(p) for p in hyp_paths]
    return Inputs(list(names or hyp_paths), sources, refs, list(ref_paths))


def read_chunks(inputs: Inputs, chunk_size: int) -> Iterator[Chunk]:
    """The corpus chunk by chunk; files of different lengths are an error naming the file."""
    start = 0
    while True:
        refs: list[list[str | None]] = [list(r.take(chunk_size)) for r in inputs.refs]
        systems: list[list[str]] = []
        for source in inputs.sources:
            if isinstance(source, TabSeparated):
                systems.extend(source.take(chunk_size))
            else:
                systems.append(source.take(chunk_size))
        sizes = {len(part) for part in refs} | {len(part) for part in systems}
        if len(sizes) > 1:
            raise _mismatch(inputs, start, [len(r) for r in refs], [len(s) for s in systems])
        n = sizes.pop()
        if n:
            yield Chunk(start, systems, refs)
        start += n
        if n < chunk_size:
            return


def _mismatch(inputs: Inputs, start: int, ref_sizes: list[int], sizes: list[int]) -> InputError:
    """The error for files of different lengths: the first file whose length differs from the
    first reference's (both counted to the end)."""
    readers = [*inputs.refs, *(s.reader if isinstance(s, TabSeparated) else s for s in inputs.sources)]
    counts = {id(r): start + n for r, n in zip(readers, [*ref_sizes, *sizes])}
    totals = [counts[id(r)] + r.count_rest() for r in readers]
    bad = next(i for i, n in enumerate(totals) if n != totals[0])
    return InputError(f"has {totals[bad]} lines but reference {inputs.refs[0].name} has {totals[0]}",
                      source=readers[bad].name)
