"""Reference streams: ``refs[k][i]`` is the k-th reference of segment i (as in sacreBLEU).

The other common layout, one list of references per segment (``refs[i][k]``), is detected and
explained rather than silently transposed or truncated. A reference may be ``None`` for some
segments (a variable number of references); ``""`` is an empty reference, not a missing one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import InputError

Streams = list[list["str | None"]]


class CheckedStreams(list[list["str | None"]]):
    """Reference streams :func:`check_reference_streams` accepted, as lists, with what the check
    found: the number of ``segments`` and whether some reference is missing (``has_missing``).
    :func:`check_reference_set` and :func:`reference_count_label` take them as they are, so streams
    are checked once however many steps read them."""

    segments: int
    has_missing: bool


def _is_text_sequence(obj: object) -> bool:
    return isinstance(obj, Sequence) and not isinstance(obj, (str, bytes))


def check_hypotheses(hyps: Sequence[str], name: str = "hypotheses") -> list[str]:
    """Return ``hyps`` as a list after checking it is a non-empty sequence of strings."""
    if isinstance(hyps, str) or not _is_text_sequence(hyps):
        raise InputError(f"{name} must be a sequence of strings (one per segment), "
                         f"got {type(hyps).__name__}")
    hyps = list(hyps)
    if not hyps:
        raise InputError(f"empty corpus: {name} has no segments")
    if not set(map(type, hyps)) <= {str}:
        for i, hyp in enumerate(hyps):
            if not isinstance(hyp, str):
                raise InputError(f"{name}[{i}] is {type(hyp).__name__}, expected a string "
                                 "(missing hypotheses are not allowed)", line=i + 1)
    return hyps


def check_reference_streams(refs: Sequence[Sequence[str | None]], n_segments: int,
                            names: Sequence[str] | None = None) -> CheckedStreams:
    """Validate reference streams against ``n_segments`` hypotheses and return them as lists.

    Raises :class:`InputError` for a bare string, the per-segment layout, a length mismatch,
    a non-string entry, or a segment with no reference at all.
    """
    if isinstance(refs, str):
        raise InputError("references must be a list of reference streams "
                         "(refs[k][i] = k-th reference of segment i), got a single string; "
                         "wrap it: [[ref]]")
    if not _is_text_sequence(refs) or len(refs) == 0:
        raise InputError("references must be a non-empty list of reference streams "
                         "(refs[k][i] = k-th reference of segment i)")
    if isinstance(refs[0], str):
        raise InputError("references look like a single stream of strings; pass a list of "
                         "streams: refs=[stream] (refs[k][i] = k-th reference of segment i)")
    streams: Streams = []
    for k, stream in enumerate(refs):
        if not _is_text_sequence(stream):
            raise InputError(f"reference stream {k} is {type(stream).__name__}, expected a "
                             "sequence of strings")
        streams.append(list(stream))
    lengths = [len(s) for s in streams]
    label = (lambda k: names[k]) if names is not None else (lambda k: f"reference stream {k}")
    if any(n != n_segments for n in lengths):
        # The per-segment layout: as many lists as segments, each a handful of references.
        if (len(streams) == n_segments and n_segments > 1 and len(set(lengths)) <= 3
                and max(lengths) < n_segments):
            raise InputError(
                f"references look like one list per segment ({len(streams)} lists of "
                f"{'/'.join(str(n) for n in sorted(set(lengths)))} references); mtscore expects "
                "reference streams, refs[k][i] = k-th reference of segment i. "
                "Transpose them: refs = [list(s) for s in zip(*per_segment)]")
        bad = next(k for k, n in enumerate(lengths) if n != n_segments)
        raise InputError(f"{label(bad)} has {lengths[bad]} segments but the hypotheses have "
                         f"{n_segments}")
    missing = [_missing_in(k, stream, label) for k, stream in enumerate(streams)]
    if all(missing):
        for i in range(n_segments):
            if all(stream[i] is None for stream in streams):
                raise InputError(f"segment {i + 1} has no reference (every stream is None there)",
                                 line=i + 1)
    checked = CheckedStreams(streams)
    checked.segments, checked.has_missing = n_segments, any(missing)
    return checked


def _missing_in(k: int, stream: list[str | None], label: Callable[[int], str]) -> bool:
    """Whether reference stream ``k`` misses a reference (a None); an error for anything in it that
    is neither a string nor None."""
    kinds = set(map(type, stream))
    if not kinds <= {str, type(None)}:
        for i, ref in enumerate(stream):
            if ref is not None and not isinstance(ref, str):
                raise InputError(f"{label(k)}: segment {i + 1} is {type(ref).__name__}, "
                                 "expected a string or None", line=i + 1)
    return type(None) in kinds


def check_reference_set(refs: Sequence[Sequence[str | None]],
                        names: Sequence[str] | None = None) -> tuple[Streams, int]:
    """Validate reference streams on their own (to prepare them before any hypothesis is seen):
    the streams and their number of segments, taken from the first stream."""
    if isinstance(refs, CheckedStreams):
        return refs, refs.segments
    n_segments = len(refs[0]) if _is_text_sequence(refs) and len(refs) > 0 and \
        _is_text_sequence(refs[0]) else 0
    return check_reference_streams(refs, n_segments, names), n_segments


def reference_count_label(streams: Streams) -> str:
    """``'2'`` when every segment has two references; ``'var'`` when the number varies."""
    has_missing = streams.has_missing if isinstance(streams, CheckedStreams) \
        else any(None in stream for stream in streams)
    if not has_missing:
        return str(len(streams))
    counts = {sum(stream[i] is not None for stream in streams) for i in range(len(streams[0]))}
    return str(counts.pop()) if len(counts) == 1 else "var"
