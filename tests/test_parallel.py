"""All cores: ``mtscore score --jobs 2`` with small chunks prints exactly what ``--jobs 1`` prints
(corpus scores and per-segment scores, in the same order), in processes started with ``spawn``."""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator

import numpy as np
import pytest

from mtscore.cli import main
from mtscore.data import sample_path
from mtscore.io.text import read_lines
from mtscore.metrics.nist import NIST
from mtscore.streaming import score_files

from . import registry_metrics

sacrebleu = pytest.importorskip("sacrebleu")

FOLDER = sample_path()
REFS = [str(FOLDER / "references" / f"{r}.txt") for r in ("A", "B")]
HYPS = [str(FOLDER / "systems" / f"{s}.txt") for s in ("Online-A", "LT22")]
#: 427 segments in chunks of 40: eleven chunks, the last one short
CHUNK = "40"
METRICS = registry_metrics.NAMES


@pytest.fixture
def contexts(monkeypatch) -> Iterator[list[str]]:
    """The start methods the engine asks multiprocessing for (a fork context would be recorded)."""
    asked: list[str] = []
    real = multiprocessing.get_context

    def record(method: str | None = None) -> multiprocessing.context.BaseContext:
        asked.append(str(method))
        return real(method)

    monkeypatch.setattr(multiprocessing, "get_context", record)  # the engine imports it when a pool starts
    yield asked


def _score(capsys, *argv: str) -> str:
    assert main(["score", "-r", *REFS, "-i", *HYPS, "-q", "--chunk-size", CHUNK, *argv]) == 0
    return capsys.readouterr().out


@pytest.mark.slow
@pytest.mark.parametrize("metric", METRICS)
def test_two_jobs_print_what_one_job_prints(capsys, contexts, metric) -> None:
    one = _score(capsys, "-m", metric, "--jobs", "1", "-f", "json")
    segments_one = _score(capsys, "-m", metric, "--jobs", "1", "--segments", "-f", "tsv")
    assert contexts == []  # one job: no pool
    two = _score(capsys, "-m", metric, "--jobs", "2", "-f", "json")
    segments_two = _score(capsys, "-m", metric, "--jobs", "2", "--segments", "-f", "tsv")
    assert contexts == ["spawn", "spawn"]  # a pool each time, never a fork-only path
    assert two == one
    assert segments_two == segments_one
    lines = segments_one.splitlines()
    assert len(lines) == 1 + 2 * len(read_lines(HYPS[0]))  # a header, then every segment of both
    assert [line.split("\t")[1] for line in lines[1:4]] == ["1", "2", "3"]


def test_two_jobs_bleu_is_sacrebleus(capsys) -> None:
    """The parallel corpus BLEU against an independent implementation."""
    lines = _score(capsys, "-m", "bleu", "--jobs", "2", "-b", "-w", "6").splitlines()
    refs = [read_lines(p) for p in REFS]
    expected = [sacrebleu.corpus_bleu(read_lines(h), refs).score for h in HYPS]
    # several systems: each -b line is "system<TAB>score"
    assert [float(line.split("\t")[-1]) for line in lines] == pytest.approx(expected, abs=1e-6)


def test_two_jobs_keep_every_row_in_order(contexts) -> None:
    """score_files with jobs=2: NIST's float rows, per segment, equal one whole-corpus extract."""
    metric = NIST()
    gathered = score_files(HYPS, REFS, metric, chunk_size=33, jobs=2, keep_rows=True)
    assert contexts == ["spawn"]
    refs = [read_lines(p) for p in REFS]
    for s, hyp in enumerate(HYPS):
        whole = metric.extract(read_lines(hyp), refs)
        assert np.array_equal(gathered.stats(0, s).values, whole.values)
        assert gathered.result(0, s).score == metric.corpus_score(read_lines(hyp), refs).score
