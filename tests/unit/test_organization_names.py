"""The organisation a pasted posting names (text/organization.py with the header's
candidate, as the calendar reads it): a legal form's name however it reads, not its aside,
a requirement, a posting's tag, a trade's words or the place after a workplace label; and
a deadline told by taking applications ("…까지 문자로 지원")."""

from __future__ import annotations

from datetime import date

import pytest

from text.header import find_header
from text.organization import _mail_domains, normalise, rank, ranked
from text.stages import find_stages


def company(text: str) -> str | None:
    header = find_header(text)
    return None if header.company_absent else rank(text, header.company)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # a legal form names it even when Kiwi reads it as a sentence ("…온다")
        ("[채용] 주식회사 바람온다 데이터 엔지니어 (검색엔진)\n\n- 업무 : 검색 랭킹", "바람온다"),
        # the particle after a legal-form name is no part of it
        ("회사소개\n㈜한빛로직은 물류 소프트웨어를 만듭니다.\n담당업무: 백엔드 개발", "한빛로직"),
        # a legal form glued to the name after it belongs to that name
        ("디자인에이전시 (주)모노하우스 웹디자이너 채용\n\n주요업무 : 웹 디자인", "모노하우스"),
        # an aside in brackets is no part of the name
        ("새봄회계법인(새봄PwC) 2027 상반기 회계사 채용\n\n[지원자격]\n- 회계사", "새봄회계법인"),
        # a requirement between dots is no name
        ("샘플네트웍스\n백엔드 개발자\n경력 3년 이상 · 서울 마포구 · 정규직", "샘플네트웍스"),
        # the organisation naming itself in a sentence
        (
            "생산관리 담당 모집 - 자동차 부품 / 경기 평택\n\n저희 한결정밀은 1995년부터 완성차에 "
            "부품을 납품하고 있습니다.",
            "한결정밀",
        ),
        # a posting's own tag is no name
        ("[급구] 간호조무사 구합니다\n초록요양병원 (경기 부천시)\n- 근무 : 3교대", "초록요양병원"),
        # a trade's words ending like a company are no name; a branch is no part of it
        ("<한빛수학학원 대치본원> 고등부 강사 모집\n- 근무 : 주 5일, 4대보험", "한빛수학학원"),
        # named in the title, then after a workplace label with its branch
        ("그랜드호텔 프런트 직원 채용\n\n근무지 : 그랜드호텔 부산 (해운대구 중동)", "그랜드호텔"),
        # a research institute, not a researcher
        (
            "한국해양기술연구원 2026년도 연구직 채용공고\n1. 모집분야 : 해양 무선통신",
            "한국해양기술연구원",
        ),
        # session 28: a clinic's department, a store's branch, a mail's signature line
        (
            "[해솔이비인후과의원 원무과] 접수 직원 구인 안내\n\n안녕하세요 해솔이비인후과의원 "
            "원무과입니다.\n- 업무: 접수·수납\n- 면접: 3월 23일 오전 10시, 원무과 사무실",
            "해솔이비인후과의원",
        ),
        ("[우리동네치과] 치위생사 모집\n- 근무 : 주 5일", "우리동네치과"),
        (
            "알바몬 | 채용정보 > 매장관리·판매\n모아마트 (MOAMART) 역삼역점\n매장 스태프 모집 "
            "(주 5일 / 평일·주말조)\n[우대] 영어·일본어 가능자\n[전형] 서류 → 면접",
            "모아마트",
        ),
        (
            "제목: [과제 안내] 편집자 지원 건\n\n안녕하세요.\n다음 단계인 과제 전형을 "
            "안내드립니다.\n[과제 내용]\n- 원고의 윤문·교열 및 기획안 작성\n"
            "- 마감: 12월 21일 오전 9시\n\n김하늘 드림\n바른책방 | 기획2팀 팀장\n"
            "서울시 마포구 00로 12",
            "바른책방",
        ),
    ],
)
def test_the_organisation_a_posting_names(text, name):
    assert company(text) == name


def test_a_withheld_client_is_no_company():
    text = "[헤드헌팅] 국내 대형 제약사 (고객사명 비공개) - 영업기획 팀장\n\n- 서류 마감 : 12/3"
    assert find_header(text).company_absent
    assert _mail_domains(text) == set()
    assert company(text) not in ("forms", "bit")


@pytest.mark.parametrize(
    ("text", "when"),
    [
        ("약사 1명 구합니다.\n9/4(금)까지 문자로 지원해 주세요 (성함, 연락처)", date(2026, 9, 4)),
        ("📌 2월 6일 금요일까지 받아요\n📌 면접은 2월 11일", date(2026, 2, 6)),
        ("- 이번 주 금요일까지 이메일로 접수\n- 면접은 다음 주 월요일", date(2026, 3, 6)),
    ],
)
def test_a_date_followed_by_taking_applications_is_the_deadline(text, when):
    stages = find_stages(text, date(2026, 3, 4) if "이번 주" in text else date(2026, 1, 5))
    deadline = [s for s in stages if s.stage_type == "DOCUMENT"]
    assert [s.date for s in deadline] == [when]


def test_an_assignment_handed_in_by_a_date_is_no_application_deadline():
    text = "서류 마감은 8월 21일이며, 통과하신 분께는 8월 28일까지 제출하실 디자인 과제를 드립니다."
    stages = find_stages(text, date(2026, 8, 1))
    assert [(s.stage_type, s.date) for s in stages if s.date] == [
        ("DOCUMENT", date(2026, 8, 21)),
        ("OTHER", date(2026, 8, 28)),
    ]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # the place a sentence about hiring names with 에서, a coined compound or a common
        # word ("오브제"), a name of two words ending like an organisation
        (
            "📢 함께할 그래픽 디자이너를 찾습니다!\n\n브랜드 작업을 같이 해요. "
            "담백스튜디오에서 함께할 디자이너를 찾습니다.",
            "담백스튜디오",
        ),
        ("[구인] 테스터 구해요\n\n새벽곰 게임즈에서 QA를 함께할 분을 찾습니다!", "새벽곰 게임즈"),
        # a greeting that introduces the company, before a role, a team or alone
        (
            "안녕하세요 민지님,\n하늘정원 대표 이도윤입니다.\n보내주신 이력서 잘 봤습니다.",
            "하늘정원",
        ),
        (
            "안녕하세요 지훈님, 모아바이 People Experience팀 정하린입니다.\n"
            "다음 단계를 안내드립니다.",
            "모아바이",
        ),
        ("안녕하세요, 리빙 편집숍 노란창입니다 :)\n매장 매니저를 모십니다.", "노란창"),
        # the job board or the messenger it was pasted from, the speakers of a chat: no name
        (
            "로켓펀치  홈 · 채용 · 기업\n\n솔잎랩 마케팅팀 | 콘텐츠 마케터\n"
            "솔잎랩에서 함께 일할 분을 찾아요",
            "솔잎랩",
        ),
        (
            "[카카오톡 알림톡] 바닷길해운 채용팀\n[바닷길해운] 인적성검사 응시 안내\n안녕하세요.",
            "바닷길해운",
        ),
        (
            "수아: 야 나 내일 면접 봄\n수아: 다온물산 영업지원 자리\n나: 오 몇시?\n"
            "수아: 오전 11시\n다온물산 면접 일정 정리",
            "다온물산",
        ),
        # a legal form glued to the name before it is that name's, the site after it a site
        ("한결조선해양㈜ 통영조선소 경력사원 수시채용\n\n■ 모집분야\n - 선체 설계", "한결조선해양"),
        # one name in capitals and as a sentence writes it: the sentence's spelling
        (
            "LUMEN HARBOR — Careers\nLevel Designer\n\nLumen Harbor is an independent studio.",
            "Lumen Harbor",
        ),
        (
            "Hey all, quick hiring note from Tidelight (Series A, Seoul)\nWe're looking for a PM.",
            "Tidelight",
        ),
    ],
)
def test_the_organisation_a_hiring_sentence_or_a_greeting_names(text, name):
    assert company(text) == name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # who forwards a posting is not who offers it
        (
            "[○○대학교 커리어센터] 채용정보 공유\n━━━━━━━━\n한길물산 해외영업 신입사원 채용\n"
            "- 지원서 마감: 11/20(금) 18:00\n- 지원: 한길물산 채용 홈페이지",
            "한길물산",
        ),
        (
            "[개발자 취업동아리 공지방]\n채용 공유해요!\n\n㈜새솔테크 백엔드 신입 모집\n"
            "✔ 서류 마감 D-5\n✔ 면접 12/3(목) 예정",
            "새솔테크",
        ),
        # a legal form that leads the name stays in it
        (
            "특허법인 다온 특허사무원 채용\n\n- 업무: 출원 서류 관리\n서류 마감: 12월 4일 금요일",
            "특허법인 다온",
        ),
        # a person before the role: the organisation is what stands before the person
        (
            "안녕하세요, 디자인랩 하루 박서진 팀장입니다.\n포트폴리오 잘 봤습니다. 면접은 "
            "다음 주 화요일 오후 2시 어떠세요?",
            "디자인랩 하루",
        ),
    ],
)
def test_forwarders_leading_legal_forms_and_a_person_before_the_role(text, name):
    assert company(text) == name


def test_a_job_named_like_a_channel_keeps_its_company():
    text = "리브팟 커뮤니티 매니저 채용\n\n- 커뮤니티 운영 및 이벤트 기획\n서류 마감: 12월 10일(목)"
    assert company(text) == "리브팟"


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("서울밝은안과의원 원무과", "서울밝은안과의원"),  # a department after the name
        ("한빛병원 총무과", "한빛병원"),
        ("서울 밝은 치과", "서울 밝은 치과"),  # a clinic's kind, two syllables: the name's own
    ],
)
def test_a_department_after_the_name_is_no_part_of_it(value, name):
    assert normalise(value) == name


def test_a_branch_alone_and_nouns_listed_with_a_middle_dot_are_no_candidates():
    text = (
        "알바몬 | 채용정보 > 매장관리·판매\n올리브숲 (OLIVESOOP) 신촌역점\n매장 스태프 모집 "
        "(주 5일 / 오픈·마감조)\n[우대] 중국어·일본어 가능자\n[전형] 서류 → 면접"
    )
    names = [name for name, _, _ in ranked(text)]
    assert names[0] == "올리브숲"
    assert not {"신촌역점", "오픈·마감조", "중국어·일본어"} & set(names)


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # a store named with its branch, the branch last on its line
        (
            "알바천국\n[상시모집] 든든김밥 대전둔산점 주방보조 구해요\n"
            "든든김밥 대전둔산점 | 대전 서구\n"
            "급여 시급 10,800원\n면접은 전화 주시고 매장 방문해 주세요",
            "든든김밥",
        ),
        # a search firm's client, labelled as such
        (
            "제목: [포지션 제안] 물류센터 운영 매니저\n안녕하세요, 하이브리지 서치펌 박서연 "
            "컨설턴트입니다.\n■ 고객사: 한성로지텍 (3PL 전문)\n■ 포지션: 운영 매니저",
            "한성로지텍",
        ),
    ],
)
def test_a_branch_s_store_and_a_search_firm_s_client_are_the_employer(text, name):
    assert company(text) == name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # a job site's tag before the organisation is who carries the posting
        (
            "[사람인] 한국해양환경공단 2027년 상반기 사무보조 채용 공고\n"
            "□ 원서접수: 2027. 1. 4. ~ 1. 8.\n□ 면접: 1. 15.(금)",
            "한국해양환경공단",
        ),
        # a search firm's client named in a sentence, and the headhunter who writes
        (
            "안녕하세요, 서치원 헤드헌터 김도윤입니다.\n"
            "현재 진행 중인 고객사 세광정밀(코스피 상장)의 생산관리 과장 포지션을 제안드립니다.\n"
            "- 이력서 마감: 1/20(수)",
            "세광정밀",
        ),
        # a legal form that leads the name, its particle off; a team of it is no name
        (
            "법무법인 해온에서 송무팀 소속 사무원을 모집합니다.\n저희 송무팀은 민사 소송을 주로 "
            "맡고 있습니다.\n이력서는 1월 8일까지 보내주세요.",
            "법무법인 해온",
        ),
        # an English mail: its subject line names no company; "the Busan office of X" does
        (
            "Subject: Interview Invitation – Data Analyst\n\nDear Minho,\nThank you for "
            "applying to the Data Analyst role at the Busan office of Harbor Light Analytics. "
            "We would like to invite you to a video interview on Monday, January 11.",
            "Harbor Light Analytics",
        ),
        # the name as the text always writes it: a place before a public body, an
        # organisation's ending after a name
        (
            "새빛시 시설관리공단 공고 제2027-3호\n새빛시 시설관리공단에서 수영장 안전요원을 "
            "채용합니다.\n접수: 1. 11. ~ 1. 13.",
            "새빛시 시설관리공단",
        ),
        (
            "[단기] 행사 스태프 모집\n주최: (주)블루라인 엔터테인먼트\n지원: 12/10까지",
            "블루라인 엔터테인먼트",
        ),
    ],
)
def test_session_29_organisation_families(text, name):
    assert company(text) == name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # an adverb before the public body is no place ("반드시", "즉시": session 30 review)
        (
            "채용공고\n입사지원은 반드시 한국환경공단 홈페이지에서만 가능\n[자격요건] 학력 무관",
            "한국환경공단",
        ),
        (
            "채용공고\n지원서는 즉시 한국환경공단 홈페이지로 보내 주세요\n[자격요건] 학력 무관",
            "한국환경공단",
        ),
        # a place written once before it still is one
        (
            "2027 상반기 채용\n수원시 시설관리공단 채용 공고입니다.\n자격요건: 고졸",
            "수원시 시설관리공단",
        ),
    ],
)
def test_a_place_before_a_public_body_is_a_place(text, name):
    assert rank(text) == name


def test_a_name_ending_like_a_particle_keeps_it():
    from text.organization import _topic_or_object_off

    # 은/을 only after a closed syllable, 는/를 only after an open one
    assert [_topic_or_object_off(w) for w in ("다온은", "누리를", "가람을")] == [
        "다온",
        "누리",
        "가람",
    ]
    assert [_topic_or_object_off(w) for w in ("하지은", "하나은", "미르을")] == [
        "하지은",
        "하나은",
        "미르을",
    ]


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # a site's navigation names the site and its menus (session 30, calendar_xa_dev9)
        (
            "덴탈잡 > 구인공고 > 경기\n\n치과위생사 모집 (주5일)\n\n- 접수 마감: ~2/26(금)\n"
            "이력서는 덴탈잡 간편지원으로 보내주세요.\n\n"
            "미소드림치과 | 경기 성남시 분당구 | 대표원장 김○○",
            "미소드림치과",
        ),
        # a group's affiliate named in the text hires, not the group
        (
            "[동원그룹] 2027년 상반기 영양사 채용\n\n동원그룹 계열사 동원홈푸드에서 단체급식 "
            "사업장을 이끌어 갈 영양사를 모집합니다.\n◆ 접수: 12월 3일까지",
            "동원홈푸드",
        ),
        # a place the name already says is not written before it again
        (
            "부산광역시 부산시설공단 공고 제2027-3호\n\n2027년 제1회 공무직 채용 공고\n"
            "1. 채용분야: 주차관리원 5명",
            "부산시설공단",
        ),
    ],
)
def test_navigation_a_group_s_affiliate_and_a_place_the_name_says(text, name):
    assert company(text) == name


def test_a_word_after_a_group_s_affiliate_that_names_no_company_is_none():
    from text.organization import _affiliate

    assert _affiliate("한진그룹", "한진그룹 계열사 공개채용 안내") is None
    assert _affiliate("동원그룹", "동원그룹 계열사 동원홈푸드에서 모집") == "동원홈푸드"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # a job site's list of other postings names other employers (session 32,
        # calendar_xa_dev11); a name's Latin prefix stays ("Sh수협은행")
        (
            "Sh수협은행 ★ 관심기업\n\n2027년 상반기 Sh수협은행 신규직원 채용\n"
            "원서접수 3월 2일 ~ 3월 9일\n\n이 공고를 본 회원이 많이 본 공고 ▶ 하나은행 · 국민은행",
            "Sh수협은행",
        ),
        # a metropolitan city and a legal form before a foundation: where it is
        (
            "대구광역시 (재)달빛문화재단 2027년 제1회 직원 공개채용\n\n□ 접수: 3.2.(화) ~ 3.5.(금)",
            "달빛문화재단",
        ),
        # who speaks in a messenger's copy ("민지 오후 9:12") is a person
        (
            "[취준 스터디] 카카오톡 대화\n민지 오후 9:12\n다들 한빛케미칼 공정기술직 공고 봤어??\n"
            "민지 오후 9:13\n서류 12/8(화)까지래\n준호 오후 9:14\n헐 난 아직 안 씀",
            "한빛케미칼",
        ),
        # a hospital's department before the job title is not the employer
        (
            "한빛대학교병원 > 채용안내 > 채용공고\n[진단검사의학과] 임상병리사 채용 공고\n"
            "1. 모집분야: 진단검사의학과 임상병리사 0명\n2. 지원서 접수: 2027-02-15 ~ 2027-02-19",
            "한빛대학교병원",
        ),
        # an institution named after the body it belongs to keeps both words
        (
            "경기도의료원 안성병원 2027년 신규간호사 채용 공고\n□ 접수기간: 12. 14. ~ 12. 18.",
            "경기도의료원 안성병원",
        ),
        # a company's research site after its name is where, not who
        (
            "한빛화학 중앙기술원 | 제형연구 연구원 채용 (신입/경력)\n■ 서류 마감: 1월 31일(일)",
            "한빛화학",
        ),
        # a group's careers site posting for an affiliate its headline names
        (
            "다온그룹 채용 | 채용공고 계열사 소개 인재상\n\n다온마트 | 경력 | 상시\n"
            "2027 다온마트 경력사원 채용 - 수산 MD\n접수기간 2027.03.29 ~ 04.11",
            "다온마트",
        ),
        # the text says what the organisation is on the way ("…제조기업으로, …")
        (
            "식품 품질관리(QC) 담당자 모집\n- HACCP 기준서 관리 및 모니터링 기록 점검\n"
            "- 서류 마감: 5/14(금)\n\n[회사소개]\n"
            "다온푸드는 1995년 경기도 이천에서 시작한 소스 전문 제조기업으로, 외식 프랜차이즈에 "
            "제품을 공급하고 있습니다.",
            "다온푸드",
        ),
        # a job card's line: the organisation, then where
        (
            "Key Account Manager\nBrightline Korea | Seoul | Full-time\n\n"
            "Apply by February 14, 2027.",
            "Brightline Korea",
        ),
        # the company before its store and the store's section (a guard: the job card's
        # line above must not bring the store in)
        (
            "설 명절 단기 판매사원 모집\n하늘백화점 부산점 식품관 | 부산 해운대구\n"
            "모집마감 1월 15일(금)",
            "하늘백화점",
        ),
    ],
)
def test_session_32_organisation_families(text, name):
    assert company(text) == name


def test_a_department_is_never_a_candidate():
    text = (
        "한빛대학교병원 > 채용안내 > 채용공고\n[진단검사의학과] 임상병리사 채용 공고\n"
        "1. 모집분야: 진단검사의학과 임상병리사 0명\n2. 지원서 접수: 2027-02-15 ~ 2027-02-19"
    )
    assert "진단검사의학과" not in {name for name, _, _ in ranked(text, find_header(text).company)}


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # the kind of organisation, then a one-word name Kiwi reads as a verb ("오름")
        (
            "[디자인스튜디오 오름] BX 디자이너 채용 (경력 2~5년)\n\n"
            "브랜드의 시작부터 함께 고민하는 스튜디오, 오름입니다.\n\n"
            "진행 일정\n1. 서류+포트폴리오 접수 ~ 11.22(일) 23:59",
            "디자인스튜디오 오름",
        ),
        # nothing names it but the link it is at; a hashtag names a topic, never a company
        (
            "🏥 의료기기 스타트업에서 RA(인허가) 담당자를 찾습니다\n\n• 경력 2년 이상\n\n"
            "📅 서류 접수: ~12월 27일(일)까지\n"
            "👉 지원 및 상세 JD: https://medivue.co.kr/careers\n\n"
            "#의료기기 #RA #인허가 #스타트업채용",
            "medivue",
        ),
        # a brand and the company that runs it, equal otherwise: the one with a legal form
        (
            "국민 간편식 브랜드 '밥한끼'를 운영하는 ㈜푸드링크에서 "
            "퍼포먼스 마케터를 찾습니다 🍚\n\n"
            "밥한끼는 누적 판매 3,000만 팩을 돌파한 냉동 간편식 브랜드예요.\n\n📌 지원 일정\n"
            "- 서류 접수: ~11/29(일)\n\n#밥한끼 #퍼포먼스마케팅 #마케터채용",
            "푸드링크",
        ),
    ],
)
def test_session_33_organisation_families(text, name):
    assert company(text) == name


def test_a_form_or_a_short_link_is_no_organisation_s_site():
    text = (
        "데이터 분석가 모집\n- 지원: https://forms.gle/abc123\n"
        "- 문의: https://bit.ly/xyz\n서류 마감 12/10"
    )
    assert _mail_domains(text) == set()
    assert company(text) not in ("forms", "bit")
