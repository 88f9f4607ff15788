"""Usage errors are one line on standard error, and a mistyped choice names the closest one."""

from __future__ import annotations

import argparse

import pytest

from mtscore.cli import COMMANDS, build_parser, main, with_suggestion


def _choice_options() -> list[tuple[str, str, str]]:
    """(command, option string, a close typo of its first choice) for every option with choices."""
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    out = []
    for command in COMMANDS:
        for action in subparsers.choices[command]._actions:
            if action.choices and action.option_strings:
                first = next(iter(action.choices))
                # a word choice: a typo of it; a number choice: a number that is not one
                typo = first + "x" if isinstance(first, str) else str(max(action.choices) + 10)
                out.append((command, action.option_strings[-1], typo))
    return out


CASES = _choice_options()


def test_every_command_has_choice_options_to_check() -> None:
    assert {c for c, _, _ in CASES} >= {"score", "compare", "correlate", "study"}


@pytest.mark.parametrize(("command", "option", "typo"), CASES)
def test_a_choice_typo_is_one_line(command: str, option: str, typo: str,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, option, typo])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"mtscore {command}: error: ")
    if typo.endswith("x"):  # a typo of a word choice names it
        assert f"did you mean '{typo[:-1]}'?" in err


@pytest.mark.parametrize("argv", [["score", "--no-such-option"], ["frob"], ["score", "-tok"]])
def test_other_usage_errors_are_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and "--help" in err, err


def test_suggestion_only_for_close_choices() -> None:
    message = "argument -m: invalid choice: 'zzz' (choose from 'bleu', 'chrf')"
    assert with_suggestion(message) == message
    assert "did you mean 'chrf'?" in with_suggestion("argument -m: invalid choice: 'chrff' "
                                                     "(choose from bleu, chrf)")
