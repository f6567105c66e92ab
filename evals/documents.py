"""Synthetic Korean resume pages with known text and known PII boxes.

`render_page(spec)` draws a resume-like page with a Nanum font (Debian `fonts-nanum`) and
returns the image, the text of every line with its box, and every PII item with the box of
exactly its value (not its label). Variants add noise, blur or a small rotation; `to_pdf`
wraps pages into an image-only PDF at a stated dpi. Everything is computed from how the
page was drawn, never from what the OCR or the detector returns.
"""

from __future__ import annotations

import io
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

from PIL import Image, ImageDraw, ImageFilter, ImageFont

FONT_DIR = Path("/usr/share/fonts/truetype/nanum")
FONTS = {
    "gothic": "NanumGothic.ttf",
    "barun": "NanumBarunGothic.ttf",
    "square": "NanumSquareR.ttf",
    "myeongjo": "NanumMyeongjo.ttf",
}


@dataclass
class PiiItem:
    type: str
    text: str
    box: tuple[int, int, int, int]


@dataclass
class Line:
    text: str
    box: tuple[int, int, int, int]


@dataclass
class Run:
    """One `draw.text` call: where (PIL's top-left anchor), what, in which font and size."""

    x: float
    y: float
    text: str
    font: str
    size: int


@dataclass
class Page:
    image: Image.Image
    lines: list[Line] = field(default_factory=list)
    pii: list[PiiItem] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


def rrn_with_checksum(front: str, back6: str) -> str:
    digits = [int(c) for c in front + back6]
    weights = [2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5]
    check = (11 - sum(d * w for d, w in zip(digits, weights, strict=True)) % 11) % 10
    return f"{front}-{back6}{check}"


PEOPLE = [
    {
        "name": "김민준",
        "birth": "1995.03.14",
        "phone": "010-2345-6789",
        "email": "minjun.kim@example.com",
        "address": "서울특별시 강남구 테헤란로 123",
        "rrn": rrn_with_checksum("950314", "123456"),
        "url": "https://github.com/minjunkim",
    },
    {
        "name": "이서연",
        "birth": "1998.11.02",
        "phone": "010-9876-5432",
        "email": "seoyeon.lee@mail.co.kr",
        "address": "경기도 성남시 분당구 판교역로 235",
        "rrn": rrn_with_checksum("981102", "234567"),
        "url": "https://velog.io/@seoyeon",
    },
    {
        "name": "박지훈",
        "birth": "1992.07.21",
        "phone": "02-555-1234",
        "email": "jihoon.park@company.com",
        "address": "부산광역시 해운대구 센텀중앙로 97",
        "rrn": rrn_with_checksum("920721", "112233"),
        "url": "https://jihoon.dev",
    },
]

# Held out: written after the detectors were tuned on PEOPLE, never used to tune them.
HOLDOUT_PEOPLE = [
    {
        "name": "정하늘",
        "birth": "2000.01.30",
        "phone": "010-4321-8765",
        "email": "haneul.jung@univ.ac.kr",
        "address": "대전광역시 유성구 대학로 99",
        "rrn": rrn_with_checksum("000130", "345678"),
        "url": "https://haneul.tistory.com",
    },
    {
        "name": "최윤서",
        "birth": "1997년 5월 8일",
        "phone": "031-777-2020",
        "email": "yunseo_choi@naver.com",
        "address": "인천광역시 연수구 송도과학로 32",
        "rrn": rrn_with_checksum("970508", "221100"),
        "url": "www.yunseo.me",
    },
]

BODY = [
    "[경력]",
    "에이비씨커머스 백엔드 개발 2022.03 ~ 2025.02",
    "주문 API 개발로 응답 시간을 40% 단축했습니다",
    "[기술 스택]",
    "Java, Spring Boot, MySQL, Redis, Docker",
    "[학력]",
    "한국대학교 컴퓨터공학과 졸업 (2021)",
]


def _font(name: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT_DIR / FONTS[name]), size)


def render_page(
    person: int = 0,
    size: int = 28,
    font: str = "gothic",
    layout: str = "inline",
    width: int = 1240,
    height: int = 1754,
    photo: bool = True,
    people: list[dict[str, str]] | None = None,
) -> Page:
    """A page at `width`x`height` (A4 at 150 dpi by default)."""
    roster = people or PEOPLE
    p = roster[person % len(roster)]
    img = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(img)
    f = _font(font, size)
    page = Page(img)
    x0, y = 100, 100
    title = _font(font, size * 2)
    draw.text((x0, y), "이력서", font=title, fill="black")
    page.runs.append(Run(x0, y, "이력서", font, size * 2))
    page.lines.append(Line("이력서", draw.textbbox((x0, y), "이력서", font=title)))
    y += size * 3
    fields = [
        ("이름", p["name"], "name"),
        ("생년월일", p["birth"], "birth_date"),
        ("연락처", p["phone"], "phone"),
        ("이메일", p["email"], "email"),
        ("주소", p["address"], "address"),
        ("주민등록번호", p["rrn"], "rrn"),
        ("포트폴리오", p["url"], "url"),
    ]
    if photo:  # a photo-like block: textured, no text, must not become PII
        rng = random.Random(person)
        block = Image.new("L", (220, 280))
        block.putdata([rng.randint(90, 200) for _ in range(220 * 280)])
        img.paste(block.filter(ImageFilter.GaussianBlur(3)).convert("RGB"), (width - 340, 100))
    for label, value, kind in fields:
        if layout == "inline":
            prefix = f"{label}: "
            vx = x0 + draw.textlength(prefix, font=f)
        else:  # two columns, like a table
            prefix = label
            vx = x0 + 260
        draw.text((x0, y), prefix, font=f, fill="black")
        draw.text((vx, y), value, font=f, fill="black")
        page.runs += [Run(x0, y, prefix, font, size), Run(vx, y, value, font, size)]
        vb = draw.textbbox((vx, y), value, font=f)
        lb = draw.textbbox((x0, y), prefix, font=f)
        line_text = f"{label}: {value}" if layout == "inline" else f"{label} {value}"
        page.lines.append(Line(line_text, (lb[0], min(lb[1], vb[1]), vb[2], max(lb[3], vb[3]))))
        page.pii.append(PiiItem(kind, value, vb))
        y += int(size * 1.8)
    y += size
    for text in BODY:
        draw.text((x0, y), text, font=f, fill="black")
        page.runs.append(Run(x0, y, text, font, size))
        page.lines.append(Line(text, draw.textbbox((x0, y), text, font=f)))
        y += int(size * 1.8)
    return page


def with_noise(page: Page, amount: int = 25, seed: int = 0) -> Page:
    rng = random.Random(seed)
    img = page.image.copy()
    px = img.load()
    for _ in range(img.width * img.height // 12):
        x, y = rng.randrange(img.width), rng.randrange(img.height)
        v = max(0, min(255, px[x, y][0] + rng.randint(-amount * 4, amount * 4)))
        px[x, y] = (v, v, v)
    return Page(img, page.lines, page.pii)


def with_blur(page: Page, radius: float = 1.0) -> Page:
    return Page(page.image.filter(ImageFilter.GaussianBlur(radius)), page.lines, page.pii)


def with_rotation(page: Page, degrees: float = 1.5) -> Page:
    """Rotate around the centre; boxes become the bounding boxes of their rotated corners."""
    img = page.image.rotate(degrees, resample=Image.Resampling.BICUBIC, fillcolor="white")
    cx, cy = page.image.width / 2, page.image.height / 2
    a = math.radians(-degrees)

    def turn(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        pts = [(box[0], box[1]), (box[2], box[1]), (box[0], box[3]), (box[2], box[3])]
        xs, ys = [], []
        for x, y in pts:
            dx, dy = x - cx, y - cy
            xs.append(cx + dx * math.cos(a) - dy * math.sin(a))
            ys.append(cy + dx * math.sin(a) + dy * math.cos(a))
        return (int(min(xs)), int(min(ys)), math.ceil(max(xs)), math.ceil(max(ys)))

    return Page(
        img,
        [Line(ln.text, turn(ln.box)) for ln in page.lines],
        [PiiItem(p.type, p.text, turn(p.box)) for p in page.pii],
    )


def to_png(page: Page) -> bytes:
    buf = io.BytesIO()
    page.image.save(buf, "PNG")
    return buf.getvalue()


def to_pdf(pages: list[Page], dpi: int = 150) -> bytes:
    """An image-only ("scanned") PDF: each page image placed at `dpi`."""
    buf = io.BytesIO()
    first, *rest = [p.image for p in pages]
    first.save(buf, "PDF", resolution=dpi, save_all=True, append_images=rest)
    return buf.getvalue()


def to_text_pdf(pages: list[Page], dpi: int = 150) -> bytes:
    """A born-digital PDF: every text run of each page written as real PDF text (the Nanum
    font embedded) at the place it was drawn, so PDFium's character boxes, rendered at
    `dpi`, land on the page's gold boxes. No image: only the text layer."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    doc = pdfium.PdfDocument.new()
    fonts: dict[str, object] = {}
    keep: list[object] = []  # ctypes buffers must outlive the calls that read them
    pt = 72 / dpi
    for page in pages:
        width, height = page.image.width * pt, page.image.height * pt
        pdf_page = doc.new_page(width, height)
        for run in page.runs:
            if run.font not in fonts:
                data = (FONT_DIR / FONTS[run.font]).read_bytes()
                buf = (ctypes.c_uint8 * len(data)).from_buffer_copy(data)
                keep.append(buf)
                fonts[run.font] = raw.FPDFText_LoadFont(
                    doc, buf, len(data), raw.FPDF_FONT_TRUETYPE, True
                )
            obj = raw.FPDFPageObj_CreateTextObj(doc, fonts[run.font], run.size * pt)
            text = ctypes.create_string_buffer((run.text + "\0").encode("utf-16-le"))
            keep.append(text)
            raw.FPDFText_SetText(obj, ctypes.cast(text, raw.FPDF_WIDESTRING))
            ascent = _font(run.font, run.size).getmetrics()[0]
            raw.FPDFPageObj_Transform(obj, 1, 0, 0, 1, run.x * pt, height - (run.y + ascent) * pt)
            raw.FPDFPage_InsertObject(pdf_page, obj)
        raw.FPDFPage_GenerateContent(pdf_page)
    buf = io.BytesIO()
    doc.save(buf)
    return buf.getvalue()
