"""The study refuses what it would otherwise score wrongly (issue 24): references in a script
without spaces and no language pair (13a would be wrong), a human file from another data set; and
its settings say what was used (no "human score z" without human scores, no local path)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mtscore.cli import main
from mtscore.data import sample_path
from mtscore.errors import InputError
from mtscore.study import run_study
from mtscore.study.script import spaceless_script

ZH = ["今天天气很好，我们去公园散步吧。", "这家餐厅的菜做得非常好吃。", "学生们在学术会议上展示了研究成果。",
      "请问这件衣服多少钱？", "我明天要去北京出差。", "他每天早上七点起床跑步。"]
JA = ["今日はとても良い天気ですね。", "このレストランの料理はおいしいです。", "明日、東京へ出張します。"]
TH = ["วันนี้อากาศดีมาก", "ร้านอาหารนี้อร่อยมาก", "พรุ่งนี้ฉันจะไปกรุงเทพ"]


def _dataset(root: Path, lines: list[str], meta: str | None = None) -> Path:
    (root / "references").mkdir(parents=True)
    (root / "systems").mkdir()
    text = "\n".join(lines * 5) + "\n"
    (root / "references" / "A.txt").write_text(text, encoding="utf-8")
    for name in ("sys1", "sys2"):
        (root / "systems" / f"{name}.txt").write_text(text, encoding="utf-8")
    if meta is not None:
        (root / "meta.json").write_text(meta, encoding="utf-8")
    return root


@pytest.mark.parametrize(("lines", "script", "code"), [
    (ZH, "Han (CJK)", "zh"), (JA, "Japanese kana", "ja"), (TH, "Thai", "th")])
def test_spaceless_scripts_are_detected(lines, script, code):
    assert spaceless_script([lines]) == (script, code)


def test_space_separated_text_is_not_flagged():
    english = (sample_path() / "references" / "A.txt").read_text(encoding="utf-8").splitlines()
    assert spaceless_script([english]) is None
    # a few Han characters (names, quotes) in English text are not enough
    assert spaceless_script([[line + " 北京" for line in english[:50]]]) is None


def test_chinese_target_without_a_pair_is_refused(tmp_path, capsys):
    root = _dataset(tmp_path / "zh", ZH)
    with pytest.raises(InputError, match=r"Han \(CJK\) script.*--language-pair SRC-zh"):
        run_study(root, tables=["corpus"], meteor=False)
    assert main(["study", str(root), "-t", "corpus", "--no-meteor", "-q"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "references/A.txt" in err[0] and "13a" in err[0]


def test_chinese_target_with_a_pair_uses_the_zh_tokenizer(tmp_path):
    root = _dataset(tmp_path / "zh", ZH, meta='{"pair": "en-zh"}')
    study = run_study(root, tables=["corpus"], meteor=False)
    assert "tok:zh" in study.signatures["BLEU"]
    study = run_study(_dataset(tmp_path / "zh2", ZH), tables=["corpus"], meteor=False,
                      language_pair="en-zh")
    assert "tok:zh" in study.signatures["BLEU"]


def test_a_human_file_of_another_data_set_is_refused(tmp_path, capsys):
    root = tmp_path / "ds"
    shutil.copytree(sample_path(), root)
    (root / "human" / "judgments.tsv").unlink()
    human = root / "human" / "segments.tsv"
    human.write_text("system\tseg_id\traw\tz\tn\nAISP-SJTU\t1\t70\t0.1\t1\n", encoding="utf-8")
    assert main(["study", str(root), "-t", "corpus", "--no-meteor", "-q"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "segments.tsv, line 2" in err[0] and "AISP-SJTU" in err[0]
    # a segment past the data set is refused too, not dropped
    human.write_text("system\tseg_id\traw\tz\tn\nLT22\t1\t70\t0.1\t1\nLT22\t1875\t70\t0.1\t1\n",
                     encoding="utf-8")
    with pytest.raises(InputError, match=r"line 3: seg_id 1875 is out of range"):
        run_study(root, tables=["corpus"], meteor=False)


def test_settings_say_what_was_used(tmp_path):
    root = _dataset(tmp_path / "en", ["a small test sentence", "another one here"])
    study = run_study(root, tables=["corpus"], meteor=False)
    assert study.settings["human score"].startswith("none")
    assert study.settings["data set"] == "en"  # the name, no local path
    sample = run_study(sample_path(), tables=["corpus"], meteor=False)
    assert sample.settings["data set"] == "wmt22-de-en"
    assert sample.settings["human score"].startswith("z ")
    assert "site-packages" not in str(sample.settings) and str(sample_path()) not in str(sample.settings)
