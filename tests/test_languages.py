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


# ---- METEOR outside English ----------------------------------------------------------------------

import pickle  # noqa: E402

import mtscore  # noqa: E402
from mtscore.metrics.meteor import METEOR  # noqa: E402


def test_meteor_german_stems_hand_computed():
    """exact: groß; stem (Snowball German): häuser ~ haus; die/das, sind/ist differ.
    m = 2 of 4 and 4: P = R = Fmean = 1/2; two chunks: Penalty = 0.5·(2/2)³; score 0.25."""
    r = mtscore.sentence_meteor("die häuser sind groß", "das haus ist groß", language="de")
    assert (r.matches, r.chunks) == (2, 2)
    assert r.score == pytest.approx(0.25, abs=1e-12)
    assert "|modules:exact+stem|" in r.signature and "|lang:de|" in r.signature
    english = mtscore.sentence_meteor("die häuser sind groß", "das haus ist groß")
    assert english.matches == 1 and "|lang:en|" in english.signature


def test_meteor_chinese_characters_hand_computed():
    """zh: one token per Han character, exact matching only. 6 of 7 characters match in two
    chunks (我们 | 天去北京): Fmean = 6/7, Penalty = 0.5·(2/6)³."""
    r = mtscore.sentence_meteor("我们今天去北京", "我们明天去北京", language="zh")
    assert (r.matches, r.chunks) == (6, 2)
    assert r.score == pytest.approx(6 / 7 * (1 - 0.5 * (2 / 6) ** 3), abs=1e-12)
    assert "|modules:exact|" in r.signature and "|tok:zh|" in r.signature


@pytest.mark.parametrize("modules", [("exact", "porter"), ("exact", "synonym"), ("wn_stem",)])
def test_meteor_english_resources_refused(modules):
    with pytest.raises(OptionError, match="English resources"):
        METEOR(modules=modules, language="de")


def test_meteor_language_errors():
    with pytest.raises(OptionError, match="no Snowball stemmer"):
        METEOR(modules=("exact", "stem"), language="zh")
    with pytest.raises(OptionError, match="function-word list is English"):
        METEOR(delta=0.5, language="fr")
    with pytest.raises(OptionError, match="ISO 639-1"):
        METEOR(language="german")


def test_meteor_other_language_pickles():
    m = METEOR(language="fr")
    m.extract(["les chats"], [["le chat"]])
    clone = pickle.loads(pickle.dumps(m))
    assert clone.extract(["les chats"], [["le chat"]]).values.tolist() == \
        m.extract(["les chats"], [["le chat"]]).values.tolist()


def test_cli_meteor_language(tmp_path, capsys):
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    ref.write_text("das haus ist groß\n", encoding="utf-8")
    hyp.write_text("die häuser sind groß\n", encoding="utf-8")
    [record] = _score(capsys, "-r", str(ref), "-i", str(hyp), "-m", "meteor", "-l", "en-de")
    assert record["score"] == pytest.approx(0.25, abs=1e-12) and "|lang:de|" in record["signature"]
    assert main(["score", "-r", str(ref), "-i", str(hyp), "-m", "meteor", "-l", "en-de",
                 "--meteor-modules", "exact", "synonym"]) != 0
    assert "English resources" in capsys.readouterr().err


def test_lc_is_still_lowercase_beside_l(tmp_path, capsys):
    """``-lc`` (sacreBLEU's lowercase) is not read as ``-l c``."""
    ref = tmp_path / "ref.txt"
    hyp = tmp_path / "hyp.txt"
    ref.write_text("The Cat sat on the Mat .\n", encoding="utf-8")
    hyp.write_text("the cat sat on the mat .\n", encoding="utf-8")
    [record] = _score(capsys, "-r", str(ref), "-i", str(hyp), "-lc")
    assert record["score"] == pytest.approx(100.0) and "|case:lc|" in record["signature"]
    [record] = _score(capsys, "-r", str(ref), "-i", str(hyp), "-lc", "-l", "en-de")
    assert record["score"] == pytest.approx(100.0)
