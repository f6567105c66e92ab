"""Facts of a job posting that are read, not generated: company, position, deadline.

Nothing is guessed: a fact the text does not state is None. The company comes from the one
company finder every feature shares (`text/header.py`, also the calendar parser's).
"""

from __future__ import annotations

import re
from datetime import date

from text.dates import find_dates
from text.header import company_of
from text.organization import SPEAKER_HEADER
from text.sections import Section, section_text

# `[^\S\n]` (a space that is not a line break): with `\s` every newline of a run of blank
# lines restarted a scan over the whole run (90k newlines: about a minute per pattern).
_TITLE_BRACKET = re.compile(r"^\s*[\[【<]\s*([^\]】>]{1,30}?)\s*[\]】>]\s*(.*)$")
_LABELLED_POSITION = re.compile(
    r"^[^\S\n]*(?:모집\s*부문|모집\s*분야|모집\s*직무|포지션|직무|채용\s*직무|채용\s*분야)"
    r"[^\S\n]*[:：][^\S\n]*\n?[^\S\n]*(.*\S)",
    re.MULTILINE,
)
_JOB_WORDS = (
    r"채용|모집|개발자|엔지니어|디자이너|분석가|연구원|프로그래머|매니저|사이언티스트|기획자|"
    r"engineer|developer|designer|scientist"
)
# Words a title may start with that are a role, not a company ("백엔드 개발자 채용").
_ROLE_START = re.compile(
    r"^(?:백엔드|프론트엔드|서버|데이터|웹|앱|모바일|게임|보안|인프라|클라우드|AI|ML|QA|iOS|"
    r"Android|DevOps|SW|신입|경력|인턴|정규직|계약직|\d)",
    re.I,
)
_TITLE_TAIL = re.compile(r"\s*(?:채용|모집|공고|구인|공개|수시|공채|\(.*?\)|\s)+$")
# A title's leading hiring-round words: "2026 하반기 신입 게임 클라이언트 프로그래머" -> the role.
_TITLE_HEAD = re.compile(
    r"^(?:(?:20\d{2}년?|상반기|하반기|신입(?:사원)?|경력(?:직)?|인턴|대졸)\s+)+"
)
_DEADLINE_HINT = re.compile(r"마감|까지|~|∼|접수|지원\s*기간|모집\s*기간")


def _clean(value: str) -> str | None:
    value = re.sub(r"\s+", " ", value).strip(" -·:：[]【】")
    return value or None


def find_company(text: str) -> str | None:
    """The company the posting names ("회사명: X", "[X] …", "(주)X", "X is hiring", "— X",
    a quoted name, a signature …; see `text/header.py`), without its legal form; None
    when it names none or says it does not ("고객사 비공개", "our client")."""
    return company_of(text)


def find_position(text: str, sections: list[Section]) -> str | None:
    labelled = _LABELLED_POSITION.search(text)
    if labelled:
        return _clean(labelled.group(1))
    listed = section_text(sections, "모집 부문")
    if listed:
        return _clean(listed.splitlines()[0].lstrip("-•· "))
    first_line = next((ln for ln in text.splitlines() if ln.strip()), "")
    bracket = _TITLE_BRACKET.match(first_line)
    title = bracket.group(2) if bracket else ""
    if title and re.search(_JOB_WORDS, title, re.I):
        return _clean(_TITLE_HEAD.sub("", _TITLE_TAIL.sub("", title).strip()))
    return None


_TITLE_STOP = re.compile(
    r"\s(?:20\d{2}|상반기|하반기|신입|경력|인턴|채용|모집|공채|공개\s*채용|수시\s*채용)"
)


def find_title_company(text: str) -> tuple[str | None, str | None]:
    """(company, position) from a title line without brackets that names a hiring:
    "LINE Plus 2026 상반기 ... 공개채용" -> "LINE Plus"; "우아한형제들 서버 개발자 모집" ->
    ("우아한형제들", "서버 개발자"). The company is the leading word (two when both are
    Latin, "LG CNS"); None when the line does not speak of hiring or starts with a job word."""
    first_line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    parts = re.split(r"\s[|｜]\s", first_line)
    if (
        len(parts) == 2
        and not _ROLE_START.match(parts[0].strip())
        and re.search(_JOB_WORDS, parts[1], re.I)
    ):  # "라이엇 게임즈 코리아 | 데이터 사이언티스트"
        return _clean(parts[0]), _clean(_TITLE_TAIL.sub("", parts[1].strip()))
    words = first_line.split()
    if not re.search(_JOB_WORDS + r"|공채", " ".join(words[1:]), re.I):
        return None, None
    if len(words) < 2 or re.search(_JOB_WORDS, words[0], re.I) or _ROLE_START.match(words[0]):
        return None, None
    take = (
        2 if re.fullmatch(r"[A-Za-z]+", words[0]) and re.fullmatch(r"[A-Z]+[a-z]*", words[1]) else 1
    )
    company = _clean(re.sub(r"\(.*?\)", "", " ".join(words[:take])))
    rest = " ".join(words[take:])
    stop = _TITLE_STOP.search(" " + rest)
    position = _clean(_TITLE_TAIL.sub("", rest[: stop.start()] if stop else rest))
    if position and not re.search(_JOB_WORDS, position, re.I):
        position = None
    return company, position


def find_deadline(text: str, sections: list[Section], today: date | None = None) -> date | None:
    """The application deadline: the last date of the 접수 기간 section, else the last date
    on a line that speaks of a deadline ("~ 3/15(금) 18:00까지", "마감: 2026.03.15")."""
    for line in section_text(sections, "접수 기간").splitlines():
        dates = find_dates(line, today)
        if dates:  # the first dated line is the period; its last date is the end
            return dates[-1].value
    for line in text.splitlines():
        if _DEADLINE_HINT.search(line):
            dates = find_dates(line, today)
            if dates:
                return dates[-1].value
    return None


# The words a hiring text uses of itself or asks of an applicant, in Korean and English.
# A dated step in a text without any of them ("My first day was March 2" in a new-job post)
# is no step of a hiring.
_HIRING = re.compile(
    # 지원 as applying ("지원하기", "지원서", "입사 지원"), not as support ("검진비 50% 지원")
    r"채용|모집|지원(?=하|했|서|자|방법|기간|자격|마감|접수|분야|부문|요건|\s*링크)|입사\s*지원|"
    r"접수|공고|전형|자격\s*요건|우대|입사(?!자)|인재|구인|알바|합격|오퍼|처우|"
    r"\boffers?\b|background\s+check|"
    r"hiring|\bapply|applicants?|applications?|recruit\w*|requirements|qualifications|"
    r"looking\s+for|join\s+(?:us|our)|open\s+(?:roles?|positions?)|job\s+(?:opening|description)|"
    r"internships?",
    re.IGNORECASE,
)


def speaks_of_hiring(text: str) -> bool:
    """Whether a text uses any word of hiring (채용, 모집, 지원, 전형, apply, hiring, ...)."""
    return _HIRING.search(text) is not None


# What every Korean news article carries and a posting does not: a dateline with its
# agency ("[서울=뉴시스]", "(서울=연합뉴스)"), a reporter's byline ("홍길동 기자 =", "기자
# hong@…"), the agency's copyright ("무단전재-재배포 금지", "저작권자ⓒ"), its published and
# edited stamps ("입력 2026.09.02 14:31 | 수정 …") and its related articles ("관련기사").
_NEWS_MARKS = (
    re.compile(r"[\[(][^\])\n]{1,12}=[^\])\n]{1,12}[\])]"),
    re.compile(r"[가-힣]{2,4}\s*(?:기자|특파원)\s*(?:=|[\w.+-]+@)"),
    re.compile(r"무단\s*전재|재\s*배포\s*금지|저작권자\s*[ⓒ©(]|(?i:copyright\s*[ⓒ©])"),
    re.compile(r"(?:입력|등록|기사\s*입력)\s*[:：]?\s*20\d{2}[.\-/]\s*\d{1,2}[.\-/]\s*\d{1,2}"),
    re.compile(r"(?m)^\s*관련\s*기사\s*$"),
    # a byline closing the article ("… 재배포 금지  |  김민재 기자") and a desk's label opening
    # it ("[경제] …", "[단독] …")
    re.compile(r"(?m)(?:^|[|·/]\s*)[가-힣]{2,4}\s*(?:기자|특파원)\s*$"),
    re.compile(
        r"^\s*[\[【](?:경제|사회|정치|산업|국제|문화|생활|IT|단독|속보|종합)[^\]】\n]{0,6}[\]】]"
    ),
)


def reads_as_news(text: str) -> bool:
    """A news article (two of its marks or more), however much it says about hiring."""
    return sum(1 for mark in _NEWS_MARKS if mark.search(text)) >= 2


# What a text of another genre carries in its head, whatever dates and hiring words it
# holds: a periodical's issue ("동문회 소식지 2026 겨울호", "취업 뉴스레터 제47호", "People
# Letter 12월호"), a tender ("제한경쟁입찰 공고", "용역 입찰"), a job fair of many employers
# ("일자리 박람회 개최 안내"). Each lists or announces other things than one opening.
_ISSUE = r"(?:제\s*\d+\s*호|\d{1,2}\s*월\s*호|(?:봄|여름|가을|겨울)\s*호|(?i:vol\.?\s*\d+))"
_GENRES = (
    re.compile(
        r"(?:소식지|뉴스\s*레터|레터|웹진|사보|매거진|(?i:newsletter|letter|webzine|magazine))"
        rf"[^\n]{{0,30}}?{_ISSUE}|{_ISSUE}[^\n]{{0,10}}?(?:소식지|뉴스\s*레터|웹진|사보)"
    ),
    re.compile(
        r"입찰\s*(?:공고|안내|참가)|경쟁\s*입찰|(?:용역|구매)\s*입찰|(?i:request\s+for\s+proposals?)"
    ),
    re.compile(r"(?:일자리|채용|취업)\s*박람회|(?i:(?:job|career)\s+fair)"),
    # an event invitation, a contest, a company's internal event (session 32): what the
    # title announces is not an opening ("[하이어링랩 웨비나 초대] …", "대학생 아이디어
    # 공모전", "[전사공지] 2026 송년의 밤 및 종무식 안내")
    re.compile(
        r"웨비나|세미나|컨퍼런스|콘퍼런스|포럼|(?i:webinar|seminar|conference|forum)|"
        r"공모전|경진\s*대회|(?i:\bcontest\b|competition)|"
        r"전사\s*공지|송년|종무식|시무식|체육\s*대회|워크숍\s*안내"
    ),
)
_GENRE_HEAD_LINES = 2  # a title, or a notice's number and then its title
# A title line that announces one hiring or its step is a posting's, whatever genre word it
# holds ("월간 매거진 에디터 채용 (12월호 …)", "일자리 박람회 현장면접 합격 안내").
_ANNOUNCES_HIRING = re.compile(
    # (not hiring as a topic: "채용 트렌드 리포트", "채용관리 솔루션")
    r"채용(?!\s*(?:트렌드|리포트|동향|시장|관리|솔루션|데이터|브랜딩))|모집|구인|합격|면접|"
    r"(?i:\bhiring\b)"
)
# A mail's subject line, wherever the forwarded header puts it: a title too.
_SUBJECT = re.compile(r"^\s*(?:subject|제목)\s*[:：]", re.IGNORECASE)


def reads_as_other_genre(text: str) -> bool:
    """A newsletter's issue, a tender or a job fair, as its title says (the first line, or
    the second after a notice's number): not one organisation's opening, however many dates
    and employers it names. A posting that mentions a fair further down stays a posting."""
    lines = [line for line in text.splitlines() if line.strip()]
    head = lines[:_GENRE_HEAD_LINES] + [line for line in lines[:8] if _SUBJECT.match(line)]
    return any(
        genre.search(line) and not _ANNOUNCES_HIRING.search(line)
        for line in head
        for genre in _GENRES
    )


# A line of a pasted chat: a timestamp in brackets may open it ("[오후 12:03] 지수: …"), or
# the export's "[지수] [오후 12:03] …"; then the speaker and a colon.
_SPEAKER_LINE = re.compile(
    r"^\s*(?:\[(?:오전|오후)?\s*\d{1,2}:\d{2}\]\s*)?([^\s:：\[\]]{1,12})\s*[:：]\s*\S"
    r"|^\s*\[([^\]\s]{1,12})\]\s*\[(?:오전|오후)\s*\d{1,2}:\d{2}\]"
)


# Words of a posting's schedule lines, never a speaker's name.
_LABEL_WORD = re.compile(
    r"면접|코테|코딩|테스트|마감|접수|서류|발표|과제|시험|설명회|전형|입사|교육|일정|\d"
)


def reads_as_conversation(text: str) -> bool:
    """A pasted conversation: two people or more who each speak on two lines or more, their
    lines at least half of the text's. A posting's labels ("일시:", "장소:") name each thing
    once; speakers come back."""
    lines = [line for line in text.splitlines() if line.strip()]
    speakers: dict[str, int] = {}
    spoken: dict[str, int] = {}  # the lines each speaker's messages take
    for n, line in enumerate(lines):
        m = _SPEAKER_LINE.match(line)
        header = None if m else SPEAKER_HEADER.match(line)
        if header and (
            _LABEL_WORD.search(header.group(1))
            or n + 1 >= len(lines)
            or SPEAKER_HEADER.match(lines[n + 1])
        ):
            header = None  # "코딩테스트 오전 10:00", "면접 오후 2:00": a posting's lines
        if m or header:
            name = m.group(1) or m.group(2) if m else header.group(1) if header else ""
            speakers[name] = speakers.get(name, 0) + 1
            spoken[name] = spoken.get(name, 0) + (2 if header else 1)
    talking = {name: n for name, n in speakers.items() if n >= 2}
    if len(talking) >= 2 and 2 * sum(spoken[name] for name in talking) >= len(lines):
        return True
    # a messenger copied from a phone: each message closes with its time alone on a line
    # ("민지 / 야 나 다음주 화요일에 면접 봄 / 오후 9:41")
    stamps = sum(1 for line in lines if _STAMP_LINE.match(line))
    return stamps >= 3 and 5 * stamps >= len(lines)


_STAMP_LINE = re.compile(r"^\s*(?:오전|오후)?\s*\d{1,2}:\d{2}(?:\s*[AaPp]\.?[Mm]\.?)?\s*$")


# A notice to the people who already work there ("임직원 여러분", "전 직원 대상").
_TO_STAFF = re.compile(
    r"(?:임직원|직원|구성원|사우|팀원)\s*(?:여러분|분들께|대상)|전\s*직원|(?i:\ball\s+(?:staff|employees)\b)"
)


def addressed_to_staff(text: str) -> bool:
    """A notice to the people who already work there ("임직원 여러분", "전 직원 대상")."""
    return _TO_STAFF.search(text) is not None
