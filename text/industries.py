"""Industries a requirement asks for ("금융/핀테크 도메인 경험", "이커머스 또는 리테일 도메인",
"Payments, fintech, or other financial domain experience") and the industries a resume's
work entries are in, read from how the entries describe their companies and work ("㈜페이링크
(간편결제 PG)", "스타일픽 (여성 패션 플랫폼)").

One table of industries with the words that name them in Korean and English; a resume is in
an industry when one of its work entries uses one of its words. Judged by the work entries
only: a cover letter wishing to join a fintech is not fintech experience.
"""

from __future__ import annotations

import re

from text.careers import CareerEntry

INDUSTRIES: dict[str, tuple[str, ...]] = {
    "finance": (
        "금융",
        "핀테크",
        "fintech",
        "은행",
        "bank",
        "증권",
        "보험",
        "insur",
        "카드사",
        "결제",
        "payment",
        "간편결제",
        "송금",
        "remit",
        "저축은행",
        "자산운용",
        "대출",
        "lending",
        "financial",
        "캐피탈",
        "PG",
    ),
    "commerce": (
        "커머스",
        "commerce",
        "쇼핑",
        "shopping",
        "리테일",
        "retail",
        "유통",
        "마켓",
        "마트",
        "D2C",
        "몰",
        "marketplace",
    ),
    "fashion_beauty": ("패션", "fashion", "뷰티", "beauty", "코스메틱", "cosmetic", "화장품"),
    "logistics": (
        "물류",
        "logistics",
        "풀필먼트",
        "fulfillment",
        "배송",
        "택배",
        "운송",
        "WMS",
        "창고",
        "3PL",
    ),
    "manufacturing": (
        "제조",
        "manufactur",
        "공장",
        "생산",
        "플랜트",
        "산업재",
        "장비",
        "부품",
        "factory",
    ),
    "semiconductor": ("반도체", "semiconductor", "디스플레이", "display", "FAB"),
    "healthcare": (
        "의료",
        "헬스케어",
        "healthcare",
        "health",
        "병원",
        "hospital",
        "의원",
        "clinic",
        "환자",
        "patient",
    ),
    "bio_pharma": ("바이오", "bio", "제약", "pharma", "의약품"),
    "education": ("교육", "에듀테크", "edtech", "학원", "education", "러닝"),
    "game": ("게임", "game"),
    "media": (
        "미디어",
        "media",
        "콘텐츠",
        "content",
        "엔터테인먼트",
        "entertainment",
        "방송",
        "음악",
        "music",
        "스트리밍",
        "streaming",
        "출판",
        "구독",
        "subscription",
    ),
    "saas": ("SaaS", "B2B 솔루션", "B2B 소프트웨어"),
    "construction": ("건설", "construction", "EPC", "시공", "엔지니어링"),
    "hr_tech": ("HR tech", "HR테크", "workforce", "인력 관리", "인력관리", "채용 플랫폼"),
    "listed": ("상장", "코스닥", "코스피", "KOSPI", "KOSDAQ", "IPO"),
}
_PATTERNS = {
    name: re.compile(
        "|".join(
            rf"(?<![A-Za-z]){re.escape(w)}(?![a-z])" if w.isascii() else re.escape(w) for w in words
        ),
        re.IGNORECASE,
    )
    for name, words in INDUSTRIES.items()
}
# Words of a domain requirement that are not the domain ("도메인", "업계", "경험").
_DOMAIN_WORDS = re.compile(
    r"도메인|업계|업종|산업|분야|기업|회사|서비스|근무|경험자?|경력자?|우대|domain|industry|"
    r"experience|background|businesses?|companies|or\s+other|other",
    re.IGNORECASE,
)


def industries(text: str) -> set[str]:
    """The industries a text names."""
    return {name for name, pattern in _PATTERNS.items() if pattern.search(text)}


def industry_words(text: str) -> str:
    """The text without the industry and domain words it uses (what else it asks)."""
    for pattern in _PATTERNS.values():
        text = pattern.sub(" ", text)
    return _DOMAIN_WORDS.sub(" ", text)


def resume_industries(entries: list[CareerEntry]) -> set[str]:
    """The industries the resume's work entries are in."""
    return set().union(*(industries(e.text) for e in entries))
