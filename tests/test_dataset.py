"""Data-set loader: the embedded sample, the shared WMT22 folders, and every kind of bad input."""

from __future__ import annotations

import csv
import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest

from mtscore.data import sample_path
from mtscore.errors import InputError, OptionError
from mtscore.io.dataset import load_dataset

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22"


def _tsv(path: Path) -> list[dict[str, str]]:
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))


def test_sample_loads():
    d = load_dataset(sample_path())
    assert d.segments == 427
    assert list(d.references) == ["A", "B"]
    assert "HUMAN-B" in d.systems and len(d.systems) == 10
    assert d.human_systems == {"HUMAN-B": "B"}
    assert d.reference_ids_for("HUMAN-B") == ("A",)
    assert d.reference_ids_for("Online-W") == ("A", "B")
    assert d.source is not None and len(d.source) == 427
    assert d.domains is not None and set(d.domains) == {"conversation", "ecommerce", "news", "social"}
    assert d.judgments is not None and len(d.judgments) == 5920
    assert d.has_human_scores


def test_sample_human_scores_match_file():
    """Segment arrays and the system mean, recomputed independently from the TSV file."""
    d = load_dataset(sample_path())
    rows = _tsv(sample_path() / "human" / "segments.tsv")
    for system in d.systems:
        mine = [r for r in rows if r["system"] == system]
        for kind in ("z", "raw"):
            seg = d.human_segment_scores(system, kind)
            assert seg.shape == (427,)
            assert np.count_nonzero(~np.isnan(seg)) == len(mine)
            for r in mine:
                assert seg[int(r["seg_id"]) - 1] == float(r[kind])
            expected = sum(float(r[kind]) for r in mine) / len(mine)
            assert d.human_system_score(system, kind) == pytest.approx(expected, rel=1e-12)


def test_bad_kind_and_system():
    d = load_dataset(sample_path())
    with pytest.raises(OptionError, match="kind"):
        d.human_segment_scores("LT22", "mqm")
    with pytest.raises(OptionError, match="system"):
        d.reference_ids_for("nobody")


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared data not present")
@pytest.mark.parametrize("pair", ["de-en", "zh-en", "cs-en", "ja-en"])
def test_shared_pairs_reproduce_published_means(pair):
    """The mean of judged segments reproduces WMT22's published (clean) DA means."""
    d = load_dataset(SHARED / pair)
    meta = json.loads((SHARED / pair / "meta.json").read_text())
    assert d.segments == meta["segments"]
    assert list(d.references) == meta["references"]
    published = [r for r in _tsv(SHARED / "systems.tsv") if r["pair"] == pair]
    assert {r["system"] for r in published} == set(d.systems)
    for r in published:
        assert d.human_system_score(r["system"], "z") == pytest.approx(float(r["da_z_mean_clean"]), abs=1e-9)
        assert d.human_system_score(r["system"], "raw") == pytest.approx(float(r["da_raw_mean_clean"]), abs=1e-9)
        n = np.count_nonzero(~np.isnan(d.human_segment_scores(r["system"])))
        assert n <= int(r["da_n_segments"])


# ---- bad input: every error names the file and the line -----------------------------------------


@pytest.fixture()
def copy(tmp_path: Path) -> Path:
    dest = tmp_path / "set"
    shutil.copytree(sample_path(), dest)
    return dest


def _append(path: Path, line: str) -> None:
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(line + "\n")


def _error(folder: Path) -> InputError:
    with pytest.raises(InputError) as info:
        load_dataset(folder)
    return info.value


def test_missing_folder(tmp_path):
    err = _error(tmp_path / "nope")
    assert "no such data-set folder" in str(err)


def test_missing_systems_folder(copy):
    shutil.rmtree(copy / "systems")
    err = _error(copy)
    assert err.source.endswith("systems") and "missing folder" in str(err)


def test_line_count_mismatch(copy):
    _append(copy / "systems" / "LT22.txt", "one line too many")
    err = _error(copy)
    assert err.source.endswith("LT22.txt") and "428 lines" in str(err)


def test_meta_reference_missing(copy):
    (copy / "references" / "B.txt").unlink()
    err = _error(copy)
    assert "'B'" in str(err)


def test_human_system_without_output(copy):
    _append(copy / "human" / "segments.tsv", "Ghost\t3\t50.0\t0.1\t1")
    err = _error(copy)
    assert err.source.endswith("segments.tsv") and err.line == 3782 + 1
    assert "Ghost" in str(err) and "no output file" in str(err)


@pytest.mark.parametrize("seg, problem", [("x7", "not an integer"), ("0", "out of range"),
                                          ("428", "out of range")])
def test_bad_seg_id(copy, seg, problem):
    _append(copy / "human" / "segments.tsv", f"LT22\t{seg}\t50.0\t0.1\t1")
    err = _error(copy)
    assert problem in str(err) and err.line == 3783


def test_non_numeric_score(copy):
    _append(copy / "human" / "judgments.tsv", "LT22\t3\tR1\tgood")
    err = _error(copy)
    assert err.source.endswith("judgments.tsv") and err.line == 5922 and "not a number" in str(err)


def test_duplicate_row(copy):
    rows = (copy / "human" / "segments.tsv").read_text().splitlines()
    _append(copy / "human" / "segments.tsv", rows[5])
    err = _error(copy)
    assert "duplicate" in str(err) and "line 6" in str(err) and err.line == 3783


def test_wrong_field_count(copy):
    _append(copy / "segments.tsv", "5\tdoc")
    err = _error(copy)
    assert "tab-separated fields" in str(err) and err.line == 429


def test_bad_header(copy):
    path = copy / "human" / "segments.tsv"
    lines = path.read_text().splitlines()
    path.write_text("\n".join(["sys\tseg_id\traw\tz\tn"] + lines[1:]) + "\n")
    err = _error(copy)
    assert err.line == 1 and "'system'" in str(err)


def test_optional_files_absent(copy):
    shutil.rmtree(copy / "human")
    (copy / "segments.tsv").unlink()
    (copy / "source.txt").unlink()
    (copy / "meta.json").unlink()
    d = load_dataset(copy)
    assert not d.has_human_scores and d.judgments is None and d.source is None
    assert d.domains is None and d.doc_ids is None
    # without meta.json, HUMAN-B is recognised by its name
    assert d.human_systems == {"HUMAN-B": "B"}
    assert math.isnan(d.human_system_score("LT22"))
    assert np.isnan(d.human_segment_scores("LT22")).all()


# ---- human scores given only in part -------------------------------------------------------------


def _drop_column(path: Path, column: str) -> None:
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    k = rows[0].index(column)
    path.write_text("\n".join("\t".join(c for j, c in enumerate(r) if j != k) for r in rows) + "\n",
                    encoding="utf-8")


@pytest.mark.parametrize("kept, dropped", [("raw", "z"), ("z", "raw")])
def test_segment_scores_of_one_kind(copy, kept, dropped):
    _drop_column(copy / "human" / "segments.tsv", dropped)
    d = load_dataset(copy)
    full = load_dataset(sample_path())
    assert d.human_kinds == (kept,)
    for system in full.judged_systems():
        assert np.array_equal(d.human_segment_scores(system, kept),
                              full.human_segment_scores(system, kept), equal_nan=True)
        assert np.isnan(d.human_segment_scores(system, dropped)).all()


def test_segment_scores_need_one_kind(copy):
    _drop_column(copy / "human" / "segments.tsv", "z")
    _drop_column(copy / "human" / "segments.tsv", "raw")
    err = _error(copy)
    assert err.line == 1 and "'z' or 'raw'" in str(err) and err.source.endswith("segments.tsv")


def _judgments_only(copy: Path, rows: list[tuple[str, int, str, float]], column: str) -> None:
    (copy / "human" / "segments.tsv").unlink()
    lines = [f"system\tseg_id\trater\t{column}"] + [f"{s}\t{g}\t{r}\t{v!r}" for s, g, r, v in rows]
    (copy / "human" / "judgments.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_raw_judgments_are_standardized_per_rater(copy):
    """Without segments.tsv and without a z column: WMT's protocol, recomputed by hand here."""
    rows = [("LT22", 1, "r1", 60.0), ("LT22", 1, "r2", 90.0), ("LT22", 2, "r1", 80.0),
            ("PROMT", 1, "r1", 70.0), ("PROMT", 2, "r2", 50.0), ("PROMT", 3, "r2", 40.0)]
    _judgments_only(copy, rows, "raw")
    d = load_dataset(copy)
    assert d.human_kinds == ("z", "raw")
    z = {}
    for rater in ("r1", "r2"):
        values = [v for _, _, r, v in rows if r == rater]
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1))
        z[rater] = {v: (v - mean) / sd for v in values}
    lt22 = d.human_segment_scores("LT22", "z")
    assert lt22[0] == pytest.approx((z["r1"][60.0] + z["r2"][90.0]) / 2, rel=1e-12)
    assert lt22[1] == pytest.approx(z["r1"][80.0], rel=1e-12)
    assert np.isnan(lt22[2:]).all()
    assert d.human_segment_scores("LT22", "raw")[0] == 75.0
    assert d.human["LT22"].n[0] == 2
    assert d.human_system_score("PROMT", "raw") == pytest.approx((70 + 50 + 40) / 3)
    assert d.judged_systems() == ("LT22", "PROMT")


def test_z_judgments_are_averaged(copy):
    _judgments_only(copy, [("LT22", 4, "a", 0.5), ("LT22", 4, "b", -0.25)], "z")
    d = load_dataset(copy)
    assert d.human_kinds == ("z",)
    assert d.human_segment_scores("LT22", "z")[3] == 0.125
    assert np.isnan(d.human_segment_scores("LT22", "raw")).all()
