"""The chat answer cache (issue #15): an answer is reused only for the same prompt inputs.

The key holds the message, the retrieved context, the room's window and summary and the
date (the prompt carries today's date). Every test counts the fake model's calls.
"""

from __future__ import annotations

import pytest

from nodes.chat import steps
from nodes.chat.router import keyword_route
from tests.unit.test_chat import NOW, chat, echo

QUESTION = "면접 준비는 어떻게 하면 좋을까?"
# Routed "general" by rule (how to prepare), so no router call enters the counts.
OPENERS = ("코딩테스트 준비는 어떤 순서로 하면 좋아?", "알고리즘 공부는 뭘 먼저 하면 좋아?")


def answer_calls(fake, question: str = QUESTION) -> list:
    """The answer-prompt calls about `question` (the text under "## 질문")."""
    return [
        c
        for c in fake.calls
        if "## 질문" in c[-1].text and question in c[-1].text.split("## 질문")[-1]
    ]


def test_the_messages_take_the_general_route_by_rule():
    assert {keyword_route(m) for m in (QUESTION, *OPENERS)} == {"general"}


async def test_the_same_question_after_different_histories_is_answered_twice(
    use_fake_model, client
):
    fake = use_fake_model(echo)
    await chat(client, OPENERS[0], room="a")
    await chat(client, OPENERS[1], room="b")
    await chat(client, QUESTION, room="a")
    await chat(client, QUESTION, room="b")
    calls = answer_calls(fake)
    assert len(calls) == 2  # room b's history differs: room a's answer is not reused
    assert OPENERS[0] in calls[0][-1].text and OPENERS[1] in calls[1][-1].text


async def test_the_same_room_state_is_answered_from_the_cache(use_fake_model, client):
    """Two rooms with the same conversation so far: the second room's turns are hits."""
    fake = use_fake_model(echo)
    first = [await chat(client, m, room="a") for m in (OPENERS[0], QUESTION)]
    made = len(fake.calls)
    assert made == 2
    second = [await chat(client, m, room="b") for m in (OPENERS[0], QUESTION)]
    assert len(fake.calls) == made  # same message, same window, same date: no model call
    assert [o["answer"] for o in second] == [o["answer"] for o in first]


def _state(summary: list[str], now: str = NOW) -> dict:
    window = [{"user": f"질문 {n}", "assistant": f"답 {n}", "route": "general"} for n in range(5)]
    return {
        "user_id": "u1",
        "route": "general",
        "message": QUESTION,
        "history": window,
        "summary_lines": summary,
        "context": "",
        "now": now,
    }


async def test_the_summary_of_older_turns_is_part_of_the_key(use_fake_model):
    fake = use_fake_model(echo)
    older = ["- (general) 연봉 협상 팁 알려줘 -> 답변"]
    first = await steps.write_answer(_state(older), {})
    again = await steps.write_answer(_state(list(older)), {})
    assert (first["answer_cached"], again["answer_cached"]) == (False, True)
    assert len(fake.calls) == 1
    other = await steps.write_answer(_state(["- (rag) 내 이력서 요약해줘 -> 답변"]), {})
    assert other["answer_cached"] is False and len(fake.calls) == 2


@pytest.mark.parametrize(
    ("later", "new_call"),
    [
        ("2026-11-30T10:00:00+09:00", True),  # the next day: "이번 주 안에" means other days
        ("2026-11-29T18:30:00+09:00", False),  # later the same day: the same prompt
        ("2026-11-29T16:00:00+00:00", True),  # 01:00 on the 30th in Seoul
    ],
)
async def test_a_new_date_is_a_new_answer(use_fake_model, client, later, new_call):
    fake = use_fake_model(echo)
    question = "이번 주 안에 면접 준비를 어떻게 하면 좋을까?"
    for room, now in (("first", NOW), ("later", later)):  # two new rooms: no history
        body = {"user_id": "u1", "room_id": room, "message": question, "now": now}
        r = await client.post("/ai/chat/invoke", json={"input": body})
        assert r.status_code == 200, r.text
    calls = answer_calls(fake, question)
    assert len(calls) == (2 if new_call else 1)
    assert "오늘 날짜는 2026-11-29 (일)입니다" in calls[0][0].text
    if new_call:
        assert "오늘 날짜는 2026-11-30 (월)입니다" in calls[1][0].text


async def test_an_interview_report_is_not_reused_for_other_questions(use_fake_model, client):
    """The other answer cache keyed too narrowly: the interview report was keyed on the
    session and its (question id, answer) pairs only. A session id that starts over (its
    checkpoint expired) with other documents and the same answer got the old report, with
    the old questions in it."""
    from core.services import get_services
    from tests.unit.test_interview import START, STRONG, anchored_question, answer, turn

    fake = use_fake_model(anchored_question, interview_prefetch=False)

    async def report() -> dict:
        body = {"input": {"user_id": "u1", "session_id": "s1"}}
        r = await client.post("/ai/interview/report/invoke", json=body)
        assert r.status_code == 200, r.text
        return r.json()["output"]

    # personality: the first question is about the resume's first project
    start = {**START, "interview_type": "personality"}
    first_question = (await turn(client, **start))["question"]
    await answer(client, STRONG)
    old = await report()
    await get_services().checkpointer.adelete_thread("interview:u1:s1")
    other = "[프로젝트]\n- 실시간 채팅 서버 개발 (Go, Kafka)\n[기술 스택]\nGo, Kafka, PostgreSQL\n"
    second_question = (await turn(client, **{**start, "resume_text": other}))["question"]
    assert second_question != first_question
    await answer(client, STRONG)
    calls = len(fake.calls)
    new = await report()
    assert new["cached"] is False and len(fake.calls) == calls + 1
    assert [e["question"] for e in new["evaluations"]] == [second_question]
    assert [e["question"] for e in old["evaluations"]] == [first_question]
    assert (await report())["cached"] is True  # the same session state again: a hit
