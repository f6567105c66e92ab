"""Document embedding (real embedded embeddings, real Chroma in a temp dir) and calendar
parsing (deterministic extraction; a scripted model for what is missing)."""

from __future__ import annotations

from datetime import date

import pytest

from core.services import get_services
from nodes.embed.chunking import chunk_text
from tests.conftest import POSTING, RESUME
from text.posting import find_title_company
from text.stages import find_stages

LONG_RESUME = (
    RESUME
    + "[프로젝트]\n"
    + "\n".join(
        f"- 프로젝트 {i}: 주문 시스템 {i}차 개선, 응답 시간 {i * 5}% 단축" for i in range(1, 40)
    )
)


def test_chunks_follow_sections_and_stay_within_size():
    chunks = chunk_text(LONG_RESUME, "resume", size=200, overlap=40)
    sections = [c.section for c in chunks]
    assert sections[:3] == ["개요", "자기소개", "기술 스택"] and "프로젝트" in sections
    assert all(len(c.text) <= 200 + 40 + 1 for c in chunks)
    project = [c.text for c in chunks if c.section == "프로젝트"]
    assert len(project) > 3
    assert project[0][-20:] in project[1]  # overlap carried into the next chunk


def test_identical_chunks_are_kept_once():
    assert len(chunk_text(RESUME * 3, "resume")) == len(chunk_text(RESUME, "resume"))


async def embed(client, **input_):
    r = await client.post("/ai/file/embed/invoke", json={"input": input_})
    assert r.status_code == 200, r.text
    return r.json()["output"]


async def test_embedding_replaces_by_doc_id_and_skips_unchanged_content(use_fake_model, client):
    use_fake_model()
    doc = {"user_id": "u1", "doc_id": "resume-1", "doc_type": "resume"}
    first = await embed(client, **doc, text=LONG_RESUME)
    assert first["replaced"] == 0 and first["chunks"] > 3
    same = await embed(client, **doc, text=LONG_RESUME)
    assert same == first  # unchanged content: nothing re-embedded, nothing replaced
    changed = await embed(client, **doc, text=RESUME)
    assert changed["replaced"] == first["chunks"] and changed["chunks"] < first["chunks"]
    vector = get_services().embeddings.embed_query("주문 시스템 개선")
    hits = await get_services().vectors.query("u1", vector, 10)
    assert {h.doc_id for h in hits} == {"resume-1"} and len(hits) == changed["chunks"]


async def test_one_users_search_never_returns_anothers_chunks(use_fake_model, client):
    use_fake_model()
    await embed(client, user_id="u1", doc_id="d1", doc_type="resume", text=RESUME)
    await embed(client, user_id="u2", doc_id="d1", doc_type="posting", text=POSTING)
    vector = get_services().embeddings.embed_query("Kafka Kubernetes 운영 경험")
    hits = await get_services().vectors.query("u1", vector, 10)
    assert hits and {h.doc_type for h in hits} == {"resume"}
    both = await get_services().vectors.query("u2", vector, 10)
    assert {h.doc_type for h in both} == {"posting"}


@pytest.mark.parametrize(
    ("input_", "field"),
    [
        ({"user_id": "u1", "doc_id": "d", "doc_type": "resume", "text": " "}, "text"),
        ({"user_id": "u1", "doc_id": "d", "doc_type": "photo", "text": "x"}, "doc_type"),
        ({"user_id": "u:1", "doc_id": "d", "doc_type": "resume", "text": "x"}, "user_id"),
    ],
)
async def test_bad_embed_input_is_422(use_fake_model, client, input_, field):
    use_fake_model()
    r = await client.post("/ai/file/embed/invoke", json={"input": input_})
    assert r.status_code == 422 and r.json()["error"]["field"] == field


NOW = date(2026, 3, 1)


def test_stages_dates_and_times_in_the_forms_postings_use():
    text = (
        "[카카오] 백엔드 개발자 채용\n서류 전형 → 코딩테스트 → 1차 면접\n■ 접수기간\n"
        "2026.03.02 ~ 2026.03.20 18:00\n- 코딩테스트: 3/28(토) 오후 2시\n- 1차 면접: 4월 첫째 주"
    )
    got = [(s.stage_type, s.date, s.time) for s in find_stages(text, NOW)]
    assert got == [
        ("DOCUMENT", date(2026, 3, 20), "18:00"),
        ("CODING_TEST", date(2026, 3, 28), "14:00"),
        ("INTERVIEW", None, None),  # a week is not a date: nothing is guessed
    ]


def test_year_less_dates_resolve_against_now():
    got = find_stages("서류 마감 1/10 23:59", date(2026, 12, 15))
    assert got[0].date == date(2027, 1, 10) and got[0].time == "23:59"


def test_written_and_aptitude_tests_and_english_deadlines_are_stages():
    got = find_stages(
        "Application deadline: 2026-03-20\n필기(코딩) 테스트: 3월 28일(토) 오후 2시\nGSAT 4월 4일",
        NOW,
    )
    assert [(s.stage_type, s.date.isoformat(), s.time) for s in got] == [
        ("DOCUMENT", "2026-03-20", None),
        ("CODING_TEST", "2026-03-28", "14:00"),
        ("OTHER", "2026-04-04", None),
    ]


def test_rolling_and_later_announced_stages_have_no_date():
    got = find_stages("상시 채용\n면접: 추후 안내", NOW)
    assert [(s.stage, s.date) for s in got] == [("상시 채용", None), ("면접", None)]


def test_title_company_heuristic_refuses_role_words():
    assert find_title_company("LINE Plus 2026 상반기 신입 개발자 공개채용")[0] == "LINE Plus"
    assert find_title_company("백엔드 개발자 채용") == (None, None)
    # "company | role" titles; a role on the left is not a company
    assert find_title_company("라이엇 게임즈 코리아 | 데이터 사이언티스트") == (
        "라이엇 게임즈 코리아",
        "데이터 사이언티스트",
    )
    assert find_title_company("백엔드 개발자 | 카카오") == (None, None)


def test_bracket_title_position_drops_the_hiring_round_words():
    from text.posting import find_position

    title = "【넥슨코리아】 2026 신입 게임 클라이언트 프로그래머 공개채용"
    assert find_position(title, []) == "게임 클라이언트 프로그래머"


async def test_model_answers_are_kept_only_when_the_text_says_them(use_fake_model, client):
    fake = use_fake_model(
        lambda m: '{"company": "우아한형제들", "position": "데이터 사이언티스트"}'
    )
    text = "우아한형제들에서 함께할 분\n서류 마감: 3/15 23:59"
    r = await client.post(
        "/ai/calendar/parse/invoke", json={"input": {"text": text, "now": "2026-03-01"}}
    )
    out = r.json()["output"]
    assert out["company"] == "우아한형제들"  # in the text
    assert out["position"] is None  # invented: dropped
    assert out["schedules"] == [
        {
            "stage": "서류 마감",
            "stage_type": "DOCUMENT",
            "date": "2026-03-15",
            "start_date": None,
            "time": "23:59",
        }
    ]
    assert len(fake.calls) == 1


async def test_a_posting_with_known_forms_needs_no_model(use_fake_model, client):
    fake = use_fake_model()
    r = await client.post(
        "/ai/calendar/parse/invoke", json={"input": {"text": POSTING, "now": "2026-11-01"}}
    )
    out = r.json()["output"]
    assert (out["company"], out["position"]) == ("카카오", "백엔드 개발자")
    assert out["schedules"][0]["date"] == "2026-12-15" and fake.calls == []
    assert "#카카오" in out["hashtags"]


def test_a_models_company_or_position_must_be_a_name_not_a_date_or_time():
    from nodes.calendar.steps import plausible

    for name in ("LG전자", "SW 개발", "백엔드 개발자", "LINE Plus"):
        assert plausible(name), name
    # the stand-in model once answered a deadline's time as the position
    for junk in ("17:00", "3.17", "오후 3시", "9시 면접", "2026", "-", "서류 접수"):
        assert not plausible(junk), junk
