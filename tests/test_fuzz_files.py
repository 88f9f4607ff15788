"""Fuzz: malformed text and TSV files and hostile option values through ``score``, ``compare`` and
``correlate``, run in-process (:mod:`tests.fuzz_support` states the rule each run must keep)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from mtscore.io.text import decode_lines

from . import registry_metrics
from .fuzz_support import check, fuzz_settings, run_cli

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", ",", ".", "é", "中文", "don't", "U.S.",
         "1,000", "--", "\u200b", "\u00a0", "\t", "ﬁ", "İ", "ß", "🙂", "a\u0301", "<b>", "&amp;"]
LINE_ENDS = [b"\n", b"\r\n", b"\r", b"\x85", "\u2028".encode("utf-8"), b"\x0b", b"\x0c"]
BAD_BYTES = [b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x00", b"\xe2\x82"]

line_text = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)


@st.composite
def segment_file(draw: st.DrawFn, lines: int | None = None, huge: bool = False) -> bytes:
    """Bytes of a segment file: words, odd line ends, a BOM, bad UTF-8, empty, a huge line."""
    n = lines if lines is not None else draw(st.integers(0, 6))
    texts = draw(st.lists(line_text, min_size=n, max_size=n))
    if huge and texts and draw(st.booleans()):
        texts[draw(st.integers(0, len(texts) - 1))] = "the cat " * 40_000  # 320,000 characters
    odd = draw(st.integers(0, 3)) == 0
    end = draw(st.sampled_from(LINE_ENDS if odd else LINE_ENDS[:2]))
    data = end.join(t.encode("utf-8") for t in texts)
    if texts and draw(st.booleans()):
        data += end
    if draw(st.integers(0, 5)) == 0:
        data = b"\xef\xbb\xbf" + data
    if draw(st.integers(0, 4)) == 0:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.sampled_from(BAD_BYTES)) + data[at:]
    return data


def _decodable(data: bytes) -> int | None:
    """The number of segments mtscore reads from ``data``, or None when it refuses it."""
    try:
        return len(decode_lines(data, "x"))
    except ValueError:
        return None


METRICS = list(registry_metrics.NAMES)


@fuzz_settings(80)
@given(ref=segment_file(), hyp=segment_file(huge=True), metric=st.sampled_from(METRICS),
       fmt=st.sampled_from(["text", "json", "tsv"]), segments=st.booleans())
def test_score_malformed_files(ref: bytes, hyp: bytes, metric: str, fmt: str, segments: bool) -> None:
    if metric == "meteor" and len(hyp) > 10_000:
        hyp = hyp[:10_000]  # METEOR's search budget on huge segments is tested by its own suite
    with tempfile.TemporaryDirectory() as tmp:
        r, h = Path(tmp, "ref.txt"), Path(tmp, "hyp.txt")
        r.write_bytes(ref)
        h.write_bytes(hyp)
        argv = ["score", "-r", str(r), "-i", str(h), "-m", metric, "-f", fmt, "-q"]
        outcome = run_cli(argv + (["--segments"] if segments else []))
        check(outcome, [str(r), str(h)])
        n_ref, n_hyp = _decodable(ref), _decodable(hyp)
        if n_ref and n_hyp and n_ref == n_hyp and "\t" not in hyp.decode("utf-8"):
            assert outcome.code == 0, f"valid input refused: {outcome.err}"


@fuzz_settings(40)
@given(data=segment_file(lines=3), n_sys=st.integers(2, 3), resamples=st.integers(1, 60),
       method=st.sampled_from(["bootstrap", "ar"]))
def test_compare_malformed_system(data: bytes, n_sys: int, resamples: int, method: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ref = Path(tmp, "ref.txt")
        ref.write_bytes(b"the cat sat on the mat\na dog ran\non the mat\n")
        systems = [Path(tmp, f"sys{k}.txt") for k in range(n_sys)]
        systems[0].write_bytes(data)
        for k, path in enumerate(systems[1:], start=1):
            path.write_bytes(b"the cat sat\na dog\non the mat " + b"x " * k + b"\n")
        argv = ["compare", "-r", str(ref), "-i", *map(str, systems), "--resamples", str(resamples),
                "--method", method, "-q"]
        check(run_cli(argv), [str(p) for p in (ref, *systems)])


# ---- hostile option values ----------------------------------------------------------------------

VALUES = ["nan", "inf", "-inf", "-1", "0", "-0", "1", "2", "0.5", "1e308", "1e-320", "", "abc", "100",
          "3", "1e3", "0x10", "١"]
#: score options and the metric that reads each (bounded: orders only up to values that stay small)
SCORE_OPTIONS = {
    "--smooth-value": "bleu", "--max-order": "bleu", "--nist-max-order": "nist",
    "--meteor-alpha": "meteor", "--meteor-beta": "meteor", "--meteor-gamma": "meteor",
    "--meteor-delta": "meteor", "--meteor-jar-beam": "meteor", "--chrf-char-order": "chrf",
    "--chrf-word-order": "chrf", "--chrf-beta": "chrf", "--width": "bleu", "--chunk-size": "bleu",
    "--jobs": "bleu", "--meteor-workers": "meteor",
}
CHOICE_OPTIONS = {
    "--tokenize": ["13a", "intl", "char", "zh", "none", "moses", "", "13A"],
    "--smooth": ["exp", "floor", "add-k", "none", "lin", ""],
    "--meteor-variant": ["2005", "1.5", "1.6", ""],
    "--meteor-modules": ["exact", "porter", "synonym", "paraphrase", "", "exact,porter"],
    "--meteor-tokenize": ["13a", "char", "none", "intl", "bogus"],
    "--language-pair": ["de-en", "en-zh", "en-ja", "xx-yy", "de", "de-en-fr", "", "DE-EN", "de_en"],
    "--format": ["text", "json", "tsv", "csv", "jsonl", "markdown", "latex", "xml"],
}
#: options whose values are bounded separately: not given unbounded values here
_SMALL_ONLY = {"--jobs": {"-1", "0", "1", "2", ""}, "--meteor-workers": {"-1", "0", "1", ""},
               "--chunk-size": {"-1", "0", "1", "2", "3", "100", ""}, "--width": set(VALUES) - {"1e308"}}


@st.composite
def hostile_option(draw: st.DrawFn) -> tuple[str, list[str], str]:
    if draw(st.booleans()):
        option = draw(st.sampled_from(sorted(SCORE_OPTIONS)))
        allowed = sorted(_SMALL_ONLY.get(option, set(VALUES)))
        values = [draw(st.sampled_from(allowed))]
        if option in ("--meteor-alpha", "--meteor-beta") and draw(st.booleans()):
            # not "-inf" second: argparse reads it as "-i nf" (an input file named nf); not "" (a
            # positional REF)
            values.append(draw(st.sampled_from([v for v in VALUES if v not in ("-inf", "")])))
        return option, values, SCORE_OPTIONS[option]
    option = draw(st.sampled_from(sorted(CHOICE_OPTIONS)))
    return option, [draw(st.sampled_from(CHOICE_OPTIONS[option]))], draw(st.sampled_from(METRICS))


@fuzz_settings(100)
@given(hostile=st.lists(hostile_option(), min_size=1, max_size=3))
def test_score_hostile_options(hostile: list[tuple[str, list[str], str]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ref, hyp = Path(tmp, "ref.txt"), Path(tmp, "hyp.txt")
        ref.write_bytes("the cat sat on the mat\nShe said «bonjour» 1,000 times.\n\n中文 字\n".encode())
        hyp.write_bytes("the cat is on the mat\nshe said bonjour 1000 times\nextra\n中 文字\n".encode())
        metrics = sorted({metric for _, _, metric in hostile})
        argv = ["score", "-r", str(ref), "-i", str(hyp), "-m", *metrics, "-q"]
        culprits = [str(ref), str(hyp)]
        for option, values, _ in hostile:
            argv += [f"{option}={values[0]}", *values[1:]] if len(values) == 1 else [option, *values]
            culprits += [option, option.lstrip("-"), option.lstrip("-").replace("-", "_"),
                         option.rsplit("-", 1)[-1], option.rsplit("-", 1)[-1].rstrip("s"), *values]
        check(run_cli(argv), culprits)


# ---- correlate: malformed TSV score files -------------------------------------------------------

CELLS = ["0.5", "-1", "1e3", "nan", "inf", "", " 1", "1_0", "١", "x", "1.7", "3", "0", "-0.25"]


@st.composite
def score_tsv(draw: st.DrawFn, systems: list[str], segments: bool) -> bytes:
    rows = []
    if draw(st.booleans()):
        rows.append("system\tseg_id\tscore" if segments else "system\tscore")
    for system in systems:
        for seg in range(1, 4 if segments else 2):
            score = draw(st.sampled_from(CELLS)) if draw(st.integers(0, 6)) == 0 else \
                repr(draw(st.floats(-5, 5, allow_nan=False)))
            cells = [draw(st.sampled_from([*systems, "ghost", ""])) if draw(st.integers(0, 12)) == 0
                     else system]
            if segments:
                cells.append(draw(st.sampled_from(CELLS)) if draw(st.integers(0, 8)) == 0 else str(seg))
            cells.append(score)
            if draw(st.integers(0, 15)) == 0:
                cells.append("extra")
            rows.append("\t".join(cells))
    return "\n".join(rows).encode() + draw(st.sampled_from([b"\n", b"", b"\r\n", b"\n\n"]))


@fuzz_settings(80)
@given(data=st.data(), segments=st.booleans(), method=st.sampled_from(
    ["pearson", "spearman", "kendall", "kendall-c", "accuracy"]), resamples=st.sampled_from([0, 0, 20]))
def test_correlate_malformed_tsv(data: st.DataObject, segments: bool, method: str, resamples: int) -> None:
    systems = ["sysA", "sysB", "sysC", "sysD"]
    metric = data.draw(score_tsv(systems, segments))
    human = data.draw(score_tsv(systems, segments))
    with tempfile.TemporaryDirectory() as tmp:
        m, h = Path(tmp, "metric.tsv"), Path(tmp, "human.tsv")
        m.write_bytes(metric)
        h.write_bytes(human)
        argv = ["correlate", "--metric", str(m), "--human", str(h), "--method", method,
                "--resamples", str(resamples), "-q"]
        check(run_cli(argv), [str(m), str(h), "correlation", "--resamples", method])
