"""The long score format's columns and encodings: names only, so that ``mtscore score`` can offer
them without importing the readers and writers (:mod:`mtscore.io.scores`)."""

#: the long format's columns, in the order they are written (:mod:`mtscore.io.scores`)
COLUMNS: tuple[str, ...] = ("system", "seg_id", "metric", "score", "signature")

#: encodings of the long format, by name
FORMATS: tuple[str, ...] = ("tsv", "csv", "jsonl")
