"""One Tesseract pass (Korean + English): page text, word boxes and confidences. The layer
under `ocr.py` (layout, columns, second looks) and `script_reread.py` (one script again)."""

from __future__ import annotations

import csv
import io
import os
import subprocess

import pytesseract
from PIL import Image

from core.errors import AIError
from scan.words import Reading, Word


# Tesseract's OpenMP threads fight the pages we already read in parallel (PAGE_PARALLELISM)
# on a small machine: the dev eval took 6.5 s a page with them, 2.1 s with one thread each.
# The limit goes to the Tesseract process only: set on this process, it also capped every
# OpenMP library loaded here after it (the embedding engine ran at half speed in the server).
def _tesseract_env() -> dict[str, str]:
    return {**os.environ, "OMP_THREAD_LIMIT": os.environ.get("OMP_THREAD_LIMIT", "1")}


LANGS = "kor+eng"
# PSM 6 (one uniform block) read these resume pages best: CER 1.4% vs 6.8% with PSM 3.
PSM = 6
# Tesseract's own binarisation: 2 is its tiled Sauvola (local) threshold, 0 its global Otsu.
# Sauvola read shaded pages better (30 pages of dev2-dev5 with a shadow or a vignette: CER
# 0.040 -> 0.035, WER 0.116 -> 0.105; Otsu lost the table on dev5-39's dark side) and the
# others a little better too (62 pages of dev4 and dev5: 0.0365 / 0.120 -> 0.0341 / 0.115).
# Leptonica's adaptive Otsu (1) was far worse (CER 0.185 on the shaded pages).
THRESHOLDING = 2


class OcrEngineError(AIError):
    code = "OCR_ENGINE_UNAVAILABLE"
    status_code = 503


def _tesseract(image: Image.Image, psm: int, langs: str = LANGS) -> tuple[str, str]:
    """Text and TSV word table from one Tesseract run (pytesseract's helpers run it once per
    output type: twice the time)."""
    try:
        with pytesseract.pytesseract.save(image) as (base, source):
            command = [pytesseract.pytesseract.tesseract_cmd, source, base, "-l", langs]
            command += ["--psm", str(psm), "-c", "tessedit_create_tsv=1"]
            command += ["-c", f"thresholding_method={THRESHOLDING}", "txt"]
            done = subprocess.run(command, env=_tesseract_env(), capture_output=True, check=False)
            if done.returncode:
                error = done.stderr.decode("utf-8", "replace").strip()[:200]
                raise pytesseract.TesseractError(done.returncode, error)
            with (
                open(base + ".txt", encoding="utf-8") as txt,
                open(base + ".tsv", encoding="utf-8") as tsv,
            ):
                return txt.read(), tsv.read()
    except (
        FileNotFoundError,
        pytesseract.TesseractNotFoundError,
        pytesseract.TesseractError,
    ) as exc:
        raise OcrEngineError(f"Tesseract failed: {type(exc).__name__}") from exc


def _words(tsv: str) -> list[Word]:
    words = []
    for row in csv.DictReader(io.StringIO(tsv), delimiter="\t", quoting=csv.QUOTE_NONE):
        text = (row.get("text") or "").strip()
        if not text:
            continue
        x, y, w, h = (int(row[k]) for k in ("left", "top", "width", "height"))
        line = (int(row["block_num"]), int(row["par_num"]), int(row["line_num"]))
        words.append(Word(text, (x, y, x + w, y + h), float(row["conf"]) / 100, line))
    return words


def read_page(image: Image.Image, psm: int = PSM, langs: str = LANGS) -> Reading:
    """Text lines and word boxes from one Tesseract pass. Its own line text is kept (its
    spacing is right: WER 0% on clean pages; rebuilding lines from word boxes gave 20-26%,
    because Tesseract splits Korean words into syllables there)."""
    txt, tsv = _tesseract(image, psm, langs)
    lines = [line.strip() for line in txt.splitlines() if line.strip()]
    grouped = lines_of(_words(tsv))
    if len(grouped) != len(lines):  # never seen; then rebuild the text from the words
        lines = [" ".join(w.text for w in ws) for ws in grouped]
    return Reading(lines, grouped)


def lines_of(words: list[Word]) -> list[list[Word]]:
    """Words grouped into Tesseract's lines, top to bottom, each left to right."""
    groups: dict[tuple[int, int, int], list[Word]] = {}
    for word in words:
        groups.setdefault(word.line, []).append(word)
    return [sorted(ws, key=lambda w: w.box[0]) for _, ws in sorted(groups.items())]


def tesseract_version() -> str:
    return f"tesseract-{pytesseract.get_tesseract_version()}"
