"""``mtscore correlate`` reads what the other commands write: ``score --segments -f tsv`` (the long
format, several metrics), a data set's ``human/segments.tsv`` as it is, CSV and JSON Lines, external
scores; values equal scipy on the same arrays; data it cannot support becomes a note."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import scipy.stats

from mtscore.cli import main
from mtscore.data import sample_path
from mtscore.errors import OptionError
from mtscore.io.scores import ScoreRecord, format_scores, read_scores, read_table
from mtscore.stats import williams_test

SAMPLE = sample_path()
HUMAN = str(SAMPLE / "human" / "segments.tsv")
SYSTEMS = ["JDExploreAcademy", "LT22", "Online-A", "Online-B", "PROMT"]


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def scored(tmp_path_factory) -> Path:
    """``mtscore score -m bleu unigram --segments -f tsv`` of five sample systems."""
    path = tmp_path_factory.mktemp("score") / "s.tsv"
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["score", "-r", str(SAMPLE / "references" / "A.txt"), "-i",
                     *[str(SAMPLE / "systems" / f"{s}.txt") for s in SYSTEMS], "-m", "bleu",
                     "unigram", "--segments", "-f", "tsv", "-q"]) == 0
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def _expected(scored: Path, metric: str) -> tuple[float, float]:
    """System- and segment-level Pearson (grouping system) computed here from the two files."""
    scores = read_scores(str(scored))
    seg = scores.segment_scores(metric)
    _, rows = read_table(HUMAN)
    human: dict[str, dict[int, float]] = {}
    for r in rows:
        if r["system"] in SYSTEMS:
            human.setdefault(r["system"], {})[int(r["seg_id"])] = float(r["z"])
    sys_r = scipy.stats.pearsonr([np.mean(list(seg[s].values())) for s in SYSTEMS],
                                 [np.mean(list(human[s].values())) for s in SYSTEMS]).statistic
    per = [scipy.stats.pearsonr([seg[s][i] for i in human[s]], list(human[s].values())).statistic
           for s in SYSTEMS]
    return float(sys_r), float(np.mean(per))


def test_score_output_and_the_data_sets_human_file(scored: Path, capsys) -> None:
    """The Must-show pipeline: score --segments -f tsv > s.tsv; correlate s.tsv human/segments.tsv."""
    code, out, _ = _run(capsys, "correlate", str(scored), HUMAN, "-f", "json")
    assert code == 0
    rows = json.loads(out)
    metrics = read_scores(str(scored)).metrics()
    assert [(r["metric"], r["level"]) for r in rows] == \
        [(m, "system") for m in metrics] + [(m, "segment") for m in metrics]
    for metric in metrics:
        sys_r, seg_r = _expected(scored, metric)
        got = {r["level"]: r["r"] for r in rows if r["metric"] == metric}
        assert got["system"] == pytest.approx(sys_r) and got["segment"] == pytest.approx(seg_r)
    code, out, _ = _run(capsys, "correlate", str(scored), HUMAN)
    left_out = next(line for line in out.splitlines() if line.startswith("left out (no metric"))
    assert code == 0 and "HUMAN-B" in left_out and "Lan-Bridge" in left_out


def test_csv_jsonl_and_external_scores(scored: Path, tmp_path: Path, capsys) -> None:
    scores = read_scores(str(scored))
    comet = [ScoreRecord(r.system, r.seg_id, "COMET", r.score / 100 + 0.1, "comet|x")
             for r in scores if r.metric == "BLEU"]
    for fmt in ("csv", "jsonl"):
        path = tmp_path / f"comet.{fmt}"
        path.write_text(format_scores(comet, fmt), encoding="utf-8")
        code, out, _ = _run(capsys, "correlate", "--scores", str(path), "--human", HUMAN,
                            "-f", "json", "--level", "segment")
        assert code == 0
        row = json.loads(out)[0]
        assert row["metric"] == "COMET" and row["r"] == pytest.approx(_expected(scored, "BLEU")[1])
    human_csv = tmp_path / "h.csv"
    header, rows = read_table(HUMAN)
    human_csv.write_text(",".join(header) + "\n" + "\n".join(",".join(r[c] for c in header)
                                                              for r in rows), encoding="utf-8")
    code, out, _ = _run(capsys, "correlate", str(scored), str(human_csv), "-f", "json",
                        "--level", "system")
    assert code == 0 and json.loads(out)[0]["r"] == pytest.approx(_expected(scored, "BLEU")[0])


def test_accuracy_has_its_own_column(scored: Path, capsys) -> None:
    code, out, _ = _run(capsys, "correlate", str(scored), HUMAN, "--method", "accuracy",
                        "--level", "system")
    header = out.splitlines()[1].split()
    assert code == 0 and "accuracy" in header and "r" not in header


def test_constant_scores_are_a_note(tmp_path: Path, capsys) -> None:
    rows = [ScoreRecord(s, i, "FLAT", 1.0) for s in ("a", "b", "c", "d") for i in (1, 2, 3)]
    metric = tmp_path / "flat.tsv"
    metric.write_text(format_scores(rows), encoding="utf-8")
    human = tmp_path / "h.tsv"
    human.write_text("system\tseg_id\tz\n" + "".join(f"{s}\t{i}\t{k + i * 0.1}\n" for k, s in
                                                     enumerate("abcd") for i in (1, 2, 3)))
    for extra in ([], ["--level", "segment", "--grouping", "none"], ["--resamples", "50"],
                  ["--method", "kendall"]):
        code, out, _ = _run(capsys, "correlate", str(metric), str(human), *extra)
        assert code == 0 and "metric scores are constant" in out and "nan" not in out, extra


def test_huge_seg_ids_take_no_room(tmp_path: Path, capsys) -> None:
    rows = [ScoreRecord(s, i, "M", float(k * 3 + j)) for k, s in enumerate("abcd")
            for j, i in enumerate((1, 10**9, 10**12))]
    metric = tmp_path / "m.tsv"
    metric.write_text(format_scores(rows), encoding="utf-8")
    human = tmp_path / "h.tsv"
    human.write_text("system\tseg_id\tz\n" + "".join(f"{r.system}\t{r.seg_id}\t{r.score ** 0.5}\n"
                                                     for r in rows))
    code, out, _ = _run(capsys, "correlate", str(metric), str(human), "-f", "json",
                        "--level", "segment", "--grouping", "none")
    assert code == 0
    x = [r.score for r in rows]
    assert json.loads(out)[0]["r"] == pytest.approx(scipy.stats.pearsonr(x, np.sqrt(x)).statistic)


def test_bad_options_are_refused(scored: Path, capsys) -> None:
    for argv, message in ((["--level", "segment", "--method", "accuracy", "--epsilon", "nan"],
                           "--epsilon"),
                          (["--resamples", str(10**8)], "1,000,000"),
                          (["--confidence", "nan"], "--confidence")):
        code, _, err = _run(capsys, "correlate", str(scored), HUMAN, *argv)
        assert code == 1 and message in err and err.count("\n") == 1


def test_williams_refuses_impossible_correlations() -> None:
    with pytest.raises(OptionError, match="no three variables have these correlations"):
        williams_test(0.9, -0.9, 0.9, 10)
    assert 0 <= williams_test(0.9, 0.8, 0.85, 10).pvalue <= 1
