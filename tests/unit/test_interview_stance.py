"""An answer's stance towards its question (nodes/interview/stance.py): answering it,
saying it cannot, or turning to another topic; and what the rubric and the follow-up make
of each. The real Korean analyser, no model."""

from __future__ import annotations

import pytest

from nodes.interview.answers import decide_followup, score_answer
from nodes.interview.plan import FOLLOWUP_TEMPLATES, fill
from nodes.interview.stance import read_stance

WEAKNESS = "본인의 약점은 무엇이라고 생각하시나요?"
CONFLICT = "동료와 갈등이 있었던 경험과 그때 어떻게 해결했는지 말씀해 주세요."
PROBES = "readiness probe와 liveness probe의 차이를 설명해 주실 수 있나요?"
FACTS: dict = {"skills": [], "experiences": [], "required": []}


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        (PROBES, "음… 그 부분은 제가 직접 해 본 적이 없어서 잘 모르겠습니다. 죄송합니다."),
        (PROBES, "쿠버네티스는 아직 써 본 적이 없습니다. 공부해 보겠습니다."),
        (WEAKNESS, "그건… 말씀드리기가 좀 곤란하네요. 개인적인 부분이라서요."),
        (CONFLICT, "갈등이요… 저는 그런 적이 한 번도 없어서 딱히 말씀드릴 게 없을 것 같아요."),
        (CONFLICT, "글쎄요, 기억이 잘 안 나는데요. 아마 별일 없었던 것 같습니다."),
        (
            "서비스 메시를 도입할 때의 비용은?",
            "Istio는 안 써봤습니다. 다음 질문 주시면 답하겠습니다.",
        ),
        (
            CONFLICT,
            "음… 그 부분은 좀 말씀드리기가 조심스러워서요. 다른 질문으로 넘어가 주실 수 있을까요?",
        ),
        (
            PROBES,
            "프로브는… 들어는 봤는데 정확히 설명드리기는 어려울 것 같습니다. 공부해 오겠습니다.",
        ),
        (WEAKNESS, "음, 그건 여기서 따로 말씀드리지 않는 게 좋을 것 같습니다. 죄송합니다."),
        (
            "우리 시의 현안 중 관심 있게 본 것은?",
            "현안은… 솔직히 준비하느라 시정 소식은 자세히는 못 봤습니다.",
        ),
    ],
)
def test_an_answer_that_says_it_cannot_answer(question, answer):
    assert read_stance(question, answer).kind == "cannot"


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        # admits a gap, then gives a real account
        (
            PROBES,
            "쿠버네티스는 직접 써 본 적은 없지만, Docker Compose로 서비스 다섯 개를 배포하면서 "
            "헬스체크가 실패하면 트래픽을 끊고 재시작하도록 설정해 봤습니다. readiness는 트래픽을 "
            "받을 준비, liveness는 살아 있는지를 보는 걸로 이해하고 있습니다.",
        ),
        # turns to "what matters most", and the conflict comes back
        (
            CONFLICT,
            "갈등이요… 일정 때문에 디자이너와 의견이 갈린 적이 있는데, 제일 중요한 건 서로의 "
            "제약을 이해하는 거라고 생각해서 갈등의 원인을 표로 정리해 같이 봤습니다.",
        ),
        # an opening that answers, then a gap admitted in one clause
        (
            "재고자산 평가는 어떤 기준으로 하셨나요?",
            "재고는 저가법으로 평가하고요… 순실현가능가치가 장부가보다 낮으면 평가손실을 "
            "잡습니다. 장기 재고는 일괄로 몇 퍼센트 잡았던 것 같은데 정확한 기준은 기억이 안 "
            "납니다.",
        ),
        # vague, in other words than the question's, but about it (and not about oneself)
        (
            "운송비를 절감하려면 어떤 방법이 있을까요?",
            "운송비는… 택배사와 단가 협상을 잘 하면 줄일 수 있을 것 같습니다. 그리고 합포장을 "
            "늘리면 좋겠습니다.",
        ),
        # "instead" late in an account is part of it
        (
            CONFLICT,
            "일정 때문에 디자이너와 의견이 갈렸어요. 저는 일정을 지키자고 했고 그분은 완성도를 "
            "지키자고 했는데, 둘이 화면을 하나씩 다시 보면서 우선순위를 정했습니다. 대신 다음 "
            "스프린트에 개선 작업을 넣기로 했습니다.",
        ),
        # a guess that ends like a question is no question to the interviewer
        (
            "두 사람이 동시에 배포하면 어떻게 되나요?",
            "음… 아마 나중에 올린 쪽이 앞의 걸 덮어쓰지 않을까요? 그래서 저희는 배포 전에 "
            "채널에 먼저 알리고 한 명씩 했습니다.",
        ),
        # asks whether it understood the question, then answers it at length
        (
            CONFLICT,
            "갈등이라고 하면 업무상 의견 차이를 말씀하시는 건지 궁금하긴 한데요. 작년에 "
            "기획자와 출시 범위로 부딪혔을 때 제가 기능별 공수를 표로 정리해서 보여 드렸습니다. "
            "그 표를 같이 보고 두 기능을 다음 버전으로 미루기로 합의했습니다.",
        ),
        # no opening echo, a turn marker, and a measured result
        (
            "데이터로 의사결정을 바꾼 경험이 있나요?",
            "쿠폰 정책 때 가장 중요하게 생각한 건 재구매율이었는데요, 코호트로 보니 쿠폰 고객의 "
            "재구매율이 8%에서 15%로 올랐습니다.",
        ),
    ],
)
def test_an_answer_that_answers(question, answer):
    assert read_stance(question, answer).kind == "answers"


@pytest.mark.parametrize(
    ("question", "answer", "topic"),
    [
        (
            WEAKNESS,
            "약점이요… 글쎄요, 그보다는 제가 잘하는 걸 말씀드리면 일정 관리를 꼼꼼하게 하는 "
            "편입니다.",
            "약점",
        ),
        (
            CONFLICT,
            "갈등이요… 저는 팀워크에서 제일 중요한 건 배려라고 생각합니다. 그래서 항상 먼저 "
            "인사하고 웃으면서 대합니다.",
            "갈등",
        ),
        (
            "고객에게 거절당했을 때 마음은 어떻게 관리하시나요?",
            "거절당하는 건… 음, 제가 영업에서 가장 중요하게 생각하는 게 제품 공부라서 매일 아침 "
            "30분씩 업데이트 노트를 읽습니다.",
            "거절",
        ),
        # the topic comes back before the turn, never after it
        (
            "침해사고가 의심될 때 초기 대응 절차는 어떻게 되나요?",
            "침해사고요… 다행히 저희는 큰 사고가 없었습니다. 대신 저는 평소에 보안 뉴스를 "
            "챙겨 보는데 공급망 보안이 중요하다고 느꼈습니다.",
            "사고",
        ),
        # no opening echo: a reframing at once, and the failure never comes back
        (
            "업무하면서 가장 크게 실패했던 경험을 말씀해 주세요.",
            "저는 실패라기보다는 모든 일을 배움의 기회로 보는 편입니다. 어떤 어려움이 있어도 "
            "포기하지 않는 것이 제 강점입니다.",
            "업무",
        ),
        # what the candidate is sure of instead, at once
        (
            "인증 심사에 대응해 본 경험이 있으세요?",
            "인증은 직접 해 본 적은 없는데요, 대신 저는 클라우드 자격증이 있어서 인프라 "
            "구성은 자신 있습니다. 자격증 준비하면서 네트워크부터 트러블슈팅까지 다 "
            "공부했습니다.",
            "인증",
        ),
        # asks the interviewer about the job's terms instead of answering
        (
            "야간 근무가 많은데 체력 관리는 어떻게 하세요?",
            "아 혹시 야간 근무 수당은 따로 나오는지 여쭤봐도 될까요? 공고에는 회사 내규라고만 "
            "돼 있어서요.",
            "야간",
        ),
        (
            CONFLICT,
            "음 저는 근무지가 판교인지 궁금했는데요. 그리고 재택은 주 몇 회 가능한지도 "
            "알고 싶습니다.",
            "동료",
        ),
        # an opening that points at the question, then the candidate's own story
        (
            "장애가 났을 때 원인은 어떤 순서로 찾으시나요?",
            "그 부분은… 사실 제가 지금 회사에서는 운영을 거의 안 맡아서요, 요즘은 사이드 "
            "프로젝트로 게임을 만들고 있습니다.",
            "장애",
        ),
        # a stalling opening bought time; the turn comes right after it (session 28)
        (
            "재고 실사에서 차이가 크게 나면 원인을 어떻게 찾으시겠어요?",
            "음, 좋은 질문이라고 생각합니다. 저는 사실 어떤 절차로 찾느냐보다도 평소에 현장 "
            "분들과 신뢰를 쌓는 게 훨씬 더 중요하다고 생각합니다. 결국 사람이 하는 일이니까요.",
            "재고",
        ),
        # no turn word: the answer goes on about the candidate, the question never again
        (
            "동료 교사와 갈등이 있었던 경험이 있나요?",
            "갈등은… 아, 저는 사실 수업 연구를 정말 좋아해서요, 요즘 새 교구로 함수 수업을 "
            "준비하고 있는데 학생들 반응이 좋아요.",
            "갈등",
        ),
    ],
)
def test_an_answer_that_turns_to_another_topic(question, answer, topic):
    stance = read_stance(question, answer)
    assert stance.kind == "evades"
    assert topic in stance.topic


@pytest.mark.parametrize(
    ("question", "answer", "evades"),
    [
        # session 29: asked one thing, answered with why the candidate wants the job
        (
            "야간 응급 상황에서 당직 의사와 연락이 안 되면 어떻게 하시겠어요?",
            "네, 저는 한울병원이 지역에서 정말 좋은 회사라고 생각합니다. 특히 간호사 교육이 "
            "잘 돼 있다는 얘기를 듣고 매력을 느꼈고요, 기회를 주신다면 성실하게 배우면서 "
            "빨리 적응하겠습니다.",
            True,
        ),
        # … or with what the candidate is studying
        (
            "재고 차이가 반복될 때 원인을 어떻게 찾으시겠어요?",
            "네, 그것도 중요하죠. 그런데 요즘 제가 물류관리사 자격증을 준비하고 있는데요, "
            "공부하면서 SCM 전체 흐름에 관심이 많이 생겼습니다.",
            True,
        ),
        # the same words when the question asks for motivation: an answer
        (
            "저희 병원에 지원하신 동기가 무엇인가요?",
            "저는 한울병원이 지역에서 좋은 회사라고 생각하고, 교육 체계에 매력을 느꼈습니다. "
            "기회를 주신다면 성실하게 배우겠습니다.",
            False,
        ),
        # a technical "why" (이유) is no motivation question (session 30 review)
        (
            "Redis를 캐시로 선택한 이유는 무엇인가요?",
            "네, 저는 이 회사가 정말 좋은 회사라고 생각합니다. 기술 블로그를 보고 매력을 "
            "느꼈고요, 기회를 주신다면 성실하게 배우면서 빨리 적응하겠습니다.",
            True,
        ),
        # why this job is a motivation question (review of session 30)
        (
            "이 직무를 선택한 이유가 무엇인가요?",
            "데이터를 좋아해서 분석을 시작했습니다. 회사라고 하면 배우면서 성장할 수 있는 곳이 "
            "좋고, 기회를 주신다면 입사해서 열심히 하겠습니다.",
            False,
        ),
        # studying named in an answer that stays on the question
        (
            "재고 차이가 반복될 때 원인을 어떻게 찾으시겠어요?",
            "먼저 재고 차이가 난 품목을 입고, 출고, 반품 이력으로 나눠 봅니다. 물류관리사 "
            "자격증 공부하면서 배운 대로 재고 회전율도 같이 보고, 차이가 반복되는 로케이션을 "
            "찾아 실사 주기를 줄였습니다.",
            False,
        ),
    ],
)
def test_an_answer_that_turns_to_motivation_or_studies(question, answer, evades):
    assert (read_stance(question, answer).kind == "evades") is evades


def test_the_rubric_scores_cannot_and_evades_as_no_answer_and_says_which():
    said = "음… 쿠버네티스는 아직 실무에서 써 보지 못해서요. 그 차이는 잘 모르겠습니다. 죄송해요."
    assert len(said) > 40  # longer than the short "I don't know" the length rule catches
    cannot = score_answer(PROBES, PROBES, said, "technical", FACTS)
    assert cannot.score == 8 and cannot.signals == ["non_answer"]
    evades = score_answer(
        "웹 접근성은 실무에서 어떻게 고려하고 계신가요?",
        "웹 접근성",
        "아 접근성이요… 저는 개발할 때 제일 중요한 게 사용자 경험이라고 생각하거든요. 그래서 "
        "팀원들이랑 소통을 많이 하려고 노력했습니다.",
        "technical",
        FACTS,
    )
    assert evades.signals == ["off_topic"] and evades.score == 8
    assert "웹 접근성에 대한 것이었는데" in evades.improvements[0]


def test_a_turn_away_is_followed_by_the_question_once_and_cannot_by_nothing():
    question = "채용한 직원이 입사 직후 퇴사하는 일이 반복된다면 무엇부터 하시겠어요?"
    main = [{"question": question, "anchor": "조기 퇴사", "category": "situation"}]
    away = (
        "조기 퇴사요… 음, 제가 생각하기에 HR에서 제일 중요한 건 공정성인 것 같아요. 평가든 "
        "보상이든 공정하지 않으면 신뢰를 안 하니까요."
    )
    follow = decide_followup(away, main, "personality", FACTS, 2)
    assert follow == {"kind": "redirect", "anchor": "입사 직후 퇴사"}
    asked = fill(FOLLOWUP_TEMPLATES["redirect"][0], anchor=follow["anchor"])
    assert "입사 직후 퇴사" in asked and "공정성" not in asked
    again = [*main, {**main[0], "followup_kind": "redirect"}]
    assert decide_followup(away, again, "personality", FACTS, 2) is None
    cannot = "음… 솔직히 그런 상황은 겪어 본 적이 없어서 잘 모르겠습니다."
    assert decide_followup(cannot, main, "personality", FACTS, 2) is None


def test_guesses_hearsay_and_handed_off_work_are_hedges():
    from nodes.interview.stance import hedges

    found = hedges(
        "모듈화는 팀 리드분이 주로 하셨는데요, 빌드가 좀 빨라졌다고 들었습니다. 아마 세 개로 "
        "나눴던 것 같아요."
    )
    assert sorted(found) == sorted(["분이 주로 하셨", "다고 들었", "아마", "것 같"])
    # a failure laid on others, and taking back what was just said
    assert len(hedges("개발팀이 공유를 안 해 줘서 몰랐어요. 아 아니다, 알았는데 늦었어요.")) == 2
    assert hedges("캐시 키를 사용자별로 나눠 적중률을 60%에서 92%로 올렸습니다.") == []


def test_a_hedged_answer_scores_below_the_same_account_told_firmly():
    question = "신규 센터에 WMS를 도입한 경험이 있으신가요?"
    firm = (
        "WMS 도입 때 현장 테스트를 맡아서 바코드 스캔 시나리오 40개를 만들고, 입고부터 출고까지 "
        "직접 검수했습니다."
    )
    hedged = (
        "WMS 도입은 IT팀이 했고요, 저는 현장 테스트를 도와드렸던 것 같아요. 바코드 스캔 "
        "시나리오도 아마 40개 정도 만들었다고 들었습니다."
    )
    sure = score_answer(question, "WMS", firm, "technical", FACTS)
    unsure = score_answer(question, "WMS", hedged, "technical", FACTS)
    assert unsure.hedging > 0 and sure.hedging == 0
    assert unsure.score < sure.score
    assert "hedged" in unsure.signals and "hedged" not in sure.signals


def test_noun_phrases_are_never_cut_words():
    from nodes.interview.answers import noun_phrases

    phrases = [
        p
        for p, _ in noun_phrases(
            "웹훅 처리 스레드풀이 꽉 찼고, 하루 출고 1만 5천 건을 처리하면서 스크롤할 때 버벅여서 "
            "Layout Inspector로 확인했습니다."
        )
    ]
    assert "스레드풀" in phrases and "레드풀" not in phrases  # the word, not its tail
    assert "하루 출고" in phrases and "하루 출고 1" not in phrases  # no number without its unit
    assert "Layout Inspector" in phrases  # a verb form the analyser did not know is no noun
    assert not any("버벅" in p for p in phrases)


@pytest.mark.parametrize(
    ("answer", "picked"),
    [
        # a code identifier over a description (a named skill still weighs more)
        (
            "화면 캡처는 FLAG_SECURE도 걸었고, 키 보관은 외부 저장 모듈을 썼습니다.",
            "FLAG_SECURE",
        ),
        # what the candidate did, not the team that did the rest
        ("도입은 DevOps 플랫폼팀이 주도했고, 저는 배포 검수를 맡았습니다.", "배포 검수"),
        # not what was left undone
        ("전문 용어를 안 쓰고, 결론은 막대그래프로 보여 줍니다.", "막대그래프"),
    ],
)
def test_the_followup_picks_up_what_the_candidate_did(answer, picked):
    from nodes.interview.answers import salient_phrase

    assert salient_phrase(answer, "그 일을 어떻게 하셨나요?") == picked


def test_a_question_with_no_words_of_its_own_leaves_nothing_to_turn_from():
    # nothing to say the answer left: scored as an answer, never an empty topic
    answer = "대신 저는 무엇이든 열심히 하는 사람입니다. 정말 끝까지 해냅니다."
    assert read_stance("", answer).kind == "answers"
    rubric = score_answer("", "", answer, "personality", FACTS)
    assert "off_topic" not in rubric.signals
