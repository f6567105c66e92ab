"""Latin words that Tesseract's Korean model read as digits ("DB" as "08", "(p99" as "(699")
are read again by the English model alone; numbers keep their digits."""

import pytest
from PIL import Image, ImageDraw, ImageFont

from evals.documents import FONT_DIR, FONTS
from nodes.documents.latin import _latin_for, latin_reread
from nodes.documents.words import Reading, Word


@pytest.mark.parametrize(
    ("kor", "eng", "confidence", "taken"),
    [
        ("401", "API", 0.74, True),
        ("08", "DB", 0.95, True),  # every capital looks like a digit: only when sure
        ("08", "DB", 0.80, False),
        ("10", "IO", 0.80, False),
        ("(699", "(p99", 0.87, True),
        ("65109)", "65ms)", 0.62, True),
        ("459106", "459ms", 0.62, True),
        ("11", "11a", 0.58, False),  # under MIN_CONF
        ("11", "11a", 0.90, False),  # no digit of the Korean reading stood for a letter
        ("12", "128", 0.90, False),  # no letter
        ("40", "y", 0.90, False),
        ("11", "ne", 0.90, False),  # lower-case only: not an acronym
        ("2016", "20164", 0.95, False),
        ("API", "API", 0.95, False),
    ],
)
def test_which_english_readings_replace_the_korean_models_digits(kor, eng, confidence, taken):
    assert _latin_for(kor, eng, confidence) is taken


def _line_image(words: list[str], font_key: str) -> tuple[Image.Image, list[Word]]:
    """One line of `words` drawn 20 px apart, and a Word for each at its drawn box."""
    img = Image.new("L", (1500, 120), 255)
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(FONT_DIR / FONTS[font_key]), 32)
    x, boxes = 40, []
    for text in words:
        x1, y1, x2, y2 = draw.textbbox((x, 40), text, font=font)
        draw.text((x, 40), text, font=font, fill=0)
        boxes.append((x1, y1, x2, y2))
        x = x2 + 20
    return img, [Word(t, b, 0.9, (1, 1, 1)) for t, b in zip(words, boxes, strict=True)]


@pytest.mark.parametrize("font_key", ["gothic", "myeongjo"])
def test_latin_words_read_as_digits_are_read_again_and_numbers_are_kept(font_key):
    drawn = ["캐시", "적중률", "56%", "달성,", "DB", "부하", "(p99", "542ms", "2016"]
    img, words = _line_image(drawn, font_key)
    # what the Korean model read: digits for the Latin words, the number right
    as_read = ["캐시", "적중률", "56%", "달성,", "08", "부하", "(699", "542ms", "2016"]
    words = [Word(t, w.box, w.confidence, w.line) for t, w in zip(as_read, words, strict=True)]
    reading = Reading([" ".join(as_read)], [words])
    again = latin_reread(img, reading)
    assert [w.text for w in again.line_words[0]] == drawn
    assert again.lines == [" ".join(drawn)]


def test_a_line_without_hangul_is_left_as_read():
    img, words = _line_image(["Spring", "Boot", "08"], "gothic")  # "08" is drawn: a number
    reading = Reading(["Spring Boot 08"], [words])
    assert latin_reread(img, reading) is reading
