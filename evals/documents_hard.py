"""Harder synthetic Korean resume pages (noisy scans) with exact gold, in a dev and a test split.

The spec is evals/datasets/documents_spec.md. `generate(split, index)` draws one page from
nothing but `(split, index)`: no image is stored, and the same library versions give the same
pixels. Gold (every line's text and box, and every PII value's type, text and box) comes from
how the page was drawn and transformed, never from the code under test.

    python -m evals.documents_hard --split test --list
    python -m evals.documents_hard --split dev --index 3 --show /tmp/dev-3.png
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from evals.documents import FONT_DIR, Line, Page, PiiItem, rrn_with_checksum

SPLITS: dict[str, tuple[int, str]] = {  # size, value pool (and seed family)
    "dev": (40, "A"),
    "test": (48, "B"),
    "dev2": (40, "A"),  # session 7: fresh development pages after dev was fitted
    "dev3": (40, "A"),  # session 8: fresh again, after dev2 was fitted
    "dev4": (40, "A"),  # session 9: fresh again, after dev3 was fitted
    "dev5": (40, "A"),  # session 10: fresh again, after dev4 helped choose the speck window
    "dev6": (40, "A"),  # session 11: fresh again, after dev3-dev5 were fitted
    "dev7": (40, "A"),  # session 12: fresh again, after dev6 was fitted
}
# dev and test are seeded by their family alone (as when they were made); any later split is
# seeded by family and split name, so dev2 draws other pages from pool A than dev does.
FAMILY_SEEDED = ("dev", "test")
GENERATOR_VERSION = 1

FONTS: dict[str, tuple[str, str]] = {  # key -> (text face, bold face)
    "gothic": ("NanumGothic.ttf", "NanumGothicBold.ttf"),
    "gothic-bold": ("NanumGothicBold.ttf", "NanumGothicBold.ttf"),
    "barun": ("NanumBarunGothic.ttf", "NanumBarunGothicBold.ttf"),
    "barun-bold": ("NanumBarunGothicBold.ttf", "NanumBarunGothicBold.ttf"),
    "square": ("NanumSquareR.ttf", "NanumSquareB.ttf"),
    "squareround": ("NanumSquareRoundR.ttf", "NanumSquareRoundB.ttf"),
    "myeongjo": ("NanumMyeongjo.ttf", "NanumMyeongjoBold.ttf"),
    "myeongjo-bold": ("NanumMyeongjoBold.ttf", "NanumMyeongjoBold.ttf"),
}
LAYOUTS = ("inline", "table", "twocol")
PHOTOS = ("none", "texture", "face")
SINGLE = (
    "speckle",
    "saltpepper",
    "gaussian",
    "jpeg",
    "lowres",
    "skew",
    "perspective",
    "shadow",
    "blur",
)
DEGRADATION_SLOTS = (*SINGLE, "combo", "combo", "combo", "clean")
COMBOS = (
    ("jpeg", "skew"),
    ("gaussian", "blur"),
    ("shadow", "perspective"),
    ("lowres", "jpeg"),
    ("speckle", "skew"),
    ("saltpepper", "shadow"),
    ("blur", "perspective"),
    ("lowres", "gaussian"),
    ("shadow", "jpeg"),
    ("skew", "blur"),
)
# the order effects are applied in: geometry, light, blur, noise, encoder
EFFECT_ORDER = ("skew", "perspective", "shadow", "blur", "speckle", "saltpepper", "gaussian")

A4_INCHES = (8.27, 11.69)

# The face photo: matplotlib's sample image, cropped to head and shoulders; the face box (cap
# brim to chin, ear to ear) is in pixels of that crop.
FACE_CROP = (76, 0, 436, 480)
FACE_BOX_IN_CROP = (82, 130, 296, 345)


def face_photo_path() -> Path | None:
    """Where matplotlib's grace_hopper.jpg is, or None without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        return None
    path = Path(matplotlib.get_data_path()) / "sample_data" / "grace_hopper.jpg"
    return path if path.exists() else None


# ---------------------------------------------------------------------------------------------
# Value pools. A and B share no surname (so no full name), given name, road, domain or number
# range. Neither reuses anything from evals/documents.py.

POOLS: dict[str, dict[str, Any]] = {
    "A": {
        "surnames": [
            ("김", "kim"),
            ("이", "lee"),
            ("박", "park"),
            ("강", "kang"),
            ("윤", "yoon"),
            ("한", "han"),
            ("오", "oh"),
            ("서", "seo"),
        ],
        "compound_surnames": [("남궁", "namgung"), ("제갈", "jegal")],
        "given": [
            ("도윤", "doyun"),
            ("하은", "haeun"),
            ("시우", "siwoo"),
            ("지유", "jiyu"),
            ("예준", "yejun"),
            ("수아", "sua"),
            ("주원", "juwon"),
            ("지안", "jian"),
            ("건우", "gunwoo"),
            ("서윤", "seoyun"),
            ("은우", "eunwoo"),
            ("나연", "nayeon"),
            ("태민", "taemin"),
            ("혜린", "hyerin"),
        ],
        "given1": [("솔", "sol"), ("별", "byeol"), ("훈", "hoon")],
        "birth_years": (1986, 1995),
        "mobile_mid": (2000, 5999),
        "landline": [("02", 3), ("02", 4), ("031", 3), ("051", 3), ("032", 3)],
        "landline_exchange": (200, 599),
        "domains": [
            "gmail.com",
            "kakao.com",
            "yonsei.ac.kr",
            "hanyang.ac.kr",
            "devmail.co.kr",
            "proton.me",
            "icloud.com",
        ],
        # (시/도 forms, 시/군/구, road, legal 동, English road + district)
        "roads": [
            (
                ("서울특별시", "서울시", "서울"),
                "마포구",
                "월드컵북로",
                "상암동",
                "World Cup buk-ro, Mapo-gu, Seoul",
            ),
            (
                ("서울특별시", "서울시", "서울"),
                "송파구",
                "올림픽로",
                "잠실동",
                "Olympic-ro, Songpa-gu, Seoul",
            ),
            (("서울특별시", "서울"), "관악구", "관악로", "봉천동", "Gwanak-ro, Gwanak-gu, Seoul"),
            (
                ("경기도", "경기"),
                "수원시 영통구",
                "광교중앙로",
                "하동",
                "Gwanggyojungang-ro, Yeongtong-gu, Suwon",
            ),
            (
                ("부산광역시", "부산"),
                "수영구",
                "광안해변로",
                "광안동",
                "Gwanganhaebyeon-ro, Suyeong-gu, Busan",
            ),
            (
                ("대구광역시", "대구"),
                "수성구",
                "달구벌대로",
                "범어동",
                "Dalgubeol-daero, Suseong-gu, Daegu",
            ),
            (("광주광역시", "광주"), "북구", "용봉로", "용봉동", "Yongbong-ro, Buk-gu, Gwangju"),
            (
                ("경기도", "경기"),
                "고양시 일산동구",
                "중앙로",
                "장항동",
                "Jungang-ro, Ilsandong-gu, Goyang",
            ),
            (
                ("서울특별시", "서울시"),
                "마포구",
                "양화로7길",
                "서교동",
                "Yanghwa-ro 7-gil, Mapo-gu, Seoul",
            ),
            (
                ("경기도", "경기"),
                "안양시 동안구",
                "시민대로",
                "관양동",
                "Simin-daero, Dongan-gu, Anyang",
            ),
        ],
        "companies": [
            "블루웨이브랩스",
            "온누리페이먼츠",
            "코드브릿지테크",
            "스텔라모빌리티",
            "그린필드데이터",
        ],
        "roles": ["백엔드 개발", "서버 개발", "데이터 엔지니어", "플랫폼 개발", "검색 개발"],
        "achievements": [
            "주문 API 응답 시간을 {p}% 단축 (p99 {a}ms → {b}ms)",
            "월 {n}만 건의 결제 트랜잭션 처리 시스템 운영",
            "연 매출 {k},{m}00만원 규모 신규 서비스 백엔드 설계",
            "Spring Boot {v} 기반 마이크로서비스 {c}개 전환",
            "배포 파이프라인 개선으로 배포 시간 {a2}분 → {b2}분",
            "캐시 적중률 {p}% 달성, DB 부하 {q}% 감소",
        ],
        "projects": [
            "정산 자동화 시스템",
            "실시간 재고 동기화",
            "사내 검색 플랫폼",
            "쿠폰 발급 서버",
        ],
        "skills": [
            "Java 17",
            "Spring Boot 3.2",
            "JPA",
            "MySQL 8.0",
            "Redis 7",
            "Kotlin 1.9",
            "Docker",
            "AWS ECS",
            "Elasticsearch 8.11",
            "Gradle 8",
        ],
        "schools": [
            ("서울과학기술대학교", "컴퓨터공학과"),
            ("부산대학교", "정보컴퓨터공학부"),
            ("아주대학교", "소프트웨어학과"),
        ],
        "certs": [
            "정보처리기사 취득 ({y}.{mm})",
            "TOEIC {t}점 ({y}.{mm})",
            "AWS SAA-C03 ({y}.{mm}.{dd} 취득)",
        ],
    },
    "B": {
        "surnames": [
            ("최", "choi"),
            ("정", "jung"),
            ("조", "cho"),
            ("장", "jang"),
            ("임", "lim"),
            ("신", "shin"),
            ("권", "kwon"),
            ("송", "song"),
        ],
        "compound_surnames": [("황보", "hwangbo"), ("선우", "sunwoo")],
        "given": [
            ("하준", "hajun"),
            ("지호", "jiho"),
            ("유진", "yujin"),
            ("현우", "hyunwoo"),
            ("채원", "chaewon"),
            ("준서", "junseo"),
            ("다은", "daeun"),
            ("우진", "woojin"),
            ("소율", "soyul"),
            ("태윤", "taeyun"),
            ("예린", "yerin"),
            ("승민", "seungmin"),
            ("가온", "gaon"),
            ("재희", "jaehee"),
        ],
        "given1": [("결", "gyeol"), ("담", "dam"), ("린", "rin")],
        "birth_years": (1996, 2004),
        "mobile_mid": (6000, 9899),
        "landline": [("02", 3), ("02", 4), ("031", 3), ("042", 3), ("064", 3)],
        "landline_exchange": (600, 989),
        "domains": [
            "daum.net",
            "hanmail.net",
            "nate.com",
            "kaist.ac.kr",
            "skku.ac.kr",
            "startup.co.kr",
            "outlook.com",
        ],
        "roads": [
            (
                ("서울특별시", "서울시", "서울"),
                "성동구",
                "왕십리로",
                "성수동",
                "Wangsimni-ro, Seongdong-gu, Seoul",
            ),
            (
                ("서울특별시", "서울"),
                "영등포구",
                "여의대로",
                "여의도동",
                "Yeoui-daero, Yeongdeungpo-gu, Seoul",
            ),
            (
                ("인천광역시", "인천"),
                "남동구",
                "인주대로",
                "구월동",
                "Inju-daero, Namdong-gu, Incheon",
            ),
            (
                ("경기도", "경기"),
                "용인시 수지구",
                "포은대로",
                "풍덕천동",
                "Poeun-daero, Suji-gu, Yongin",
            ),
            (("대전광역시", "대전"), "서구", "둔산로", "둔산동", "Dunsan-ro, Seo-gu, Daejeon"),
            (("울산광역시", "울산"), "남구", "삼산로", "삼산동", "Samsan-ro, Nam-gu, Ulsan"),
            (
                ("경상남도", "경남"),
                "창원시 성산구",
                "중앙대로",
                "용호동",
                "Jungang-daero, Seongsan-gu, Changwon",
            ),
            (
                ("제주특별자치도", "제주"),
                "제주시",
                "연북로",
                "이도이동",
                "Yeonbuk-ro, Jeju-si, Jeju",
            ),
            (("세종특별자치시", "세종"), "", "한누리대로", "보람동", "Hannuri-daero, Sejong"),
            (
                ("서울특별시", "서울시"),
                "강서구",
                "공항대로41길",
                "등촌동",
                "Gonghang-daero 41-gil, Gangseo-gu, Seoul",
            ),
        ],
        "companies": [
            "새벽네트웍스",
            "하이브로직스",
            "모아핀테크",
            "라온시큐리티랩",
            "누리클라우드",
        ],
        "roles": ["ML 엔지니어", "DevOps 엔지니어", "프론트엔드 개발", "iOS 개발", "QA 엔지니어"],
        "achievements": [
            "검색 API 처리량 {k},{m}00 TPS 달성",
            "Kubernetes v1.2{c} 클러스터 업그레이드, 비용 {p}% 절감",
            "데이터 파이프라인 지연 {a2}시간 → {b2}분 단축",
            "추천 모델 CTR {q}.{c}% 개선 (A/B 테스트)",
            "총 {k}억 원 규모 차세대 시스템 구축 참여",
            "서비스 가용성 SLA 99.{b2}% 유지",
        ],
        "projects": [
            "이상거래 탐지 모델",
            "모바일 앱 리뉴얼",
            "로그 수집 파이프라인",
            "CI/CD 표준화",
        ],
        "skills": [
            "Python 3.11",
            "FastAPI",
            "PostgreSQL 16",
            "Kafka 3.6",
            "Airflow 2.8",
            "PyTorch 2.2",
            "Terraform 1.7",
            "Swift 5.9",
            "React 18.2",
            "TypeScript 5.3",
        ],
        "schools": [
            ("부경대학교", "정보통신공학과"),
            ("충남대학교", "컴퓨터융합학부"),
            ("숭실대학교", "글로벌미디어학부"),
        ],
        "certs": [
            "SQLD ({y}.{mm}.{dd} 취득)",
            "OPIc IH ({y}.{mm})",
            "리눅스마스터 2급 취득 ({y}.{mm})",
        ],
    },
}

HEADINGS = {
    "career": ("경력", "경력사항", "Experience"),
    "projects": ("프로젝트", "주요 프로젝트"),
    "skills": ("기술 스택", "보유 기술", "Skills"),
    "education": ("학력", "학력사항"),
    "certs": ("자격증", "자격 및 어학"),
}
HEADING_STYLES = ("[{}]", "■ {}", "< {} >", "{}")
TITLES = ("이력서", "이 력 서", "입사지원서", "RESUME", "이력서 (Resume)")
LABELS = {
    "name": ("이름", "성명", "Name"),
    "phone": ("연락처", "전화번호", "휴대폰", "Phone", "Mobile"),
    "landline": ("자택", "Tel"),
    "email": ("이메일", "E-mail", "Email"),
    "rrn": ("주민등록번호",),
    "birth_date": ("생년월일", "Birth", "Date of Birth"),
    "address": ("주소", "거주지", "Address"),
    "url_code": ("GitHub", "포트폴리오", "Portfolio"),
    "url_blog": ("블로그", "Blog"),
    "url_site": ("포트폴리오", "Portfolio", "홈페이지"),
}


# ---------------------------------------------------------------------------------------------
# Data model


@dataclass
class HardPage:
    """One generated page: its gold (`page`), the bytes to upload and how it was made."""

    id: str
    split: str
    index: int
    font: str
    layout: str
    photo: str  # none | texture | face
    degradations: list[str]  # [] for a clean page
    dpi: int
    font_px: int
    page: Page
    file_bytes: bytes
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def family(self) -> str:
        return "+".join(self.degradations) or "clean"

    @property
    def text_pii(self) -> list[PiiItem]:
        return [p for p in self.page.pii if p.type != "face"]

    @property
    def faces(self) -> list[PiiItem]:
        return [p for p in self.page.pii if p.type == "face"]


Box = tuple[int, int, int, int]


def _rng(*parts: object) -> random.Random:
    return random.Random("documents-hard/" + "/".join(str(p) for p in parts))


def _seed(*parts: object) -> int:
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def _dealt(family: str, factor: str, index: int, options: Sequence[str]) -> str:
    """Values of a factor dealt in shuffled blocks: each appears once per len(options) pages."""
    block, pos = divmod(index, len(options))
    order = list(options)
    _rng(family, factor, block).shuffle(order)
    return order[pos]


# ---------------------------------------------------------------------------------------------
# Values


def _person(pool: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.12:
        surname = rng.choice(pool["compound_surnames"])
        given = rng.choice(pool["given"])
    else:
        surname = rng.choice(pool["surnames"])
        given = rng.choice(pool["given1"] if rng.random() < 0.15 else pool["given"])
    lo, hi = pool["birth_years"]
    year, month, day = rng.randint(lo, hi), rng.randint(1, 12), rng.randint(1, 28)
    return {
        "name": surname[0] + given[0],
        "sur": surname[1],
        "given": given[1],
        "year": year,
        "month": month,
        "day": day,
    }


def _mobile(pool: dict[str, Any], rng: random.Random) -> str:
    mid = rng.randint(*pool["mobile_mid"])
    last = rng.randint(1000, 9999)
    form = rng.randrange(6)
    return [
        f"010-{mid}-{last}",
        f"010.{mid}.{last}",
        f"010 {mid} {last}",
        f"010{mid}{last}",
        f"+82 10-{mid}-{last}",
        f"+82-10-{mid}-{last}",
    ][form]


def _landline(pool: dict[str, Any], rng: random.Random) -> str:
    area, digits = rng.choice(pool["landline"])
    lo, hi = pool["landline_exchange"]
    exchange = rng.randint(lo, hi) if digits == 3 else rng.randint(lo * 10, hi * 10 + 9)
    return f"{area}-{exchange}-{rng.randint(1000, 9999)}"


def _email(pool: dict[str, Any], person: dict[str, Any], rng: random.Random) -> str:
    g, s, yy = person["given"], person["sur"], person["year"] % 100
    local = rng.choice(
        [
            f"{g}.{s}",
            f"{s}_{g}",
            f"{g[0]}{s}{yy:02d}",
            f"{s}.{g}{rng.randint(1, 99)}",
            f"{g}_{s}.dev",
            f"{s}{g}{yy:02d}",
        ]
    )
    return f"{local}@{rng.choice(pool['domains'])}"


def _url(person: dict[str, Any], rng: random.Random, kind: str) -> str:
    g, s = person["given"], person["sur"]
    handle = rng.choice([f"{g}{s}", f"{s}-{g}", f"{g}{person['year'] % 100:02d}", f"{s}{g}"])
    plain = handle.replace("-", "")
    if kind == "code":
        return rng.choice([f"https://github.com/{handle}", f"github.com/{handle}"])
    if kind == "blog":
        return rng.choice(
            [f"velog.io/@{plain}", f"{plain}.tistory.com", f"https://velog.io/@{plain}"]
        )
    return f"www.{plain}.me"


def _address(pool: dict[str, Any], rng: random.Random) -> str:
    sido_forms, sigungu, road, dong, english = rng.choice(pool["roads"])
    number = rng.randint(3, 420)
    if rng.random() < 0.25:
        return f"{number} {english}"
    parts = [rng.choice(sido_forms), sigungu, road, str(number)]
    text = " ".join(p for p in parts if p)
    roll = rng.random()
    if roll < 0.3:
        text += f", {rng.randint(101, 115)}동 {rng.randint(1, 25)}{rng.randint(1, 9):02d}호"
    elif roll < 0.45:
        text += f" ({dong})"
    return text


def _birth(person: dict[str, Any], rng: random.Random) -> str:
    y, m, d = person["year"], person["month"], person["day"]
    return rng.choice(
        [
            f"{y}.{m:02d}.{d:02d}",
            f"{y}-{m:02d}-{d:02d}",
            f"{y}년 {m}월 {d}일",
            f"{y % 100:02d}.{m:02d}.{d:02d}",
        ]
    )


def _rrn(person: dict[str, Any], rng: random.Random, masked: bool) -> str:
    front = f"{person['year'] % 100:02d}{person['month']:02d}{person['day']:02d}"
    gender = rng.choice((1, 2)) if person["year"] < 2000 else rng.choice((3, 4))
    if masked:
        return f"{front}-{gender}******"
    return rrn_with_checksum(front, f"{gender}{rng.randint(0, 99999):05d}")


# Each field: (gold type, label, value factory). Factories draw again when a value must be
# replaced because it does not fit its column.
Field = tuple[str, str, Callable[[], str]]


def _fields(
    pool: dict[str, Any], person: dict[str, Any], rng: random.Random, bare_name: bool, rrn: str
) -> list[Field]:
    fields: list[Field] = []
    if not bare_name:
        fields.append(("name", rng.choice(LABELS["name"]), lambda: person["name"]))
    if rng.random() < 0.6:
        fields.append(("birth_date", rng.choice(LABELS["birth_date"]), lambda: _birth(person, rng)))
    if rrn != "none":
        fields.append(("rrn", LABELS["rrn"][0], lambda: _rrn(person, rng, rrn == "masked")))
    if rng.random() < 0.85:
        main_phone = lambda: _mobile(pool, rng)  # noqa: E731
    else:
        main_phone = lambda: _landline(pool, rng)  # noqa: E731
    fields.append(("phone", rng.choice(LABELS["phone"]), main_phone))
    if rng.random() < 0.2:
        fields.append(("phone", rng.choice(LABELS["landline"]), lambda: _landline(pool, rng)))
    fields.append(("email", rng.choice(LABELS["email"]), lambda: _email(pool, person, rng)))
    if rng.random() < 0.85:
        fields.append(("address", rng.choice(LABELS["address"]), lambda: _address(pool, rng)))
    if rng.random() < 0.6:
        kinds = ["code", "blog", "site"]
        rng.shuffle(kinds)
        for kind in kinds[: 2 if rng.random() < 0.15 else 1]:
            label = rng.choice(LABELS[f"url_{kind}"])
            fields.append(("url", label, lambda kind=kind: _url(person, rng, kind)))
    return fields


def _body(pool: dict[str, Any], rng: random.Random) -> dict[str, list[str]]:
    """Section name -> lines (heading first). No PII, only look-alikes (see the spec)."""
    style = rng.choice(HEADING_STYLES)

    def heading(key: str) -> str:
        return style.format(rng.choice(HEADINGS[key]))

    def fill(template: str) -> str:
        return template.format(
            p=rng.randint(12, 68),
            q=rng.randint(8, 45),
            a=rng.randint(180, 900),
            b=rng.randint(40, 150),
            a2=rng.randint(12, 48),
            b2=rng.randint(2, 9),
            n=rng.randint(2, 95) * 10,
            k=rng.randint(1, 9),
            m=rng.randint(1, 9),
            c=rng.randint(2, 9),
            v=rng.choice(["2.7", "3.1", "3.2"]),
        )

    def period(start: int) -> str:
        end = start + rng.randint(1, 3)
        m1, m2 = rng.randint(1, 12), rng.randint(1, 12)
        return rng.choice(
            [
                f"{start}.{m1:02d} ~ {end}.{m2:02d}",
                f"{start}년 {m1}월 ~ 현재",
                f"{start}-{m1:02d} ~ {end}-{m2:02d}",
                f"{start}.{m1:02d} - 현재",
            ]
        )

    career = [heading("career")]
    companies = rng.sample(pool["companies"], 2)
    for i, company in enumerate(companies):
        role = rng.choice(pool["roles"])
        when = period(2016 + 3 * i + rng.randint(0, 2))
        career.append(rng.choice([f"{company} {role} {when}", f"{company} | {role} | {when}"]))
        for template in rng.sample(pool["achievements"], rng.randint(1, 2)):
            career.append("- " + fill(template))
    projects = [heading("projects")]
    for name in rng.sample(pool["projects"], 2):
        projects.append(f"{name} ({rng.randint(2019, 2025)}.{rng.randint(1, 12):02d})")
    skills = [heading("skills"), ", ".join(rng.sample(pool["skills"], rng.randint(4, 6)))]
    school, major = rng.choice(pool["schools"])
    grad = rng.randint(2012, 2024)
    education = [
        heading("education"),
        f"{school} {major} 졸업 ({grad}.02)",
        f"학점 3.{rng.randint(10, 99)} / 4.5",
    ]
    certs = [heading("certs")]
    for template in rng.sample(pool["certs"], 2):
        certs.append(
            template.format(
                y=rng.randint(2015, 2024),
                mm=f"{rng.randint(1, 12):02d}",
                dd=f"{rng.randint(1, 28):02d}",
                t=rng.randint(700, 985),
            )
        )
    return {
        "career": career,
        "projects": projects,
        "skills": skills,
        "education": education,
        "certs": certs,
    }


# ---------------------------------------------------------------------------------------------
# Drawing


class _Canvas:
    def __init__(self, width: int, height: int, text_font: str, bold_font: str, px: int) -> None:
        self.image = Image.new("RGB", (width, height), "white")
        self.draw = ImageDraw.Draw(self.image)
        self.px = px
        self.text = ImageFont.truetype(str(FONT_DIR / text_font), px)
        self.bold = ImageFont.truetype(str(FONT_DIR / bold_font), px)
        self.title = ImageFont.truetype(str(FONT_DIR / bold_font), round(px * 1.7))
        self.lines: list[Line] = []
        self.pii: list[PiiItem] = []

    def width_of(self, text: str, font: ImageFont.FreeTypeFont | None = None) -> float:
        return self.draw.textlength(text, font=font or self.text)

    def put(self, x: float, baseline: float, text: str, font: ImageFont.FreeTypeFont, ink) -> Box:
        self.draw.text((x, baseline), text, font=font, fill=ink, anchor="ls")
        x1, y1, x2, y2 = self.draw.textbbox((x, baseline), text, font=font, anchor="ls")
        return (math.floor(x1), math.floor(y1), math.ceil(x2), math.ceil(y2))

    def wrap(self, text: str, width: float) -> list[str]:
        """Word-wrap to `width`, never inside a period ("2019.03 ~ 2021.12"), an arrow
        ("40분 → 6분") or a certificate's "(date 취득)"."""
        glued = text
        for joint in (" ~ ", " → ", " - ", " 취득)"):
            glued = glued.replace(joint, joint.replace(" ", "\0"))
        out: list[str] = []
        current = ""
        for word in (w.replace("\0", " ") for w in glued.split(" ")):
            trial = f"{current} {word}" if current else word
            if current and self.width_of(trial) > width:
                out.append(current)
                current = word
            else:
                current = trial
        return [*out, current] if current else out


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _texture(rng: random.Random, size: tuple[int, int]) -> Image.Image:
    w, h = size
    gen = np.random.default_rng(rng.randrange(2**32))
    base = gen.integers(70, 210, size=(h // 4 + 1, w // 4 + 1), dtype=np.uint8)
    block = Image.fromarray(base, "L").resize((w, h), Image.Resampling.BICUBIC)
    block = block.filter(ImageFilter.GaussianBlur(2))
    tint = rng.choice([(1.0, 0.95, 0.9), (0.9, 0.95, 1.0), (1.0, 1.0, 1.0)])
    arr = np.asarray(block.convert("RGB"), dtype=np.float32) * np.array(tint, dtype=np.float32)
    return Image.fromarray(arr.clip(0, 255).astype(np.uint8), "RGB")


def _face(rng: random.Random, size: tuple[int, int], path: Path) -> tuple[Image.Image, Box]:
    w, h = size
    photo = Image.open(path).convert("RGB").crop(FACE_CROP).resize((w, h), Image.Resampling.LANCZOS)
    sx, sy = w / (FACE_CROP[2] - FACE_CROP[0]), h / (FACE_CROP[3] - FACE_CROP[1])
    x1, y1, x2, y2 = FACE_BOX_IN_CROP
    box = (x1 * sx, y1 * sy, x2 * sx, y2 * sy)
    if rng.random() < 0.4:
        photo = photo.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        box = (w - box[2], box[1], w - box[0], box[3])
    if rng.random() < 0.4:
        photo = photo.convert("L").convert("RGB")
    return photo, (math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3]))


def _layout_page(
    pool: dict[str, Any], rng: random.Random, px: int, **options: Any
) -> tuple[_Canvas, dict[str, Any]]:
    """Draw the page; retries with a smaller font when a value cannot fit its column."""
    state = rng.getstate()
    while True:
        rng.setstate(state)
        drawn = _try_layout(pool, rng, px=px, **options)
        if drawn is not None:
            return drawn
        px -= 1
        if px < 10:
            raise RuntimeError("page does not fit")


def _try_layout(
    pool: dict[str, Any],
    rng: random.Random,
    *,
    layout: str,
    photo: str,
    font: str,
    dpi: int,
    px: int,
    rrn: str,
) -> tuple[_Canvas, dict[str, Any]] | None:
    width, height = round(A4_INCHES[0] * dpi), round(A4_INCHES[1] * dpi)
    text_face, bold_face = FONTS[font]
    c = _Canvas(width, height, text_face, bold_face, px)
    ink = rng.choice([(0, 0, 0), (20, 20, 20), (40, 40, 45)])
    label_ink = (25, 45, 110) if rng.random() < 0.2 else ink
    label_font = c.bold if rng.random() < 0.33 else c.text
    info: dict[str, Any] = {"px": px}
    margin = round(0.75 * dpi)
    gap = round(px * rng.uniform(1.55, 1.9))
    right = width - margin

    # photo at the top right
    photo_box: Box | None = None
    if photo != "none":
        pw = round(1.18 * dpi * rng.uniform(0.9, 1.2))
        ph = round(pw * 4 / 3)
        photo_box = (right - pw, margin, right, margin + ph)
        face_path = face_photo_path()
        if photo == "face" and face_path is not None:
            img, (fx1, fy1, fx2, fy2) = _face(rng, (pw, ph), face_path)
            c.image.paste(img, photo_box[:2])
            px0, py0 = photo_box[:2]
            c.pii.append(PiiItem("face", "", (px0 + fx1, py0 + fy1, px0 + fx2, py0 + fy2)))
        else:
            c.image.paste(_texture(rng, (pw, ph)), photo_box[:2])
        if rng.random() < 0.5:
            c.draw.rectangle(photo_box, outline=(90, 90, 90), width=1)
    text_right = (photo_box[0] - round(0.3 * dpi)) if photo_box else right

    # header: title, then (on some pages) the bare name
    person = _person(pool, rng)
    bare_name = rng.random() < 0.3
    y = margin + c.title.size
    title = rng.choice(TITLES)
    c.lines.append(Line(title, c.put(margin, y, title, c.title, ink)))
    y += round(c.title.size * 0.9)
    if bare_name:
        y += gap
        box = c.put(margin, y, person["name"], c.bold, ink)
        c.lines.append(Line(person["name"], box))
        c.pii.append(PiiItem("name", person["name"], box))
    y += round(gap * 1.3)

    fields = _fields(pool, person, rng, bare_name, rrn)
    body = _body(pool, rng)
    sep = rng.choice([": ", ": ", " : "])

    def value_fits(label: str, make: Callable[[], str], room: float) -> str | None:
        for _ in range(30):
            value = make()
            if c.width_of(label + sep, label_font) + c.width_of(value) <= room:
                return value
        return None

    if layout == "twocol":
        col_w = round((right - margin) * 0.55)
        col2_x = margin + col_w + round(0.25 * dpi)
        if rng.random() < 0.5:
            rule_x = margin + col_w + round(0.12 * dpi)
            c.draw.line((rule_x, y - px, rule_x, height - margin), fill=(120, 120, 120), width=1)
        left_y = y
        for kind, label, make in fields:
            value = value_fits(label, make, col_w - px * 0.5)
            if value is None:
                return None
            _inline_field(c, margin, left_y, label, sep, value, kind, label_font, label_ink, ink)
            left_y += gap
        left_y += gap // 2
        for text in body["skills"]:
            for piece in c.wrap(text, col_w - px):
                c.lines.append(Line(piece, c.put(margin, left_y, piece, c.text, ink)))
                left_y += gap
        ry = max(y, (photo_box[3] + gap * 2) if photo_box else y)
        for key in ("career", "projects", "education", "certs"):
            for text in body[key]:
                for piece in c.wrap(text, right - col2_x):
                    if ry > height - margin:
                        break
                    c.lines.append(Line(piece, c.put(col2_x, ry, piece, c.text, ink)))
                    ry += gap
            ry += gap // 2
        if left_y > height - margin:
            return None
    else:
        room = text_right - margin
        if layout == "inline":
            for kind, label, make in fields:
                value = value_fits(label, make, room)
                if value is None:
                    return None
                _inline_field(c, margin, y, label, sep, value, kind, label_font, label_ink, ink)
                y += gap
        else:
            cell_w = max(c.width_of(label, label_font) for _, label, _ in fields) + px * 1.4
            value_x = margin + cell_w
            row_h = round(px * rng.uniform(1.9, 2.3))
            rule = rng.choice([1, 1, 2])
            top = y - round(px * 1.3)
            rows: list[tuple[str, str, str]] = []
            for kind, label, make in fields:
                value = None
                for _ in range(30):
                    candidate = make()
                    if c.width_of(candidate) <= room - cell_w - px * 1.2:
                        value = candidate
                        break
                if value is None:
                    return None
                rows.append((kind, label, value))
            for i, (kind, label, value) in enumerate(rows):
                row_top = top + i * row_h
                base = row_top + round(row_h / 2 + px * 0.38)
                lb = c.put(margin + px * 0.6, base, label, label_font, label_ink)
                vb = c.put(value_x + px * 0.6, base, value, c.text, ink)
                c.lines.append(Line(f"{label} {value}", _union(lb, vb)))
                c.pii.append(PiiItem(kind, value, vb))
            bottom = top + len(rows) * row_h
            grey = (60, 60, 60)
            for i in range(len(rows) + 1):
                ry = top + i * row_h
                c.draw.line((margin, ry, text_right, ry), fill=grey, width=rule)
            for x in (margin, value_x, text_right):
                c.draw.line((x, top, x, bottom), fill=grey, width=rule)
            y = bottom + gap + px
        y = max(y, (photo_box[3] + gap) if photo_box else y) + gap // 2
        for key in ("career", "projects", "skills", "education", "certs"):
            for text in body[key]:
                for piece in c.wrap(text, right - margin):
                    if y > height - margin:
                        break
                    c.lines.append(Line(piece, c.put(margin, y, piece, c.text, ink)))
                    y += gap
            y += gap // 2
    info.update(title=title, bare_name=bare_name, sep=sep.strip())
    return c, info


def _inline_field(
    c: _Canvas,
    x: int,
    y: int,
    label: str,
    sep: str,
    value: str,
    kind: str,
    label_font: ImageFont.FreeTypeFont,
    label_ink: tuple[int, int, int],
    ink: tuple[int, int, int],
) -> None:
    """A `label: value` line at baseline y; the value's box is its gold."""
    prefix = label + sep
    lb = c.put(x, y, prefix, label_font, label_ink)
    vx = x + c.width_of(prefix, label_font)
    vb = c.put(vx, y, value, c.text, ink)
    c.lines.append(Line(prefix + value, _union(lb, vb)))
    c.pii.append(PiiItem(kind, value, vb))


# ---------------------------------------------------------------------------------------------
# Degradations


def _homography_warp(page: Page, matrix: np.ndarray) -> Page:
    """Warp the image by a 3x3 matrix; every box becomes the bounding box of its moved corners."""
    w, h = page.image.size
    arr = cv2.warpPerspective(
        np.asarray(page.image),
        matrix,
        (w, h),
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(255, 255, 255),
    )

    def move(box: Box) -> Box:
        x1, y1, x2, y2 = box
        corners = np.array([[[x1, y1], [x2, y1], [x1, y2], [x2, y2]]], dtype=np.float64)
        pts = cv2.perspectiveTransform(corners, matrix)[0]
        return (
            max(0, math.floor(pts[:, 0].min())),
            max(0, math.floor(pts[:, 1].min())),
            min(w, math.ceil(pts[:, 0].max())),
            min(h, math.ceil(pts[:, 1].max())),
        )

    return Page(
        Image.fromarray(arr, "RGB"),
        [Line(ln.text, move(ln.box)) for ln in page.lines],
        [PiiItem(p.type, p.text, move(p.box)) for p in page.pii],
    )


def _skew(page: Page, degrees: float) -> Page:
    w, h = page.image.size
    matrix = np.vstack([cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0), [0, 0, 1]])
    return _homography_warp(page, matrix)


def _perspective(page: Page, rng: random.Random, strength: float) -> Page:
    w, h = page.image.size
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], dtype=np.float32)
    reach = strength * w
    dst = src + np.array(
        [[rng.uniform(-reach, reach), rng.uniform(-reach, reach)] for _ in range(4)],
        dtype=np.float32,
    )
    return _homography_warp(page, cv2.getPerspectiveTransform(src, dst))


def _pixels(page: Page, arr: np.ndarray) -> Page:
    image = Image.fromarray(arr.clip(0, 255).astype(np.uint8), "RGB")
    return Page(image, page.lines, page.pii)


def _shadow(page: Page, rng: random.Random, depth: float, kind: str) -> Page:
    w, h = page.image.size
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "gradient":
        angle = rng.uniform(0, 2 * math.pi)
        proj = xs * math.cos(angle) + ys * math.sin(angle)
        t = (proj - proj.min()) / (proj.max() - proj.min())
        light = 1.0 - depth * t**1.5
    else:  # vignette around an off-centre point
        cx, cy = w * rng.uniform(0.35, 0.65), h * rng.uniform(0.35, 0.65)
        r = np.hypot((xs - cx) / w, (ys - cy) / h)
        light = 1.0 - depth * (r / r.max()) ** 2
    arr = np.asarray(page.image, dtype=np.float32) * light[..., None]
    return _pixels(page, arr)


def _speckle(page: Page, rng: random.Random, count: int, grain: float) -> Page:
    gen = np.random.default_rng(rng.randrange(2**32))
    w, h = page.image.size
    arr = np.asarray(page.image, dtype=np.float32)
    arr = arr * (1.0 + gen.normal(0.0, grain, (h, w, 1)).astype(np.float32))
    out = _pixels(page, arr)
    draw = ImageDraw.Draw(out.image)
    for _ in range(count):
        x, y = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.6, 2.2)
        v = rng.randint(0, 110)
        draw.ellipse((x - r, y - r * rng.uniform(0.6, 1.4), x + r, y + r), fill=(v, v, v))
    return out


def _salt_pepper(page: Page, rng: random.Random, share: float) -> Page:
    gen = np.random.default_rng(rng.randrange(2**32))
    arr = np.asarray(page.image).copy()
    roll = gen.random(arr.shape[:2])
    arr[roll < share / 2] = 0
    arr[(roll >= share / 2) & (roll < share)] = 255
    return Page(Image.fromarray(arr, "RGB"), page.lines, page.pii)


def _gaussian(page: Page, rng: random.Random, sigma: float) -> Page:
    gen = np.random.default_rng(rng.randrange(2**32))
    w, h = page.image.size
    noise = gen.normal(0.0, sigma, (h, w, 1)).astype(np.float32)
    return _pixels(page, np.asarray(page.image, dtype=np.float32) + noise)


def _jpeg(page: Page, quality: int) -> tuple[Page, bytes]:
    buf = io.BytesIO()
    page.image.save(buf, "JPEG", quality=quality)
    data = buf.getvalue()
    return Page(Image.open(io.BytesIO(data)).convert("RGB"), page.lines, page.pii), data


def _png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, "PNG")
    return buf.getvalue()


# ---------------------------------------------------------------------------------------------
# Pages


def generate(split: str, index: int) -> HardPage:
    """Page `index` of `split` ("dev" or "test"), the same every time."""
    size, family = SPLITS[split]
    if not 0 <= index < size:
        raise IndexError(f"{split} has {size} pages")
    pool = POOLS[family]
    seed = family if split in FAMILY_SEEDED else f"{family}/{split}"
    rng = _rng(seed, "page", index)
    slot = _dealt(seed, "degradation", index, DEGRADATION_SLOTS)
    if slot == "combo":
        degradations = list(rng.choice(COMBOS))
    elif slot == "clean":
        degradations = []
    else:
        degradations = [slot]
    font = _dealt(seed, "font", index, tuple(FONTS))
    layout = _dealt(seed, "layout", index, LAYOUTS)
    photo = _dealt(seed, "photo", index, PHOTOS)
    if photo == "face" and face_photo_path() is None:
        photo = "none"  # faces unmeasured without matplotlib

    params: dict[str, Any] = {}
    if "lowres" in degradations:
        dpi = rng.choice([100, 110, 120, 135, 150])
        pt = rng.choice([9.0, 9.5, 10.0, 10.5, 11.0])
    else:
        dpi = rng.choice([150, 150, 200])
        pt = float(rng.choice([10, 11, 12, 13, 14]))
    px = round(pt * dpi / 72)
    rrn = _dealt(seed, "rrn", index, ("full", "masked", "none", "none", "none"))
    canvas, info = _layout_page(
        pool, rng, px, layout=layout, photo=photo, font=font, dpi=dpi, rrn=rrn
    )
    params.update(pt=pt, **info)
    page = Page(canvas.image, canvas.lines, canvas.pii)

    tokens: list[str] = []
    for effect in EFFECT_ORDER:
        if effect not in degradations:
            continue
        if effect == "skew":
            degrees = rng.uniform(0.5, 3.0) * rng.choice((-1, 1))
            page = _skew(page, degrees)
            params["skew_deg"] = round(degrees, 2)
            tokens.append(f"skew{degrees:+.1f}")
        elif effect == "perspective":
            strength = rng.uniform(0.01, 0.03)
            page = _perspective(page, rng, strength)
            params["perspective"] = round(strength, 3)
            tokens.append(f"persp{round(strength * 100)}")
        elif effect == "shadow":
            depth, kind = rng.uniform(0.25, 0.5), rng.choice(("gradient", "vignette"))
            page = _shadow(page, rng, depth, kind)
            params.update(shadow_depth=round(depth, 2), shadow_kind=kind)
            tokens.append(f"{kind}{round(depth * 100)}")
        elif effect == "blur":
            radius = rng.uniform(0.6, 1.2)
            page = Page(page.image.filter(ImageFilter.GaussianBlur(radius)), page.lines, page.pii)
            params["blur_radius"] = round(radius, 2)
            tokens.append(f"blur{radius:.1f}")
        elif effect == "speckle":
            count, grain = rng.randint(400, 1600), rng.uniform(0.06, 0.15)
            page = _speckle(page, rng, count, grain)
            params.update(specks=count, grain=round(grain, 3))
            tokens.append(f"speckle{count}")
        elif effect == "saltpepper":
            share = rng.uniform(0.005, 0.025)
            page = _salt_pepper(page, rng, share)
            params["saltpepper"] = round(share, 4)
            tokens.append(f"sp{share * 100:.1f}")
        elif effect == "gaussian":
            sigma = rng.uniform(10, 28)
            page = _gaussian(page, rng, sigma)
            params["gauss_sigma"] = round(sigma, 1)
            tokens.append(f"gauss{round(sigma)}")
    if "lowres" in degradations:
        tokens.insert(0, f"lowres{dpi}")
    if "jpeg" in degradations:
        quality = rng.randint(15, 50)
        page, data = _jpeg(page, quality)
        params["jpeg_quality"] = quality
        tokens.append(f"jpeg{quality}")
    else:
        data = _png(page.image)
    photo_token = {"none": [], "texture": ["photo"], "face": ["face"]}[photo]
    page_id = "-".join([split, f"{index:02d}", font, layout, *photo_token, *(tokens or ["clean"])])
    return HardPage(
        id=page_id,
        split=split,
        index=index,
        font=font,
        layout=layout,
        photo=photo,
        degradations=degradations,
        dpi=dpi,
        font_px=params["px"],
        page=page,
        file_bytes=data,
        params=params,
    )


def pages(split: str, limit: int | None = None) -> Iterator[HardPage]:
    """The split's pages in order (the first `limit` of them), drawn one at a time."""
    size = SPLITS[split][0]
    for i in range(size if limit is None else min(limit, size)):
        yield generate(split, i)


def gold_record(hp: HardPage) -> str:
    """A page's id and gold (texts and boxes) as canonical JSON."""
    gold = {
        "id": hp.id,
        "lines": [(ln.text, list(ln.box)) for ln in hp.page.lines],
        "pii": [(p.type, p.text, list(p.box)) for p in hp.page.pii],
    }
    return json.dumps(gold, ensure_ascii=False, sort_keys=True)


def gold_digest(records: Iterable[str]) -> str:
    """A hash over pages' `gold_record`s: equal digests, equal gold."""
    h = hashlib.sha256()
    for record in records:
        h.update(record.encode())
    return h.hexdigest()


def draw_gold(hp: HardPage) -> Image.Image:
    """The page with its gold drawn on: lines in blue, text PII in red, faces in green."""
    image = hp.page.image.copy()
    draw = ImageDraw.Draw(image)
    for line in hp.page.lines:
        draw.rectangle(line.box, outline=(60, 120, 255), width=1)
    for item in hp.page.pii:
        colour = (0, 190, 0) if item.type == "face" else (230, 0, 0)
        draw.rectangle(item.box, outline=colour, width=2)
        draw.text((item.box[0], max(0, item.box[1] - 12)), item.type, fill=colour)
    return image


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=sorted(SPLITS), default="dev")
    parser.add_argument("--index", type=int)
    parser.add_argument("--show", help="write the page with its gold boxes to this PNG")
    parser.add_argument("--list", action="store_true", help="list page ids and gold types")
    args = parser.parse_args(argv)
    if args.list:
        records = []
        for hp in pages(args.split):
            kinds = ",".join(p.type for p in hp.page.pii)
            print(f"{hp.id}  {hp.dpi}dpi {hp.font_px}px  {kinds}")
            records.append(gold_record(hp))
        print(f"{len(records)} pages, gold sha256 {gold_digest(records)}")
    if args.index is not None:
        hp = generate(args.split, args.index)
        print(hp.id, json.dumps(hp.params, ensure_ascii=False))
        if args.show:
            draw_gold(hp).save(args.show)


if __name__ == "__main__":
    main()
