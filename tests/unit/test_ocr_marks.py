"""Bullets and arrows, which Tesseract's kor+eng models misread ("■" as "를", "→" as "—"),
are named from their shape; hyphens, tildes, dashes and letters keep their reading."""

import pytest
from PIL import Image, ImageDraw, ImageFont

from evals.documents import FONT_DIR, FONTS
from scan.glyphs import (
    ARROW,
    BULLET,
    marks,
    marks_named,
    marks_spaced,
    page_ink,
    word_spans,
)
from scan.ocr import Reading, Word, read_scan

LINES = [
    "■ 경력사항",
    "- 배포 파이프라인 개선으로 배포 시간 40분 → 6분",
    "코드브릿지테크 2019.02 - 현재",
    "주문 API 응답 시간 단축 (p99 542ms → 52ms)",
    "■ 자격 및 어학",
    "교육 기간 3개월 ~ 6개월, 점수 ㅡ 없음",
]


def page(font_key: str, size: int = 30) -> Image.Image:
    img = Image.new("L", (1400, 120 + 60 * len(LINES)), 255)
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(FONT_DIR / FONTS[font_key]), size)
    for i, text in enumerate(LINES):
        draw.text((80, 60 + 60 * i), text, font=font, fill=0)
    return img


@pytest.mark.parametrize("font_key", ["gothic", "myeongjo"])
def test_bullets_and_arrows_are_read_and_hyphens_and_tildes_kept(font_key):
    lines = read_scan(page(font_key)).lines
    assert len(lines) == len(LINES)
    for drawn, read in zip(LINES, lines, strict=True):
        assert read.count(BULLET) == drawn.count(BULLET), read
        assert read.count(ARROW) == drawn.count(ARROW), read
    assert lines[0].startswith(f"{BULLET} ") and lines[4].startswith(f"{BULLET} ")
    assert "를" not in lines[0] + lines[4]
    assert " - " in lines[2] and "~" in lines[5]


def test_only_arrow_shapes_are_arrows():
    img = Image.new("L", (900, 100), 255)
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(FONT_DIR / FONTS["gothic"]), 30)
    for x, mark in zip(range(40, 900, 110), ["-", "→", "~", "ㅡ", "=", ">", "—", "_"], strict=True):
        draw.text((x, 30), mark, font=font, fill=0)
    draw.rectangle((40, 85, 860, 88), fill=0)  # a rule is no arrow either
    found = marks(page_ink(img))
    assert [mark for mark, _ in found] == [ARROW]
    x1, _, x2, _ = found[0][1]
    assert x1 >= 150 and x2 <= 150 + 40


def test_word_spans_line_up_words_with_tesseracts_spacing():
    def w(text: str) -> Word:
        return Word(text, (0, 0, 1, 1), 0.9, (1, 1, 1))

    line = "서울특별시 송파구 올림픽 로"
    spans = word_spans(line, [w("서"), w("울특별시"), w("송파구"), w("올림픽"), w("로")])
    assert [line[a:b] for a, b in spans] == ["서", "울특별시", "송파구", "올림픽", "로"]
    assert word_spans(line, [w("서울"), w("송파구")]) is None  # words that do not line up


def test_a_solid_square_is_a_bullet_and_a_hollow_one_or_a_dot_is_not():
    img = Image.new("L", (300, 80), 255)
    draw = ImageDraw.Draw(img)
    draw.rectangle((20, 25, 40, 45), fill=0)
    draw.rectangle((120, 25, 140, 45), outline=0, width=2)
    draw.ellipse((200, 25, 220, 45), fill=0)
    draw.rectangle((250, 40, 253, 43), fill=0)
    assert marks(page_ink(img)) == [(BULLET, (20, 25, 41, 46))]


@pytest.mark.parametrize("font_key", ["gothic", "myeongjo"])
def test_a_letter_spaced_title_is_read_spaced_and_a_plain_one_joined(font_key):
    img = Image.new("L", (1000, 400), 255)
    draw = ImageDraw.Draw(img)
    title = ImageFont.truetype(str(FONT_DIR / FONTS[font_key]), 44)
    body = ImageFont.truetype(str(FONT_DIR / FONTS[font_key]), 28)
    draw.text((80, 50), "이 력 서", font=title, fill=0)
    draw.text((80, 150), "경력사항", font=title, fill=0)
    draw.text((80, 250), "주문 응답 시간 단축", font=body, fill=0)
    lines = read_scan(img).lines
    assert lines == ["이 력 서", "경력사항", "주문 응답 시간 단축"]


def test_a_mark_written_joined_to_its_neighbour_is_set_apart_by_the_gap_between_their_boxes():
    def w(text: str, x1: int, x2: int) -> Word:
        return Word(text, (x1, 100, x2, 130), 0.9, (1, 1, 1))

    # letters 30 px high: the dash stands 9 px (0.3 letters) from "캐시", the tilde 2 px
    # (0.07) from the date before it, "<" 8 px from its heading
    spaced = Reading(
        ["-캐시 적중률", "2016.10~ 현재", "<학력사항"],
        [
            [w("-", 0, 12), w("캐시", 21, 80), w("적중률", 95, 180)],
            [w("2016.10", 0, 100), w("~", 102, 115), w("현재", 130, 190)],
            [w("<", 0, 14), w("학력사항", 22, 140)],
        ],
    )
    assert marks_spaced(spaced).lines == ["- 캐시 적중률", "2016.10~ 현재", "< 학력사항"]
    # words that are not marks are never split, however far apart
    apart = Reading(["정산자동화"], [[w("정산", 0, 60), w("자동화", 90, 180)]])
    assert marks_spaced(apart).lines == ["정산자동화"]


def test_an_unread_list_dash_is_put_before_its_line_and_other_bars_are_left_alone():
    """A list's dash that Tesseract read nothing for ("- 월 400만 건" read "월 400만 건" on a
    blurred page) is added from the page's ink; a dash already read, a tilde within a line,
    an underscore at the baseline and a dash far from the line's first word are not."""
    img = Image.new("L", (900, 400), 255)
    draw = ImageDraw.Draw(img)
    letter = 20  # the words' boxes below are 20 px high

    def w(text: str, x1: int, x2: int, top: int) -> Word:
        return Word(text, (x1, top, x2, top + letter), 0.9, (1, 1, top))

    # row 1: a dash 7x3 px across the middle, 5 px before "월" (unread)
    draw.rectangle((100, 49, 106, 51), fill=0)
    # row 2: the same dash, read already
    draw.rectangle((100, 109, 106, 111), fill=0)
    # row 3: a bar at the baseline (an underscore), before "정산"
    draw.rectangle((100, 177, 106, 179), fill=0)
    # row 4: a bar across the middle but 3 letters before its line's first word
    draw.rectangle((100, 229, 106, 231), fill=0)
    # row 5: within a line, a bar read as "~" between two dates
    draw.rectangle((230, 289, 237, 291), fill=0)
    # row 6: a line-leading bar read as "~"
    draw.rectangle((100, 349, 106, 351), fill=0)
    texts = "월 400만 건|- 캐시 적중률|정산 자동화|배포 시간|2018-08 ~ 2020-10|~ 주문 API"
    reading = Reading(
        texts.split("|"),
        [
            [w("월", 112, 128, 40), w("400만", 134, 190, 40), w("건", 196, 212, 40)],
            [w("-", 100, 107, 100), w("캐시", 112, 150, 100), w("적중률", 156, 210, 100)],
            [w("정산", 112, 150, 160), w("자동화", 156, 210, 160)],
            [w("배포", 166, 204, 220), w("시간", 210, 248, 220)],
            [w("2018-08", 120, 222, 280), w("~", 229, 238, 280), w("2020-10", 246, 348, 280)],
            [w("~", 99, 107, 340), w("주문", 112, 150, 340), w("API", 156, 200, 340)],
        ],
    )
    read = marks_named(img, reading)
    assert read.lines == [
        "- 월 400만 건",
        "- 캐시 적중률",
        "정산 자동화",
        "배포 시간",
        "2018-08 ~ 2020-10",
        "- 주문 API",
    ]
    assert [w.text for w in read.line_words[0]] == ["-", "월", "400만", "건"]
    assert read.line_words[0][0].box == (100, 49, 107, 52)
