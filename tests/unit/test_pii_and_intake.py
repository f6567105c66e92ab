import io

import pytest
from PIL import Image

from core.errors import InvalidInputError
from evals.documents import rrn_with_checksum
from scan.intake import Limits, open_document, sniff
from scan.masking import _sub_box, find_pii_tolerant
from scan.ocr import Word
from scan.pii import find_pii, rrn_checksum_ok


def kinds(text: str, **kw) -> list[tuple[str, str]]:
    return [(m.type, m.text) for m in find_pii(text, **kw)]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("연락처:010-1234-5678", [("phone", "010-1234-5678")]),
        ("전화 02-555-1234", [("phone", "02-555-1234")]),
        ("+82 10-9876-5432", [("phone", "+82 10-9876-5432")]),
        ("이메일: a.b@corp.co.kr", [("email", "a.b@corp.co.kr")]),
        ("블로그 https://velog.io/@dev", [("url", "https://velog.io/@dev")]),
        ("생년월일: 1995년 3월 14일", [("birth_date", "1995년 3월 14일")]),
        ("주소: 서울특별시 강남구 테헤란로 123", [("address", "서울특별시 강남구 테헤란로 123")]),
        ("성명 홍길동", [("name", "홍길동")]),
    ],
)
def test_detectors_return_the_value_not_the_label(line, expected):
    assert kinds(line) == expected


def test_rrn_checksum_is_checked_and_new_numbers_are_still_caught():
    valid = rrn_with_checksum("950314", "123456")
    assert rrn_checksum_ok(valid.replace("-", ""))
    [m] = find_pii(f"주민번호 {valid}")
    assert (m.type, m.confidence) == ("rrn", 0.99)
    # Since 2020 the last digit is not a checksum: still an RRN, with less confidence.
    bad_check = valid[:-1] + str((int(valid[-1]) + 1) % 10)
    [m2] = find_pii(f"주민번호 {bad_check}")
    assert m2.type == "rrn" and m2.confidence < 0.99
    assert find_pii("주민번호 951345-1234567") == []  # month 13 is no date


def test_career_dates_amounts_and_email_domains_are_not_pii():
    assert kinds("에이비씨 2022.03 ~ 2025.02 매출 1,234,567원") == []
    assert kinds("메일 kim@example.com") == [("email", "kim@example.com")]


def test_bare_names_only_when_allowed_and_not_for_document_titles():
    assert kinds("김민준") == []
    assert kinds("김민준", allow_bare_name=True) == [("name", "김민준")]
    assert kinds("이력서", allow_bare_name=True) == []
    # headings that start with a surname's syllable (기, 경, 지, 어) are not names either
    for heading in ("기술스택", "경험", "지원동기", "어학"):
        assert kinds(heading, allow_bare_name=True) == [], heading
    assert kinds("기서윤", allow_bare_name=True) == [("name", "기서윤")]


def test_split_syllables_from_ocr_are_still_detected_with_original_spans():
    text = "이름 이 서 연"
    [m] = find_pii_tolerant(text, allow_bare_name=False)
    assert (m.type, text[m.start : m.end]) == ("name", "이 서 연")


def test_a_word_box_is_split_by_character_width():
    word = Word("연락처:010-1234-5678", (0, 0, 1000, 20), 0.9, (1, 1, 1))
    start = len("연락처:")
    box = _sub_box(word, start, len(word.text))
    # 3 Hangul (1.0) + ':' (0.35) before; 11 digits (0.55) + 2 dashes (0.35) after
    assert box[0] == int(1000 * 3.35 / (3.35 + 11 * 0.55 + 2 * 0.35))
    assert box[2] == 1000


def png(w: int, h: int) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (w, h), "white").save(buf, "PNG")
    return buf.getvalue()


def test_sniffing_ignores_names_and_knows_the_four_types():
    assert sniff(png(4, 4)) == "image/png"
    assert sniff(b"%PDF-1.7\n...") == "application/pdf"
    assert sniff(b"\xff\xd8\xff\xe0....") == "image/jpeg"
    assert sniff(b"RIFF\x00\x00\x00\x00WEBPVP8 ") == "image/webp"
    assert sniff(b"PK\x03\x04 a zip named resume.pdf") is None


@pytest.mark.parametrize(
    ("data", "code", "status"),
    [
        (b"", "EMPTY_FILE", 422),
        (b"GIF89a....", "UNSUPPORTED_FILE_TYPE", 415),
        (b"%PDF-1.4 not really", "BROKEN_PDF", 422),
        (b"\x89PNG\r\n\x1a\ntruncated", "BROKEN_IMAGE", 422),
    ],
)
def test_bad_files_are_refused_with_their_own_code(data, code, status):
    with pytest.raises(InvalidInputError) as err:
        open_document(data, Limits())
    assert (err.value.code, err.value.status_code) == (code, status)


def test_size_and_pixel_limits():
    with pytest.raises(InvalidInputError) as err:
        open_document(png(10, 10), Limits(max_bytes=20))
    assert err.value.code == "FILE_TOO_LARGE" and err.value.status_code == 413
    with pytest.raises(InvalidInputError) as err:
        open_document(png(3000, 3000), Limits(max_pixels=1_000_000))
    assert err.value.code == "IMAGE_TOO_LARGE"


def test_encrypted_and_oversized_pdfs_are_refused():
    import pypdf

    from evals.documents import render_page, to_pdf

    plain = to_pdf([render_page(), render_page(person=1), render_page(person=2)])
    writer = pypdf.PdfWriter()
    writer.append(pypdf.PdfReader(io.BytesIO(plain)))
    writer.encrypt("secret")
    buf = io.BytesIO()
    writer.write(buf)
    with pytest.raises(InvalidInputError) as err:
        open_document(buf.getvalue(), Limits())
    assert err.value.code == "ENCRYPTED_PDF"
    with pytest.raises(InvalidInputError) as err:
        open_document(plain, Limits(max_pages=2))
    assert err.value.code == "TOO_MANY_PAGES"
    assert open_document(plain, Limits()).pages == 3


def test_labels_still_mark_values_that_ocr_garbled():
    # The URL's characters were misread, but the label says what the rest of the line is.
    [url] = find_pii("포트폴리오: 11 ㅁ 05://014140.0000/0710")
    assert url.type == "url" and url.confidence < 0.9
    assert find_pii("포트폴리오: 준비 중") == []  # nothing URL-like after the label
    [birth] = find_pii("생년월일: 1995 03. 14")
    assert birth.type == "birth_date" and birth.text == "1995 03. 14"


def test_an_rrn_with_an_ocr_space_inside_its_digits_is_found():
    valid = rrn_with_checksum("981102", "234567")
    spaced = valid[:3] + " " + valid[3:]
    [m] = find_pii(f"주민등록번호: {spaced}")
    assert (m.type, m.text, m.confidence) == ("rrn", spaced, 0.99)
