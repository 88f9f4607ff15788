"""``metric.get_signature()``, as sacreBLEU's: the signature of the last score, equal to the one the
result carries (for every registry metric); before any score, every setting with the data's facts
unknown (``nrefs:?``)."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from mtscore.metrics import registry

from .registry_metrics import NAMES

SAMPLE = Path(__file__).resolve().parents[1] / "src" / "mtscore" / "data" / "sample" / "wmt22-de-en"


def _lines(path: Path, n: int = 6) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()[:n]


HYPS = _lines(SAMPLE / "systems" / "Online-B.txt")
REFS = [_lines(SAMPLE / "references" / "A.txt"), _lines(SAMPLE / "references" / "B.txt")]


@pytest.mark.parametrize("name", NAMES)
def test_before_any_score_the_facts_are_unknown(name: str) -> None:
    metric = registry.get(name).create()
    signature = metric.get_signature()
    assert signature == metric.signature()
    assert signature.fields["nrefs"] == "?"


@pytest.mark.parametrize("name", NAMES)
def test_after_a_score_it_is_the_results_signature(name: str) -> None:
    metric = registry.get(name).create()
    two = metric.corpus_score(HYPS, REFS)
    assert metric.get_signature() == two.signature and "|nrefs:2|" in f"|{two.signature}"
    one = metric.corpus_score(HYPS, REFS[:1])  # the last score's, as sacreBLEU
    assert metric.get_signature() == one.signature and "|nrefs:1|" in f"|{one.signature}"
    assert pickle.loads(pickle.dumps(metric)).get_signature() == one.signature


@pytest.mark.parametrize("name", NAMES)
def test_after_compute_from_statistics(name: str) -> None:
    metric = registry.get(name).create()
    stats = metric.extract(HYPS, REFS)
    assert metric.get_signature() == metric.signature()  # extracting is not scoring
    result = metric.compute(stats.total(), stats.meta)
    assert metric.get_signature() == result.signature


@pytest.mark.parametrize("name", ["bleu", "chrf", "ter"])
def test_sentence_score_too(name: str) -> None:
    metric = registry.get(name).create()
    result = metric.sentence_score(HYPS[0], [REFS[0][0], REFS[1][0], REFS[0][1]])
    assert metric.get_signature() == result.signature and "nrefs:3" in result.signature


@pytest.mark.parametrize(("name", "kwargs"), [("bleu", {}), ("chrf", {}), ("chrf", {"word_order": 2}),
                                              ("ter", {})])
def test_fields_are_sacrebleus(name: str, kwargs: dict[str, int]) -> None:
    """Every field but the version is sacreBLEU's ``get_signature()`` after the same score."""
    sacrebleu = pytest.importorskip("sacrebleu.metrics")
    theirs = {"bleu": sacrebleu.BLEU, "chrf": sacrebleu.CHRF, "ter": sacrebleu.TER}[name](**kwargs)
    theirs.corpus_score(HYPS, REFS)
    ours = registry.get(name).create(**kwargs)
    ours.corpus_score(HYPS, REFS)

    def fields(signature: str) -> list[str]:
        return [f for f in signature.split("|") if ":" in f and not f.startswith("version:")]

    assert fields(str(ours.get_signature())) == fields(str(theirs.get_signature()))
