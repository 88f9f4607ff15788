"""Build the WordNet 3.0 data shipped in ``src/mtscore/lexicon/data/`` from Debian's ``wordnet-base``.

    apt-get update && apt-get install -y wordnet-base
    python scripts/build_lexicon.py                      # reads /usr/share/wordnet, writes the package data
    python scripts/build_lexicon.py --check-meteor-jar meteor-1.5.jar   # compare with the jar's WordNet files
    python scripts/build_lexicon.py --meteor-jar meteor-1.5.jar         # also (re)extract the function words
    python scripts/build_lexicon.py --synonyms-only                     # only re-derive the synonym index

Output (deterministic: sorted, gzip without a timestamp where compressed):

* ``wordnet-3.0.txt.gz``: a comment line, then sections, each a ``[name]`` line and its lines. For each part
  of speech ``p`` in n, v, a, r (index.noun, index.verb, index.adj -- satellites included --, index.adv):
  ``[lemmas p]`` its lemmas, sorted, and ``[synsets p]`` whose line i lists the synset offsets of lemma i in
  the index's sense order (Princeton WordNet 3.0 offsets, 8 digits); then ``[exceptions p]`` the lines of
  noun.exc (verb.exc, adj.exc, adv.exc), ``inflected-form base base ...``, sorted. Parallel line lists let
  the loader build its tables with a few C-level splits.
* ``wordnet-3.0-synonyms.txt``: what METEOR's synonym module needs, derived from the file above (all
  parts of speech merged, see ``build_synonyms``), and ``wordnet-3.0-synonyms.idx``, its hash index and
  each lemma's synonymy keys (``build_synonym_index``, ``synonymy_keys``; layout in
  ``mtscore.lexicon.synonyms``), so that the synonym module maps the two files and loads nothing.
  ``--synonyms-only`` rebuilds just these two from the shipped ``wordnet-3.0.txt.gz``.
* ``WORDNET-LICENSE``: the WordNet 3.0 licence, as Debian ships it.
* with ``--meteor-jar``: ``function-words-en.txt`` from the jar's ``function/english.words``.

Synset offsets are byte offsets into the data.* files, so they change when those files change. Debian
patches two of them (a pointer moved between two verb synsets, a missing space inserted in adj.all), which
shifts some offsets by a few bytes; ``PRINCETON_SHIFTS`` undoes that so the ids are the Princeton WordNet 3.0
offsets -- the ones the METEOR 1.5 jar's ``synonym/english.synsets`` uses. Each shift is checked against
anchors (the synsets that bound it) and the build fails if the data do not look as expected.
"""

from __future__ import annotations

import argparse
import gzip
import io
import sys
import zipfile
from array import array
from collections import defaultdict
from pathlib import Path

WORDNET_DIR = Path("/usr/share/wordnet")
LICENSE_FILE = Path("/usr/share/doc/wordnet-base/copyright")
OUT_DIR = Path(__file__).resolve().parents[1] / "src" / "mtscore" / "lexicon" / "data"
WORDNET_FILE = "wordnet-3.0.txt.gz"
SYNONYMS_FILE = "wordnet-3.0-synonyms.txt"
SYNONYM_INDEX_FILE = "wordnet-3.0-synonyms.idx"
FUNCTION_WORDS_FILE = "function-words-en.txt"

#: index/data/exception file name -> POS letter (adjective satellites are listed under 'a' in index.adj)
POS = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}

#: (file, first Debian offset, end Debian offset or None, shift to add, anchors) -- see the module docstring.
#: Anchors: Debian offset -> a lemma of the synset that must start there.
PRINCETON_SHIFTS: tuple[tuple[str, int, int | None, int, dict[int, str]], ...] = (
    # Debian's verb synset 00612841 (suppress, repress) carries an 18-byte pointer "~ 02423762 v 0000 "
    # that Princeton's 3.0 has in 02422663 (restrain, ...): offsets in between are 18 bytes later in Debian.
    ("verb", 613036, 2422967, -18, {612841: "suppress", 613036: "forget", 2422681: "restrain",
                                     2422967: "quench"}),
    # debian/patches/20_adj.all_fix.patch inserts one space (Debian bug #544866) before 'placed'.
    ("adj", 1681478, None, -1, {1681307: "laid", 1681478: "placed"}),
)


def _synset_starts(path: Path) -> dict[int, str]:
    """Offset -> first lemma of every synset line of a data.* file (license header lines start with
    spaces)."""
    starts: dict[int, str] = {}
    offset = 0
    with open(path, "rb") as f:
        for line in f:
            if not line.startswith(b"  "):
                fields = line.split(b" ", 5)
                if int(fields[0]) != offset:
                    raise SystemExit(f"{path}: synset at byte {offset} says it is at {fields[0].decode()}")
                starts[offset] = fields[4].decode("ascii").lower()
            offset += len(line)
    return starts


def _shifts(wordnet_dir: Path) -> dict[str, list[tuple[int, int | None, int]]]:
    """The checked offset corrections for each data file."""
    shifts: dict[str, list[tuple[int, int | None, int]]] = defaultdict(list)
    starts_cache: dict[str, dict[int, str]] = {}
    for name, lo, hi, delta, anchors in PRINCETON_SHIFTS:
        if name not in starts_cache:
            starts_cache[name] = _synset_starts(wordnet_dir / f"data.{name}")
        starts = starts_cache[name]
        shifted = {off + delta: lemma for off, lemma in anchors.items()
                   if off >= lo and (hi is None or off < hi)}
        if all(starts.get(off) == lemma for off, lemma in anchors.items()):
            shifts[name].append((lo, hi, delta))  # Debian's layout: restore Princeton's offsets
        elif not all(starts.get(off) == lemma for off, lemma in
                     {**{o: l for o, l in anchors.items() if o < lo or (hi is not None and o >= hi)},
                      **shifted}.items()):
            raise SystemExit(f"data.{name}: neither Debian's nor Princeton's layout around byte {lo}; "
                             "update PRINCETON_SHIFTS in scripts/build_lexicon.py")
    return shifts


def _princeton(offset: int, ranges: list[tuple[int, int | None, int]]) -> int:
    for lo, hi, delta in ranges:
        if offset >= lo and (hi is None or offset < hi):
            return offset + delta
    return offset


def build_wordnet(wordnet_dir: Path = WORDNET_DIR) -> bytes:
    """The gzip'd text of ``wordnet-3.0.txt.gz`` built from a WordNet 3.0 ``dict`` directory."""
    shifts = _shifts(wordnet_dir)
    out = io.StringIO()
    out.write("# WordNet 3.0, Copyright 2006 by Princeton University; licence: WORDNET-LICENSE. "
              "Built by scripts/build_lexicon.py from Debian wordnet-base.\n")
    for name, letter in POS.items():
        senses: dict[str, list[str]] = {}
        with open(wordnet_dir / f"index.{name}", encoding="ascii") as f:
            for line in f:
                if line.startswith("  "):
                    continue  # license header
                fields = line.split()
                lemma, synset_cnt, p_cnt = fields[0], int(fields[2]), int(fields[3])
                offsets = fields[4 + p_cnt + 2:]
                if len(offsets) != synset_cnt or lemma in senses:
                    raise SystemExit(f"index.{name}: bad line for {lemma!r}")
                senses[lemma] = [f"{_princeton(int(o), shifts[name]):08d}" for o in offsets]
        lemmas = sorted(senses)
        out.write(f"[lemmas {letter}]\n" + "".join(f"{lemma}\n" for lemma in lemmas))
        out.write(f"[synsets {letter}]\n" + "".join(" ".join(senses[lemma]) + "\n" for lemma in lemmas))
    for name, letter in POS.items():
        with open(wordnet_dir / f"{name}.exc", encoding="ascii") as f:
            rows = sorted(" ".join(line.split()) + "\n" for line in f if len(line.split()) >= 2)
        out.write(f"[exceptions {letter}]\n" + "".join(rows))
    return gzip.compress(out.getvalue().encode("ascii"), compresslevel=9, mtime=0)


def build_synonyms(wordnet_gz: bytes) -> bytes:
    """The text of ``wordnet-3.0-synonyms.txt``: METEOR's synonym index derived from ``wordnet-3.0.txt.gz``
    (layout: ``mtscore.lexicon.synonyms``). All parts of speech merged: one line per lemma, sorted, with its
    synset offsets (n, v, a, r, in sense order); one line per exception form with its bases (n, v, a, r, in
    line order, deduplicated). Not compressed: it is read without decompressing (a wheel zips it anyway)."""
    sections = _sections(gzip.decompress(wordnet_gz).decode("ascii"))
    senses: dict[str, list[str]] = {}
    exceptions: dict[str, list[str]] = {}
    for letter in POS.values():
        for lemma, offsets in zip(sections[f"lemmas {letter}"], sections[f"synsets {letter}"], strict=True):
            senses.setdefault(lemma, []).extend(offsets.split())
        for row in sections[f"exceptions {letter}"]:
            form, *bases = row.split(" ")
            known = exceptions.setdefault(form, [])
            known.extend(b for b in bases if b not in known)
    if any(" " in lemma or not offsets for lemma, offsets in senses.items()):
        raise SystemExit("a lemma with a space or without synsets: the synonym index cannot hold it")
    out = ["# WordNet 3.0, Copyright 2006 by Princeton University; licence: WORDNET-LICENSE. "
           "METEOR's synonym "
           "index, derived from wordnet-3.0.txt.gz by scripts/build_lexicon.py.\n",
           "[lemmas]\n", *(" ".join([lemma, *senses[lemma]]) + "\n" for lemma in sorted(senses)),
           "[exceptions]\n", *(" ".join([form, *exceptions[form]]) + "\n" for form in sorted(exceptions))]
    return "".join(out).encode("ascii")


def synonymy_keys(synsets: dict[bytes, list[bytes]]) -> tuple[dict[bytes, list[int]], int]:
    """Each lemma's synonymy keys, and their number: two sets of lemmas share a synset exactly when
    their keys meet, with fewer keys than synsets (``mtscore.lexicon.synonyms``, "Keys").

    A key stands for a set of lemmas that is the member set of a synset (synset offsets as numbers,
    all parts of speech merged, as the synonym module compares them) and is contained in no other
    synset's member set; a lemma's keys are those of its synsets' member sets that are such maximal
    sets. Every synset's member set lies within a maximal one, so two lemmas (or a lemma and itself)
    share a key exactly when they share a synset; both directions are checked here."""
    members: dict[bytes, set[bytes]] = defaultdict(set)
    for lemma, offsets in synsets.items():
        for o in offsets:
            members[o].add(lemma)
    member_set = {o: frozenset(m) for o, m in members.items()}
    number: dict[frozenset[bytes], int] = {}
    for o in sorted(member_set, key=int):  # numbered by their first synset offset
        ms = member_set[o]
        first = next(iter(ms))  # any member: a superset holds it too
        if ms not in number and not any(ms < member_set[x] for x in synsets[first]):
            number[ms] = len(number)
    keys = {lemma: sorted({number[member_set[o]] for o in offsets if member_set[o] in number})
            for lemma, offsets in synsets.items()}
    holders: dict[int, set[bytes]] = defaultdict(set)
    for lemma, ks in keys.items():
        for k in ks:
            holders[k].add(lemma)
    for ms, k in number.items():  # a key's lemmas are its synset's members: they share that synset
        if holders[k] != ms:
            raise SystemExit("synonymy keys: a key's lemmas are not one synset's members")
    for o, ms in member_set.items():  # a synset's members share a key
        if not set.intersection(*(set(keys[lemma]) for lemma in ms)):
            raise SystemExit(f"synonymy keys: the members of synset {o.decode()} share no key")
    return keys, len(number)


def build_synonym_index(synonyms: bytes) -> bytes:
    """The bytes of ``wordnet-3.0-synonyms.idx`` for the text ``synonyms`` of ``wordnet-3.0-synonyms.txt``:
    its two hash tables (lemmas, exception forms) and the lemmas' synonymy keys (``synonymy_keys``), in
    the layout ``mtscore.lexicon.synonyms`` documents and with its hash function; entries in bucket,
    fingerprint, line offset order."""
    from mtscore.lexicon.synonyms import (
        EXCEPTION_BUCKET_BITS,
        HASH_MIX,
        HASH_MODULUS,
        HEADER,
        INDEX_MAGIC,
        LEMMA_BUCKET_BITS,
        bucket_and_fingerprint,
        string_hash,
    )

    text = synonyms
    head, tail = text.index(b"\n[lemmas]\n") + len(b"\n[lemmas]\n"), text.index(b"\n[exceptions]\n")
    if len(text) >= 1 << 32:
        raise SystemExit("the synonym index's uint32 line offsets cannot address a text this long")
    tables = []
    synsets: dict[bytes, list[bytes]] = {}
    for lo, hi, bits in ((head, tail + 1, LEMMA_BUCKET_BITS),
                         (tail + len(b"\n[exceptions]\n"), len(text), EXCEPTION_BUCKET_BITS)):
        rows = []  # (bucket, fingerprint, line offset, first field)
        pos = lo
        while pos < hi:
            end = text.index(b"\n", pos)
            first, *rest = text[pos:end].split(b" ")
            if not first or not rest or not first.isascii() or len(first) > 250 or (lo == head and not all(
                    len(field) == 8 and field.isdigit() for field in rest)):
                raise SystemExit(f"{SYNONYMS_FILE}: bad line at byte {pos}")
            if lo == head:
                synsets[first] = rest
            rows.append((*bucket_and_fingerprint(string_hash(first), bits), pos, first))
            pos = end + 1
        rows.sort()
        directory = [0] * ((1 << bits) + 1)
        for bucket, *_ in rows:
            directory[bucket + 1] += 1
        for b in range(1 << bits):
            directory[b + 1] += directory[b]
        tables.append((bits, directory, rows))
    (lbits, ldir, lemmas), (ebits, edir, exceptions) = tables
    keys, _ = synonymy_keys(synsets)
    key_counts = [len(keys[lemma]) for *_, lemma in lemmas]
    if max(key_counts) > 255:
        raise SystemExit("a lemma with more than 255 keys: the index's uint8 counts cannot hold it")
    key_starts = [0]
    for n in key_counts[:-1]:
        key_starts.append(key_starts[-1] + n)

    def column(code: str, values) -> bytes:
        out = array(code, values)
        if out.itemsize != {"I": 4, "B": 1}[code]:
            raise SystemExit(f"array type {code!r} is not {out.itemsize} bytes here")
        if sys.byteorder == "big":
            out.byteswap()
        return out.tobytes()

    return b"".join([HEADER.pack(INDEX_MAGIC, HASH_MODULUS, HASH_MIX, lbits, ebits, len(lemmas),
                                 len(exceptions), sum(key_counts)),
                     column("I", ldir), column("I", edir),
                     column("I", (fp for _, fp, _, _ in lemmas)),
                     column("I", (fp for _, fp, _, _ in exceptions)),
                     column("I", (p for _, _, p, _ in lemmas)), column("I", (p for _, _, p, _ in exceptions)),
                     column("I", key_starts), column("I", (k for *_, lemma in lemmas for k in keys[lemma])),
                     column("B", key_counts)])


def wordnet_license(copyright_file: Path = LICENSE_FILE) -> str:
    """The WordNet 3.0 licence stanza of Debian's machine-readable copyright file, as plain text."""
    lines = copyright_file.read_text(encoding="utf-8").splitlines()
    try:
        start = lines.index("License: WordNet3.0")
    except ValueError:
        raise SystemExit(f"{copyright_file}: no 'License: WordNet3.0' stanza") from None
    body = []
    for line in lines[start + 1:]:
        if not line.startswith(" "):
            break
        body.append("" if line.strip() == "." else line[1:])
    return ("WordNet Release 3.0 -- licence (from Debian wordnet-base, "
            "/usr/share/doc/wordnet-base/copyright)\n\n"
            + "\n".join(body).strip() + "\n")


def function_words_from_jar(jar: Path) -> str:
    """The METEOR 1.5 jar's English function-word list, with a provenance header."""
    with zipfile.ZipFile(jar) as z:
        words = z.read("function/english.words").decode("utf-8").split("\n")
    words = [w for w in words if w.strip()]
    header = ("# English function words of METEOR 1.5 (Denkowski & Lavie), file function/english.words of\n"
              "# meteor-1.5.jar (as shipped in the PyPI package pycocoevalcap==1.2), one per line, "
              "in the jar's order.\n"
              "# Copyright Carnegie Mellon University. METEOR is released under the GNU Lesser "
              "General Public\n"
              "# License (LGPL; v2.1 in github.com/cmu-mtlab/meteor), and so is this list. Extracted by\n"
              "# scripts/build_lexicon.py --meteor-jar.\n")
    return header + "\n".join(words) + "\n"


def _sections(text: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for block in text.split("\n[")[1:]:
        name, _, body = block.partition("]\n")
        lines = body.split("\n")  # the block's last newline was consumed by the split, except at the end
        out[name] = lines[:-1] if lines[-1] == "" else lines
    return out


def check_against_jar(jar: Path, data: bytes) -> int:
    """Compare the built lemma -> synset table and exception lists with the jar's; return the differences."""
    ours: dict[str, set[int]] = {}
    exc: dict[str, set[str]] = defaultdict(set)
    sections = _sections(gzip.decompress(data).decode("ascii"))
    for letter in POS.values():
        for lemma, ids in zip(sections[f"lemmas {letter}"], sections[f"synsets {letter}"]):
            ours.setdefault(lemma, set()).update(int(i) for i in ids.split())
        for row in sections[f"exceptions {letter}"]:
            form, *bases = row.split()
            exc[form].update(bases)
    with zipfile.ZipFile(jar) as z:
        syn = z.read("synonym/english.synsets").decode("utf-8").split("\n")
        exl = z.read("synonym/english.exceptions").decode("utf-8").split("\n")
    theirs = {syn[i]: {int(x) for x in syn[i + 1].split()} for i in range(0, len(syn) - 1, 2)}
    their_exc: dict[str, set[str]] = defaultdict(set)
    for i in range(0, len(exl) - 1, 2):
        for form in exl[i + 1].split():
            their_exc[form].add(exl[i])
    bad = [w for w in ours.keys() | theirs.keys() if ours.get(w) != theirs.get(w)]
    bad_exc = [w for w in exc.keys() | their_exc.keys() if exc.get(w) != their_exc.get(w)]
    print(f"lemmas: ours {len(ours)}, jar {len(theirs)}, different {len(bad)} {sorted(bad)[:10]}")
    print(f"exception forms: ours {len(exc)}, jar {len(their_exc)}, different {len(bad_exc)} "
          f"{sorted(bad_exc)[:10]}")
    return len(bad) + len(bad_exc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wordnet-dir", type=Path, default=WORDNET_DIR, help="WordNet 3.0 dict directory")
    ap.add_argument("--license", type=Path, default=LICENSE_FILE, help="WordNet licence text to ship")
    ap.add_argument("--out", type=Path, default=OUT_DIR, help="package data directory")
    ap.add_argument("--meteor-jar", type=Path, help="meteor-1.5.jar: also extract its English function words")
    ap.add_argument("--check-meteor-jar", type=Path,
                    help="meteor-1.5.jar: compare the WordNet tables with it")
    ap.add_argument("--synonyms-only", action="store_true",
                    help=f"only (re)derive {SYNONYMS_FILE} and {SYNONYM_INDEX_FILE} from the shipped "
                         f"{WORDNET_FILE} (no WordNet needed)")
    args = ap.parse_args()
    if args.synonyms_only:
        synonyms = build_synonyms((args.out / WORDNET_FILE).read_bytes())
        (args.out / SYNONYMS_FILE).write_bytes(synonyms)
        (args.out / SYNONYM_INDEX_FILE).write_bytes(build_synonym_index(synonyms))
        print(f"wrote {args.out / SYNONYMS_FILE} ({len(synonyms):,} bytes) and {SYNONYM_INDEX_FILE}")
        return
    if not (args.wordnet_dir / "index.noun").is_file():
        raise SystemExit(f"{args.wordnet_dir}: no WordNet here; apt-get install -y wordnet-base")
    data = build_wordnet(args.wordnet_dir)
    if args.check_meteor_jar:
        sys.exit(1 if check_against_jar(args.check_meteor_jar, data) else 0)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / WORDNET_FILE).write_bytes(data)
    synonyms = build_synonyms(data)
    (args.out / SYNONYMS_FILE).write_bytes(synonyms)
    (args.out / SYNONYM_INDEX_FILE).write_bytes(build_synonym_index(synonyms))
    (args.out / "WORDNET-LICENSE").write_text(wordnet_license(args.license), encoding="utf-8")
    if args.meteor_jar:
        (args.out / FUNCTION_WORDS_FILE).write_text(function_words_from_jar(args.meteor_jar),
                                                    encoding="utf-8")
    print(f"wrote {args.out / WORDNET_FILE} ({len(data):,} bytes)")


if __name__ == "__main__":
    main()
