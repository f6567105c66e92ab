"""Reading pasted postings (text/organization.py, job_title.py, the calendar's
not-a-posting rule and application periods): the company and the job are ranked among
candidates from every kind of evidence, page clutter is never a name, and text that is not
a posting gets nothing guessed."""

from __future__ import annotations

from datetime import date

import pytest

from nodes.calendar.steps import extract_schedule
from text.header import find_header
from text.job_title import clean, headed_by_occupation
from text.job_title import rank as job_title
from text.organization import normalise
from text.organization import rank as organization
from text.stages import find_stages


@pytest.mark.parametrize(
    ("text", "company"),
    [
        # a job site's menu line before the posting: the legal form names the company
        (
            "잡사이트  채용정보  기업·연봉  |  로그인\n(주)하늘정밀\n[하늘정밀] 생산관리 채용",
            "하늘정밀",
        ),
        # a messenger tag in brackets is not a name; the proper noun after it is
        ("[알림] 동서제약 2026 하반기 신입사원 채용\n서류 마감 10/2(금)", "동서제약"),
        # a notice number: "X 공고 제N호"
        ("한국수자원공단 공고 제2026-3호\n2026년 체험형 인턴 채용 공고", "한국수자원공단"),
        # a LinkedIn-style line "Job title / Company · City"
        (
            "Data Analyst\nBrightwave Analytics · Seoul, South Korea · 2 days ago",
            "Brightwave Analytics",
        ),
        # a sender with a team after the name
        (
            "보낸사람: 새봄은행 인사부 <hr@saebom.example>\n새봄은행 면접 일정입니다.",
            "새봄은행",
        ),
        # an organisation's ending makes a name of a common-looking word
        ("햇살가득치과 치과위생사 선생님 구해요!\n이력서는 금요일까지", "햇살가득치과"),
        # a name alone on the first line
        ("모아데이터\n데이터 엔지니어 / 서울 · 경력 3년 이상\n주요업무", "모아데이터"),
    ],
)
def test_the_company_is_the_name_with_the_most_evidence(text: str, company: str) -> None:
    assert organization(text) == company


@pytest.mark.parametrize(
    ("text", "company"),
    [
        # a coined name Kiwi does not know leads the headline; the workplace is a district
        ("브릭플랜트 프론트엔드 개발자 채용 · 서류 마감 9월 3일 · 근무지 역삼동", "브릭플랜트"),
        # a place after a workplace label is no candidate (a name made only of words Kiwi
        # knows, "소금별" = 소금 + 별, is not told from a descriptor: no company then)
        ("다온픽셀 콘텐츠 마케터 모집 | 마감 10/2 | 근무지 부산 해운대구", "다온픽셀"),
        ("Location: Busan\nOrbitkeel is hiring a QA engineer. Apply by 10/2.", "Orbitkeel"),
        # the leading word without its particle
        ("누리코어에서 QA 엔지니어를 채용합니다.\n서류 마감 9/3(목)", "누리코어"),
        # a descriptor before a quoted name is not the name
        (
            "물류 스타트업 '로지웨이브'가 백엔드 개발자를 모집합니다.\n서류 마감 9월 3일",
            "로지웨이브",
        ),
        ("디자인 스튜디오 '온새미'가 UX 디자이너를 채용합니다. 마감 9/3", "온새미"),
        # an English sentence "At X, we ..."; a month's short form after a dash is no name
        ("At Lumenfold, we are hiring a Data Engineer. Apply by Sep 3.", "Lumenfold"),
        (
            "[한빛소프트랩] QA Engineer\nApplication: Sep 1 – Sep 12\nInterview: Sep 20",
            "한빛소프트랩",
        ),
        # a signature with the sender's team
        ("서류 접수는 9월 3일 18시까지입니다. — 소리결 채용팀 드림", "소리결"),
        ("Interviews run on Sep 20.\n\nThanks,\nNorthpeak Recruiting Team", "Northpeak"),
        # a greeting, a day or an urgent tag leading the first line is no name
        (
            "안녕하세요, 반려동물 앱을 만드는 스타트업 '펫로그'입니다. 안드로이드 개발자를 "
            "채용합니다. 지원은 5월 8일까지 받습니다.",
            "펫로그",
        ),
        (
            "[마감임박] 내일(목) 17시 마감!!\n한결식품 품질관리 계약직 (1년)\n지원: 메일 접수",
            "한결식품",
        ),
        # a proper noun and an organisation's ending after it are one name; the ending
        # alone is none
        (
            "[알림톡] 그린필드 파트너스 면접 일정 안내\n면접: 3월 5일(목) 오후 2시",
            "그린필드 파트너스",
        ),
        # a city that posts a notice is the employer, not a place
        (
            "용인시 공고 제2026-77호\n2026년 용인시 기간제근로자 채용 공고\n"
            "접수: 3. 2.(월) ~ 3. 6.(금)",
            "용인시",
        ),
        # the part of a line that announces the hiring, after the steps
        ("서류 ~9/3 | 면접 9/10 — 스텔라웍스 데이터 분석가 채용", "스텔라웍스"),
        # a district on a "·" line is where the job is, not who offers it
        (
            "Fernhill\n퍼포먼스 마케터\n서울 마포구 · 경력 3년\n\nFernhill은 리빙 브랜드입니다.",
            "Fernhill",
        ),
    ],
)
def test_a_company_is_told_from_descriptors_places_and_sentence_words(
    text: str, company: str
) -> None:
    # as the calendar asks: the header finder's answer is one candidate among the others
    assert organization(text, find_header(text).company) == company


@pytest.mark.parametrize(
    ("text", "company"),
    [
        # the company before one of its stores ("연남점": a place and 점), not the store
        (
            "알바몬 > 외식·음료 > 카페\n\n달빛커피 연남점 바리스타(주 5일) 모집\n"
            "급여: 시급 11,000원\n마감: 12월 20일",
            "달빛커피",
        ),
        ("그린마트 광교점 수산 코너 담당 모집\n근무: 주 5일\n면접: 12/22 오전 10시", "그린마트"),
        # "우리 공단", "우리 매장": the text speaking of itself names nothing; a region's tag
        # before a public body is no name either
        (
            "[경기] 평택시설관리공단 직원 채용\n\n우리 공단에서 함께 일할 직원을 모집합니다.\n"
            "원서접수: 1. 10. ~ 1. 14.",
            "평택시설관리공단",
        ),
        (
            "다정한 우리 매장에서 함께 일할 스태프를 찾아요\n\nROSE & CO. 판매 스태프 채용\n"
            "서류 마감: 4/16",
            "ROSE & CO",
        ),
        # an English name of several words: alone on its line, "… is looking for", before
        # "| Careers"; a subsidiary's country stays in it
        (
            "Harbor Freight Korea\nPosted 2 days ago\n\nWarehouse Lead\nBusan (On-site)\n\n"
            "Harbor Freight Korea is looking for a Warehouse Lead.\n"
            "Applications close: Jan 8, 2027",
            "Harbor Freight Korea",
        ),
        (
            "Maple Grove Hotels | Careers\nFront Desk Agent\nApply by March 2, 2027",
            "Maple Grove Hotels",
        ),
        # a name that is an ordinary word, told by what the text says it is and who hires
        (
            "봄날은 제철 채소로 반찬을 만들어 파는 작은 식품 회사입니다.\n"
            "함께할 주방 매니저를 찾습니다.\n접수: 1월 5일까지",
            "봄날",
        ),
        ("동네 빵을 굽는 바람이 온라인 마케터를 찾습니다.\n\n접수 마감: 2월 3일", "바람"),
        # a store of a kind is part of the name ("대현백화점"), and a tag is no name
        ("[접수마감 D-5] 한빛백화점 2027 신입사원 채용\n근무지: 본점, 판교점", "한빛백화점"),
    ],
)
def test_a_company_is_told_from_its_stores_its_self_reference_and_what_it_says_it_is(
    text: str, company: str
) -> None:
    assert organization(text, find_header(text).company) == company


@pytest.mark.parametrize(
    ("text", "company"),
    [
        # the operator a business-information footer names yields to the brand the posting
        # presents; alone, it is the employer
        (
            "달콤상회 CAREERS\n\n[매장 운영] 판교점 매니저 채용\n서류 마감: 12/20\n\n"
            "㈜스위트푸드 | 대표이사 김하나 | 사업자등록번호 123-45-67890",
            "달콤상회",
        ),
        (
            "라온마트 점장 후보 채용\n서류 마감: 1/8\n\n"
            "라온마트는 ㈜라온유통이 운영하는 동네 마트 브랜드입니다.",
            "라온마트",
        ),
        (
            "매장 매니저 채용\n서류 마감: 12/20\n\n"
            "㈜스위트푸드 | 대표이사 김하나 | 사업자등록번호 123-45-67890",
            "스위트푸드",
        ),
        # a school year before the name, the head who signs for it ("새솔중학교장")
        (
            "2027학년도 새솔중학교 영어 교사(기간제) 채용 공고\n1. 채용 인원: 1명\n"
            "2. 접수: 2. 3.(수)까지\n\n2027. 1. 27.\n새솔중학교장",
            "새솔중학교",
        ),
        # a metropolitan city before an institution is where it is
        (
            "부산광역시 해운대문화회관 2027년 무대기술 직원 채용 공고\n1. 채용분야: 조명 1명\n"
            "2. 접수: 2. 3.(수)까지",
            "해운대문화회관",
        ),
        # "저희 요양원": a kind of workplace; the sign-off names it
        (
            "조리사 선생님 구합니다\n\n저희 요양원에서 조리사 선생님을 모십니다.\n"
            "면접: 토요일 오전 10시\n\n- 푸른솔요양원 원장 올림",
            "푸른솔요양원",
        ),
    ],
)
def test_a_company_is_the_one_the_posting_presents_and_signs_by(text: str, company: str) -> None:
    assert organization(text, find_header(text).company) == company


@pytest.mark.parametrize(
    ("text", "company"),
    [
        # the sender is a function ("Talent Acquisition"), the address names the company
        (
            "From: Talent Acquisition <talent@quillbridge.com>\nSubject: Interview – Data "
            "Analyst, Quill Bridge\n\nHi Minji, we'd like to invite you on Oct 3.",
            "Quill Bridge",
        ),
        # a recruiter's name after the function word is a person, not the company
        (
            "[인사담당 박서윤] 안녕하세요, 누리바이오텍 품질관리 면접 안내드립니다.\n"
            "면접: 10월 8일(목) 오후 2시",
            "누리바이오텍",
        ),
        (
            "[한솔케미칼 인재채용]\n축하합니다! 2차 면접 대상자로 선정되셨습니다.\n"
            "▶ 일시: 6월 17일 오전 11시",
            "한솔케미칼",
        ),
        # a province on a job site's "·" line is where the job is
        ("오르빗랩\n물류 운영 매니저\n경기 · 경력 2년 이상\n마감 D-5", "오르빗랩"),
        # one name in two scripts: the Korean text's spelling, with both's evidence
        (
            "COUPANG Careers  |  Jobs\n\n2027 쿠팡 물류센터 관리자 신입 채용\n"
            "서류 접수: 1/5 ~ 1/19",
            "쿠팡",
        ),
        # the hiring headline below a page's menu, after the year and the season
        (
            "Recruit  |  FAQ\n\n2026 하반기 한미정밀 생산기술 신입사원 채용\n서류 마감 9/30",
            "한미정밀",
        ),
        # a headline quoted in a notice from a test platform
        (
            "[프로그래머스]\n내일 오전 10시 '나래소프트 2027 상반기 개발자 공채' 코딩테스트가 "
            "시작됩니다.",
            "나래소프트",
        ),
        # a share tag is no name; the headline after it is
        ("[취업카페 공유] 대한제분 생산관리 신입 채용 마감 내일까지!!", "대한제분"),
        # an English name of several words before the job, its city after it
        (
            "Arden & Company Seoul – Associate Consultant (2027 Full-time)\n\n"
            "Arden's Seoul office is recruiting.\n- Application window: Aug 3 – Aug 23",
            "Arden & Company",
        ),
    ],
)
def test_senders_addresses_regions_scripts_and_headlines(text: str, company: str) -> None:
    assert organization(text, find_header(text).company) == company


def test_team_office_and_page_words_are_not_part_of_a_name() -> None:
    assert normalise("네오웹툰 글로벌사업팀") == "네오웹툰"
    assert normalise("Coupang Careers") == "Coupang"
    assert normalise("KT Recruit") == "KT"
    # English units after the name, with a division's code, or after a comma
    assert normalise("Hanwha Solutions Q Division") == "Hanwha Solutions"
    assert normalise("Yonsei University, Graduate School of Business") == "Yonsei University"
    assert normalise("Meridian Bank · Busan Branch") == "Meridian Bank"
    assert normalise("WE'RE") is None
    assert normalise("두리 인재채용") == "두리"
    for function in ("Talent Acquisition", "채용담당 김하늘", "인사팀"):
        assert normalise(function) is None, function
    assert normalise("(주)한길로지스") == "한길로지스"
    for clutter in ("알림톡", "사람인", "Subject", "제목", "채용정보", "2026.03.04"):
        assert normalise(clutter) is None, clutter
    # a sentence or a dated phrase is no name
    for sentence in ("서류 접수는 9월 3일 18시까지입니다", "지원 마감은 금요일입니다", "면접 3일"):
        assert normalise(sentence) is None, sentence


@pytest.mark.parametrize(
    ("raw", "title"),
    [
        ("약사 (정규직) 0명", "약사"),
        ("인테리어 디자이너 구인합니다", "인테리어 디자이너"),
        ("■ 모집분야: 회계, 재무, 인사", "회계"),
        ("품질보증 경력 채용 (IATF 16949)", "품질보증"),
        ("신입사원 채용 (마케팅/영업/생산)", "마케팅"),
        (
            "Global Marketing Specialist (English/Japanese)",
            "Global Marketing Specialist (English/Japanese)",
        ),
        ("Software Engineer, Backend (Payments)", "Software Engineer, Backend (Payments)"),
        ("설비 엔지니어 (금산공장)", "설비 엔지니어"),
    ],
)
def test_a_title_is_cleaned_of_what_a_posting_says_around_it(raw: str, title: str) -> None:
    assert clean(raw) == title


def test_a_job_title_is_headed_by_an_occupation() -> None:
    assert headed_by_occupation("게임 기획자 (시스템)")
    assert headed_by_occupation("Software Engineer, Backend")
    assert not headed_by_occupation("판교 개발자 컨퍼런스")
    assert not headed_by_occupation("하반기 공채 일정")


def test_the_job_comes_from_a_label_a_title_line_or_a_position_phrase() -> None:
    assert (
        job_title("회사명: 한결에너지\n대표자: 오*석\n모집직종: 전기기사\n담당업무: 현장관리")
        == "전기기사"
    )
    assert job_title("Site Reliability Engineer\nQuanta Pay · Seoul") == "Site Reliability Engineer"
    mail = "안녕하세요, 한솔제지 구매 담당 포지션 관련 연락드립니다.\n면접 가능하신지요?"
    assert job_title(mail, company="한솔제지") == "구매 담당"
    # a contact line names a person's role, not the job
    notice = "[총무팀 공지] 사무실 이전 안내\n문의 : 총무팀 이OO 매니저 (내선 1203)"
    assert job_title(notice) is None


def _parse(text: str, now: str = "2026-05-01") -> dict:
    return extract_schedule({"text": text, "now": now}).update


@pytest.mark.parametrize(
    "text",
    [
        "[경제] 대기업 하반기 공채 윤곽\n입력 2026.08.24 06:00\n김기자 기자\n9월 초 서류 접수",
        "회사소개\n㈜푸른들은 2015년 설립된 스마트팜 기업입니다.\n주요 연혁\n2019.11 플랫폼 출시",
        "[공지] 상반기 전사 워크숍 안내\n일시: 6/19(금) 10:00\n장소: 가평 리조트",
        # a new-job post: a dated first day, no job read, and no word of hiring anywhere
        "Minji Park · 2nd\nI'm happy to share that I'm starting at Brightloop!\n"
        "My first day was March 2, and the team has been wonderful.\n#newjob",
        "드디어 그린랩스 첫 출근 🎉 3월 2일 오리엔테이션부터 정신없었지만 팀 분위기 최고!",
        # session 26: a new-job post that names its title, and an internal notice whose
        # 지원 is support ("검진비 50% 지원"), not an application
        "I'm starting a new position as Senior Data Analyst at Riverstone!\n"
        "첫 출근은 4월 6일이에요. #newjob",
        "[인사팀 공지] 정기 건강검진 안내\n■ 검진 기간 : 10월 5일(월) ~ 10월 30일(금)\n"
        "■ 대상 : 임직원 전원 (배우자 검진 50% 지원)",
        # session 28: a pasted group chat that mentions an interview, a notice to the staff
        # whose "서류 제출" is no application
        "[오후 7:10] 서연: 낼 저녁 뭐 먹지\n[오후 7:11] 태윤: 나 목요일 면접이라 일찍 자야 돼\n"
        "[오후 7:11] 서연: 헐 화이팅 ㅋㅋ\n[오후 7:12] 태윤: 끝나면 연락할게",
        "[총무팀 안내] 연말 사무실 이전 일정\n직원 여러분 안녕하세요.\n"
        "- 짐 정리 및 서류 제출: 5/20(수)까지\n- 이전: 5/23(토)",
        # session 29: a messenger copied from a phone, each message closed by its time
        "지우\n나 목요일에 대한물산 면접 있음 ㅠ\n오후 8:02\n"
        "하린\n헐 몇시?\n오후 8:03\n지우\n10시 반... 끝나고 점심 ㄱ?\n오후 8:03\n"
        "하린\nㅇㅋ 12시에 역 앞\n오후 8:05",
        # session 31: a messenger whose header line is the speaker and the time
        "동기방 (4)\n\n지훈 오후 9:01\n다음주 수요일 저녁 어때?\n\n소연 오후 9:02\n"
        "나 수요일 면접 있어 ㅠ 목요일 7시는?\n\n지훈 오후 9:03\n콜\n\n"
        "소연 오후 9:03\n강남역에서 봐",
        # a newsletter's issue listing other employers' openings, a company magazine, a
        # tender, a job fair of many employers
        "[한빛고 진로진학부] 진로 소식지 2027 봄호\n\n■ 이달의 채용 소식\n"
        "- 대한물산 — 사무직 신입 | 마감 3/12(금)\n- 누리병원 — 간호조무사 | 접수 3/2~3/20",
        "세움건설 사보 3월호\n\n■ 3월 일정\n- 3/4(목) 신입사원 입문교육\n- 3/19(금) 안전보건 교육",
        "다온시청 공고 제2027-5호\n「2027년 청사 경비 용역」 제한경쟁입찰 공고\n"
        "- 입찰서 제출: 2027. 2. 3.(수) 10:00\n- 개찰: 2027. 2. 3.(수) 11:00",
        "2027 다온시 청년 일자리 박람회 개최 안내\n일시: 3. 14.(토) 10:00~16:00\n"
        "참여기업: 40여 개사 (현장 면접 진행)\n사전 신청: 3. 10.(수)까지",
    ],
)
def test_text_that_is_not_a_posting_gets_no_company_and_no_dated_step(text: str) -> None:
    out = _parse(text)
    assert out["company"] is None and out["position"] is None
    assert not any(s["date"] for s in out["schedules"])


@pytest.mark.parametrize(
    "text",
    [
        # a name that holds a periodical's word, a fair named in the body, a posting that
        # says where it was first announced: postings all the same
        "굿레터 브랜드 디자이너 채용\n서류 마감: 3월 12일(금)\n면접: 3월 17일(수)",
        "한빛물산 영업관리 신입 채용\n서류 마감: 3월 12일(금)\n"
        "※ 3월 14일 일자리 박람회 현장 면접도 진행합니다.",
    ],
)
def test_a_posting_is_not_taken_for_a_newsletter_a_tender_or_a_fair(text: str) -> None:
    out = _parse(text)
    assert out["position"] is not None
    assert [s["date"] for s in out["schedules"] if s["stage_type"] == "DOCUMENT"] == ["2026-03-12"]


def test_a_chat_relaying_an_interview_invitation_keeps_its_step() -> None:
    out = _parse(
        "지호: 나 내일 면접 봐\n지호: 한빛소프트 QA 자리 지원했던 거 연락 왔어\n"
        "지호: 오후 2시까지 오래\n유나: 오 축하해!!\n유나: 복장은?"
    )
    assert [s["stage_type"] for s in out["schedules"] if s["date"]] == ["INTERVIEW"]


def test_an_offer_mail_s_steps_are_steps_of_a_hiring() -> None:
    # no 채용/apply, but an offer and a background check: the hiring's last steps
    out = _parse(
        "From: People Team <people@quillworks.io>\nWe're thrilled you accepted our offer for "
        "the Sound Designer role at Quillworks!\n1. Background check: complete the form by "
        "Friday, May 15.\n2. First day: Monday, June 1, 2026 at 10:00 AM."
    )
    assert [s["date"] for s in out["schedules"] if s["date"]] == ["2026-05-15", "2026-06-01"]


def test_a_posting_without_dates_keeps_its_company_and_job() -> None:
    out = _parse("Northwind Careers\nBackend Engineer\nSeoul | Full-time\nAbout Northwind")
    assert out["company"] == "Northwind" and out["position"] == "Backend Engineer"


def test_an_application_period_keeps_both_ends() -> None:
    stages = find_stages(
        "[일정]\n서류 접수: 9.8(화) ~ 9.21(월) 18:00\n면접: 10.2(금)", date(2026, 9, 1)
    )
    document = next(s.as_dict() for s in stages if s.stage_type == "DOCUMENT")
    assert document["date"] == "2026-09-21" and document["start_date"] == "2026-09-08"
    assert document["time"] == "18:00"
    interview = next(s.as_dict() for s in stages if s.stage_type == "INTERVIEW")
    assert interview["date"] == "2026-10-02" and interview["start_date"] is None


def test_a_notice_sentence_heads_the_dates_below_it_across_a_blank_line() -> None:
    text = (
        "안녕하세요. 대한물산 인사팀입니다.\n"
        "해외영업 직무 최종 합숙면접 일정을 안내드립니다.\n\n"
        "· 일정: 12/3(목) ~ 12/4(금), 1박 2일\n"
        "· 장소: 연수원"
    )
    stages = [s.as_dict() for s in find_stages(text, date(2026, 11, 20))]
    interview = next(s for s in stages if s["stage_type"] == "INTERVIEW")
    assert interview["date"] == "2026-12-03"


def test_a_clipped_portfolio_sent_by_a_day_is_the_application_and_its_review_an_interview() -> None:
    now = date(2026, 3, 4)  # a Wednesday
    sent = find_stages("포폴은 이번 주 일요일까지 DM이나 메일로 보내주세요!", now)
    assert [(s.stage_type, s.date) for s in sent] == [("DOCUMENT", date(2026, 3, 8))]
    review = find_stages("포폴 리뷰 면접은 3월 10일", now)
    assert [(s.stage_type, s.date) for s in review] == [("INTERVIEW", date(2026, 3, 10))]


def test_a_news_article_about_hiring_is_no_posting() -> None:
    from text.posting import reads_as_news

    news = (
        '한빛그룹, 하반기 공채 돌입…"3년간 1만명 채용"\n입력 2026.09.02 14:31 | 수정 2026.09.02\n\n'
        "[서울=가상통신] 김하늘 기자 = 한빛그룹이 하반기 신입사원 공개채용에 돌입한다. 서류 접수는 "
        "9월 15일까지다.\n\nsky@gasang.example\n<저작권자ⓒ 가상통신. 무단전재-재배포 금지.>\n"
    )
    assert reads_as_news(news)
    read = _parse(news, "2026-09-02")
    assert (read["company"], read["position"], read["schedules"]) == (None, None, [])
    # a posting with a mail address, a date stamp of its own and a bracketed title is none
    posting = (
        "[한빛그룹] 2026 하반기 신입 공채\n등록 2026.09.01\n서류 접수: 9월 15일까지\n"
        "문의: recruit@hanbit.example\n"
    )
    assert not reads_as_news(posting)


@pytest.mark.parametrize(
    ("text", "company", "job"),
    [
        # a title's hiring verb says no more than 채용; service occupations are jobs
        (
            "[카페 연두] 바리스타 정직원 구합니다 ☕\n\n- 근무지: 서울",
            "카페 연두",
            "바리스타 정직원",
        ),
        ("24시 해맑은동물병원 수의테크니션 모십니다\n- 주 5일", "해맑은동물병원", "수의테크니션"),
        ("한빛요양원 요양보호사 구해요\n- 3교대", "한빛요양원", "요양보호사"),
    ],
)
def test_a_title_with_a_hiring_verb_names_its_job(text: str, company: str, job: str) -> None:
    assert job_title(text, None, company) == job


def test_a_desk_label_and_a_closing_byline_mark_an_article() -> None:
    from text.posting import reads_as_news

    news = (
        "[산업] 조선업계, 하반기 인력 채용 확대\n\n국내 조선사들이 다음 달부터 생산직 채용에 "
        "나선다. 업계에 따르면 C중공업은 10월 5일까지 지원서를 받는다.\n"
        "ⓒ 바다일보 무단전재 및 재배포 금지  |  박지훈 기자"
    )
    assert reads_as_news(news)
    # a posting for a reporter names the job, not a byline and a desk
    posting = "[한빛일보] 사진기자 경력 채용\n- 서류 마감: 10월 5일\n- 지원: 채용 홈페이지"
    assert not reads_as_news(posting)


def test_a_messenger_with_the_speaker_and_the_time_above_each_message_is_a_conversation() -> None:
    from text.posting import reads_as_conversation, reads_as_other_genre

    chat = (
        "동기방 (4)\n\n지훈 오후 9:01\n다음주 수요일 저녁 어때?\n\n소연 오후 9:02\n"
        "나 수요일 면접 있어 ㅠ\n\n지훈 오후 9:03\n콜\n\n소연 오후 9:03\n강남역에서 봐"
    )
    assert reads_as_conversation(chat)
    # one sender's notice with a time under its name is no conversation
    assert not reads_as_conversation("채용담당 오후 2:10\n서류 마감: 3월 12일(금)\n면접: 3월 17일")
    assert reads_as_other_genre("[진로센터] 취업 뉴스레터 제12호\n이번 주 채용 소식")
    assert not reads_as_other_genre("뉴스레터 에디터 채용\n서류 마감: 3월 12일")


@pytest.mark.parametrize(
    ("text", "company"),
    [
        # session 31 review: a shop named with 점 is the shop; a word with its particle before
        # a store is no name; a person or a team signing is no organisation; who hires in a
        # sentence without a name names none; 대표 in a title is no footer; a city that posts
        # its own notice hires; an English role or mail subject is no company
        ("서울안경점 직원 구합니다\n근무: 주 5일\n면접: 12/3", "서울안경점"),
        ("편의점 야간 알바 구합니다\n위치는 홍대점 근처이며 시급 1만원\n면접: 12/3", None),
        ("…면접이 있습니다.\n김민지 팀장 드림", None),
        ("마케팅 담당자 채용\n고객사가 마케팅 경력자를 찾습니다.\n마감: 12/3", None),
        ("대표님이 직접 함께할 분을 찾습니다\n마감 12/3", None),
        (
            "㈜하루식품 대표 상품 MD 채용\n근무지: 물류 파트너 로지스원에서 함께 근무합니다.\n"
            "마감: 12/3",
            "하루식품",
        ),
        ("[서울특별시] 2026년 공무직 채용 공고\n접수: 12월 3일", "서울특별시"),
        ("Senior Data Scientist\nLocation: Seoul\nApply by Dec 3", None),
        ("Interview Schedule Confirmation\nDear Minji, your interview is on Dec 3.", None),
        ("Moonbeam Games 게임 기획자 채용\n마감 12/3", "Moonbeam Games"),
    ],
)
def test_what_looks_like_a_name_but_is_not_the_employer(text: str, company: str | None) -> None:
    assert organization(text, find_header(text).company) == company


@pytest.mark.parametrize(
    "text",
    [
        "일자리 박람회 현장면접 합격 안내\n(주)모아테크 생산관리 2차 면접: 12월 5일 오후 2시",
        "월간 매거진 에디터 채용 (12월호 제작 참여)\n(주)모아미디어\n접수 마감: 12월 10일",
        "(주)모아테크 일정 안내\n12월 5일(목)\n코딩테스트 오전 10:00\n면접 오후 2:00\n"
        "12월 6일(금)\n코딩테스트 오전 11:00\n면접 오후 3:00",
    ],
)
def test_a_posting_with_a_genre_word_or_timed_lines_keeps_its_steps(text: str) -> None:
    from text.posting import reads_as_conversation, reads_as_other_genre

    assert not reads_as_other_genre(text) and not reads_as_conversation(text)
    assert any(s["date"] for s in _parse(text, "2026-11-20")["schedules"])


@pytest.mark.parametrize(
    ("text", "other"),
    [
        # session 32 (calendar_xa_dev11): an event invitation, a contest, a company's internal
        # event, by what the title (or a forwarded mail's subject) announces
        ("[모아HR 웨비나 초대] 2027 채용 트렌드 리포트 공개\n■ 일시: 12월 10일(목) 오후 4시", True),
        ("제3회 청년 물류 아이디어 공모전\n■ 접수기간: 3. 2. ~ 3. 31.\n■ 본선 PT: 4. 24.", True),
        (
            "---------- Forwarded message ---------\n보낸사람: 총무팀\n"
            "Subject: [전사공지] 2026 송년의 밤 안내\n1. 일시: 12월 18일(금) 18:30",
            True,
        ),
        # a posting for a seminar's or a forum's staff announces its hiring: a posting
        ("세미나 운영 스태프 모집\n- 접수 마감: 12월 3일(목)\n- 면접: 12월 5일", False),
        ("(사)한빛포럼 사무국 직원 채용 공고\n서류 마감: 1월 8일", False),
    ],
)
def test_an_event_a_contest_or_an_internal_notice_is_no_posting(text: str, other: bool) -> None:
    from text.posting import reads_as_other_genre

    assert reads_as_other_genre(text) is other


def test_a_period_on_the_line_under_its_heading_keeps_both_ends() -> None:
    from text.stages import find_stages

    text = "■ 접수기간\n2026.12.01 ~ 2026.12.15 18:00\n■ 일정\n- 코딩테스트: 2026.12.20"
    (document, test) = [s.as_dict() for s in find_stages(text, date(2026, 11, 29))]
    assert (document["start_date"], document["date"], document["time"]) == (
        "2026-12-01",
        "2026-12-15",
        "18:00",
    )
    assert test["start_date"] is None
