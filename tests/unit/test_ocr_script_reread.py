"""Words of a Korean line that Tesseract's kor+eng reading got in the wrong script are read
again by one language's model: Latin read as digits ("DB" as "08", "(p99" as "(699") by the
English model, Korean read as Latin ("취득" as "AS") by the Korean model. Numbers keep their
digits and Latin words their letters."""

import pytest
from PIL import Image, ImageDraw, ImageFont

from evals.documents import FONT_DIR, FONTS
from scan.script_reread import (
    _hangul_for,
    _latin_for,
    _unit_for,
    hangul_reread,
    korean_reread,
    latin_reread,
    units_reread,
)
from scan.words import Reading, Word


@pytest.mark.parametrize(
    ("kor", "eng", "confidence", "taken"),
    [
        ("401", "API", 0.74, True),
        ("08", "DB", 0.95, True),  # every capital looks like a digit: only when sure
        ("08", "DB", 0.80, False),
        ("10", "IO", 0.80, False),
        ("(699", "(p99", 0.87, True),
        ("65109)", "65ms)", 0.62, True),
        ("544-003", "SAA-C03", 0.74, True),
        ("2018-11", "2018-11", 0.97, False),
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


def _w(text: str, confidence: float) -> Word:
    return Word(text, (0, 0, 10, 10), confidence, (1, 1, 1))


@pytest.mark.parametrize(
    ("read", "taken"),
    [
        ([("취득", 0.96)], "취득"),
        ([("적", 0.93), ("중", 0.93), ("률", 0.90)], "적중률"),  # syllables given apart
        ([("거주지", 0.80)], None),  # not sure enough
        ([("아", 0.93)], None),  # one syllable ("of" read by the Korean model alone)
        ([("2005", 0.90)], None),  # "AWS": not Hangul
        ([("설계", 0.96), ("주문", 0.93)], None),  # two words for one
        ([("스미", 0.74)], None),
    ],
)
def test_which_korean_readings_replace_the_mixed_models_latin(read, taken):
    assert _hangul_for([_w(t, c) for t, c in read]) == taken


@pytest.mark.parametrize("font_key", ["gothic", "myeongjo"])
def test_korean_words_read_as_latin_are_read_again_and_latin_words_are_kept(font_key):
    drawn = ["AWS", "SAA-C03", "(2019.03", "취득)", "부산대학교", "졸업", "Spring", "Boot"]
    img, words = _line_image(drawn, font_key)
    as_read = ["AWS", "SAA-C03", "(2019.03", "AS)", "부산대학교", "SY", "Spring", "Boot"]
    words = [Word(t, w.box, w.confidence, w.line) for t, w in zip(as_read, words, strict=True)]
    again = hangul_reread(img, Reading([" ".join(as_read)], [words]))
    assert [w.text for w in again.line_words[0]] == drawn
    assert again.lines == [" ".join(drawn)]


@pytest.mark.parametrize(
    ("mixed", "korean", "taken"),
    [
        ("20184", "2018년", True),
        ("201714", "2017년", True),  # the syllable read as two digits
        ("764%", "764점", True),
        ("14015", "1401호", True),
        ("2018", "2018년", False),  # nothing of the first reading stood for the unit
        ("830", "830만", False),
        ("7684", "758점", False),  # another number
        ("12%", "12%", False),  # no unit
        ("20184", "2019년", False),  # another number
    ],
)
def test_which_korean_readings_of_a_number_restore_its_unit(mixed, korean, taken):
    assert _unit_for(mixed, korean, 0.92) is taken
    assert _unit_for(mixed, korean, 0.80) is False  # the unit's syllable must be sure


@pytest.mark.parametrize("font_key", ["gothic", "barun"])
def test_a_numbers_unit_read_as_a_digit_is_read_again_even_in_a_latin_line(font_key):
    drawn = ["TOEIC", "768점", "(2021.11)", "010", "2964", "9716"]
    img, words = _line_image(drawn, font_key)
    as_read = ["TOEIC", "7684", "(2021.11)", "010", "2964", "9716"]
    words = [Word(t, w.box, w.confidence, w.line) for t, w in zip(as_read, words, strict=True)]
    again = units_reread(img, Reading([" ".join(as_read)], [words]))
    assert [w.text for w in again.line_words[0]] == drawn


def test_one_korean_run_restores_both_a_unit_and_a_korean_word():
    drawn = ["정보처리기사", "취득,", "TOEIC", "768점", "AWS"]
    img, words = _line_image(drawn, "gothic")
    as_read = ["정보처리기사", "AS,", "TOEIC", "7684", "AWS"]
    words = [Word(t, w.box, w.confidence, w.line) for t, w in zip(as_read, words, strict=True)]
    again = korean_reread(img, Reading([" ".join(as_read)], [words]))
    assert [w.text for w in again.line_words[0]] == drawn
