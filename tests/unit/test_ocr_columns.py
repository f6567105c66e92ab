"""Two-column pages are found from the image (a gutter no text crosses), noise and photos
notwithstanding, and read column by column."""

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from evals.documents import FONT_DIR, FONTS
from scan.ocr import (
    Reading,
    Word,
    _laid_out,
    gutter,
    read_scan,
    readings_to_mask,
    text_ink,
    without_fragments,
    without_specks,
)

LEFT = [
    "성명: 한별",
    "연락처: 010-5819-7069",
    "이메일: hb@proton.me",
    "보유 기술",
    "Redis 7, Kotlin",
]
RIGHT = [
    "경력사항",
    "코드브릿지테크 서버 개발",
    "2016-05 ~ 2019-04",
    "주문 API 응답 시간 단축",
    "프로젝트",
    "사내 검색 플랫폼 (2020.07)",
    "학력사항",
    "부산대학교 정보컴퓨터공학부",
]
RIGHT_X = 660


def page(left: list[str], right: list[str], noise: float = 0.0, photo: bool = False) -> Image.Image:
    img = Image.new("L", (1240, 1754), 255)
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(str(FONT_DIR / FONTS["gothic"]), 30)
    draw.text((100, 80), "입사지원서", font=font, fill=0)
    for i, text in enumerate(left):
        draw.text((100, 200 + 55 * i), text, font=font, fill=0)
    for i, text in enumerate(right):
        draw.text((RIGHT_X, 200 + 55 * i), text, font=font, fill=0)
    if photo:  # a portrait-like photo beside the fields: dark ground, a face, stripes
        shot = Image.new("L", (200, 260), 60)
        art = ImageDraw.Draw(shot)
        art.ellipse((50, 30, 150, 150), fill=200)
        art.rectangle((20, 170, 180, 260), fill=30)
        for x in range(0, 200, 14):
            art.line((x, 0, x + 40, 260), fill=110, width=3)
        rng = np.random.default_rng(1)
        grain = rng.normal(0, 25, (260, 200))
        shot = Image.fromarray(np.clip(np.asarray(shot) + grain, 0, 255).astype(np.uint8))
        img.paste(shot, (900, 150))
    if noise:
        arr = np.array(img)
        roll = np.random.default_rng(7).random(arr.shape)
        arr[roll < noise / 2] = 0
        arr[(roll >= noise / 2) & (roll < noise)] = 255
        img = Image.fromarray(arr)
    return img


def test_a_two_column_page_is_cut_at_its_gutter_through_salt_and_pepper():
    cut = gutter(page(LEFT, RIGHT, noise=0.01))
    assert cut is not None
    # between the longest left line's end (about 100 + 20 letters) and the right column
    assert 430 < cut.x < RIGHT_X
    assert cut.top <= 200 and cut.bottom >= 200 + 55 * len(RIGHT)


def test_one_column_with_short_lines_noise_and_a_photo_has_no_gutter():
    assert gutter(page(LEFT + RIGHT, [], noise=0.01, photo=True)) is None
    # lines that run across the middle of the page leave no band empty
    long = [f"{t}, {t}" for t in LEFT + RIGHT]
    assert gutter(page(long, [])) is None


def test_a_photo_beside_the_fields_is_no_second_column():
    assert gutter(page(LEFT + RIGHT, [], photo=True)) is None


def test_a_two_column_page_is_read_column_by_column():
    reading = read_scan(page(LEFT, RIGHT, noise=0.005))
    text = reading.text
    # every right-column line was read on a line of its own, after the whole left column
    for line in reading.lines:
        assert not ("한별" in line and "경력" in line)
    assert text.index("Kotlin") < text.index("경력사항") < text.index("부산대학교")
    # word boxes are on the page: the right column's words start right of the gutter
    line = next(
        ws for ws, t in zip(reading.line_words, reading.lines, strict=True) if "부산대학교" in t
    )
    assert RIGHT_X - 5 <= line[0].box[0] < RIGHT_X + 40


def test_a_photo_is_found_and_not_read_as_text():
    img = page(LEFT + RIGHT, [], photo=True)
    _, _, photos = text_ink(np.asarray(img))
    block = (900, 150, 1100, 410)
    assert any(
        p[0] <= block[0] and p[1] <= block[1] and p[2] >= block[2] and p[3] >= block[3]
        for p in photos
    )
    # and none around the text: a table's rules or letters are no photo
    assert all(p[0] > 600 for p in photos)
    # painted paper-white before Tesseract reads the page, the text around it untouched
    blanked, cut = _laid_out(img)
    assert cut is None
    painted = np.asarray(blanked)
    assert painted[block[1] : block[3], block[0] : block[2]].min() >= 250
    assert (painted[200:260, 100:400] < 128).sum() == (
        np.asarray(img)[200:260, 100:400] < 128
    ).sum()
    words = read_scan(img).words
    inside = [w for w in words if block[0] <= (w.box[0] + w.box[2]) / 2 <= block[2]]
    assert inside == []
    assert "010-5819-7069" in read_scan(img).text
    # masking reads the plain page too, and takes what either reading finds
    assert len(readings_to_mask(img)) == 2
    assert len(readings_to_mask(page(LEFT + RIGHT, []))) == 1


def test_specks_read_as_text_far_from_a_line_are_dropped_and_text_is_kept():
    def word(text: str, x1: int, x2: int, conf: float, y: int = 100) -> Word:
        return Word(text, (x1, y, x2, y + 20), conf, (1, 1, y))

    line = [word("연락처", 0, 60, 0.9), word("010-4748-8690", 70, 220, 0.9)]
    specks = [word("ce", 400, 420, 0.3), word(";", 600, 604, 0.5), word("5", 800, 810, 0.2)]
    far_text = [word("Seoul", 500, 580, 0.9)]
    only_specks = [word(":", 300, 304, 0.4, y=200), word("oe", 700, 720, 0.2, y=200)]
    reading = Reading(
        ["a", "b", "c"],
        [line + specks, line + far_text, only_specks],
    )
    out = without_specks(reading)
    assert [[w.text for w in ws] for ws in out.line_words] == [
        ["연락처", "010-4748-8690"],
        ["연락처", "010-4748-8690", "Seoul"],
    ]
    assert out.lines[0] == "연락처 010-4748-8690"
    # a reading with nothing to drop comes back as it was, Tesseract's spacing and all
    clean = Reading(["연락처  010-4748-8690"], [line])
    assert without_specks(clean) is clean


def test_a_line_that_loses_its_specks_keeps_tesseracts_spacing():
    """Rebuilt from its word boxes, "자격 및 어학" (word gaps 0.3-0.4 letters, as close as a
    split word's syllables) came out "자격및어학"; Tesseract's own text had the spaces."""

    def word(text: str, x1: int, x2: int, conf: float = 0.9) -> Word:
        return Word(text, (x1, 100, x2, 125), conf, (1, 1, 1))

    words = [word("자격", 0, 46), word("및", 56, 77), word("어학", 85, 133)]
    reading = Reading(["자격 및 어학    ce"], [[*words, word("ce", 400, 420, 0.3)]])
    out = without_specks(reading)
    assert out.lines == ["자격 및 어학"]
    assert out.line_words == [words]


def test_a_piece_of_a_title_read_as_a_line_above_it_is_dropped():
    def word(text: str, box: tuple[int, int, int, int], line: int) -> Word:
        return Word(text, box, 0.93, (1, 1, line))

    # the ㅇ of "원" in a bold title, read as "으" on a line of its own (dev5-02)
    piece = word("으", (228, 122, 248, 137), 1)
    title = [word("입", (114, 122, 145, 160), 2), word("지원서", (188, 122, 295, 161), 2)]
    name = [word("김주원", (112, 213, 178, 236), 3)]
    beside = word("우", (300, 122, 320, 137), 1)  # beside the title, not inside it: kept
    reading = Reading(["으  우", "입 지원서", "김주원"], [[piece, beside], title, name])
    out = without_fragments(reading)
    assert out.lines == ["우", "입 지원서", "김주원"]
    assert [[w.text for w in ws] for ws in out.line_words] == [["우"], ["입", "지원서"], ["김주원"]]
    clean = Reading(["입 지원서", "김주원"], [title, name])
    assert without_fragments(clean) is clean


def test_a_shadows_dark_corner_is_no_photo_and_the_fields_under_it_are_read():
    """A vignette darkens the top left corner, where the personal fields are: one global
    threshold takes the corner for a blob of ink the size of a photo, and painting it out
    lost the name, phone and e-mail (dev6-27)."""
    img = page(LEFT, RIGHT, photo=True)
    g = np.asarray(img, np.float32)
    ys, xs = np.mgrid[0 : g.shape[0], 0 : g.shape[1]].astype(np.float32)
    corner = np.clip(1.0 - np.hypot(xs / 520, ys / 560), 0, 1)  # darkest at (0, 0)
    shaded = Image.fromarray((g * (1.0 - 0.6 * corner)).astype(np.uint8))
    _, _, photos = text_ink(np.asarray(shaded))
    assert photos and all(p[0] > 600 for p in photos)  # the real photo only
    text = read_scan(shaded).text
    assert "010-5819-7069" in text and "hb@proton.me" in text
