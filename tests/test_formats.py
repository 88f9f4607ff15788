"""Output formats (text, JSON, TSV, Markdown, LaTeX booktabs), --format and --width, on the table
model and on the commands that print tables."""

from __future__ import annotations

import csv
import io
import json
import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from mtscore.errors import OptionError
from mtscore.report.tables import FORMATS, Table, latex_escape, render, wide_table

PI = 3.141592653589793
TABLE = Table(("system", "BLEU", "n", "signature"),
              (("sys_A", PI, 12, "BLEU|nrefs:1"), ("B & C", 27.0049, 7, "BLEU|nrefs:1"),
               ("50% off", None, 3, "x")),
              title="Scores", notes=("BLEU|nrefs:1|tok:13a",))


def test_text_is_aligned():
    out = render(TABLE, "text", width=2).splitlines()
    assert out[0] == "Scores"
    header, rule, *rows = out[1:5]
    assert rule.split() == ["-" * len(w) for w in ("system", "27.00", "n", "signature")] or \
        len(rule.split()) == 4
    # numeric columns are right-aligned: their values end at the same column as their header
    end = header.index("BLEU") + len("BLEU")
    for row, value in zip(rows, ("3.14", "27.00", "–")):
        assert row[end - len(value):end] == value
    end_n = header.index(" n ") + 2
    assert all(row[end_n - 1] in "0123456789" for row in rows)
    assert out[-1] == "BLEU|nrefs:1|tok:13a"


@pytest.mark.parametrize("width", [0, 1, 4])
def test_width_rounds_every_text_format(width):
    expected = f"{PI:.{width}f}"
    for fmt in ("text", "tsv", "markdown", "latex"):
        out = render(TABLE, fmt, width=width)
        assert expected in out, fmt
        if width < 4:
            assert f"{PI:.{width + 1}f}" not in out


def test_json_keeps_full_precision():
    data = json.loads(render(TABLE, "json", width=0))
    assert data[0] == {"system": "sys_A", "BLEU": PI, "n": 12, "signature": "BLEU|nrefs:1"}
    assert data[2]["BLEU"] is None


def test_numpy_scalars_are_numbers_in_every_format():
    t = Table(("name", "x", "k"), (("a", np.float32(0.123456), np.int64(3)),))
    assert render(t, "text", width=2).splitlines()[-1] == "a     0.12  3"
    assert "| a | 0.12 | 3 |" in render(t, "markdown")
    assert "{lrr}" in render(t, "latex")


def test_json_of_numpy_values_and_nan():
    t = Table(("a", "b", "c"), ((np.float64(0.1) + np.float64(0.2), np.int64(3), math.nan),))
    (row,) = json.loads(render(t, "json"))
    assert row == {"a": 0.1 + 0.2, "b": 3, "c": None}


def test_json_of_several_tables_is_a_list_per_table():
    data = json.loads(render([TABLE, TABLE], "json"))
    assert len(data) == 2 and len(data[0]) == 3


def test_tsv_parses_back():
    rows = list(csv.reader(io.StringIO(render(TABLE, "tsv", width=3)), delimiter="\t"))
    assert rows[0] == list(TABLE.columns)
    assert rows[1] == ["sys_A", "3.142", "12", "BLEU|nrefs:1"]
    assert len(rows) == 4


def test_tsv_cells_never_break_the_layout():
    t = Table(("a", "b"), (("x\ty", "line\nbreak"),))
    rows = list(csv.reader(io.StringIO(render(t, "tsv")), delimiter="\t"))
    assert rows == [["a", "b"], ["x y", "line break"]]


def test_markdown_table():
    lines = render(TABLE, "markdown").splitlines()
    assert lines[0] == "**Scores**"
    head = [ln for ln in lines if ln.startswith("|")]
    assert head[0] == "| system | BLEU | n | signature |"
    assert head[1] == "|:---|---:|---:|:---|"
    assert head[2] == "| sys_A | 3.14 | 12 | BLEU\\|nrefs:1 |"
    assert all(ln.count("|") - ln.count("\\|") == 5 for ln in head)


def test_markdown_cells_stay_on_one_line():
    t = Table(("a",), (("two\nlines",),))
    lines = render(t, "markdown").splitlines()
    assert len(lines) == 3 and all(ln.startswith("|") and ln.endswith("|") for ln in lines)
    assert "two lines" in lines[2]


def test_latex_booktabs():
    out = render(TABLE, "latex")
    lines = out.splitlines()
    assert r"\begin{tabular}{lrrl}" in lines
    # scaled down to the text width when wider, never up
    assert r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%" in lines
    assert r"\end{tabular}}" in lines
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        assert lines.count(rule) == 1
    assert lines.index(r"\toprule") < lines.index(r"\midrule") < lines.index(r"\bottomrule")
    assert r"sys\_A & 3.14 & 12 & BLEU\textbar\allowbreak{}nrefs:1 \\" in lines
    assert r"B \& C & 27.00 & 7 & BLEU\textbar\allowbreak{}nrefs:1 \\" in lines
    assert r"50\% off & -- & 3 & x \\" in lines
    assert r"\hline" not in out  # booktabs rules only
    assert lines[0].startswith(r"% needs \usepackage{booktabs}") and r"\usepackage{graphicx}" in lines[0]


def test_latex_keeps_double_hyphens_and_wraps_long_text():
    assert latex_escape("--no-meteor") == "-{}-no-meteor"  # not an en dash
    assert latex_escape("a - b – c") == "a - b -- c"
    t = Table(("setting", "value"), (("protocol", "word " * 30), ("seed", "12345")))
    spec = next(ln for ln in render(t, "latex").splitlines() if ln.startswith(r"\begin{tabular}"))
    assert spec.startswith(r"\begin{tabular}{lp{") and spec.endswith(r"\linewidth}}")


def test_unknown_format_and_bad_width():
    with pytest.raises(OptionError, match="format"):
        render(TABLE, "xml")
    with pytest.raises(OptionError, match="width"):
        render(TABLE, "text", width=-1)


# ---- layouts, LaTeX that compiles, Python views ------------------------------------------------

LONG = Table(("system", "metric", "score", "signature"),
             (("A", "BLEU", 30.5, "BLEU|nrefs:2|tok:13a"), ("A", "TER", 55.25, "TER|nrefs:2|case:lc"),
              ("HUMAN-B", "BLEU", 20.0, "BLEU|nrefs:1|tok:13a"),
              ("HUMAN-B", "TER", 60.0, "TER|nrefs:1|case:lc"), ("B", "BLEU", 31.0, "BLEU|nrefs:2|tok:13a")),
             title="Scores <x> | y")


def test_wide_layout_pivots_systems_by_metrics():
    wide = wide_table(LONG)
    assert wide.columns == ("system", "BLEU", "TER")
    assert wide.rows == (("A", 30.5, 55.25), ("HUMAN-B", 20.0, 60.0), ("B", 31.0, None))
    assert wide.notes[0] == "BLEU: BLEU|nrefs:2|tok:13a"
    assert "BLEU (HUMAN-B): BLEU|nrefs:1|tok:13a" in wide.notes
    assert LONG.wide() == wide
    for fmt in FORMATS:  # every format renders the wide layout
        out = render(LONG, fmt, width=1, layout="wide")
        assert "55.2" in out or "55.25" in out
    assert json.loads(render(LONG, "json", layout="wide"))[2] == {"system": "B", "BLEU": 31.0, "TER": None}
    # several value columns: one column per metric and value
    t = Table(("system", "metric", "score", "low"), (("A", "BLEU", 1.0, 0.5), ("A", "TER", 2.0, 1.5)))
    assert wide_table(t).columns == ("system", "BLEU", "BLEU low", "TER", "TER low")
    # a table without system and metric columns is left alone
    assert wide_table(TABLE) is TABLE
    with pytest.raises(OptionError, match="layout"):
        render(LONG, "text", layout="tall")


def test_latex_under_ot1_and_signatures_under_the_table():
    out = render(LONG, "latex")
    assert "|" not in out.replace(r"\textbar", "")  # OT1 prints | as an em dash
    assert r"Scores \textless{}x\textgreater{} \textbar\allowbreak{} y" in out
    body = out[out.index(r"\midrule"):out.index(r"\bottomrule")]
    assert "nrefs" not in body and "(a)" in body  # the signature column became marks
    assert r"(a) BLEU\textbar\allowbreak{}nrefs:2" in out
    t = Table(("x",), (("τ – ρ × α − … ≥ ~ ^ \\ \"q\" é",),))
    assert not any(ch in render(t, "latex") for ch in "τρα×−…≥")


LATEX_DOC = r"""\documentclass{article}
\usepackage{booktabs}
\usepackage{graphicx}
\begin{document}
%s
\end{document}
"""


def _latex_packages() -> bool:
    """pdflatex with booktabs.sty and graphicx.sty (Debian's texlive-latex-base alone lacks
    booktabs: it is in texlive-latex-recommended)."""
    if shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None:
        return False
    found = subprocess.run(["kpsewhich", "booktabs.sty", "graphicx.sty"], capture_output=True,
                           text=True, check=False).stdout.split()
    return len(found) == 2


@pytest.mark.skipif(not _latex_packages(), reason="pdflatex with booktabs.sty and graphicx.sty not "
                    "installed (Debian: texlive-latex-base texlive-latex-recommended)")
def test_latex_compiles_with_pdflatex(tmp_path):
    hostile = Table(("system", "metric", "score", "signature"),
                    (("$\\frac{x$", "BLEU", 1.0, "BLEU|nrefs:1|tok:13a|smooth:exp"),
                     ("cost $5 or $6 & 50% #1 _a_ {b} ~c ^d <e> |f|", "chrF++", 2.0,
                      "chrF2++|nrefs:1|case:mixed|eff:yes|nc:6|nw:2|space:no|version:2.6.0"),
                     ("Café – τ ρ × − …", "TER", None, "TER|nrefs:1|case:lc|tok:tercom")),
                    title="Kendall τ_b and Spearman ρ ≥ 0 — p < 0.05", notes=("σ ± 1; α = 0.05",))
    body = "\n".join([render(hostile, "latex"), render(hostile, "latex", layout="wide"),
                      render(LONG, "latex", width=3, layout="wide")])
    tex = tmp_path / "t.tex"
    tex.write_text(LATEX_DOC % body, encoding="utf-8")
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert (tmp_path / "t.pdf").stat().st_size > 0


def test_table_repr_html_and_pandas():
    big = Table(tuple(f"c{i}" for i in range(30)), tuple(tuple(range(30)) for _ in range(5000)),
                title="big")
    assert len(repr(big)) < 200 and "5000 rows" in repr(big)
    assert "<table>" in LONG._repr_html_() and "HUMAN-B" in LONG._repr_html_()
    frame = LONG.to_pandas()
    assert list(frame.columns) == list(LONG.columns) and len(frame) == len(LONG.rows)
    assert frame.attrs["title"] == LONG.title
    back = Table(tuple(frame.columns), tuple(tuple(r) for r in frame.itertuples(index=False)))
    assert back.records() == LONG.records()


# ---- the commands ------------------------------------------------------------------------------


@pytest.fixture
def files(tmp_path):
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    ref.write_text("the cat sat on the mat .\nthere is a dog in the garden\n", encoding="utf-8")
    hyp.write_text("the cat sat on a mat .\na dog is in the garden\n", encoding="utf-8")
    return str(ref), str(hyp)


def _run(capsys, *argv: str) -> str:
    from mtscore.cli import main

    assert main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("fmt", FORMATS)
def test_score_command_formats(capsys, files, fmt):
    import mtscore

    ref, hyp = files
    expected = mtscore.corpus_bleu(Path(hyp).read_text().splitlines(), [Path(ref).read_text().splitlines()])
    out = _run(capsys, "score", "-r", ref, "-i", hyp, "--format", fmt, "--width", "3")
    if fmt == "json":
        assert json.loads(out)[0]["score"] == expected.score  # full precision
    elif fmt in ("tsv", "csv", "jsonl"):  # the long format, for programs: every digit, -w ignored
        records = mtscore.io.scores.read_scores(_saved(out, fmt), fmt)
        (record,) = records
        assert record.seg_id is None and record.score == expected.score
    else:  # text, markdown, latex: for people, -w decimals
        assert f"{expected.score:.3f}" in out
        assert f"{expected.score:.4f}" not in out
    if fmt == "latex":
        assert r"\toprule" in out
    if fmt == "tsv":
        rows = list(csv.reader(io.StringIO(out), delimiter="\t"))
        assert rows[0] == ["system", "seg_id", "metric", "score", "signature"]


def _saved(text: str, fmt: str) -> str:
    import tempfile

    with tempfile.NamedTemporaryFile("w", suffix=f".{fmt}", delete=False, encoding="utf-8") as f:
        f.write(text)
    return f.name


def test_width_option_on_score(capsys, files):
    ref, hyp = files
    out = _run(capsys, "score", "-r", ref, "-i", hyp, "-w", "0")
    value = out.splitlines()[2].split()[2]
    assert "." not in value and value.isdigit()


# ---- compare, correlate, study: every format, --width, JSON at full precision -----------------

SAMPLE_FORMATS = list(FORMATS)


@pytest.fixture
def sample_files():
    from mtscore.data import sample_path

    folder = sample_path()
    return (str(folder / "references" / "A.txt"), str(folder / "systems" / "LT22.txt"),
            str(folder / "systems" / "PROMT.txt"))


def _bleu(hyp_path: str, ref_path: str) -> float:
    import sacrebleu

    hyps = Path(hyp_path).read_text(encoding="utf-8").splitlines()
    refs = Path(ref_path).read_text(encoding="utf-8").splitlines()
    return sacrebleu.corpus_bleu(hyps, [refs]).score


@pytest.mark.parametrize("fmt", FORMATS)
def test_compare_formats(capsys, sample_files, fmt):
    ref, lt22, promt = sample_files
    out = _run(capsys, "compare", "-r", ref, "-i", lt22, promt, "--resamples", "50",
               "-f", fmt, "-w", "3", "-q")
    expected = _bleu(promt, ref)
    if fmt == "json":  # one object: signature, seed, resamples, systems, comparisons
        data = json.loads(out)
        rows = [r for r in data["systems"] if r["system"] == "PROMT"]
        assert rows and rows[0]["score"] == pytest.approx(expected, abs=1e-9)
    elif fmt == "tsv":  # the long score format, full precision
        rows = [line.split("\t") for line in out.splitlines() if line.startswith("PROMT\t")]
        assert rows and float(rows[0][3]) == pytest.approx(expected, abs=1e-9)
    else:
        assert f"{expected:.3f}" in out
        assert f"{expected:.4f}" not in out
    if fmt == "latex":
        assert r"\toprule" in out and r"\bottomrule" in out
    if fmt == "markdown":
        assert "|---:" in out or "| ---:" in out or "---:|" in out


@pytest.mark.parametrize("fmt", FORMATS)
def test_correlate_formats(capsys, tmp_path, fmt):
    metric, human = [1.0, 2.0, 2.5, 4.0], [0.1, 0.5, 0.4, 0.9]
    (tmp_path / "m.tsv").write_text("".join(f"s{i}\t{v}\n" for i, v in enumerate(metric)))
    (tmp_path / "h.tsv").write_text("".join(f"s{i}\t{v}\n" for i, v in enumerate(human)))
    r = float(np.corrcoef(metric, human)[0, 1])
    out = _run(capsys, "correlate", "--metric", str(tmp_path / "m.tsv"), "--human",
               str(tmp_path / "h.tsv"), "-f", fmt, "-w", "5")
    if fmt == "json":
        data = json.loads(out)
        row = data[0] if isinstance(data, list) else data
        assert row["r"] == pytest.approx(r, abs=1e-12)
    else:
        assert f"{r:.5f}" in out and f"{r:.6f}" not in out


@pytest.mark.slow
@pytest.mark.parametrize("fmt", FORMATS)
def test_study_formats(capsys, tmp_path, fmt):
    from mtscore.io.dataset import load_dataset

    root = tmp_path / "ds"
    (root / "references").mkdir(parents=True)
    (root / "systems").mkdir()
    ref = ["the cat sat on the mat", "a dog ran in the big garden", "the red house is small"] * 10
    (root / "references" / "A.txt").write_text("\n".join(ref) + "\n")
    (root / "systems" / "x.txt").write_text("\n".join(r.replace("the", "a") for r in ref) + "\n")
    (root / "systems" / "y.txt").write_text("\n".join(ref) + "\n")
    out = _run(capsys, "study", str(root), "--no-meteor", "--resamples", "20", "--tables", "corpus",
               "-f", fmt, "-w", "3", "-q")
    ds = load_dataset(root)
    expected = _bleu(str(root / "systems" / "x.txt"), str(root / "references" / "A.txt"))
    assert ds.segments == 30
    if fmt == "json":
        data = json.loads(out)
        rows = data["tables"]["corpus"]["rows"]
        cols = data["tables"]["corpus"]["columns"]
        x = next(r for r in rows if r[0] == "x")
        assert x[cols.index("BLEU")] == pytest.approx(expected, abs=1e-9)
    else:
        assert f"{expected:.3f}" in out and f"{expected:.4f}" not in out
