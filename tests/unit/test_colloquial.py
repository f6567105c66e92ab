"""Chat spellings read in their standard form (text/colloquial.py), and words that only
look like them left alone."""

from __future__ import annotations

import pytest

from text.colloquial import standard_spelling, without_opening_acknowledgement


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
        ("내일정오에 면접", "내일정오에 면접"),
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


@pytest.mark.parametrize(
    ("typed", "read"),
    [
        ("ㅇㅋ 그날 뭐 있나 봐줘", "그날 뭐 있나 봐줘"),
        ("ok add lunch with Mina tomorrow", "add lunch with Mina tomorrow"),
        ("Great, please add a reminder", "please add a reminder"),
        ("넵 그걸로 해주세요", "그걸로 해주세요"),
        # the whole message, or a word that only starts like one, stays
        ("ㅇㅋ", "ㅇㅋ"),
        ("감사합니다!", "감사합니다!"),
        ("네이버 면접 언제지", "네이버 면접 언제지"),
        ("okr 정리 일정 추가", "okr 정리 일정 추가"),
        # content words that only look like an acknowledgement (review, session 29)
        ("감사 일정 추가해줘", "감사 일정 추가해줘"),
        ("좋아 보이는 공고 있어?", "좋아 보이는 공고 있어?"),
    ],
)
def test_an_opening_acknowledgement_is_not_the_request(typed, read):
    assert without_opening_acknowledgement(typed) == read
