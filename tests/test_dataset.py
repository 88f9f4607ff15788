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


@pytest.mark.parity
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
        assert d.human_system_score(r["system"], "raw") == pytest.approx(float(r["da_raw_mean_clean"]),
                                                                         abs=1e-9)
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
    path.write_text("\n".join(["sys\tseg_id\traw\tz\tn", *lines[1:]]) + "\n")
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


# ---- refused: what would give wrong results or a traceback (issue 15) ----------------------------


def _meta(copy: Path, **changes) -> None:
    path = copy / "meta.json"
    meta = json.loads(path.read_text(encoding="utf-8"))
    meta.update(changes)
    path.write_text(json.dumps(meta), encoding="utf-8")


def _empty_set(copy: Path) -> None:
    for sub in ("references", "systems"):
        for file in (copy / sub).iterdir():
            file.write_bytes(b"")
    (copy / "source.txt").write_bytes(b"")
    shutil.rmtree(copy / "human")
    (copy / "segments.tsv").unlink()
    (copy / "meta.json").unlink()


def test_empty_data_set_names_the_folder(copy):
    _empty_set(copy)
    err = _error(copy)
    assert err.source == str(copy) and "empty data set" in str(err) and "\n" not in str(err)


def test_duplicate_column_in_human_segments(copy):
    """`system seg_id raw z z`: LT22's z would silently become the last column's value."""
    path = copy / "human" / "segments.tsv"
    lines = path.read_text(encoding="utf-8").splitlines()
    path.write_text("\n".join(["system\tseg_id\traw\tz\tz"] + [line.rsplit("\t", 1)[0] + "\t1.33"
                                                               for line in lines[1:]]) + "\n")
    err = _error(copy)
    assert err.source.endswith("segments.tsv") and err.line == 1 and "'z' appears twice" in str(err)


def test_duplicate_column_in_judgments(copy):
    path = copy / "human" / "judgments.tsv"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    path.write_text("\n".join(["\t".join([*header, header[0]])] +
                              [line + "\tX" for line in lines[1:]]) + "\n")
    err = _error(copy)
    assert err.source.endswith("judgments.tsv") and err.line == 1 and "appears twice" in str(err)


@pytest.mark.parametrize("human_systems, words", [
    ({"HUMAN-B": ["B"]}, ["'HUMAN-B'", "string", "array"]),
    ({"HUMAN-B": 2}, ["'HUMAN-B'", "string", "number"]),
    (["HUMAN-B"], ['"human_systems"', "object"]),
    ({"HUMAN-C": "B", "HUMAN-B": "B"}, ["'HUMAN-C'", "systems/HUMAN-C.txt does not exist"]),
    ({"HUMAN-B": "Z"}, ["'HUMAN-B'", "'Z'", "not in references/"]),
    ({}, ["'HUMAN-B'", "scored against itself", '"HUMAN-B": "B"']),
])
def test_bad_human_systems(copy, human_systems, words):
    _meta(copy, human_systems=human_systems)
    err = _error(copy)
    assert err.source.endswith("meta.json")
    for word in words:
        assert word in str(err)


@pytest.mark.parametrize("key, value, words", [
    ("pair", 123, ['"pair"', "string", "number"]),
    ("pair", "german-english", ['"pair"', "language pair"]),
    ("name", ["x"], ['"name"', "string", "array"]),
    ("segments", "427", ['"segments"', "positive integer", "string"]),
    ("segments", True, ['"segments"', "positive integer"]),
    ("references", "A", ['"references"', "array"]),
    ("references", ["A", "A"], ["'A' twice"]),
])
def test_meta_keys_of_the_wrong_type(copy, key, value, words):
    _meta(copy, **{key: value})
    err = _error(copy)
    assert err.source.endswith("meta.json")
    for word in words:
        assert word in str(err)


@pytest.mark.parametrize("content, words", [
    ("[" * 100_000 + "]" * 100_000, ["nested too deeply"]),
    ('{"name": "x",\n "pair": }', ["invalid JSON", "column"]),
    ("[1, 2]", ["JSON object", "array"]),
    ('{"segments": 1' + "0" * 5000 + "}", ["invalid JSON"]),
])
def test_malformed_meta_json(copy, content, words):
    (copy / "meta.json").write_text(content, encoding="utf-8")
    err = _error(copy)
    assert err.source.endswith("meta.json") and "\n" not in str(err)
    for word in words:
        assert word in str(err)
    if "column" in words:
        assert err.line == 2


def test_meta_json_not_utf8_or_a_folder(copy):
    (copy / "meta.json").write_bytes(b'{"name": "caf\xe9"}')
    assert "invalid UTF-8" in str(_error(copy))
    (copy / "meta.json").unlink()
    (copy / "meta.json").mkdir()
    err = _error(copy)
    assert err.source.endswith("meta.json") and "is a directory, expected a JSON file" in str(err)


@pytest.mark.parametrize("seg", ["1.7", "0_1", "\u0661", "+1", " 1", "1 ", "", "1e0", "٣٣",
                                 "9" * 5000])
def test_seg_ids_must_be_plain_ascii_integers(copy, seg):
    """int() takes 0_1, ١ (Arabic-Indic one), +1 and ' 1'; a seg id is digits only."""
    _append(copy / "human" / "segments.tsv", f"LT22\t{seg}\t50.0\t0.1\t1")
    err = _error(copy)
    assert err.line == 3783 and ("not an integer" in str(err) or "out of range" in str(err))
    assert len(str(err)) < 300


@pytest.mark.parametrize("value", ["nan", "inf", "-Infinity", "1_0", "\u0661", "0x10", " 1"])
def test_scores_must_be_plain_finite_numbers(copy, value):
    _append(copy / "human" / "judgments.tsv", f"LT22\t3\tR1\t{value}")
    err = _error(copy)
    assert err.source.endswith("judgments.tsv") and err.line == 5922


def test_n_must_be_a_plain_integer(copy):
    _append(copy / "human" / "segments.tsv", "LT22\t112\t50.0\t0.1\t1.0")  # 112: not judged
    err = _error(copy)
    assert err.line == 3783 and "n '1.0' is not an integer" in str(err)


def test_human_system_that_is_the_only_reference(copy):
    (copy / "references" / "A.txt").unlink()
    _meta(copy, references=["B"])
    err = _error(copy)
    assert "'HUMAN-B'" in str(err) and "only reference" in str(err)


def test_human_system_that_is_the_only_reference_by_name(copy):
    (copy / "references" / "A.txt").unlink()
    (copy / "meta.json").unlink()
    err = _error(copy)
    assert err.source == str(copy) and "'HUMAN-B'" in str(err) and "only reference" in str(err)


@pytest.mark.parametrize("name", ["L\nT22", "L\tT22", "L\rT", "x\u2028y"])
def test_system_names_with_control_characters(copy, name):
    shutil.copy(copy / "systems" / "LT22.txt", copy / "systems" / f"{name}.txt")
    err = _error(copy)
    assert "control character" in str(err) and "\n" not in str(err) and "\t" not in str(err)


def test_system_name_not_utf8(copy):
    import os

    raw = os.fsencode(copy / "systems") + b"/L\xffT.txt"
    with open(raw, "wb") as handle:
        handle.write((copy / "systems" / "LT22.txt").read_bytes())
    err = _error(copy)
    assert "not valid UTF-8" in str(err) and "\\udcff" in str(err)
    str(err).encode("utf-8")  # printable as it is


def test_txt_entry_that_is_not_a_file(copy):
    (copy / "systems" / "odd.txt").mkdir()
    err = _error(copy)
    assert err.source.endswith("odd.txt") and "is a directory" in str(err)


def test_broken_link_and_symlink_loop(copy):
    (copy / "systems" / "gone.txt").symlink_to(copy / "nowhere.txt")
    err = _error(copy)
    assert err.source.endswith("gone.txt") and "broken symbolic link" in str(err)
    (copy / "systems" / "gone.txt").unlink()
    (copy / "systems" / "loop.txt").symlink_to(copy / "systems" / "loop.txt")
    err = _error(copy)
    assert err.source.endswith("loop.txt") and "symbolic links" in str(err)


def test_data_set_path_that_is_a_file_or_loop(copy, tmp_path):
    err = _error(copy / "meta.json")
    assert "is not a folder" in str(err)
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    err = _error(tmp_path / "loop")
    assert err.source.endswith("loop") and "symbolic links" in str(err)
    err = _error(copy / ("x" * 300))
    assert "name too long" in str(err).lower()


def test_systems_is_a_file(copy):
    shutil.rmtree(copy / "systems")
    (copy / "systems").write_text("x\n")
    err = _error(copy)
    assert err.source.endswith("systems") and "is not a folder" in str(err)


# ---- Python objects: short repr, HTML, pandas (issue 12) -----------------------------------------


def test_repr_is_short():
    d = load_dataset(sample_path())
    text = repr(d)
    assert len(text) < 1000 and "\n" not in text
    assert "segments=427" in text and "'A'" in text and "'HUMAN-B'" in text and "judgments=5920" in text


def test_repr_of_many_long_names(copy):
    for k in range(30):
        shutil.copy(copy / "systems" / "LT22.txt", copy / "systems" / f"{'x' * 200}{k}.txt")
    _meta(copy, name="n" * 5000)
    assert len(repr(load_dataset(copy))) < 1000


def test_repr_html_escapes_and_lists_systems(copy):
    shutil.copy(copy / "systems" / "LT22.txt", copy / "systems" / "<b>&x.txt")
    d = load_dataset(copy)
    page = d._repr_html_()
    assert "&lt;b&gt;&amp;x" in page and "<b>&x" not in page
    assert page.count("<tr>") == len(d.systems) + 1
    mean = d.human_system_score("LT22", "z")
    assert f"{mean:.4f}" in page


def test_to_pandas_long_format():
    pd = pytest.importorskip("pandas")
    d = load_dataset(sample_path())
    df = d.to_pandas()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == ["system", "seg_id", "doc_id", "domain", "hypothesis", "human_z",
                                "human_raw", "human_n"]
    assert len(df) == 427 * len(d.systems)
    rows = _tsv(sample_path() / "human" / "segments.tsv")
    judged = df[df.human_n > 0]
    assert len(judged) == len(rows)
    for r in rows[:200]:
        row = df[(df.system == r["system"]) & (df.seg_id == int(r["seg_id"]))].iloc[0]
        assert row.human_z == float(r["z"]) and row.human_raw == float(r["raw"])
    lt22 = df[df.system == "LT22"]
    assert list(lt22.hypothesis) == d.systems["LT22"]
    assert list(lt22.doc_id) == list(d.doc_ids)
    # the system means read back from the long format are the data set's
    assert judged.groupby("system").human_z.mean()["LT22"] == pytest.approx(d.human_system_score("LT22"))
