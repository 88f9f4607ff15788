"""The target language picks BLEU's tokenizer as sacreBLEU does (``-l SRC-TGT``)."""

from __future__ import annotations

import json

import pytest

from mtscore.cli import main
from mtscore.errors import OptionError
from mtscore.languages import bleu_tokenizer, meteor_language, parse_pair

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.metrics.bleu import BLEU as SacreBLEU  # noqa: E402


@pytest.mark.parametrize("target", ["en", "de", "zh", "ja", "cs", "fr", "ru", "uk"])
def test_default_tokenizer_is_sacrebleus(target):
    metric = SacreBLEU(trg_lang=target)
    metric.corpus_score(["a b"], [["a b"]])
    theirs = metric.get_signature().info["tok"]
    assert theirs.split("-")[0] == bleu_tokenizer(target).split("-")[0]


def test_korean_is_refused_not_guessed():
    with pytest.raises(OptionError, match="ko-mecab"):
        bleu_tokenizer("ko")


@pytest.mark.parametrize("text", ["german", "de_en", "de-en-fr", "d-en", "", "de-12"])
def test_bad_pairs(text):
    with pytest.raises(OptionError, match="language pair"):
        parse_pair(text)


def test_pair():
    pair = parse_pair(" DE-en ")
    assert (pair.source, pair.target, str(pair)) == ("de", "en", "de-en")


def test_meteor_resources():
    en = meteor_language("en")
    assert en.modules == ("exact", "porter", "synonym") and en.english
    de = meteor_language("de")
    assert de.modules == ("exact", "stem") and de.snowball == "german" and not de.english
    zh = meteor_language("zh")
    assert zh.modules == ("exact",) and zh.tokenize == "zh" and zh.snowball is None


def _score(capsys, *argv):
    assert main(["score", *argv, "-f", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_language_pair_picks_tokenizer(tmp_path, capsys):
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    ref.write_text("我们今天去北京。\n他说：“你好！”\n", encoding="utf-8")
    hyp.write_text("我们明天去北京。\n他说：“你好”\n", encoding="utf-8")
    refs = [ref.read_text(encoding="utf-8").splitlines()]
    hyps = hyp.read_text(encoding="utf-8").splitlines()
    for argv, tok in ((["-l", "en-zh"], "zh"), ([], "13a"), (["-l", "en-zh", "-tok", "char"], "char")):
        [record] = _score(capsys, "-r", str(ref), "-i", str(hyp), *argv, "-m", "bleu")
        expected = sacrebleu.corpus_bleu(hyps, refs, tokenize=tok)
        assert record["score"] == pytest.approx(expected.score, abs=1e-9)
        assert f"|tok:{tok}|" in record["signature"]
    [nist] = _score(capsys, "-r", str(ref), "-i", str(hyp), "-l", "en-zh", "-m", "nist")
    assert "|tok:zh|" in nist["signature"]


def test_cli_bad_language_pair(tmp_path, capsys):
    ref = tmp_path / "ref.txt"
    ref.write_text("a\n", encoding="utf-8")
    assert main(["score", "-r", str(ref), "-i", str(ref), "-l", "english"]) != 0
    assert "language pair 'english'" in capsys.readouterr().err
