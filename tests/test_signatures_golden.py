"""Every signature string and a few scores of every metric, over a grid of settings, are exactly
those recorded in ``tests/data/signatures_golden.json`` (made by
``scripts/make_signatures_golden.py`` before the metric registry and frozen settings): a
refactoring of the metrics must change neither a signature nor a score, byte for byte."""

from __future__ import annotations

import importlib.util
import json

import pytest

from .conftest import REPO

GOLDEN = REPO / "tests" / "data" / "signatures_golden.json"


def _script():
    spec = importlib.util.spec_from_file_location("make_signatures_golden",
                                                  REPO / "scripts" / "make_signatures_golden.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()
RECORDED = json.loads(GOLDEN.read_text(encoding="utf-8"))


def test_the_grid_is_the_recorded_one():
    assert sorted(label for label, _ in SCRIPT.grid()) == sorted(RECORDED["metrics"])


@pytest.mark.parametrize(("label", "factory"), SCRIPT.grid(), ids=[label for label, _ in SCRIPT.grid()])
def test_signatures_and_scores_unchanged(label, factory):
    assert SCRIPT.record(factory()) == RECORDED["metrics"][label]


def test_sentence_functions_unchanged():
    assert SCRIPT.sentence_functions() == RECORDED["sentence"]
