"""``mtscore caption``, ``coco_eval`` and the ``COCOEvalCap`` port: inputs, outputs and errors."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mtscore.caption import COCO, COCOEvalCap, coco_eval, evaluate_captions
from mtscore.errors import InputError

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "src" / "mtscore" / "data" / "sample" / "captions"
DATA = REPO / "tests" / "data" / "coco"


def mtscore(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mtscore", *args], capture_output=True, text=True,
                          cwd=REPO)


def oracle(name: str) -> dict[str, Any]:
    with gzip.open(DATA / f"{name}.json.gz", "rt", encoding="utf-8") as f:
        return json.load(f)


def write_coco(tmp_path: Path, data: dict[str, Any]) -> tuple[Path, Path]:
    ann = {"annotations": [{"image_id": int(i), "caption": c}
                           for i, caps in data["gts"].items() for c in caps]}
    res = [{"image_id": int(i), "caption": c} for i, c in data["res"].items()]
    (tmp_path / "ann.json").write_text(json.dumps(ann), encoding="utf-8")
    (tmp_path / "res.json").write_text(json.dumps(res), encoding="utf-8")
    return tmp_path / "ann.json", tmp_path / "res.json"


def test_cocoevalcap_port_equals_pycocoevalcap(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = oracle("eval_generated_1")
    ann, res = write_coco(tmp_path, data)
    coco = COCO(ann)
    coco_result = coco.loadRes(res)
    evaluator = COCOEvalCap(coco, coco_result, meteor=False)
    evaluator.params["image_id"] = coco_result.getImgIds()
    evaluator.evaluate()
    assert "Bleu_4: " in capsys.readouterr().out
    for name in ("Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "ROUGE_L", "CIDEr"):
        assert evaluator.eval[name] == pytest.approx(data["corpus"][name], abs=1e-9)
        for image, scores in evaluator.imgToEval.items():
            assert scores[name] == pytest.approx(data["images"][str(image)][name], abs=1e-9)
    assert len(evaluator.evalImgs) == len(data["gts"])


def test_coco_eval_files(tmp_path: Path) -> None:
    data = oracle("eval_generated_0")
    ann, res = write_coco(tmp_path, data)
    ev = coco_eval(ann, res, meteor=False)
    assert ev.eval["CIDEr"] == pytest.approx(data["corpus"]["CIDEr"], abs=1e-9)
    assert list(ev.eval) == ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "ROUGE_L", "CIDEr"]


def test_cli_prints_the_eval_dict() -> None:
    out = mtscore("caption", "--annotations", str(SAMPLE / "annotations.json"),
                  "--results", str(SAMPLE / "results_a.json"), "--no-meteor")
    assert out.returncode == 0, out.stderr
    printed = eval(out.stdout)  # the dict as Python prints it
    assert list(printed) == ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4", "ROUGE_L", "CIDEr"]
    ev = coco_eval(SAMPLE / "annotations.json", SAMPLE / "results_a.json", meteor=False)
    assert printed == ev.eval


def test_cli_plain_layout_equals_json_layout(tmp_path: Path) -> None:
    ann = json.loads((SAMPLE / "annotations.json").read_text(encoding="utf-8"))
    res = json.loads((SAMPLE / "results_a.json").read_text(encoding="utf-8"))
    by_image: dict[int, list[str]] = {}
    for a in ann["annotations"]:
        by_image.setdefault(a["image_id"], []).append(a["caption"])
    hyp = {r["image_id"]: r["caption"] for r in res}
    ids = list(hyp)
    for k in range(3):  # every image of the sample has 3 references at least
        (tmp_path / f"ref{k}.txt").write_text("".join(by_image[i][k] + "\n" for i in ids), "utf-8")
    (tmp_path / "hyp.txt").write_text("".join(hyp[i] + "\n" for i in ids), encoding="utf-8")
    out = mtscore("caption", "--refs", *(str(tmp_path / f"ref{k}.txt") for k in range(3)),
                  "--input", str(tmp_path / "hyp.txt"), "--no-meteor", "-f", "json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)["systems"][0]["eval"]
    expected = evaluate_captions([hyp[i] for i in ids], [by_image[i][:3] for i in ids],
                                 meteor=False).eval
    assert got == pytest.approx(expected, abs=1e-12)


def test_cli_two_results_files_paired_test_and_ci() -> None:
    out = mtscore("caption", "-a", str(SAMPLE / "annotations.json"), "-R",
                  str(SAMPLE / "results_a.json"), str(SAMPLE / "results_b.json"), "--no-meteor",
                  "--ci", "--resamples", "200", "--seed", "7", "-f", "json", "--per-image")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert [s["system"] for s in doc["systems"]] == ["results_a", "results_b"]
    ci = doc["systems"][0]["ci"]["CIDEr"]
    assert ci["low"] <= doc["systems"][0]["eval"]["CIDEr"] <= ci["high"]
    tests = doc["paired_bootstrap"]["CIDEr"]
    assert len(tests) == 1 and 0 < tests[0]["p_value"] <= 1
    assert set(doc["systems"][1]["imgToEval"]) == {str(i) for i in range(101, 111)}
    again = mtscore("caption", "-a", str(SAMPLE / "annotations.json"), "-R",
                    str(SAMPLE / "results_a.json"), str(SAMPLE / "results_b.json"), "--no-meteor",
                    "--ci", "--resamples", "200", "--seed", "7", "-f", "json", "--per-image")
    assert again.stdout == out.stdout  # seeded


def test_build_and_use_cider_df(tmp_path: Path) -> None:
    df = tmp_path / "train.df.gz"
    out = mtscore("caption", "-a", str(SAMPLE / "annotations.json"), "--build-cider-df", str(df))
    assert out.returncode == 0, out.stderr
    assert "10 images" in out.stdout
    one = tmp_path / "one.json"
    one.write_text(json.dumps([{"image_id": 103, "caption": "A slice of pizza and a salad."}]),
                   encoding="utf-8")
    scored = mtscore("caption", "-a", str(SAMPLE / "annotations.json"), "-R", str(one),
                     "--no-meteor", "--cider-df", str(df), "-f", "json")
    alone = mtscore("caption", "-a", str(SAMPLE / "annotations.json"), "-R", str(one),
                    "--no-meteor", "-f", "json")
    assert json.loads(scored.stdout)["systems"][0]["eval"]["CIDEr"] > 1
    assert json.loads(alone.stdout)["systems"][0]["eval"]["CIDEr"] == 0  # coco-caption's own df
    assert "df:train.df.gz@" in json.loads(scored.stdout)["systems"][0]["signatures"]["CIDEr"]


@pytest.mark.parametrize(("content", "message"), [
    ("[{\"image_id\": 101, \"caption\": \"a\"}, {\"image_id\": 101, \"caption\": \"b\"}]",
     "entry 1: a second caption for image 101"),
    ("[{\"image_id\": 999, \"caption\": \"a\"}]", "image 999 has a result but no annotation"),
    ("[{\"image_id\": 101}]", "entry 0 has no \"caption\""),
    ("{not json", "not JSON"),
    ("[{\"image_id\": 101, \"caption\": 5}]", "caption must be a string"),
])
def test_bad_results_file_one_line_error(tmp_path: Path, content: str, message: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content, encoding="utf-8")
    out = mtscore("caption", "-a", str(SAMPLE / "annotations.json"), "-R", str(bad), "--no-meteor")
    assert out.returncode == 1
    assert message in out.stderr and "bad.json" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_api_errors() -> None:
    with pytest.raises(InputError, match="no reference"):
        evaluate_captions(["a"], [[]], meteor=False)
    with pytest.raises(InputError, match="2 result captions for 1 images"):
        evaluate_captions(["a", "b"], [["a"]], meteor=False)


def meteor_parity(name: str) -> tuple[float, float, float]:
    """(|corpus difference|, per-image r, share of images with the jar's exact score)."""
    from mtscore.caption.evaluation import coco_meteor

    data = oracle(name)
    ids = list(data["gts"])
    m = coco_meteor()
    refs = [data["gts_tokenized"][i] for i in ids]
    streams = [[r[k] if k < len(r) else None for r in refs] for k in range(max(map(len, refs)))]
    stats = m.extract([data["res_tokenized"][i][0].replace("|||", "") for i in ids], streams)
    seg = m.segment_scores(stats)
    expected = np.array([data["images"][i]["METEOR"] for i in ids])
    corpus = m.compute(stats.total()).score
    same = float(np.mean(np.abs(seg - expected) <= 1e-9))
    return abs(corpus - data["corpus"]["METEOR"]), float(np.corrcoef(seg, expected)[0, 1]), same


@pytest.mark.parity
@pytest.mark.slow
@pytest.mark.parametrize("name", ["eval_generated_0", "eval_generated_1",
                                  "eval_wmt22_de-en_Online-A", "eval_wmt22_zh-en_Online-B"])
def test_meteor_equals_the_jar_default_run(name: str) -> None:
    """coco-caption's METEOR (the jar's default run, with paraphrases): every image's score (the
    jar's beam; the first run builds the paraphrase table's cache)."""
    delta, r, same = meteor_parity(name)
    assert delta <= 1e-9 and r >= 0.999 and same == 1.0, (delta, r, same)


def test_score_command_takes_the_coco_metrics(tmp_path: Path) -> None:
    """``mtscore score -m coco-bleu coco-rouge-l cider-d`` gives what the caption evaluation gives."""
    refs = [["A dog runs on the grass.", "Two cats sleep."], ["The dog runs.", "two cats on a bed"]]
    hyps = ["a dog runs on the grass .", "two cats"]
    for k, stream in enumerate(refs):
        (tmp_path / f"ref{k}.txt").write_text("".join(r + "\n" for r in stream), encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    out = mtscore("score", "-r", str(tmp_path / "ref0.txt"), str(tmp_path / "ref1.txt"), "-i",
                  str(tmp_path / "hyp.txt"), "-m", "coco-bleu", "coco-rouge-l", "cider-d", "-f", "json")
    assert out.returncode == 0, out.stderr
    scores = {r["metric"]: r["score"] for r in json.loads(out.stdout)}
    ev = evaluate_captions(hyps, [list(r) for r in zip(*refs)], meteor=False)
    assert scores["Bleu_4"] == pytest.approx(ev.eval["Bleu_4"], abs=1e-12)
    assert scores["ROUGE_L"] == pytest.approx(ev.eval["ROUGE_L"], abs=1e-12)
    assert scores["CIDEr"] == pytest.approx(ev.eval["CIDEr"], abs=1e-12)
