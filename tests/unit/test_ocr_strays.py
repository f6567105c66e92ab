"""Specks read as punctuation are dropped from the OCR text; punctuation that text uses is
kept (scan/strays.py)."""

from scan.strays import addresses_joined, strays_dropped
from scan.words import Reading, Word


def reading(*lines: str) -> Reading:
    """A reading whose words are its lines' space-separated tokens."""
    line_words = []
    for n, line in enumerate(lines):
        x = 0
        words = []
        for token in line.split():
            words.append(Word(token, (x, 30 * n, x + 10 * len(token), 30 * n + 20), 0.9, (1, 1, n)))
            x += 10 * len(token) + 8
        line_words.append(words)
    return Reading(list(lines), line_words)


def test_lone_specks_and_marks_leading_a_word_are_dropped():
    read = strays_dropped(
        reading(
            ". 이메일 lee_sol@icloud.com",
            "주소 ㆍ.대구광역시 수성구   달구벌대로 91",
            "“TOEIC 769점 (2019.09) `",
            "전화번호 _010-4364-9950 .",
            "Birth —«1987-03-28",
            "' .",
            ".학점 3.88 / 4.5",
        )
    )
    assert read.lines == [
        "이메일 lee_sol@icloud.com",
        "주소 대구광역시 수성구   달구벌대로 91",  # Tesseract's spacing elsewhere is kept
        "TOEIC 769점 (2019.09)",
        "전화번호 010-4364-9950",
        "Birth 1987-03-28",
        "학점 3.88 / 4.5",
    ]
    assert [[w.text for w in ws] for ws in read.line_words][3] == ["전화번호", "010-4364-9950"]
    assert len(read.line_words) == len(read.lines)


def test_punctuation_that_text_uses_is_kept():
    lines = (
        "- 캐시 적중률 20% 달성 ~ 2020.10 | 현재",
        "경력 : 3년 / 4.5 → 6분 ■ 자격 · 어학",
        '‘고객 중심’ 가치와 "속도" 강조',
        ".NET 개발, DB 부하 8% 감소.",
        "Co., Ltd. 'v2' 출시",
    )
    read = strays_dropped(reading(*lines))
    assert read.lines == list(lines)
    assert read is strays_dropped(read)  # nothing to drop: the same reading


def test_a_mark_glued_to_the_word_before_it_leaves_a_space():
    words = [
        Word("파이프라인", (0, 0, 100, 20), 0.9, (1, 1, 1)),
        Word("'개선으로", (104, 0, 190, 20), 0.9, (1, 1, 1)),
    ]
    read = strays_dropped(Reading(["파이프라인'개선으로"], [words]))
    assert read.lines == ["파이프라인 개선으로"]


def test_an_address_cut_in_two_is_joined_and_a_handle_after_a_name_is_not():
    before = reading(
        "E-mail: dnamgung88 @icloud.com 2017.12 ~ 2019.08",
        "Blog velog.io/ @jian95",
        "이메일 lee. doyun52@icloud.com",
        "Twitter @jian95 · GitHub: @jian95",
        "Contact me @ 9시",
        "seo. siwoo23@devmail.co. kr",
        "Blog www. jiyulee.me https: //github.com/siwoo93 www. 네이버",
        "학교 yonsei.ac. kr",
    )
    read = addresses_joined(before)
    assert read.lines == [
        "E-mail: dnamgung88@icloud.com 2017.12 ~ 2019.08",
        "Blog velog.io/@jian95",
        "이메일 lee.doyun52@icloud.com",
        "Twitter @jian95 · GitHub: @jian95",
        "Contact me @ 9시",
        "seo.siwoo23@devmail.co.kr",
        "Blog www.jiyulee.me https://github.com/siwoo93 www. 네이버",
        "학교 yonsei.ac. kr",  # no address before the label
    ]
    joined = read.line_words[0][1]
    assert joined.text == "dnamgung88@icloud.com"
    local, domain = before.line_words[0][1:3]
    assert joined.box == (local.box[0], 0, domain.box[2], 20)
