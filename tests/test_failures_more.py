"""Issue 15, more robustness: a NUL in a system path, non-positive block options, one seed rule,
limits on --width and the chrF options, and the io layer importing nothing above it."""

from __future__ import annotations

import ast
import math
import statistics
from pathlib import Path

import numpy as np
import pytest

from mtscore import BLEU, OptionError
from mtscore.cli import main
from mtscore.metrics.chrf.metric import CHRF, MAX_BETA, MAX_ORDER
from mtscore.report.tables import MAX_DECIMALS, Table, render
from mtscore.stats import paired_bootstrap, rater_z, segment_means
from mtscore.stats.defaults import MAX_SEED, check_seed

SRC = Path(__file__).resolve().parents[1] / "src" / "mtscore"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    lines = {"ref": "the cat sat on the mat\na dog barks\nit is raining today\n",
             "a": "the cat sat on a mat\na dog barked\nit rains today\n",
             "b": "a cat is on the mat\nthe dog barks\nit is raining\n"}
    out = {}
    for name, text in lines.items():
        path = tmp_path / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        out[name] = str(path)
    return out


def _error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """The one-line error of ``mtscore argv`` (exit 1)."""
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


# ---- a. a NUL byte in a path ------------------------------------------------------------------

def test_nul_in_a_system_path_is_one_line_naming_it(files, capsys) -> None:
    err = _error(capsys, ["compare", "-r", files["ref"], "-i", files["a"], "a\x00b"])
    assert "a\\x00b: cannot be opened: embedded null byte" in err


def test_nul_in_the_first_system_path_too(files, capsys) -> None:
    err = _error(capsys, ["compare", "-r", files["ref"], "-i", "x\x00", files["a"]])
    assert "x\\x00: cannot be opened" in err


# ---- b. --blocks / --block-size -----------------------------------------------------------------

@pytest.mark.parametrize("option", ["--blocks", "--block-size"])
@pytest.mark.parametrize("value", ["0", "-3"])
def test_non_positive_block_options_are_refused(files, capsys, option: str, value: str) -> None:
    err = _error(capsys, ["compare", "-r", files["ref"], "-i", files["a"], files["b"], option, value])
    assert f"invalid {option} {value}: must be a positive integer" in err


# ---- c. one seed rule: 0 <= seed < 2**32 --------------------------------------------------------

def test_the_seed_rule() -> None:
    assert MAX_SEED == 2**32 - 1
    for ok in (0, 1, 12345, 10**9, 2**32 - 1, np.uint32(7)):
        assert check_seed(ok) == int(ok)
    for bad in (-1, 2**32, 10**20, True, 1.0, "3"):
        with pytest.raises(OptionError, match="from 0 to 4,294,967,295"):
            check_seed(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("command", ["compare", "correlate"])
@pytest.mark.parametrize("seed", ["-1", str(2**32)])
def test_seed_message_states_the_limit_the_cli_applies(files, capsys, command: str, seed: str) -> None:
    if command == "compare":
        argv = ["compare", "-r", files["ref"], "-i", files["a"], files["b"], "--seed", seed]
    else:
        argv = ["correlate", "--seed", seed, files["a"], files["b"]]
    err = _error(capsys, argv)
    assert f"invalid --seed {seed}: must be an integer from 0 to 4,294,967,295" in err


@pytest.mark.parametrize("seed", ["1000000000", str(2**32 - 1)])
def test_seeds_inside_the_limit_run(files, capsys, seed: str) -> None:
    assert main(["compare", "-r", files["ref"], "-i", files["a"], files["b"], "--seed", seed,
                 "--resamples", "50", "-f", "json"]) == 0
    assert f'"seed": {seed}' in capsys.readouterr().out


def test_the_api_applies_the_same_seed_rule() -> None:
    bleu = BLEU()
    refs = bleu.prepare_references([["a b c d", "e f g h"]])
    stats = {"A": bleu.extract(["a b c d", "e f g"], refs), "B": bleu.extract(["a b c", "e f g h"], refs)}
    assert paired_bootstrap(bleu, stats, resamples=20, seed=2**32 - 1).seed == 2**32 - 1
    with pytest.raises(OptionError, match="seed"):
        paired_bootstrap(bleu, stats, resamples=20, seed=2**32)


# ---- d. --width and the chrF options ------------------------------------------------------------

def test_width_limit_in_the_api() -> None:
    table = Table(("system", "score"), (("A", 1 / 3),))
    assert MAX_DECIMALS == 17
    assert "0.33333333333333331" in render(table, "text", width=17)  # float64's 17 digits
    for bad in (18, 100000, -1):
        with pytest.raises(OptionError, match="width"):
            render(table, "text", width=bad)


@pytest.mark.parametrize("command", ["score", "compare"])
def test_width_limit_on_the_command_line(files, capsys, command: str) -> None:
    argv = [command, "-r", files["ref"], "-i", files["a"], files["b"]]
    err = _error(capsys, [*argv, "--width", "100000"])
    assert "invalid --width 100000: decimals must be an integer from 0 to 17" in err
    assert main([*argv, "--width", "17", "--resamples", "20"] if command == "compare"
                else [*argv, "--width", "17"]) == 0


@pytest.mark.parametrize(("kw", "name"), [({"char_order": MAX_ORDER + 1}, "char_order"),
                                          ({"word_order": MAX_ORDER + 1}, "word_order"),
                                          ({"char_order": 100000}, "char_order"),
                                          ({"beta": MAX_BETA + 1}, "beta"),
                                          ({"beta": 100000}, "beta"),
                                          ({"beta": math.inf}, "beta"),
                                          ({"beta": math.nan}, "beta"),
                                          ({"beta": 0}, "beta"),
                                          ({"beta": -1.5}, "beta")])
def test_chrf_constructor_refuses_out_of_range(kw: dict, name: str) -> None:
    with pytest.raises(OptionError, match=f"invalid {name} "):
        CHRF(**kw)


def test_chrf_limits_themselves_are_accepted() -> None:
    metric = CHRF(char_order=MAX_ORDER, word_order=MAX_ORDER, beta=MAX_BETA)
    assert metric.char_order == metric.word_order == MAX_ORDER and metric.beta == MAX_BETA
    assert CHRF(beta=0.5).beta == 0.5


@pytest.mark.parametrize(("option", "name"), [("--chrf-beta", "beta"), ("--chrf-char-order", "char_order"),
                                              ("--chrf-word-order", "word_order")])
def test_chrf_options_on_the_command_line(files, capsys, option: str, name: str) -> None:
    err = _error(capsys, ["score", "-m", "chrf", "-r", files["ref"], "-i", files["a"], option, "100000"])
    assert f"invalid {name} 100000" in err


# ---- e. io imports nothing above it --------------------------------------------------------------

UPPER = ("stats", "metrics", "report", "study", "cli")


def _relative_imports(path: Path) -> set[str]:
    """First package names of every relative import of ``path`` (``from ..stats.human`` -> stats)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level >= 2 and node.module:
            names.add(node.module.split(".")[0])
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("mtscore."):
            names.add(node.module.split(".")[1])
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[1] for a in node.names if a.name.startswith("mtscore."))
    return names


def test_io_imports_no_upper_layer() -> None:
    modules = sorted((SRC / "io").glob("*.py"))
    assert len(modules) >= 5
    for path in modules:
        assert not _relative_imports(path) & set(UPPER), path.name


def test_human_helpers_importable_where_they_were() -> None:
    from mtscore.io import judgment_math
    from mtscore.stats import human

    assert human.rater_z is rater_z is judgment_math.rater_z
    assert human.segment_means is segment_means


def test_rater_z_and_segment_means_by_hand() -> None:
    raters = ["r1", "r1", "r1", "r2", "r2", "r3"]
    raw = [10.0, 20.0, 60.0, 50.0, 50.0, 70.0]
    z = rater_z(raters, raw)
    r1 = [10.0, 20.0, 60.0]
    mean, sd = statistics.mean(r1), statistics.stdev(r1)
    assert z[:3] == pytest.approx([(x - mean) / sd for x in r1])
    assert list(z[3:]) == [0.0, 0.0, 0.0]  # constant rater, single judgment (ddof = 1)
    means = segment_means(["A", "A", "B", "A"], [1, 1, 2, 2], [1.0, 3.0, 5.0, 4.0], 3)
    assert means.systems == ("A", "B")
    np.testing.assert_array_equal(means.counts, [[2, 1, 0], [0, 1, 0]])
    np.testing.assert_array_equal(means.scores, [[2.0, 4.0, np.nan], [np.nan, 5.0, np.nan]])
