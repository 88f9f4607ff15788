"""Oracle outputs of coco-caption (pycocoevalcap 1.2, with its Java) for mtscore's captioning tests.

Runs, with the Java that pycocoevalcap ships (Stanford CoreNLP 3.4.1's PTBTokenizer, the METEOR 1.5
jar; Java 17 at /usr/bin/java):

1. the PTB tokenizer exactly as pycocoevalcap calls it (``-preserveLines -lowerCase``, lines joined
   by newlines), before coco-caption's punctuation removal, on

   * every English line of the shared WMT22 data (references and system outputs of the four pairs),
     one output file per pair, lines in the order :func:`wmt_lines` gives, and every source line
     (German, Czech, Chinese, Japanese: :func:`source_lines`);
   * 10,000 generated caption-like lines (:func:`caption_like_lines`, seeded);

2. ``COCOEvalCap``'s scorers (PTBTokenizer, Bleu(4), Meteor, Rouge, Cider; no SPICE) on caption
   sets made from the WMT22 data (each segment an "image", its references the captions) and from
   generated caption-like data: corpus and per-image scores, and the tokenized captions.

Outputs go to ``tests/data/coco/`` (gzip), and are committed so that the tests need no Java:

* ``ptb_<name>.txt.gz``: the tokenizer's output, one line per input line;
* ``eval_<name>.json.gz``: ``{"corpus": {...}, "images": {id: {...}}, "gts": ..., "res": ...}``.

Usage: ``python scripts/make_coco_oracle.py [--skip-meteor]`` (a few minutes; METEOR is the slow part).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "tests" / "data" / "coco"
WMT22 = REPO.parent / "shared" / "data" / "wmt22"
sys.path.insert(0, str(REPO / "tests"))

#: (pair, reference names, systems scored as result files)
CAPTION_SETS = (
    ("de-en", ("A", "B"), ("Online-A", "JDExploreAcademy")),
    ("zh-en", ("A", "B"), ("Online-B", "LanguageX")),
    ("cs-en", ("B", "C"), ("Online-W", "CUNI-DocTransformer")),
    ("ja-en", ("A",), ("Online-Y", "NT5")),
)


def pycocoevalcap_dir() -> Path:
    import pycocoevalcap.tokenizer.ptbtokenizer as ptb

    return Path(ptb.__file__).resolve().parents[1]


def java_ptb(lines: list[str]) -> list[str]:
    """The Java tokenizer's output lines for ``lines``, run as pycocoevalcap runs it: the lines
    joined by newlines into one file, ``-preserveLines -lowerCase``."""
    jar = pycocoevalcap_dir() / "tokenizer" / "stanford-corenlp-3.4.1.jar"
    with tempfile.NamedTemporaryFile("wb", delete=False, suffix=".txt") as tmp:
        tmp.write("\n".join(lines).encode())
    try:
        out = subprocess.run(["java", "-cp", str(jar), "edu.stanford.nlp.process.PTBTokenizer",
                              "-preserveLines", "-lowerCase", tmp.name],
                             capture_output=True, check=True).stdout.decode()
    finally:
        os.unlink(tmp.name)
    result = out.split("\n")
    if result and result[-1] == "" and len(result) == len(lines) + 1:
        result.pop()
    if len(result) != len(lines):
        raise SystemExit(f"the tokenizer gave {len(result)} lines for {len(lines)}")
    return result


def wmt_lines(pair: str) -> list[str]:
    """Every English line of a pair: its references (sorted by name), then its systems (sorted)."""
    lines: list[str] = []
    for folder in ("references", "systems"):
        for path in sorted((WMT22 / pair / folder).glob("*.txt")):
            lines.extend(path.read_text(encoding="utf-8").split("\n")[:-1])
    return lines


def source_lines(pair: str) -> list[str]:
    """The source side of a pair (German, Czech, Chinese, Japanese): non-English text."""
    return (WMT22 / pair / "source.txt").read_text(encoding="utf-8").split("\n")[:-1]


_WORDS_TEXT = ("a man woman dog cat two three people group of is are sitting standing on in the with "
              "next to near riding horse bike skateboard red blue white black green street table "
              "plate pizza bus train field grass water beach snow tennis ball baseball player "
              "young old little large small kitchen room bathroom sink toilet giraffe elephant zebra "
              "it's there's don't can't won't i'm they're we've you'll he'd cannot gonna wanna "
              "t-shirt black-and-white 3-year-old well-dressed x-ray e-mail co-op "
              "mr. mrs. dr. st. u.s. etc. a.m. p.m. vs. inc. no. fig. jan. "
              "café naïve straße résumé jalapeño fiancée façade über piñata "
              "東京 猫 犬 москва собака кошка ελλάδα γάτα שלום مرحبا नमस्ते 한국 ภาษา")
_WORDS = _WORDS_TEXT.split()
_PUNCT = (",", ".", "!", "?", ";", ":", "...", "-", "--", "—", "–", "(", ")", "[", "]", "{", "}",
          "\"", "'", "`", "``", "''", "“", "”", "‘", "’", "«", "»", "/", "&", "&amp;", "*", "#",
          "@", "%", "$", "€", "£", "¥", "+", "=", "<", ">", "|", "~", "^", "_", "…", "•", "·")
_NUMBERS = ("1", "2", "3", "10", "25", "100", "1,000", "2.5", "3.14", "10:30", "1/2", "1 1/2",
            "½", "¾", "1990s", "'90s", "2nd", "3rd", "4th", "5pm", "10am", "-5", "+3", "1-2",
            "12/25/2020", "555-1234", "(555) 123-4567", "50%", "$5", "$5.99", "#1", "No. 5",
            "٣", "١٢")
_EMOJI = ("😀", "🐶", "🍕", "🚗", "❤️", "☺", "☀", "★", "✓", "👍🏽", "🇯🇵", "😂😂", "🎉", "♥", "☃")
_SPECIAL = ("http://example.com/a?b=c", "www.coco.org", "someone@example.com", "@user", "#beach",
            ":)", ":-(", ";)", ":D", "^_^", "C++", "c#", "<b>", "</i>", "<br/>", "&quot;",
            "e.g.", "i.e.", "U.S.A.", "a.k.a.", "ph.d.", "o'clock", "rock'n'roll", "y'all",
            "'em", "'tis", "'twas", "photo.jpg", "file.txt", "--", "---", "----", "!!", "?!",
            "....", ". . .", "A&M", "AT&T", "S&P", "-LRB-", "3/4", "n't", "'s", "'re")


def _token(rng: random.Random) -> str:
    r = rng.random()
    if r < 0.62:
        word = rng.choice(_WORDS)
    elif r < 0.77:
        word = rng.choice(_PUNCT)
    elif r < 0.86:
        word = rng.choice(_NUMBERS)
    elif r < 0.92:
        word = rng.choice(_SPECIAL)
    else:
        word = rng.choice(_EMOJI)
    c = rng.random()
    if c < 0.15:
        word = word.capitalize()
    elif c < 0.2:
        word = word.upper()
    return word


def caption_like_lines(n: int = 10_000, seed: int = 21) -> list[str]:
    """``n`` generated caption-like lines: short (1–20 tokens), repetitive words, punctuation
    attached or spaced, digits, hyphens, quotes, emoji and non-ASCII letters; seeded."""
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(1, 20)):
            tok = _token(rng)
            glue = rng.random()
            if parts and glue < 0.18:
                parts[-1] += tok  # attached: "dog," "(the" "it's"
            elif parts and glue < 0.21:
                parts[-1] += rng.choice(("-", "'", ".", "/", "\u00a0")) + tok
            else:
                parts.append(tok)
        sep = "  " if rng.random() < 0.05 else " "
        line = sep.join(parts)
        if rng.random() < 0.5:
            line += rng.choice((".", " .", "!", "?", "...", ""))
        if rng.random() < 0.03:
            line = " " + line + "\t"
        lines.append(line)
    return lines


def generated_caption_set(seed: int = 7, images: int = 400) -> tuple[dict, list[dict]]:
    """A generated COCO caption set: ``images`` images with 1–7 references each, and two result
    files, one of near-copies of a reference and one of unrelated captions."""
    rng = random.Random(seed)
    gts: dict[int, list[str]] = {}
    for img in range(images):
        base = [_token(rng) for _ in range(rng.randint(3, 14))]
        refs = []
        for _ in range(rng.randint(1, 7)):
            words = [w if rng.random() < 0.7 else _token(rng) for w in base]
            refs.append(" ".join(words) + rng.choice(("", ".", " .")))
        gts[100000 + 7 * img] = refs
    results = []
    for variant in (0, 1):
        res = {}
        for img, refs in gts.items():
            if variant == 0:
                words = [w if rng.random() < 0.8 else _token(rng) for w in rng.choice(refs).split()]
            else:
                words = [_token(rng) for _ in range(rng.randint(0, 12))]
            res[img] = " ".join(words)
        results.append(res)
    return gts, results


def wmt_caption_set(pair: str, refs: tuple[str, ...], system: str) -> tuple[dict, dict]:
    streams = [(WMT22 / pair / "references" / f"{r}.txt").read_text(encoding="utf-8").split("\n")[:-1]
               for r in refs]
    hyps = (WMT22 / pair / "systems" / f"{system}.txt").read_text(encoding="utf-8").split("\n")[:-1]
    gts = {i: [s[i] for s in streams] for i in range(len(hyps))}
    return gts, dict(enumerate(hyps))


def coco_eval(gts: dict, res: dict, meteor: bool) -> dict:
    """What ``COCOEvalCap.evaluate`` computes (without SPICE) for captions ``gts`` (id -> list)
    and one result caption per id (``res``: id -> str)."""
    from pycocoevalcap.bleu.bleu import Bleu
    from pycocoevalcap.cider.cider import Cider
    from pycocoevalcap.rouge.rouge import Rouge
    from pycocoevalcap.tokenizer.ptbtokenizer import PTBTokenizer

    tok = PTBTokenizer()
    gts_t = tok.tokenize({i: [{"caption": c} for c in caps] for i, caps in gts.items()})
    res_t = tok.tokenize({i: [{"caption": res[i]}] for i in gts})
    scorers: list = [(Bleu(4), ["Bleu_1", "Bleu_2", "Bleu_3", "Bleu_4"]), (Rouge(), "ROUGE_L"),
                     (Cider(), "CIDEr")]
    if meteor:
        from pycocoevalcap.meteor.meteor import Meteor

        scorers.insert(1, (Meteor(), "METEOR"))
    corpus: dict[str, float] = {}
    images: dict[str, dict[str, float]] = {str(i): {} for i in gts_t}
    for scorer, method in scorers:
        score, scores = scorer.compute_score(gts_t, res_t)
        names = method if isinstance(method, list) else [method]
        score_list = score if isinstance(method, list) else [score]
        per_image = scores if isinstance(method, list) else [scores]
        for name, sc, scs in zip(names, score_list, per_image):
            corpus[name] = float(sc)
            for img, value in zip(gts_t, scs):
                images[str(img)][name] = float(value)
    return {"corpus": corpus, "images": images,
            "gts": {str(k): v for k, v in gts.items()}, "res": {str(k): v for k, v in res.items()},
            "gts_tokenized": {str(k): v for k, v in gts_t.items()},
            "res_tokenized": {str(k): v for k, v in res_t.items()}}


def write_gz(path: Path, text: str) -> None:
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        f.write(text.encode())
    print(f"wrote {path.relative_to(REPO)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--skip-meteor", action="store_true")
    parser.add_argument("--only", choices=("ptb", "eval"), default=None)
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    if args.only in (None, "ptb"):
        lines = caption_like_lines()
        write_gz(OUT / "ptb_generated.txt.gz", "\n".join(java_ptb(lines)) + "\n")
        for pair in sorted(p.name for p in WMT22.iterdir() if (p / "meta.json").is_file()):
            write_gz(OUT / f"ptb_wmt22_{pair}.txt.gz", "\n".join(java_ptb(wmt_lines(pair))) + "\n")
            write_gz(OUT / f"ptb_wmt22_{pair}_source.txt.gz",
                     "\n".join(java_ptb(source_lines(pair))) + "\n")
    if args.only in (None, "eval"):
        gts, results = generated_caption_set()
        for k, res in enumerate(results):
            data = coco_eval(gts, res, not args.skip_meteor)
            write_gz(OUT / f"eval_generated_{k}.json.gz", json.dumps(data, ensure_ascii=False))
        for pair, refs, systems in CAPTION_SETS:
            for system in systems:
                gts, res = wmt_caption_set(pair, refs, system)
                data = coco_eval(gts, res, not args.skip_meteor)
                write_gz(OUT / f"eval_wmt22_{pair}_{system}.json.gz",
                         json.dumps(data, ensure_ascii=False))


if __name__ == "__main__":
    main()
