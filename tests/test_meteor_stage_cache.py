"""METEOR objects sharing their first stages' alignments give exactly the statistics of unshared ones."""

from __future__ import annotations

import numpy as np

from mtscore.data import sample_path
from mtscore.io.text import read_lines
from mtscore.metrics.meteor import ABLATIONS, METEOR


def test_shared_stage_cache_changes_nothing() -> None:
    folder = sample_path()
    refs = [read_lines(folder / "references" / f"{r}.txt")[:150] for r in ("A", "B")]
    stages: dict = {}
    for system in ("LT22", "Online-A"):
        hyps = read_lines(folder / "systems" / f"{system}.txt")[:150]
        for modules in ABLATIONS:
            shared = METEOR(modules=modules, stage_cache=stages).extract(hyps, refs)
            alone = METEOR(modules=modules).extract(hyps, refs)
            np.testing.assert_array_equal(shared.values, alone.values)
    assert stages  # the cache was used
