"""Session 39: "all but X" said in English, and "the rest" after an earlier operation of
the same message (the rest is not the item that operation acted on)."""

from __future__ import annotations

import pytest

from nodes.chat.router import all_but, split_operations
from tests.unit.test_chat import chat
from tests.unit.test_chat_focus import seed, titles

pytestmark = pytest.mark.usefixtures("fresh_schedules")

# NOW is Sunday 2026-11-29; the seed: 네이버 1차 면접 Fri 12-04 15:00, 코딩 스터디 Tue 12-01
# 19:00, 카카오 면접 Thu 12-10 14:00.
SEEDED = {
    "네이버 1차 면접": ("2026-12-04", "15:00"),
    "코딩 스터디": ("2026-12-01", "19:00"),
    "카카오 면접": ("2026-12-10", "14:00"),
}


def _but(*kept: str) -> dict[str, tuple[str, str]]:
    return {k: v for k, v in SEEDED.items() if k in kept}


async def _left() -> dict[str, tuple[str, str | None]]:
    return {t: (i["date"], i.get("time")) for t, i in (await titles()).items()}


@pytest.mark.parametrize(
    ("turns", "expected"),
    [
        # the one spared stays; before, each of these deleted exactly the one spared
        (["remove everything except the Kakao interview"], _but("카카오 면접")),
        (["Cancel all of them but Naver pls"], _but("네이버 1차 면접")),
        (["apart from the study, delete everything"], _but("코딩 스터디")),
        (["keep just the naver interview and cancel the rest"], _but("네이버 1차 면접")),
        # by its place in the listing just shown
        (["show my schedule", "delete all except the last one"], _but("카카오 면접")),
        # nothing is done when the one spared is not there
        (["delete everything except the Toss interview"], SEEDED),
    ],
)
async def test_english_all_but_deletes(stand_in, client, turns, expected) -> None:
    await seed()
    for message in turns:
        await chat(client, message)
    assert await _left() == expected


async def test_english_all_but_moves_the_others(stand_in, client) -> None:
    """The new value after the words spared is the others' ("… back 30 minutes")."""
    await seed()
    await chat(client, "move every event other than the coding study back 30 minutes")
    assert await _left() == {
        "네이버 1차 면접": ("2026-12-04", "15:30"),
        "코딩 스터디": ("2026-12-01", "19:00"),
        "카카오 면접": ("2026-12-10", "14:30"),
    }


@pytest.mark.parametrize(
    ("message", "spared", "rest"),
    [
        ("delete all except the coding study", "the coding study", "delete"),
        ("reschedule everything but Kakao to friday", "Kakao", "reschedule to friday"),
        ("except for the Naver one, drop everything", "the Naver one", ", drop everything"),
    ],
)
def test_english_all_but_reads_the_words_spared(message, spared, rest) -> None:
    said = all_but(message)
    assert said is not None
    assert (said.spared, said.rest) == (spared, rest)


@pytest.mark.parametrize(
    "message",
    [
        "I finished everything but the study",  # said of the rest, no marker of a request
        "all good except the time",
        "delete the study and add a dentist appointment on friday",
    ],
)
def test_english_without_all_but(message) -> None:
    said = all_but(message)
    assert said is None or split_operations(message)[0][1] not in (
        "delete_schedule",
        "update_schedule",
    )


def test_keep_and_delete_the_rest_is_one_request() -> None:
    assert split_operations("leave the study as is and delete the rest") == [
        ("leave the study as is and delete the rest", "delete_schedule")
    ]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        # before: the rest was read before the delete, so the deleted item was "moved" too
        # and the answer ended in "찾지 못했어요"
        (
            "스터디는 취소하고 나머지 일정은 이틀씩 미뤄줘",
            {"네이버 1차 면접": ("2026-12-06", "15:00"), "카카오 면접": ("2026-12-12", "14:00")},
        ),
        # a change of one, then the rest deleted: the one changed stays
        (
            "카카오 면접은 4시로 바꾸고 남은 건 다 삭제해줘",
            {"카카오 면접": ("2026-12-10", "16:00")},
        ),
    ],
)
async def test_the_rest_after_an_earlier_operation(stand_in, client, message, expected) -> None:
    await seed()
    body = await chat(client, message)
    assert await _left() == expected
    assert "찾지 못" not in body["answer"]
