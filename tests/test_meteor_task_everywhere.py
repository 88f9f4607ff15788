"""METEOR 1.5 with a jar task (``task``, ``paraphrase``, ``search``, ``jar_beam``) wherever METEOR
works: ``corpus_meteor``/``sentence_meteor``, pairwise scores and MBR, ``score``, ``study`` and
``report`` on the command line. Independent values: the METEOR object's own corpus scores, and
``sentence_meteor`` pair by pair (the pairwise definition). The tiny hand-written table keeps it fast
and needs no ../shared (``tests/data/meteor_paraphrase/tiny-paraphrase.gz``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from mtscore import corpus_meteor, sentence_meteor
from mtscore.cli import build_parser, main
from mtscore.cli.meteor_task import task_metrics
from mtscore.errors import OptionError
from mtscore.metrics.mbr import mbr
from mtscore.metrics.meteor import METEOR
from mtscore.metrics.pairwise import pairwise

TINY = str(Path(__file__).parent / "data" / "meteor_paraphrase" / "tiny-paraphrase.gz")
HYPS = ["The merchandise was cheaper than 20 euros.", "No problem, the goods have cost less than that.",
        "It was not a problem at all.", "The goods arrived."]
REFS = ["The goods cost less than 20 euros.", "Not a problem: the merchandise was cheaper than that.",
        "It was no problem at all.", "The merchandise has arrived."]
SETTINGS = [{"task": "rank"}, {"task": "rank", "search": "exact"}, {"task": "adq", "jar_beam": 3},
            {"task": "hter", "modules": ["exact", "stem", "paraphrase"]}]


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MTSCORE_CACHE_DIR", str(tmp_path / "cache"))


@pytest.mark.parametrize("settings", SETTINGS, ids=str)
def test_corpus_and_sentence_functions_take_the_task_settings(settings: dict) -> None:
    metric = METEOR(variant="1.5", paraphrase=TINY, **settings)
    expected = metric.score_corpus(HYPS, [REFS])
    result = corpus_meteor(HYPS, [REFS], variant="1.5", paraphrase=TINY, **settings)
    assert result.score == expected.score and result.signature == expected.signature
    assert "|task:" in str(result.signature) and "|paraphrase:tiny-paraphrase.gz@" in str(result.signature)
    for hyp, ref in zip(HYPS, REFS):
        one = sentence_meteor(hyp, ref, variant="1.5", paraphrase=TINY, **settings)
        assert one.score == metric.score_corpus([hyp], [[ref]]).score
    with pytest.raises(OptionError):  # a task is METEOR 1.5's
        corpus_meteor(HYPS, [REFS], paraphrase=TINY, **settings)


@pytest.mark.parametrize("settings", SETTINGS, ids=str)
@pytest.mark.parametrize("fast", [True, False])
def test_pairwise_and_mbr_with_a_task_are_sentence_meteor(settings: dict, fast: bool) -> None:
    metric = METEOR(variant="1.5", paraphrase=TINY, **settings)
    matrix = pairwise(metric, HYPS, REFS, fast=fast)
    expected = np.array([[sentence_meteor(h, r, variant="1.5", paraphrase=TINY, **settings).score
                          for r in REFS] for h in HYPS])
    assert np.abs(matrix - expected).max() < 1e-12
    chosen = mbr(metric, HYPS)  # the candidates as pseudo-references
    own = np.array([[sentence_meteor(h, r, variant="1.5", paraphrase=TINY, **settings).score
                     for r in HYPS] for h in HYPS])
    assert chosen.index == int(np.argmax(own.mean(axis=1)))
    assert np.abs(np.asarray(chosen.utilities) - own.mean(axis=1)).max() < 1e-12
    assert "|task:" in chosen.signature


def test_score_command_takes_the_search(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("\n".join(HYPS) + "\n", encoding="utf-8")
    ref.write_text("\n".join(REFS) + "\n", encoding="utf-8")
    for extra, settings in (([], {}), (["--meteor-search", "exact"], {"search": "exact"}),
                            (["--meteor-jar-beam", "2"], {"jar_beam": 2})):
        assert main(["score", "-m", "meteor", "-i", str(hyp), "-r", str(ref), "--meteor-task", "rank",
                     "--meteor-paraphrase", TINY, "-f", "json", "-q", *extra]) == 0
        out = json.loads(capsys.readouterr().out)
        out = out[0] if isinstance(out, list) else out
        api = corpus_meteor(HYPS, [REFS], variant="1.5", task="rank", paraphrase=TINY, **settings)
        assert out["score"] == pytest.approx(api.score, abs=1e-12)
        assert out["signature"] == str(api.signature)
    assert main(["score", "-m", "meteor", "-i", str(hyp), "-r", str(ref), "--meteor-task", "rank",
                 "--meteor-paraphrase", TINY, "--meteor-search", "exact", "--meteor-jar-beam", "4"]) != 0
    assert "the exact search has no beam" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["study", "report"])
def test_study_and_report_take_the_task_options(command: str) -> None:
    args = build_parser().parse_args([command, "sample", "--meteor-task", "rank", "--meteor-paraphrase",
                                      TINY, "--meteor-search", "exact"])
    (spec,) = task_metrics(args)
    assert spec.label == "METEOR-1.5-rank"
    assert "|task:rank|" in str(spec.metric.signature()) and "|search:exact|" in str(spec.metric.signature())
    assert task_metrics(build_parser().parse_args([command, "sample", "--meteor-task", "adq",
                                                   "--meteor-paraphrase", TINY]))[0].metric.beam_width == 40
    with pytest.raises(OptionError):  # the search options apply to --meteor-task
        task_metrics(build_parser().parse_args([command, "sample", "--meteor-search", "beam"]))


def test_study_scores_a_task(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["study", "sample", "--no-meteor", "--tables", "corpus", "--resamples", "20", "-q",
                 "--meteor-task", "rank", "--meteor-paraphrase", TINY, "-f", "json"]) == 0
    assert "METEOR-1.5-rank" in capsys.readouterr().out


def test_mbr_command_takes_the_task(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    samples = tmp_path / "samples.txt"
    samples.write_text("\n".join(HYPS + REFS) + "\n", encoding="utf-8")  # two sources of 4
    assert main(["mbr", str(samples), "-n", "4", "-m", "meteor", "--meteor-task", "rank",
                 "--meteor-paraphrase", TINY, "--meteor-search", "exact", "--scores", "-q"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    metric = METEOR(variant="1.5", task="rank", paraphrase=TINY, search="exact")
    for source, group in enumerate((HYPS, REFS)):
        expected = mbr(metric, group)
        mine = [r for r in rows if r[0] == str(source + 1)]
        assert [float(r[2]) for r in mine] == pytest.approx(list(expected.utilities), abs=1e-12)
        assert [int(r[3]) for r in mine].index(1) == expected.index
    assert main(["mbr", str(samples), "-n", "4", "-m", "chrf", "--meteor-task", "rank", "-q"]) != 0
    assert "utility of -m meteor" in capsys.readouterr().err


def test_corpus_blocks_and_workers_equal_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    import mtscore.metrics.meteor.extract as extract

    sample = Path(__file__).resolve().parents[1] / "src" / "mtscore" / "data" / "sample" / "wmt22-de-en"
    hyps = (sample / "systems" / "LT22.txt").read_text(encoding="utf-8").splitlines()[:120]
    refs = [(sample / "references" / f"{r}.txt").read_text(encoding="utf-8").splitlines()[:120]
            for r in "AB"]
    rule = METEOR(variant="1.5", task="rank", paraphrase=TINY, fast=False).extract(hyps, refs).values
    monkeypatch.setattr(extract, "PHRASE_BLOCK", 7)  # blocks of the batched beam end inside ranges
    for workers in (1, 2):
        ours = METEOR(variant="1.5", task="rank", paraphrase=TINY, workers=workers).extract(hyps, refs)
        assert np.array_equal(ours.values, rule)
