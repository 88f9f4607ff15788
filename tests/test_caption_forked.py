"""The caption evaluation with METEOR split over a forked process equals it in one process."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from mtscore.caption import evaluate_captions
from mtscore.caption.forked import OTHERS_SHARE, can_fork, meteor_cut
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
