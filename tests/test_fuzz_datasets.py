"""Fuzz: mutated data-set folders (missing and repeated columns, bad meta.json, missing, empty or
renamed files, odd seg ids and scores) through ``load_dataset`` and ``mtscore study`` in-process.

Each example copies a small data set (40 segments of the embedded sample, 4 systems) and applies one
to three mutations. ``load_dataset`` either loads it or raises an ``InputError``; ``study`` then exits
0 with finite numbers or 1 with that same one-line error (:mod:`tests.fuzz_support`).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mtscore.data import sample_path
from mtscore.errors import InputError
from mtscore.io.dataset import load_dataset

from .fuzz_support import check, fuzz_settings, run_cli

N_SEGMENTS = 40
SYSTEMS = ("HUMAN-B", "LT22", "Online-A", "PROMT")


def _head(path: Path, n: int) -> str:
    return "".join(line + "\n" for line in path.read_text(encoding="utf-8").splitlines()[:n])


def _tiny(dest: Path) -> Path:
    src = sample_path()
    for sub in ("references", "systems", "human"):
        (dest / sub).mkdir(parents=True)
    for ref in ("A", "B"):
        (dest / "references" / f"{ref}.txt").write_text(_head(src / "references" / f"{ref}.txt", N_SEGMENTS))
    for system in SYSTEMS:
        (dest / "systems" / f"{system}.txt").write_text(_head(src / "systems" / f"{system}.txt", N_SEGMENTS))
    (dest / "source.txt").write_text(_head(src / "source.txt", N_SEGMENTS))
    (dest / "segments.tsv").write_text(_head(src / "segments.tsv", N_SEGMENTS + 1))
    for name in ("segments.tsv", "judgments.tsv"):
        lines = (src / "human" / name).read_text(encoding="utf-8").splitlines()
        keep = [line for line in lines[1:] if line.split("\t")[0] in SYSTEMS
                and int(line.split("\t")[1]) <= N_SEGMENTS]
        (dest / "human" / name).write_text("\n".join([lines[0], *keep]) + "\n")
    meta = json.loads((src / "meta.json").read_text(encoding="utf-8"))
    (dest / "meta.json").write_text(json.dumps({**meta, "segments": N_SEGMENTS}))
    return dest


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _tiny(tmp_path_factory.mktemp("fuzz") / "tiny")


# ---- mutations: each takes the folder and a draw function -----------------------------------------

TSVS = ("segments.tsv", "human/segments.tsv", "human/judgments.tsv")
TEXTS = ("references/A.txt", "references/B.txt", "systems/LT22.txt", "systems/HUMAN-B.txt", "source.txt")
JSON_VALUES = st.recursive(st.none() | st.booleans() | st.integers(-3, 10**6) | st.floats() |
                           st.sampled_from(["A", "B", "C", "HUMAN-B", "de-en", "", "x-y"]),
                           lambda inner: st.lists(inner, max_size=3) |
                           st.dictionaries(st.sampled_from(["HUMAN-B", "HUMAN-C", "A", "B"]), inner,
                                           max_size=2), max_leaves=6)
CELLS = ["", "1.7", "0_1", "\u0661", "+1", "-3", "0", "41", "99999999999999999999", "nan", "inf",
         "x", " 2", "1e3", "LT22", "Ghost", "HUMAN-B", "\t", "2"]


def _tsv_rows(path: Path) -> list[list[str]]:
    """The file's cells ([] when an earlier mutation made it unreadable)."""
    try:
        text = path.read_bytes().decode("utf-8", "surrogateescape")
    except OSError:
        return []
    return [line.split("\t") for line in text.split("\n")]


def _write_rows(path: Path, rows: list[list[str]]) -> None:
    path.write_bytes("\n".join("\t".join(r) for r in rows).encode("utf-8", "surrogateescape"))


def m_column(root: Path, draw: st.DrawFn) -> None:
    """Drop, repeat, rename or reorder a column of a TSV file."""
    path = root / draw(st.sampled_from(TSVS))
    rows = _tsv_rows(path)
    if not rows:
        return
    k = draw(st.integers(0, len(rows[0]) - 1))
    action = draw(st.sampled_from(["drop", "repeat", "rename", "swap"]))
    for row in rows:
        if len(row) <= k:
            continue
        if action == "drop":
            del row[k]
        elif action == "repeat":
            row.append(row[k])
        elif action == "swap":
            row[0], row[k] = row[k], row[0]
    if action == "rename":
        rows[0][k] = draw(st.sampled_from(["z", "raw", "seg_id", "system", "Z", "", "n", "rater"]))
    _write_rows(path, rows)


def m_cell(root: Path, draw: st.DrawFn) -> None:
    """Replace one cell of a TSV file (header included) with an odd value."""
    path = root / draw(st.sampled_from(TSVS))
    rows = _tsv_rows(path)
    if not rows:
        return
    i = draw(st.integers(0, len(rows) - 1))
    if rows[i] == [""]:
        return
    rows[i][draw(st.integers(0, len(rows[i]) - 1))] = draw(st.sampled_from(CELLS))
    _write_rows(path, rows)


def m_meta(root: Path, draw: st.DrawFn) -> None:
    """Set a key of meta.json to a random JSON value, or replace the file with odd content."""
    path = root / "meta.json"
    if path.is_symlink() or path.is_dir():
        return
    if draw(st.integers(0, 3)) == 0:
        path.write_bytes(draw(st.sampled_from([b"", b"{", b"[]", b"null", b"\xff{}", b"[" * 5000,
                                                b'{"segments": 1e999}', b'{"a": NaN}'])))
        return
    try:
        meta = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        meta = {}
    if not isinstance(meta, dict):
        meta = {}
    key = draw(st.sampled_from(["pair", "segments", "references", "human_systems", "name", "test_set"]))
    meta[key] = draw(JSON_VALUES)
    path.write_text(json.dumps(meta), encoding="utf-8")


def m_file(root: Path, draw: st.DrawFn) -> None:
    """Remove, empty, truncate, extend, re-encode or replace a text file by a folder or a link."""
    path = root / draw(st.sampled_from(TEXTS + TSVS + ("meta.json",)))
    if path.is_symlink() or not path.is_file():
        return
    action = draw(st.sampled_from(["remove", "empty", "truncate", "extend", "latin1", "crlf", "cr",
                                   "folder", "loop"]))
    data = path.read_bytes()
    if action == "remove":
        path.unlink()
    elif action == "empty":
        path.write_bytes(b"")
    elif action == "truncate":
        path.write_bytes(b"".join(data.splitlines(keepends=True)[:draw(st.integers(0, 5))]))
    elif action == "extend":
        path.write_bytes(data + draw(st.sampled_from([b"\n", b"extra\n", b"\t\t\n", b"LT22\t1\t2\n"])))
    elif action == "latin1":
        path.write_bytes(data + "café\n".encode("latin-1"))
    elif action in ("crlf", "cr"):
        path.write_bytes(data.replace(b"\n", b"\r\n" if action == "crlf" else b"\r"))
    elif action == "folder":
        path.unlink()
        path.mkdir()
    else:
        path.unlink()
        os.symlink(path.name, path)


def m_names(root: Path, draw: st.DrawFn) -> None:
    """Add, rename or remove a system or reference file, or empty a folder."""
    action = draw(st.sampled_from(["copy", "rename", "human", "clear"]))
    folder = root / draw(st.sampled_from(["systems", "references"]))
    files = sorted(folder.glob("*.txt"))
    if not files:
        return
    name = draw(st.sampled_from(["HUMAN-A", "HUMAN-B", "HUMAN-C", "new", "a b", "ß", "x.y", "-", "nan"]))
    if files[0].name == f"{name}.txt":
        return
    if action == "copy":
        shutil.copy(files[0], folder / f"{name}.txt")
    elif action == "rename":
        files[0].rename(folder / f"{name}.txt")
    elif action == "human":
        shutil.copy(root / "systems" / "LT22.txt", root / "systems" / "HUMAN-A.txt")
    else:
        for file in files:
            file.unlink()


MUTATIONS: dict[str, Callable[[Path, st.DrawFn], None]] = {
    f.__name__: f for f in (m_column, m_cell, m_meta, m_file, m_names)}


def mutated_copy(tiny: Path, tmp: Path, names: list[str], data: st.DataObject) -> Path:
    """A copy of the tiny data set under ``tmp`` with the named mutations applied in turn."""
    root = tmp / "set"
    shutil.copytree(tiny, root, symlinks=True)
    for name in names:
        with contextlib.suppress(OSError):  # a mutation that an earlier one made impossible
            MUTATIONS[name](root, data.draw)
    return root


@pytest.mark.slow
@fuzz_settings(60)
@given(data=st.data(), names=st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1, max_size=3),
       tables=st.sampled_from([["corpus"], ["system", "segment"], ["human", "references"], ["bleu"]]))
def test_mutated_data_sets(tiny: Path, data: st.DataObject, names: list[str], tables: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = mutated_copy(tiny, Path(tmp), names, data)
        try:
            load_dataset(root)
        except InputError as err:
            expected: str | None = str(err)
            assert "\n" not in expected and str(root) in expected, expected
        else:
            expected = None
        outcome = run_cli(["study", str(root), "--no-meteor", "-q", "--resamples", "20", "-t", *tables])
        check(outcome, [str(root)], names=("nan",))
        if expected is not None:
            assert outcome.code == 1 and expected in outcome.err, (expected, outcome.err)


@fuzz_settings(100)
@given(data=st.data(), names=st.lists(st.sampled_from(sorted(MUTATIONS)), min_size=1, max_size=4))
def test_mutated_data_sets_load(tiny: Path, data: st.DataObject, names: list[str]) -> None:
    """``load_dataset`` alone, more examples: loads (and then every array is finite or NaN where
    unjudged, every text file has the data set's length) or one ``InputError`` naming a path."""
    with tempfile.TemporaryDirectory() as tmp:
        root = mutated_copy(tiny, Path(tmp), names, data)
        try:
            ds = load_dataset(root)
        except InputError as err:
            assert "\n" not in str(err) and str(root) in str(err), str(err)
            return
        assert ds.segments >= 1
        assert all(len(v) == ds.segments for v in (*ds.references.values(), *ds.systems.values()))
        for system, reference in ds.human_systems.items():
            assert reference in ds.references and system in ds.systems
            assert ds.reference_ids_for(system)
        assert len(repr(ds)) < 1000


STUDY_OPTIONS = {
    "--blocks": ["-1", "0", "1", "2", "1000000", "nan", ""],
    "--block-size": ["-1", "0", "1", "3", "1000000", "1.5", ""],
    "--resamples": ["-1", "0", "1", "20", "100000000", "1e3", ""],
    "--seed": ["-1", "0", "7", "99999999999999999999", "x"],
    "--human": ["z", "raw", "mqm", ""],
    "--language-pair": ["de-en", "en-zh", "xx", "de-en-fr", "", "12-34"],
    "--width": ["-1", "0", "3", "nan"],
    "--format": ["text", "json", "tsv", "markdown", "latex", "csv", "xml"],
}


@pytest.mark.slow
@fuzz_settings(40)
@given(options=st.dictionaries(st.sampled_from(sorted(STUDY_OPTIONS)), st.integers(0, 6), min_size=1,
                               max_size=3),
       tables=st.sampled_from([["corpus"], ["system", "blocks"], ["ttest", "significance"]]))
def test_study_hostile_options(tiny: Path, options: dict[str, int], tables: list[str]) -> None:
    argv = ["study", str(tiny), "--no-meteor", "-q", "-t", *tables]
    culprits = [str(tiny)]
    if "--resamples" not in options:
        argv += ["--resamples", "20"]
    for option, k in options.items():
        value = STUDY_OPTIONS[option][k % len(STUDY_OPTIONS[option])]
        argv.append(f"{option}={value}")
        culprits += [option, option.lstrip("-"), option.lstrip("-").replace("-", "_"), value or "''"]
    check(run_cli(argv), culprits, names=("nan",))
