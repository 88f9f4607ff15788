"""The caption evaluation with METEOR split over a forked process equals it in one process."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from mtscore.caption import evaluate_captions
from mtscore.caption.evaluation import caption_metrics, tokenizer_cut
from mtscore.caption.forked import OTHERS_SHARE, can_fork, meteor_cut, tokenizer_cut_near
from mtscore.errors import OptionError

DATA = Path(__file__).resolve().parent / "data" / "coco"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forking is Linux-only")
def test_split_meteor_gives_the_same_statistics() -> None:
    with gzip.open(DATA / "eval_generated_1.json.gz", "rt", encoding="utf-8") as f:
        data = json.load(f)
    ids = list(data["gts"])
    hyps, refs = [data["res"][i] for i in ids], [data["gts"][i] for i in ids]
    one = evaluate_captions(hyps, refs, ids, workers=1)
    two = evaluate_captions(hyps, refs, ids, workers=2)
    assert one.eval == two.eval and one.signatures == two.signatures
    for name in one.eval:
        assert one.stats[name].columns == two.stats[name].columns
        assert dict(one.stats[name].meta) == dict(two.stats[name].meta)
        assert np.array_equal(one.stats[name].values, two.stats[name].values), name


def test_when_to_fork() -> None:
    assert not can_fork(1000, 1)
    assert not can_fork(1, 2)
    assert not can_fork(10, None)  # (too few images to pay for a process)
    for bad in (0, 3, True, "2"):
        with pytest.raises(OptionError, match="caption workers"):
            can_fork(1000, bad)  # type: ignore[arg-type]


def test_meteor_cut_splits_the_work_in_two() -> None:
    hyps = ["a b", "a b c d", "a", "a b"]
    refs = [["x y"], ["x y z w", "x"], ["x"], ["x y"]]
    # work per image, (words x words)^1.5 summed over the references: 8, 16^1.5 + 4^1.5 = 72,
    # 1, 8; 0.45 of 89 is reached at the second image
    assert meteor_cut(hyps, refs) == 2
    work = [1.0] * 100
    assert meteor_cut(["a"] * 100, [["x"]] * 100) == int(sum(work) * (1 - OTHERS_SHARE) / 2)
    assert meteor_cut(["a", "b"], [["x"], ["y"]]) == 1
    assert meteor_cut(["a b c", "b"], [["x y z"], ["y"]]) == 1
    assert meteor_cut(["b", "a b c"], [["y"], ["x y z"]]) == 1


def _outcome(hyps: list[str], refs: list[list[str]], workers: int) -> object:
    """The statistics of an evaluation, or its error's type and message."""
    try:
        done = evaluate_captions(hyps, refs, workers=workers)
    except Exception as error:  # (compared between the two ways)
        return type(error), str(error)
    return done.eval, {name: (s.columns, dict(s.meta), s.values.tolist()) for name, s in done.stats.items()}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forking is Linux-only")
def test_tokenizer_in_two_processes_gives_the_same_statistics() -> None:
    """The forked process tokenizes the later images' captions (tokenizer_cut finds a cut) and the
    statistics are those of one process; also with an SGML tag over two captions (fewer lines
    than captions: this process then computes everything) and with no cut to be found."""
    with gzip.open(DATA / "eval_generated_0.json.gz", "rt", encoding="utf-8") as f:
        data = json.load(f)
    ids = list(data["gts"])
    hyps, refs = [data["res"][i] for i in ids], [list(data["gts"][i]) for i in ids]
    metrics = caption_metrics()
    assert tokenizer_cut(metrics, hyps, refs, 2) is not None
    assert tokenizer_cut(metrics, hyps, refs, 1) is None
    assert _outcome(hyps, refs, 1) == _outcome(hyps, refs, 2)
    tagged = [list(r) for r in refs]
    tagged[-5][0], tagged[-4][0] = '<a b="c', '"> a dog'
    assert _outcome(hyps, tagged, 1) == _outcome(hyps, tagged, 2)
    uncut = [[c.rstrip(" .") + "." for c in r] for r in refs]
    assert tokenizer_cut(metrics, hyps, uncut, 2) is None
    assert _outcome(hyps, uncut, 1) == _outcome(hyps, uncut, 2)


def test_tokenizer_cut_near() -> None:
    hyps = ["a dog"] * 20
    refs = [["a cat."]] * 20
    assert tokenizer_cut_near(10, hyps, refs) is None  # (every reference ends like "U.S.")
    refs = [["a cat."] if k != 11 else ["a cat ."] for k in range(20)]
    assert tokenizer_cut_near(10, hyps, refs) == 12  # (after image 11; at most 2 images away)
    assert tokenizer_cut_near(10, ['x="y'] * 20, [["a cat"]] * 20) is None  # (a value left open)
    assert tokenizer_cut_near(10, hyps, [["a cat"]] * 20) == 10
