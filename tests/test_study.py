"""`mtscore study`: every table on the embedded sample, numbers traced back to independent tools
(sacreBLEU, scipy.stats, the human TSV files read here with csv)."""

from __future__ import annotations

import csv
import json
import math
import shutil
from pathlib import Path

import numpy as np
import pytest
import sacrebleu
import scipy.stats

from mtscore.cli import main
from mtscore.data import sample_path
from mtscore.errors import InputError, OptionError
from mtscore.metrics.nist import corpus_nist
from mtscore.report.study_tables import render_study, study_dict, study_tables
from mtscore.study import TABLE_IDS, run_study

SAMPLE = sample_path()
RESAMPLES = 200
SEED = 7


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@pytest.fixture(scope="module")
def independent():
    """The sample read with plain Python: systems, references, human segment scores."""
    meta = json.loads((SAMPLE / "meta.json").read_text())
    refs = {r: _lines(SAMPLE / "references" / f"{r}.txt") for r in meta["references"]}
    systems = {p.stem: _lines(p) for p in sorted((SAMPLE / "systems").glob("*.txt"))}
    human: dict[str, dict[str, dict[int, float]]] = {"raw": {}, "z": {}}
    with open(SAMPLE / "human" / "segments.tsv", encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            for kind in ("raw", "z"):
                human[kind].setdefault(row["system"], {})[int(row["seg_id"])] = float(row[kind])
    own = meta["human_systems"]
    ref_ids = {s: [r for r in meta["references"] if r != own.get(s)] for s in systems}
    return {"refs": refs, "systems": systems, "human": human, "ref_ids": ref_ids}


@pytest.fixture(scope="module")
def study():
    return run_study(SAMPLE, resamples=RESAMPLES, seed=SEED)


def _bleu(independent, system, ids=None):
    ids = ids or independent["ref_ids"][system]
    return sacrebleu.corpus_bleu(independent["systems"][system],
                                 [independent["refs"][r] for r in ids]).score


def _records(table):
    return table.records()


def test_every_table_is_produced(study):
    assert set(study_tables(study)) == set(TABLE_IDS)
    for fmt in ("text", "tsv", "markdown", "latex"):
        assert "Pearson r" in render_study(study, fmt)


@pytest.mark.parity
def test_corpus_scores_equal_sacrebleu_and_human_means(study, independent):
    assert study.reference_sets["HUMAN-B"] == ("A",)
    rows = {r["system"]: r for r in _records(study_tables(study)["corpus"])}
    for system in independent["systems"]:
        assert rows[system]["BLEU"] == pytest.approx(_bleu(independent, system), abs=1e-9)
        for kind in ("raw", "z"):
            scores = independent["human"][kind][system].values()
            assert rows[system][f"human {kind}"] == pytest.approx(sum(scores) / len(scores), rel=1e-12)
        assert rows[system]["judged"] == len(independent["human"]["z"][system])


def test_table1_bleu_and_nist_rows_are_pearson_of_independent_numbers(study, independent):
    systems = sorted(independent["human"]["z"])
    human = [np.mean(list(independent["human"]["z"][s].values())) for s in systems]
    bleu = [_bleu(independent, s) for s in systems]
    nist = [corpus_nist(independent["systems"][s],
                        [independent["refs"][r] for r in independent["ref_ids"][s]]).score
            for s in systems]
    rows = {r["metric"]: r for r in _records(study_tables(study)["system"])}
    assert rows["BLEU"]["Pearson r"] == pytest.approx(scipy.stats.pearsonr(bleu, human).statistic, abs=1e-9)
    assert rows["NIST"]["Pearson r"] == pytest.approx(scipy.stats.pearsonr(nist, human).statistic, abs=1e-9)
    assert rows["BLEU"]["Spearman"] == pytest.approx(scipy.stats.spearmanr(bleu, human).statistic, abs=1e-9)
    for row in rows.values():
        assert row["95% low"] <= row["Pearson r"] <= row["95% high"]
        assert row["systems"] == 10
    assert any(f"{RESAMPLES} resamples, seed {SEED}" in n for n in study_tables(study)["system"].notes)


def test_table8_raw_row(study, independent):
    systems = sorted(independent["human"]["raw"])
    raw = [np.mean(list(independent["human"]["raw"][s].values())) for s in systems]
    bleu = [_bleu(independent, s) for s in systems]
    row = next(r for r in _records(study_tables(study)["human"]) if r["metric"] == "BLEU")
    assert row["system r (raw)"] == pytest.approx(scipy.stats.pearsonr(bleu, raw).statistic, abs=1e-9)
    z_row = next(r for r in _records(study_tables(study)["system"]) if r["metric"] == "BLEU")
    assert row["system r (z)"] == z_row["Pearson r"]


def test_segment_table_bleu_is_sentence_bleu_pearson_within_systems(study, independent):
    rows = {r["system"]: r for r in _records(study_tables(study)["segment"])}
    values = []
    for system in ("LT22", "HUMAN-B", "Online-W"):
        hyps = independent["systems"][system]
        refs = [independent["refs"][r] for r in independent["ref_ids"][system]]
        judged = sorted(independent["human"]["z"][system])
        sent = [sacrebleu.sentence_bleu(hyps[i - 1], [r[i - 1] for r in refs]).score for i in judged]
        human = [independent["human"]["z"][system][i] for i in judged]
        r = scipy.stats.pearsonr(sent, human).statistic
        assert rows[system]["BLEU"] == pytest.approx(r, abs=1e-9)
        assert rows[system]["judged"] == len(judged)
        values.append(r)
    per_system = [rows[s]["BLEU"] for s in study.judged_systems]
    assert rows["mean"]["BLEU"] == pytest.approx(np.mean(per_system), abs=1e-12)


def test_block_tables(study, independent):
    b = study.blocks
    assert b.blocks == 17 and b.block_size == 25 and b.segments_used == 425
    # the whole corpus by default (issue 12): as many blocks of 25 as the 427 segments hold
    assert "segments 426–427 of 427 are in no block" in study_tables(study)["blocks"].notes
    row = next(r for r in b.rows if r.system == "LT22")
    hyps, refs = independent["systems"]["LT22"], [independent["refs"]["A"], independent["refs"]["B"]]
    first = sacrebleu.corpus_bleu(hyps[:25], [r[:25] for r in refs]).score
    assert row.block_scores[0] == pytest.approx(first, abs=1e-9)
    assert row.sd == pytest.approx(np.std(row.block_scores, ddof=1))
    t_rows = _records(study_tables(study)["ttest"])
    assert len(t_rows) == len(study.systems) - 1
    a = next(r for r in b.rows if r.system == t_rows[0]["system"])
    c = next(r for r in b.rows if r.system == t_rows[0]["vs"])
    assert t_rows[0]["t"] == pytest.approx(scipy.stats.ttest_rel(a.block_scores, c.block_scores).statistic)


def test_reference_table(study, independent):
    rows = {r["system"]: r for r in _records(study_tables(study)["references"])}
    assert rows["LT22"]["A"] == pytest.approx(_bleu(independent, "LT22", ["A"]), abs=1e-9)
    assert rows["LT22"]["B"] == pytest.approx(_bleu(independent, "LT22", ["B"]), abs=1e-9)
    assert rows["HUMAN-B"]["B"] is None and rows["HUMAN-B"]["A+B"] is None
    assert rows["HUMAN-B"]["A"] == pytest.approx(_bleu(independent, "HUMAN-B", ["A"]), abs=1e-9)


def test_significance_table(study):
    rows = _records(study_tables(study)["significance"])
    metrics = list(dict.fromkeys(r["metric"] for r in rows))
    assert metrics == list(study.metrics)
    bleu = [r for r in rows if r["metric"] == "BLEU"]
    # the human translation is apart from the ranking: no rank, no cluster, its interval only
    assert [r["rank"] for r in bleu] == [*range(1, 10), None]
    assert bleu[-1]["system"] == "HUMAN-B" and bleu[-1]["cluster"] is None
    assert all(r["95% low"] <= r["score"] <= r["95% high"] for r in bleu)
    res = study.significance["BLEU"]
    assert res.resamples == RESAMPLES and res.seed == SEED
    assert "HUMAN-B" not in res.systems and len(res.comparisons) == 9 * 8 // 2


def test_raw_numbers_for_the_report(study, independent):
    assert set(study.corpus_scores) >= {"BLEU", "NIST", "P", "R", "F1", "Fmean"}
    assert len(study.bleu_precisions["LT22"]) == 4
    seg = study.segment_scores["BLEU"]["LT22"]
    assert seg.shape == (427,)
    hum = study.human_segment_scores["z"]["LT22"]
    assert np.count_nonzero(~np.isnan(hum)) == len(independent["human"]["z"]["LT22"])
    payload = json.dumps(study_dict(study), allow_nan=False)
    back = json.loads(payload)
    assert back["corpus_scores"]["BLEU"]["LT22"] == study.corpus_scores["BLEU"]["LT22"]
    assert back["segment_scores"]["BLEU"]["LT22"][0] == float(seg[0])


def test_json_keeps_full_precision(study):
    out = json.loads(render_study(study, "json", ids=["system"]))
    assert set(out["tables"]) == {"system"}
    row = out["tables"]["system"]["rows"][0]
    assert row[1] == study_tables(study)["system"].rows[0][1]
    assert out["settings"]["seed"] == SEED


def test_raw_human_kind_and_table_selection():
    s = run_study(SAMPLE, human="raw", resamples=50, seed=0, tables=["system", "segment"], meteor=False)
    assert set(study_tables(s)) == {"system", "segment"}
    assert "raw" in study_tables(s)["system"].title
    assert s.significance == {} and s.blocks is None and s.reference_counts is None


def test_bleu_only_tables_extract_bleu_only():
    s = run_study(SAMPLE, tables=["blocks", "ttest", "references"])
    assert s.metrics == ("BLEU",) and set(s.corpus_scores) == {"BLEU"}
    assert set(study_tables(s)) == {"blocks", "ttest", "references"}


def test_dataset_without_human_scores(tmp_path):
    folder = tmp_path / "nohuman"
    shutil.copytree(SAMPLE, folder)
    shutil.rmtree(folder / "human")
    s = run_study(folder, resamples=20, meteor=False)
    assert {"corpus", "bleu", "blocks", "ttest", "significance", "references"} <= set(study_tables(s))
    assert not {"system", "segment", "human", "modules"} & set(study_tables(s))
    assert any("no human scores" in n for n in s.notes)
    corpus = study_tables(s)["corpus"].records()
    assert all(r["human z"] is None for r in corpus)


def test_options_are_checked():
    with pytest.raises(OptionError, match="human"):
        run_study(SAMPLE, human="mqm")
    with pytest.raises(OptionError, match="table"):
        run_study(SAMPLE, tables=["nope"])
    with pytest.raises(OptionError, match="seed"):
        run_study(SAMPLE, seed=-1)


@pytest.mark.slow
def test_cli(capsys):
    assert main(["study", "sample", "--tables", "corpus", "system", "--no-meteor", "--resamples", "30",
                 "--seed", "0", "-f", "json", "-q"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out["tables"]) == {"corpus", "system"}
    assert out["settings"]["resamples"] == 30
    assert main(["study", str(SAMPLE / "missing")]) == 1
    assert "no such data-set folder" in capsys.readouterr().err


def test_meteor_row_is_pearson_of_corpus_meteor(study, independent):
    from mtscore import corpus_meteor

    systems = sorted(independent["human"]["z"])
    human = [np.mean(list(independent["human"]["z"][s].values())) for s in systems]
    meteor = [corpus_meteor(independent["systems"][s],
                            [independent["refs"][r] for r in independent["ref_ids"][s]]).score
              for s in systems]
    row = next(r for r in _records(study_tables(study)["system"]) if r["metric"] == "METEOR")
    assert row["Pearson r"] == pytest.approx(scipy.stats.pearsonr(meteor, human).statistic, abs=1e-9)
    # the full module set of the ablation is METEOR 2005 itself
    modules = _records(study_tables(study)["modules"])
    full = next(r for r in modules if r["modules"].endswith("porter+synonym]"))
    assert full["system r"] == row["Pearson r"]


def test_meteor_rows(study):
    assert "METEOR" in study.metrics
    assert len(study.module_metrics) == 4
    rows = _records(study_tables(study)["modules"])
    assert [r["modules"] for r in rows] == list(study.module_metrics)
    for r in rows:
        assert not math.isnan(r["system r"])


SHARED = Path(__file__).resolve().parents[2] / "shared" / "data" / "wmt22"


@pytest.mark.parity
@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared data not present")
def test_shared_cs_en_corpus_table_reproduces_official_scores():
    """cs-en: references B and C, HUMAN-C scored against B only; BLEU equals the official
    sacreBLEU scores of systems.tsv (HUMAN-C, which has none there: sacreBLEU against B) and the
    human means the published (clean) DA means."""
    s = run_study(SHARED / "cs-en", tables=["corpus"], meteor=False)
    assert s.reference_sets["HUMAN-C"] == ("B",)
    with open(SHARED / "systems.tsv", encoding="utf-8", newline="") as handle:
        official = [r for r in csv.DictReader(handle, delimiter="\t") if r["pair"] == "cs-en"]
    rows = {r["system"]: r for r in study_tables(s)["corpus"].records()}
    assert set(rows) == {r["system"] for r in official}
    for r in official:
        if r["system"] == "HUMAN-C":
            expected = sacrebleu.corpus_bleu(_lines(SHARED / "cs-en" / "systems" / "HUMAN-C.txt"),
                                             [_lines(SHARED / "cs-en" / "references" / "B.txt")]).score
        else:
            expected = float(r["bleu_all"])
        assert rows[r["system"]]["BLEU"] == pytest.approx(expected, abs=1e-9)
        assert rows[r["system"]]["human z"] == pytest.approx(float(r["da_z_mean_clean"]), abs=1e-9)


@pytest.mark.slow
def test_raw_only_data_set(tmp_path):
    """A data set with raw human scores only: the study uses them and says so; z is refused."""
    folder = tmp_path / "raw-only"
    shutil.copytree(SAMPLE, folder)
    (folder / "human" / "judgments.tsv").unlink()
    path = folder / "human" / "segments.tsv"
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()]
    z = rows[0].index("z")
    path.write_text("\n".join("\t".join(c for j, c in enumerate(r) if j != z) for r in rows) + "\n",
                    encoding="utf-8")
    study = run_study(folder, tables=("corpus", "human"), meteor=False, resamples=20, seed=SEED)
    assert study.human_kind == "raw"
    full = run_study(SAMPLE, human="raw", tables=("corpus", "human"), meteor=False, resamples=20,
                     seed=SEED)
    for metric in ("BLEU", "NIST"):
        assert study.system_correlations["raw"][metric].statistic == \
            pytest.approx(full.system_correlations["raw"][metric].statistic, abs=1e-12)
    assert "z" not in study.system_correlations
    with pytest.raises(OptionError, match="no z scores"):
        run_study(folder, human="z", tables=("corpus",), meteor=False)


def test_target_language_picks_the_tokenizer(tmp_path):
    """meta.json's pair (or language_pair=) sets the tokenizer as sacreBLEU's -l does."""
    folder = tmp_path / "en-zh"
    shutil.copytree(SAMPLE, folder)
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    (folder / "meta.json").write_text(json.dumps({**meta, "pair": "en-zh"}), encoding="utf-8")
    study = run_study(folder, tables=("bleu",), meteor=False, resamples=20, seed=SEED)
    assert "|tok:zh|" in study.signatures["BLEU"]
    refs = [_lines(SAMPLE / "references" / f"{r}.txt") for r in ("A", "B")]
    hyps = _lines(SAMPLE / "systems" / "LT22.txt")
    expected = sacrebleu.corpus_bleu(hyps, refs, tokenize="zh").score
    assert study.corpus_scores["BLEU"]["LT22"] == pytest.approx(expected, abs=1e-9)
    override = run_study(folder, tables=("bleu",), meteor=False, language_pair="zh-en")
    assert "|tok:13a|" in override.signatures["BLEU"]
    (folder / "meta.json").write_text(json.dumps({**meta, "pair": "english"}), encoding="utf-8")
    with pytest.raises(InputError, match=r"meta\.json.*language pair"):
        run_study(folder, tables=("bleu",), meteor=False)


def test_target_language_picks_meteor_resources(tmp_path):
    """en-de: METEOR with exact + Snowball German stems; the ablation runs the modules that apply."""
    folder = tmp_path / "en-de"
    shutil.copytree(SAMPLE, folder)
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    (folder / "meta.json").write_text(json.dumps({**meta, "pair": "en-de"}), encoding="utf-8")
    study = run_study(folder, tables=("corpus", "modules"), resamples=20, seed=SEED)
    assert study.module_metrics == ("METEOR[exact]", "METEOR[exact+stem]")
    assert "|modules:exact+stem|" in study.signatures["METEOR"]
    assert "|lang:de|" in study.signatures["METEOR"]
    from mtscore import METEOR

    hyps = _lines(SAMPLE / "systems" / "LT22.txt")
    refs = [_lines(SAMPLE / "references" / f"{r}.txt") for r in ("A", "B")]
    expected = METEOR(language="de").score_corpus(hyps, refs).score
    assert study.corpus_scores["METEOR"]["LT22"] == pytest.approx(expected, abs=1e-12)
