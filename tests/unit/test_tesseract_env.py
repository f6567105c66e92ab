"""Tesseract's one-thread limit is given to the Tesseract process, never to the server's own
process, where it also capped the embedding engine's OpenMP threads (half the speed)."""

import os
import subprocess
import sys
from pathlib import Path

from PIL import Image, ImageDraw

from scan import tesseract

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_ocr_layer_leaves_the_process_openmp_settings_alone():
    code = "import os, server; print(os.environ.get('OMP_THREAD_LIMIT', 'unset'))"
    env = {k: v for k, v in os.environ.items() if k != "OMP_THREAD_LIMIT"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "unset"


def test_tesseract_runs_with_one_openmp_thread_and_reads_a_page():
    assert tesseract._tesseract_env()["OMP_THREAD_LIMIT"] == "1"
    image = Image.new("L", (420, 80), 255)
    ImageDraw.Draw(image).text((10, 25), "HELLO 2026", fill=0, font_size=32)
    text, tsv = tesseract._tesseract(image, 7, "eng")
    assert "HELLO" in text
    assert "HELLO" in tsv
