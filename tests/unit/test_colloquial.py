"""Chat spellings read in their standard form (text/colloquial.py), and words that only
look like them left alone."""

from __future__ import annotations

import pytest

from text.colloquial import standard_spelling


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("담주 머있지", "담주 뭐있지"),
        ("숫자 머임", "숫자 뭐임"),
        ("회사이름 머였지", "회사이름 뭐였지"),
        ("언어 머 쓸수있는지", "언어 뭐 쓸수있는지"),
        ("첫째꺼 목욜로", "첫째거 목욜로"),
        ("카카오꺼는 지워", "카카오거는 지워"),
        ("걍 빼도됨?", "그냥 빼도됨?"),
        ("암것도없네", "아무것도없네"),
        ("넘 피곤", "너무 피곤"),
        ("면접 내일정에서 2시간 뒤로", "면접 내 일정에서 2시간 뒤로"),
        ("내일정 다 보여줘", "내 일정 다 보여줘"),
        ("내일정리 해야지", "내일정리 해야지"),
        # words that only start like one
        ("머리 아파서 쉬어야겠다", "머리 아파서 쉬어야겠다"),
        ("머신러닝 스터디", "머신러닝 스터디"),
        ("서랍에서 꺼내줘", "서랍에서 꺼내줘"),
        ("다음으로 넘어가자", "다음으로 넘어가자"),
        ("걍스터디", "걍스터디"),
    ],
)
def test_chat_spellings_are_read_as_the_standard_words(typed, read):
    assert standard_spelling(typed) == read
