"""One name in two scripts (text/romanize.py): a Latin brand and its Hangul spelling."""

from __future__ import annotations

import pytest

from text.romanize import romanized, same_name, skeleton


def test_hangul_is_romanised_letter_by_letter() -> None:
    assert romanized("한글") == "hangeul"
    assert romanized("쿠팡 2027") == "kupang 2027"


@pytest.mark.parametrize(
    ("latin", "hangul"),
    [
        ("Coupang", "쿠팡"),
        ("Starbucks", "스타벅스"),
        ("NAVER", "네이버"),
        ("Kurly", "컬리"),
        ("Samsung", "삼성"),
        ("Lumen Mobility", "루멘모빌리티"),
        ("Toss", "토스"),
    ],
)
def test_a_brand_and_its_hangul_spelling_are_one_name(latin: str, hangul: str) -> None:
    assert same_name(latin, hangul)


@pytest.mark.parametrize(
    ("latin", "hangul"),
    [("Toss", "카카오"), ("Coupang", "컬리"), ("Lumen", "라인"), ("A", "아")],
)
def test_different_names_or_too_little_to_tell_are_not(latin: str, hangul: str) -> None:
    assert not same_name(latin, hangul)


def test_the_skeleton_drops_vowels_and_joins_sounds_two_alphabets_share() -> None:
    assert skeleton("Philips") == skeleton("필립스")
    assert skeleton("cinema") == skeleton("시네마")
