"""The documentation's example runner itself: a broken example fails, a right one passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from .docs_examples import (
    console_commands,
    fenced_blocks,
    mirror_repository,
    not_run_blocks,
    output_blocks,
    output_matches,
    run_console,
    run_pycon,
    run_python,
    runnable_blocks,
    unmarked_blocks,
)

PAGE = """# A page

```pycon
>>> import mtscore
>>> round(mtscore.sentence_bleu("It is raining.", ["It is raining."]).score, 1)
{bleu}
```

Text, then a fence that is not run:

<!-- not run: shown only -->
```python
raise SystemExit("never run")
```

- In a list:

    ```console
    $ mtscore score -r src/mtscore/data/sample/wmt22-de-en/references/A.txt \\
        -i src/mtscore/data/sample/wmt22-de-en/references/A.txt -b
    {console}
    ```
"""


def write_page(tmp_path: Path, bleu: str = "100.0", console: str = "100.0") -> Path:
    page = tmp_path / "page.md"
    page.write_text(PAGE.format(bleu=bleu, console=console), encoding="utf-8")
    return page


def test_blocks_are_found_with_their_lines(tmp_path: Path) -> None:
    blocks = fenced_blocks(write_page(tmp_path))
    assert [(b.lang, b.line) for b in blocks] == [("pycon", 3), ("python", 12), ("console", 18)]
    assert [b.lang for b in runnable_blocks([tmp_path / "page.md"])] == ["pycon", "console"]
    assert blocks[2].test_id == "page.md:18"
    (command,) = console_commands(blocks[2])
    assert command.line == 19 and command.expected == ("100.0",)
    assert command.text.endswith("references/A.txt -b")


def test_right_examples_pass(tmp_path: Path) -> None:
    pycon, _, console = fenced_blocks(write_page(tmp_path))
    assert run_pycon(pycon, {}) == ""
    workdir = tmp_path / "run"
    workdir.mkdir()
    mirror_repository(workdir)
    run_console(console, workdir)


def test_broken_pycon_fails(tmp_path: Path) -> None:
    pycon = fenced_blocks(write_page(tmp_path, bleu="99.9"))[0]
    report = run_pycon(pycon, {})
    assert "Expected:\n    99.9\nGot:\n    100.0" in report


def test_broken_console_fails(tmp_path: Path) -> None:
    console = fenced_blocks(write_page(tmp_path, console="42.0"))[2]
    workdir = tmp_path / "run"
    workdir.mkdir()
    mirror_repository(workdir)
    with pytest.raises(AssertionError, match=r"(?s)page\.md:19.*expected\n42\.0\n--- got\n100\.0"):
        run_console(console, workdir)


def test_a_failing_command_fails_unless_it_shows_the_error(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```console\n$ mtscore score -r missing.txt -i missing.txt\n```\n\n"
                    "```console\n$ mtscore score -r missing.txt -i missing.txt\n"
                    "mtscore score: error: ...missing.txt...\n```\n", encoding="utf-8")
    silent, shown = fenced_blocks(page)
    with pytest.raises(AssertionError, match="exit status 1, success expected"):
        run_console(silent, tmp_path)
    run_console(shown, tmp_path)


@pytest.mark.parametrize("command", ["rm -rf /tmp/x", "mtscore demo | sh", "D=x rm y",
                                     "cat $(rm y)", "mtscore -h && curl x"])
def test_only_listed_programs_run(tmp_path: Path, command: str) -> None:
    page = tmp_path / "page.md"
    page.write_text(f"```console\n$ {command}\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match=r"only .* can be run|no command substitution"):
        run_console(fenced_blocks(page)[0], tmp_path)


def test_pipes_variables_and_python(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    ref = "src/mtscore/data/sample/wmt22-de-en/references/A.txt"
    page.write_text(f"```console\n$ R={ref}\n$ head -n 3 $R > three.txt\n"
                    f"$ cat three.txt | mtscore score -r three.txt -b\n100.0\n"
                    f"$ python -c 'print(6 * 7)'\n42\n```\n", encoding="utf-8")
    mirror_repository(tmp_path)
    run_console(fenced_blocks(page)[0], tmp_path)
    assert len((tmp_path / "three.txt").read_text(encoding="utf-8").splitlines()) == 3


def test_a_failing_pipeline_fails(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```console\n$ mtscore score -r missing.txt | head -n 1\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="exit status"):
        run_console(fenced_blocks(page)[0], tmp_path)


PYTHON_PAGE = """```python
print(sum(range({n})))
```

```text title="Output"
45
```
"""


def test_python_blocks_and_their_output(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PYTHON_PAGE.format(n=10), encoding="utf-8")
    outputs = output_blocks([page])
    script, output = fenced_blocks(page)
    assert outputs == {script: output}
    run_python(script, tmp_path, output)
    assert unmarked_blocks([page]) == []
    page.write_text(PYTHON_PAGE.format(n=11), encoding="utf-8")
    script, output = fenced_blocks(page)
    with pytest.raises(AssertionError, match=r"printed\n55"):
        run_python(script, tmp_path, output)
    with pytest.raises(AssertionError, match="nothing"):
        run_python(script, tmp_path, None)
    page.write_text("```python\nraise SystemExit('broken')\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match=r"(?s)the script failed.*broken"):
        run_python(fenced_blocks(page)[0], tmp_path)


def test_blocks_not_run_say_why(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```bash\npip install mtscore\n```\n\n<!-- not run: the network -->\n"
                    "```bash\npip install mtscore\n```\n\n```text\nfree text\n```\n", encoding="utf-8")
    unmarked, marked, text = fenced_blocks(page)
    assert (marked.not_run, unmarked.not_run) == ("the network", None)
    assert unmarked_blocks([page]) == [unmarked, text]
    assert not_run_blocks([page]) == [marked]


def test_redirection_writes_the_file_for_later_commands(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    ref = "src/mtscore/data/sample/wmt22-de-en/references/A.txt"
    page.write_text(f"```console\n$ mtscore score -r {ref} -i {ref} -b > out.txt\n```\n", encoding="utf-8")
    mirror_repository(tmp_path)
    run_console(fenced_blocks(page)[0], tmp_path)
    assert (tmp_path / "out.txt").read_text(encoding="utf-8").strip() == "100.0"


@pytest.mark.parametrize(("expected", "actual", "fits"), [
    (("a", "b"), "a\nb\n", True),
    (("a", "b"), "a  \nb\n\n", True),
    (("a", "...", "d"), "a\nb\nc\nd\n", True),
    (("a", "...", "b"), "a\nb\n", True),
    (("a", "..."), "a\n", True),
    (("x...z",), "xyz\n", True),
    (("a", "b"), "a\nc\n", False),
    (("a",), "a\nb\n", False),
    ((), "", True),
    ((), "something\n", False),
])
def test_output_matching(expected: tuple[str, ...], actual: str, fits: bool) -> None:
    assert output_matches(expected, actual) is fits


def test_slow_blocks_still_run(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("<!-- slow: a long one -->\n```console\n$ mtscore --version\n...\n```\n",
                    encoding="utf-8")
    (block,) = runnable_blocks([page])
    assert block.slow == "a long one" and block.not_run is None
