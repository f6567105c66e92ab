"""Which organisation a pasted text is about: candidates from every kind of evidence, ranked.

Pasted postings carry their company in many places at once (a legal form "(주)X", a label
"회사명 X", a notice number "X 공고 제12호", a bracket "[X 인사팀]", a title line, a LinkedIn
line "X · Seoul", a sender "X 채용담당 <…>", a proper noun in a sentence) and a lot of
clutter that looks like one (the job site's menu "사람인 채용정보", "[알림톡]", "Subject:").
One rule per form picks whichever form matches first and is fooled by the clutter; here
every form proposes a candidate, the candidates are normalised to the organisation's name
(no legal form, no team, office or department after it), and the name with the most
evidence wins: how it was proposed, whether it ends like an organisation (은행, 병원,
회계법인 …), whether Kiwi reads it as a proper noun, and how often the text repeats it.
Nothing is guessed: no candidate, no company.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import pairwise

from text.korean_text import SURNAMES, analysed
from text.particles import final_consonant
from text.romanize import same_name

HEAD_LINES = 12
TAIL_LINES = 4
# What a Latin-only name loses in a text mostly in Hangul that also proposes a Hangul name.
LATIN_IN_KOREAN = 2.0
_HANGUL = re.compile(r"[가-힣]")
# The least evidence for a name: one kind of proposal and one more mention, or a proper
# noun ending like an organisation.
THRESHOLD = 2.5
# Emoji, arrows and bullets that decorate messenger and job-site text.
_DECORATION = re.compile(
    "[\U0001f000-\U0001faff\u2600-\u27bf\u2b00-\u2bff\ufe0f\u200d▶►▷◆◇■□●○★☆※✔✅📢📌🔔]"
)
_LEGAL = re.compile(r"\(주\)|㈜|\(유\)|\(재\)|\(사\)|주식회사|유한회사|재단법인|사단법인")
# (not "& Co." of a name: "MUSE & CO.", "Tiffany & Co.")
_LEGAL_LATIN = re.compile(
    r"(?<!&)(?:,?\s+)(?:Inc|Corp|Corporation|Co|Ltd|LLC|GmbH|Limited|PLC)\.?$", re.I
)
# Words after a name that are a part of it, not the organisation: a team, an office (the
# hiring function's words, 채용팀, Careers, cut the name earlier: `_HR_FUNCTION`).
_UNIT = re.compile(
    # ("원무과", "총무과": a department; "치과" is a clinic, so three syllables at least)
    r"^(?:\S{2,}과|\S*(?:팀|본부|부문|사업부|사업실|실|지점|지사|공장|연구소|기술원|센터|점|부|본원|분원|캠퍼스|"
    r"조선소|사업장|사업소|영업소)|담당자?|"
    r"(?i:people|team|jobs?|division|department|dept|branch|office|headquarters|hq))$"
)
# Who writes for a search firm or the hiring side ("헤드헌터 최승우", "이정훈 컨설턴트").
_RECRUITER = re.compile(
    r"헤드헌터|컨설턴트|리크루터|채용\s*담당자?|인사\s*담당자?|(?i:recruiter|consultant)"
)
# A messenger's header line: the speaker and the time, the message on the next line
# ("민지 오후 8:12" / "다들 설 연휴 언제 내려가?"); also read by text.posting.
SPEAKER_HEADER = re.compile(r"^\s*([^\s:：\[\]]{1,12})\s+(?:오전|오후)\s*\d{1,2}:\d{2}\s*$")
# A team or a division named as the organisation's unit.
_TEAM = re.compile(r"(?:팀|본부|부문|사업부)$")
# A department of a hospital or a school ("진단검사의학과", "경영학과"; not "미소치과").
_DEPARTMENT = re.compile(r"\S학과$|(?:의학|간호|약학)부$")
# A branch named alone: a station's or a place's store, a branch office.
_BRANCH = r"\S+역점|\S+(?:지점|지사|영업소)"
_BRANCH_ONLY = re.compile(_BRANCH)
# The company a branch belongs to: the words before it on its line ("모아마트 역삼역점",
# "올리브데이 (OLIVEDAY) 홍대입구역점", "국민은행 여의도지점").
_BRANCH_OF = re.compile(
    r"(?m)^[^\S\n]*([^\s|>]+(?:[^\S\n]+\([^)\n]*\))?)[^\S\n]+"
    rf"(?:{_BRANCH}|[가-힣]{{2,6}}점)[^\S\n]*(?:$|[|·])"
)
# A mail signature's organisation line: the name, a bar, then the sender's unit and title
# ("모아북스 | 편집1팀 팀장").
# A letter's sign-off: the organisation, its head or its sender, then 올림/드림 ("-
# 햇살가득요양원 원장 올림", "한빛상사 인사담당 김민지 드림").
_SIGN_OFF = re.compile(
    r"(?m)^[^\S\n]*[-–—]?[^\S\n]*([가-힣A-Za-z0-9&]{2,30})[^\S\n]+"
    r"(?:원장|대표|이사장|소장|관장|센터장|점장|사장|실장|팀장|인사\s*담당자?|채용\s*담당자?|담당자?)"
    r"(?:[^\S\n]+[가-힣]{2,4})?[^\S\n]*(?:올림|드림)[^\S\n]*$"
)
_SIGNATURE = re.compile(
    r"(?m)^[^\S\n]*([^|\n]{2,30}?)[^\S\n]*\|[^\S\n]*\S*(?:팀|본부|부문|실|센터)(?:[^\S\n]|$)"
)
# "KAIST, Department of Chemical Engineering", "Acme Corp., Seoul Branch": a unit after a
# comma is no part of the name.
_UNIT_AFTER_COMMA = re.compile(
    r",\s*(?:(?:the\s+)?(?:department|division|school|college|graduate\s+school|faculty|"
    r"institute|center|centre|office|branch|lab(?:oratory)?)\b|\S+\s+(?:branch|office)\b).*$",
    re.I,
)
# Words of the hiring function ("채용담당 최수진", "hy 인재채용", "KT Recruit", "Talent
# Acquisition <talent@…>"): the organisation is what stands before the first of them.
_HR_FUNCTION = re.compile(
    r"^(?:채용(?:팀|담당자?|공고|정보|안내|홈페이지)?|인사(?:팀|부|과|담당자?)|인재(?:채용|영입)|"
    r"(?i:recruit(?:ing|ment|er)?|careers?|talent|acquisition|hiring|hr))$"
)
# Korea's provinces and metropolitan cities by their short names: where a job is.
_REGIONS = frozenset(
    " ".join(
        (
            "서울 부산 대구 인천 광주 대전 울산 세종 경기 강원 충북 충남 전북 전남 경북 경남",
            "제주 충청 전라 경상 수도권",
        )
    ).split()
)
# Words that end an organisation's name ("행복한요양병원", "딜로이트 안진회계법인").
ORG_END = re.compile(
    r"(?:은행|병원|의원|치과|의료원|공사|공단|재단|회계법인|법무법인|법인|증권|보험|생명|화재|카드|"
    r"캐피탈|전자|건설|물산|제약|바이오|화학|중공업|자동차|통신|그룹|홀딩스|산업|식품|제지|물류|"
    r"로지스|테크|랩스|스튜디오|대학교|연구원|협회|조합|엔터테인먼트|게임즈|리테일|파트너스|"
    r"코스메틱|에너지|모터스|시스템즈?|솔루션|네트웍스|(?i:labs|games|studios?|partners|"
    r"robotics|logistics|medical|bank|group|systems|technologies|tech|pay))$"
)
# Endings that name an institution whatever stands before them ("햇살요양병원"); the other
# endings are also an industry's words ("추천시스템", "무선통신", "4대보험"), a name only
# after a word that is itself name-like.
_INSTITUTION_END = re.compile(
    r"(?:은행|병원|의원|치과|의료원|공사|공단|재단|회계법인|법무법인|대학교|연구원|협회|조합)$"
)
# Not organisations: job sites, mail and messenger furniture, news sections, generic words.
_NOT_ORG = frozenset(
    " ".join(
        (
            "사람인 잡코리아 원티드 wanted 링크드인 linkedin 잡플래닛 인크루트 알바몬 알바천국",
            "캐치 리멤버 블라인드 자소설닷컴 hackerrank 프로그래머스 피플앤잡 커리어",
            "채용 채용정보 채용공고 알림 알림톡 공지 안내 제목 subject from to 보낸사람 받는사람",
            "web발신 광고 긴급 중요 경제 사회 산업 뉴스 속보 취준 단톡 공유 스터디 스터디원 현장",
            "물류센터 회사소개 회사명 기업정보 기업 회사 공고 로그인 회원가입 홈 탐색 소셜",
            "프리랜서 더보기 interview confirmation reminder welcome messaging careers jobs",
            "about job seoul busan korea hybrid remote full-time 정규직 계약직 인턴 신입 경력",
            "담당업무 자격요건 우대사항 모집요강 근무지 근무형태 대표자 업종 사원수 주소 접수",
            "관련기사 기자 입력 수정 january february march april may june july august",
            "september october november december monday tuesday wednesday thursday friday",
            "saturday sunday hi hey hello dear thanks regards 저희 우리 당사 우리회사",
            # a posting's own tags ("[급구]", "[알바]")
            "급구 구인 구함 알바 아르바이트 단기 긴급채용 상시채용 수시채용",
            # English short forms and function words a capitalised line starts with
            "jan feb mar apr jun jul aug sep sept oct nov dec mon tue tues wed thu thur",
            "thurs fri sat sun at in on for the a an we our us you your join with this",
            "we're we’re i'm i’m we've",
            # more job boards, messengers and mail services a text is pasted from
            "로켓펀치 널스잡 메디잡 점핏 잡다 워크넷 고용24 나라일터 슈퍼루키 커리어리 인디드",
            "indeed glassdoor rocketpunch jumpit 카카오톡 카톡 알림톡 문자 메일 이메일 gmail",
            "슬랙 slack 디스코드 discord 텔레그램 telegram 인스타그램 instagram 블로그",
            "대화 대화방 단톡방 오픈채팅 채팅방 kakaotalk",
        )
    ).split()
)
_JOB_WORD = re.compile(
    r"개발자|엔지니어|디자이너|기획자|마케터|매니저|분석가|연구원|간호사|약사|영양사|"
    r"(?i:engineer|developer|designer|manager|analyst|associate|specialist|architect)"
)
# English words of a role, its level or a mail's subject, never of a company's name ("Senior
# Data Scientist", "Customer Success Lead", "Interview Schedule Confirmation").
_EN_NOT_NAME = re.compile(
    r"(?i:\b(?:senior|junior|lead|head|chief|principal|staff|intern(?:ship)?|manager|engineer|"
    r"developer|designer|scientist|analyst|specialist|representative|associate|coordinator|"
    r"officer|director|consultant|writer|editor|owner|assistant|agent|architect|recruiter|"
    r"executive|success|interview|schedule|confirmation|application|applying|invitation|"
    r"reminder|update|offer|thank|thanks|position|role|opening|job|team|the|our|this)\b)"
)
# A research institute, not a researcher: a longer name ending in 연구원 ("한국전자통신연구원").
_INSTITUTE = re.compile(r"^[가-힣]{4,}연구원$")
_LABEL = re.compile(
    # a search firm's client ("■ 고객사: 대성글로벌로지스틱스") is the employer too
    r"(?im)^[^\S\n]*(?:[■□▶•·\-*○◆]\s*)?(?:회사\s*명|기업\s*명|기업\s*정보|회사|고객사|company|client)"
    r"[^\S\n]*[:：|]?[^\S\n]+"
    r"([^\n·|,(]{2,40})"
)
# a search firm's client named in a sentence ("진행 중인 고객사 동진케미칼(코스닥 상장)의 …")
_CLIENT = re.compile(
    r"고객사(?:인|는|의)?[^\S\n]+([가-힣A-Za-z0-9&]{2,30}?)(?=[^\S\n]*[(（]|의[^\S\n]|에서)"
)
_NOTICE = re.compile(r"(?m)^[^\S\n]*(\S{2,30})[^\S\n]+공고[^\S\n]*제?[^\S\n]*\d")
# (not a legal form glued to the name before it: "동해조선해양㈜ 거제조선소" is 동해조선해양's)
_CORP_BEFORE = re.compile(
    r"(?<![가-힣A-Za-z0-9&.\-])(?:\(주\)|㈜|주식회사)[^\S\n]*([가-힣A-Za-z0-9&.\-]{2,30})"
)
# a legal form glued to the name after it ("웹에이전시 (주)이노크리에이티브") is that name's
_CORP_AFTER = re.compile(
    r"([가-힣A-Za-z0-9&.\-]{2,30})[^\S\n]*(?:\(주\)|㈜|주식회사)(?![가-힣A-Za-z])"
)
_BRACKET = re.compile(r"[\[【]\s*([^\]】\n]{2,30}?)\s*[\]】]")
_DOT_PLACE = re.compile(r"(?m)^[^\S\n]*([^\n·|]{2,40}?)[^\S\n]+·[^\S\n]+(?!\d)\S")
# A job card's line: the organisation, then where ("Henkel Korea | Seoul | Full-time",
# "토스뱅크 | 서울 강남구 | 정규직").
_PIPE_PLACE = re.compile(
    r"(?m)^[^\S\n]*([^\n·|]{2,40}?)[^\S\n]+[|｜][^\S\n]+"
    r"(?:서울|부산|인천|대구|대전|광주|울산|세종|경기|판교|성남|수원|"
    r"(?i:seoul|busan|incheon|pangyo|seongnam|daejeon|remote|hybrid))\b"
)
_SENDER = re.compile(
    r"(?im)^[^\S\n]*(?:보낸\s*사람|from)[^\S\n]*[:：][^\S\n]*([^<\n]{2,40}?)[^\S\n]*(?:<|$)"
)
# A signature or a sender's team: "— 에이블커넥트 인사팀", "토스 채용팀 드림",
# "Acme Recruiting Team".
_HR_UNIT = re.compile(
    r"(?m)(?:^|(?<=[—–\-\[(,.!\]】]))[^\S\n]*"
    r"((?:[가-힣A-Za-z0-9&]{2,30}[^\S\n]+){0,2}[가-힣A-Za-z0-9&]{2,30})[^\S\n]+"
    r"(?:인사\s*(?:팀|부|담당자?)|채용\s*(?:팀|담당자?)|"
    r"HR\s*팀|(?i:people\s+team|talent\s+acquisition|recruiting\s+team|hr\s+team))"
)
# The organisation naming itself: "저희 대성정밀은 …", "우리 라임스퀘어에서 …".
_SELF = re.compile(
    r"(?:저희|우리)[^\S\n]+([가-힣A-Za-z0-9&]{2,30}?)(?:은|는|에서|의|이|가)?(?=[^\S\n])"
)
_AT = re.compile(
    r"(?:\b[Aa]t|—|–|\b[Jj]oin|\b[Ww]ith|\bfrom|"
    # "the Seoul branch of Meridian Capital Partners", "our Korea office of …"
    r"\b(?:branch|office|subsidiary|team)[^\S\n]+of(?:[^\S\n]+the)?)"
    r"[^\S\n]+([A-Z][\w&.\-]*(?:[^\S\n]+[A-Z][\w&.\-]*){0,3})"
    r"|([A-Z][\w&.\-]*(?:[^\S\n]+[A-Z][\w&.\-]*){0,3})[^\S\n]+(?:is|are)[^\S\n]+"
    r"(?:hiring|a\b|an\b|one\b|looking[^\S\n]+for|seeking|searching[^\S\n]+for)"
)
# The place that hires, in a sentence about hiring: "오브제에서 함께할 그래픽 디자이너를
# 찾습니다", "늘봄요양병원에서 함께 근무하실 …을 모십니다", "픽셀베어 스튜디오에서 … 찾습니다".
_HIRES_AT = re.compile(r"(?<![가-힣A-Za-z0-9&])([가-힣A-Za-z0-9&]{2,30})에서(?=[^\S\n])")
_HIRING_WORDS = re.compile(
    r"함께|같이|근무|일하|일할|찾(?:습|아|고|는)|모십|모셔|모시|모집|채용|구합|구해|구인|합류|"
    r"(?i:hiring|looking\s+for)"
)
_SENTENCE = re.compile(r"[^.!?\n]+")
# What a text says the organisation is: "하루는 … 식품 회사입니다", "오브제는 브랜딩
# 스튜디오예요" (the sentence's topic, before an organisation's kind and a copula).
_DEFINES = re.compile(
    r"^[^\S\n]*([가-힣A-Za-z0-9&]{2,30})(?:은|는)[^\S\n].*"
    r"(?:회사|기업|브랜드|스타트업|스튜디오|법인|기관|단체|에이전시|병원|학교)"
    # ("…전문 제조기업으로, … 생산하고 있습니다": the kind said on the way)
    r"(?:(?:입니다|이에요|예요|이다)[^\S\n]*$|(?:으로서|으로|로서|이며)[,\s])"
)
# The subject of a hiring verb: "… 운영하는 하루가 온라인 MD를 찾습니다".
_HIRING_SUBJECT = re.compile(
    r"(?<![가-힣A-Za-z0-9&])([가-힣A-Za-z0-9&]{2,30}[이가])[^\S\n]+(?:\S+[^\S\n]+){0,5}?"
    r"(?:찾습니다|찾아요|찾고[^\S\n]+있|모십니다|모셔요|채용합니다|모집합니다|구합니다)"
)
# A Korean person's name: a common surname and one or two syllables ("김태오", "이정민").
_PERSON = re.compile(f"[{''.join(sorted(SURNAMES))}][가-힣]{{1,2}}")
# Who forwards a posting, not who offers it: a campus career centre, a club's notice room,
# a community board ("[한국대 취업지원센터] 채용정보 공유", "[취업동아리 공지방]").
_FORWARDER = re.compile(
    r"취업\s*(?:지원|진로|경력)?\s*(?:센터|팀|처|본부|과|지원실)|커리어\s*(?:센터|개발)|경력개발|"
    r"공지방|단톡|오픈\s*채팅|동아리|커뮤니티|게시판|뉴스레터|채용\s*정보\s*공유|"
    # job sites that carry a posting ("[잡알리오] 한국농촌에너지공단 … 채용 공고")
    r"^(?:사람인|잡코리아|원티드|인크루트|잡알리오|알바몬|알바천국|워크넷|고용24|나라일터|잡플래닛|"
    r"리멤버|로켓펀치|점핏|캐치|링커리어|슈퍼루키|자소설닷컴|잡다|(?i:linkedin|wanted|saramin|"
    r"jobkorea|indeed|glassdoor|rocketpunch))$|"
    r"(?i:career\s+(?:center|services|office))"
)
# Where a forwarder shows itself: the message's head, its bracket, its sender (a title or a
# sentence naming "커뮤니티 매니저" or "뉴스레터 에디터" is a job, not a channel).
_CHANNEL_KINDS = frozenset({"bracket", "finder", "alone", "sender", "place"})
# A legal form that leads the name and stays in it: "법무법인 세움", "특허법인 다온".
_FORM_NAME = re.compile(r"((?:법무|특허|세무|노무|관세)법인[^\S\n]+[가-힣A-Za-z]{1,10})")
# Introducing itself: "안녕하세요, 브랜딩 스튜디오 오브제입니다", "메이트랩 대표 윤도현입니다",
# "페이플러스 채용팀입니다" (the word before a role or the hiring function is the name).
_INTRO = re.compile(
    r"(?<![가-힣A-Za-z0-9&])([가-힣A-Za-z0-9&]{2,30})(?:입니다|이에요|예요)(?![가-힣])"
)
# Workplaces a hiring sentence names with 에서 that are no organisation.
_WORKPLACES = frozenset(
    " ".join(
        (
            "회사 본사 당사 저희 우리 현장 매장 사무실 본점 지점 공장 센터 병원 학교 팀 부서",
            "곳 이곳 여기 서울 한국 국내 해외 현지 온라인 오프라인 재택",
            # kinds of workplace ("저희 요양원에서", "우리 학원은"): what, not who
            "요양원 요양병원 의원 치과 약국 학원 어린이집 유치원 식당 가게 카페 호텔 기관",
            "업체 법인 연구소 연구실 사업장 점포 공단 재단 협회",
        )
    ).split()
)
_WEIGHTS = {
    "hires": 3.0,
    "intro": 3.0,
    "self": 3.0,
    "legal": 4.0,
    "label": 4.0,
    "notice": 4.0,
    "place": 3.0,
    "finder": 2.0,
    "sender": 2.0,
    "bracket": 1.5,
    "title": 2.0,
    "alone": 2.0,
    "branch": 2.0,
    "signature": 2.0,
    "english": 2.0,
    "proper": 1.5,
    "coined": 1.5,
    "domain": 3.0,
    "suffix": 1.0,
    "operator": 1.0,
}


@dataclass
class _Candidate:
    name: str
    evidence: set[str] = field(default_factory=set)
    first: int = 10**6


def undecorated(text: str) -> str:
    """The text without emoji, arrows and bullets (each a space)."""
    return _DECORATION.sub(" ", text)


def normalise(value: str, named: bool = False) -> str | None:
    """An organisation's name as a candidate: no legal form, no decoration, no aside in
    brackets, no team or office words after it ("네이버웹툰 글로벌사업팀" -> "네이버웹툰",
    "삼일회계법인(삼일PwC)" -> "삼일회계법인", "Coupang Careers" -> "Coupang"); None when
    nothing of a name is left. `named`: a legal form names it ("주식회사 데이터온다"), so a
    one-word name that reads like a sentence to Kiwi is still a name."""
    if value.lstrip().startswith("#"):
        return None  # "#의료기기 #RA": a hashtag names a topic
    value = _UNIT_AFTER_COMMA.sub("", _LEGAL.sub(" ", undecorated(value)))
    value = _ASIDE.sub(" ", value)
    value = _LEGAL_LATIN.sub("", value.strip())
    words = [w.strip(_PUNCT) for w in value.split()]
    words = [w for w in words if w]
    cut = next((n for n, w in enumerate(words) if _HR_FUNCTION.match(w)), len(words))
    words = words[:cut]  # "채용담당 최수진": nothing of a name before the function word
    store = next(
        (n for n, w in enumerate(words) if n and (_BRANCH_ONLY.fullmatch(w) or _branch_word(w))),
        len(words),
    )
    words = words[:store]  # "신세화백화점 대구점 식품관": the company before its store
    while len(words) > 1 and (
        _UNIT.match(words[-1]) or (words[-1].lower() in _NOT_ORG and words[-1].lower() != "korea")
    ):
        unit = words.pop()
        if len(words) > 1 and re.fullmatch(r"[A-Z]{1,4}", words[-1]) and unit.isascii():
            words.pop()  # a unit's code before it: "Samsung Electronics DS Division"
    if len(words) >= 2 and _PLACE_SUFFIX.search(words[0]):
        stem = _PLACE_SUFFIX.sub("", words[0])
        if len(stem) >= 2 and words[1].startswith(stem):
            words = words[1:]  # "부산광역시 부산시설공단": the name says its place
    if len(words) >= 2 and _METROPOLIS.fullmatch(words[0]) and _INSTITUTION_END.search(words[-1]):
        words = words[1:]  # "서울특별시 120다산콜재단": where the institution is, not its name
    # the head of an institution signs for it ("한빛고등학교장", "수원병원장", "○○공단 이사장")
    if words and re.search(r"(?:학교|병원|의료원|공단|공사|재단|센터|회관)(?:이사)?장$", words[-1]):
        words[-1] = re.sub(r"(?:이사)?장$", "", words[-1])
    name = " ".join(words)
    if not 2 <= len(name) <= 30 or not re.search(r"[가-힣A-Za-z]", name):
        return None
    if name.lower() in _NOT_ORG or all(w.lower() in _NOT_ORG for w in words):
        return None
    if re.search(r"20\d{2}|\d{1,2}[:./]\d|\d\s*(?:월|일|시)|@|https?:|\.co\b|\.com\b", name):
        return None  # a date, a time, an address
    if re.search(r"\d\s*(?:년|개월|명|세)|이상$|이하$", name):
        return None  # a requirement or a headcount ("경력 2년 이상", "2명")
    # "법무법인 세움", "디자인스튜디오 오름": the kind of organisation, then its one-word name
    # (which Kiwi may read as a verb: 오름, 세움)
    kind_then_name = (
        len(words) == 2
        and bool(ORG_END.search(words[0]))
        and len(words[1]) <= 6
        and not any(
            t.tag in ("EP", "XSV", "XSA", "VX") or (t.tag == "EF" and t.form not in ("ᆷ", "음"))
            for t in analysed(words[1])
        )
    )
    one_name = " " not in name or _FORM_NAME.fullmatch(name) is not None
    if not ((named and one_name) or kind_then_name) and any(t.tag == "EF" for t in analysed(name)):
        return None  # a sentence ("서류 접수는 … 마감입니다")
    if _JOB_WORD.search(name) and not _INSTITUTE.search(name):
        return None
    return name


# An aside in brackets inside a name ("삼일회계법인(삼일PwC)", an unclosed "정규직(연구직").
_ASIDE = re.compile(r"\([^)\n]*\)?")

# What ends the name of a district or a city ("성동구", "성수동"; not "컬리": two syllables).
_PLACE_END = re.compile(r"\S{2,}(?:특별시|광역시|[시도군구동읍면])$")


# A workplace label: the name after it is a place ("근무지 부산", "Location: Seoul").
_LOCATION_LABEL = re.compile(
    r"(?:근무\s*(?:지역?|장소|위치)|소재지|주소|위치|(?i:location|office|based\s+in))[^\S\n]*[:：]?[^\S\n]*"
)


def _of_a_store(value: str) -> bool:
    """ "올리브영 홍대입구역점": a name before one of its stores, whatever Kiwi reads the name
    as (a brand of common words)."""
    words = value.split()
    return len(words) >= 2 and _BRANCH_ONLY.fullmatch(words[-1]) is not None


def _common_word(name: str) -> bool:
    """One word Kiwi knows as a common noun ("핀테크", "스튜디오", "주요"): a descriptor
    before a name, not the name."""
    tokens = analysed(name)
    return len(tokens) == 1 and tokens[0].tag == "NNG" and not tokens[0].oov


def _descriptor(name: str) -> bool:
    """What Kiwi reads as common words ("대기업", "신입사원", "오늘(금)") or a predicate
    ("안녕하세요"): no proper noun, no word it does not know, no phrase glued into a name
    ("우아한형제들")."""
    tokens = [t for t in analysed(name) if not t.tag.startswith("S")]
    if not tokens:
        return not re.search(r"[A-Za-z]", name)  # "KT" is a name, "2026" is not
    if any(t.tag in ("EF", "EC") for t in tokens):
        return True
    return all(t.tag in ("NNG", "NNB", "XPN", "XSN", "MM", "MAG") and not t.oov for t in tokens)


def _industry_words(name: str) -> bool:
    """A word ending like a company whose stem is a number or common nouns of a trade
    ("4대보험", "추천시스템", "무선통신"), unless the ending names an institution; a stem
    Kiwi reads otherwise ("한결식품": an adverb) may be a name."""
    end = ORG_END.search(name)
    if end is None or _INSTITUTION_END.search(name):
        return False
    stem = name[: end.start()].strip()
    tokens = analysed(stem) if stem else ()
    return bool(re.search(r"\d", stem)) or (
        bool(tokens) and all(t.tag == "NNG" and not t.oov for t in tokens)
    )


def _place(name: str) -> bool:
    """A district or a city Kiwi knows as a proper noun ("서울 성동구", "성수동"): where
    the job is, not who offers it."""
    if name in _REGIONS or (name.split()[0] in _REGIONS and _PLACE_END.search(name)):
        return True  # "서울 · 경력 3년", "경기 성남시"
    last = analysed(name.split()[-1])
    if len(name.split()) == 2 and name.split()[0] in _REGIONS:
        # "[경기 이천]": a province and a city Kiwi knows by name
        return len(last) == 1 and last[0].tag == "NNP" and not last[0].oov
    return (
        len(last) == 1
        and last[0].tag == "NNP"
        and not last[0].oov
        and bool(_PLACE_END.search(name))
    )


def _name_like(name: str) -> bool:
    """A name, not a common word: Latin letters, a proper noun to Kiwi or a word it does
    not know (a coined name: "라임스퀘어", "위드플로우"), or an organisation's ending after
    more than the ending; several words pass (a title's "스튜디오 오월")."""
    if " " in name or re.search(r"[A-Za-z]", name):
        return True
    if _common_word(name):
        return False
    if ORG_END.search(name):
        return True
    return any(t.tag == "NNP" or t.oov for t in analysed(name))


def _topic_or_object_off(word: str) -> str:
    """The word without a final 은/는/을/를 where it can be that particle: 은/을 after a
    final consonant, 는/를 after a vowel ("다온은" -> "다온", "누리를" -> "누리"); a name whose
    last syllable cannot be that particle stays whole ("하지은", "하나은")."""
    if len(word) < 3 or word[-1] not in "은는을를":
        return word
    closed = final_consonant(word[:-1]) is not None
    return word[:-1] if closed == (word[-1] in "은을") else word


def _without_particles(word: str, endings: bool = True) -> str:
    """A word without the particles (and, with `endings`, the endings) Kiwi reads after it
    ("하이퍼루프랩에서" -> "하이퍼루프랩", "'비비드'가" -> "비비드"); the word itself when
    Kiwi's forms are not in it."""
    dropped = ("J", "E", "S") if endings else ("J", "S")
    # letters, digits and Hanja are of the name ("Sh수협은행", "120다산콜재단"); symbols not
    kept = "".join(
        t.form
        for t in analysed(word)
        if not t.tag.startswith(dropped) or t.tag in ("SL", "SN", "SH")
    )
    return kept if kept and kept in word else word


_PUNCT = " ,.:：-–—|·'\"“”‘’()[]【】「」『』<>!?"
# Words beside a person's name: a role or an honorific ("채용담당 최수진", "김하늘 매니저",
# "박지훈 드림", "이서연님").
_ROLE = re.compile(
    r"^(?:담당자?|매니저|대리|과장|차장|부장|팀장|실장|본부장|대표|사원|주임|선임|책임|수석|"
    r"드림|올림|님|(?i:recruiter|manager))$"
)


def _proper_nouns(lines: list[str]) -> list[tuple[str, str, int]]:
    """Space-separated words holding a proper noun (Kiwi NNP) or a coined word (a noun
    Kiwi does not know, three syllables or more: "에이블헬스케어") in the head lines,
    without their particles, as ("proper" | "coined", word, offset); a following word
    ending like an organisation joins it ("딜로이트 안진회계법인", "그린필드 파트너스")
    unless Kiwi knows it as a common noun ("물류"). A word beside a role or an honorific
    is a person ("채용담당 최수진", "김하늘 매니저")."""
    found: list[tuple[str, str, int]] = []
    offset = 0
    for line in lines:
        words = line.split()
        n = 0
        while n < len(words):
            tokens = analysed(words[n])
            proper = any(t.tag == "NNP" for t in tokens)
            coined = any(
                t.tag == "NNG" and t.oov and len(t.form) >= 3 and _HANGUL.search(t.form)
                for t in tokens
            )
            before = words[n - 1].strip(_PUNCT) if n else ""
            following = words[n + 1].strip(_PUNCT) if n + 1 < len(words) else ""
            person = (
                _HR_FUNCTION.match(before)
                or _ROLE.match(before)
                or _ROLE.match(_without_particles(following))
                or words[n].strip(_PUNCT).endswith("님")
            )
            if (proper or coined) and not person and not any(t.tag.startswith("V") for t in tokens):
                name = _without_particles(words[n])
                # "딜로이트 안진회계법인", "그린필드 파트너스"; not a common noun ("컬리 물류")
                if ORG_END.search(following) and not _common_word(following):
                    name = f"{name} {words[n + 1]}"
                    n += 1
                found.append(("proper" if proper else "coined", name, offset))
            n += 1
        offset += len(line) + 1
    return found


# An e-mail address's domain ("talent@lumenmobility.com" -> "lumenmobility"), not a mail
# service's or a job site's.
_MAIL_DOMAIN = re.compile(r"[\w.+-]+@([A-Za-z0-9-]+)\.[A-Za-z.]+")
# A link's host: "https://medivue.co.kr/careers", "www.bluepeak.com/jobs".
_SITE = re.compile(r"(?i)(?:https?://|(?<![\w.@])(?=www\.))([a-z0-9.-]+\.[a-z]{2,})")
# The public suffixes a host ends with: its own name is the label before them.
_SUFFIX_LABELS = frozenset(
    {"com", "co", "kr", "net", "org", "io", "ai", "so", "me", "gle", "ly", "ac", "or", "go"}
    | {"re", "biz", "info", "jp", "us"}
)


def _site_name(host: str) -> str | None:
    """ "careers.medivue.co.kr" -> "medivue", "docs.google.com" -> "google"."""
    labels = [x for x in host.lower().split(".") if x]
    while labels and labels[-1] in _SUFFIX_LABELS:
        labels.pop()
    return labels[-1] if labels else None


_MAIL_SERVICES = frozenset(
    " ".join(
        (
            "gmail naver daum hanmail nate kakao outlook hotmail yahoo icloud live me mail",
            "saramin jobkorea wanted incruit linkedin greenhouse lever workday",
            # where a link goes that is no employer: forms, notes, short links, social
            # media, job boards and hiring tools
            "google forms notion bit youtube instagram facebook twitter x github tally",
            "typeform ninehire greetinghr jumpit rocketpunch remember programmers catch",
            "jasoseol linkareer albamon alba worknet work24 gov jobplanet blind tistory",
            "velog medium brunch kakaocorp",
        )
    ).split()
)


def _mail_domains(text: str) -> set[str]:
    """The organisations' own domains the text's mail addresses and links are at (not a
    mail service's or a job site's): "recruit@bluepeak.co.kr", "https://medivue.co.kr/careers"."""
    found = [m.group(1) for m in _MAIL_DOMAIN.finditer(text)]
    found += [name for m in _SITE.finditer(text) if (name := _site_name(m.group(1)))]
    return {d.lower() for d in found if d.lower() not in _MAIL_SERVICES}


_HIRING = re.compile(r"채용|모집|공채|구인")
_HIRING_OR_NUMBER = re.compile(r"채용|모집|공채|구인|신입|경력|\d")


_MAIL_HEADER = re.compile(r"(?i)^(?:subject|re|fwd?|제목)\s*[:：]")


def _title(lines: list[str]) -> list[tuple[str, str]]:
    """The first line's name: the whole line when it is a short name alone ("리브랩스"),
    else its first part before "|", "·" or a hiring word, else the leading word of a part
    that announces a hiring ("서류 ~4/17 | … — 위드플로우 백엔드 개발자 채용")."""
    if not lines:
        return []
    first = lines[0].strip()
    if _MAIL_HEADER.match(first):
        return []  # "Subject: Interview Invitation – …", "제목: …": what the mail is about
    # a leading tag that is not a name ("[알림]", "[취준 단톡 공유]") is not the title
    # (nor a region's tag before a public body's name: "[경기] 안성시시설관리공단 … 공고")
    while (tag := _BRACKET.match(first)) and (
        (name := normalise(tag.group(1))) is None
        or (_descriptor(name) and not _of_a_store(tag.group(1)))
        or _FORWARDER.search(name)
        or _place(name)
    ):
        first = first[tag.end() :].strip()
    parts = re.split(r"\s[|｜·—–]\s", first)
    found: list[tuple[str, str]] = []
    # a name of up to three words, four in Latin script ("Bain & Company Seoul – …")
    latin = not _HANGUL.search(parts[0])
    if len(parts) > 1 and len(parts[0].split()) <= (4 if latin else 3):
        found.append(("alone", parts[0]))  # "우아한형제들 채용 | 배민 커리어"
        if _HR_FUNCTION.match(parts[1].strip()):
            found.append(("title", parts[0]))  # "Lumière Hotels & Resorts | Careers"
    elif len(first.split()) <= 2 and not re.search(r"채용|모집|공채|공고", first):
        return [("alone", first)]  # a name alone on its line ("리브랩스")
    elif (
        latin
        and len(first.split()) <= 4
        and all(w[:1].isupper() or not w[:1].isalpha() for w in first.split())
        and not _JOB_WORD.search(first)
        and not _EN_NOT_NAME.search(first)
        and not _HR_FUNCTION.match(first.split()[-1])
    ):
        return [("alone", first)]  # "Northwind Logistics Korea" alone on its line
    # "풀무원 2027 상반기 신입사원 채용", "하이퍼루프랩에서 Data Scientist를 채용합니다": the
    # leading word, without its particles, of the part that announces the hiring, else of
    # the line
    for part, announces in [(p, _HIRING) for p in parts] + [(first, _HIRING_OR_NUMBER)]:
        words = part.split()
        lead = _leading_words(words)
        if len(words) > lead and announces.search(" ".join(words[lead:])):
            name = " ".join([*words[: lead - 1], _without_particles(words[lead - 1], False)])
            return [*found, ("title", name)]
    return found


# An institution named after the body it belongs to ("국민건강보험 일산병원").
_AFFILIATED_INSTITUTION = re.compile(r"^[가-힣]{2,}(?:병원|의원|의료원|대학교|학교)$")


def _leading_words(words: list[str]) -> int:
    """How many words lead a headline as its name: one, or a Latin name of up to four
    ("MUSE & CO. 판매 스태프 채용"; not "At Lumenfold, we are hiring")."""
    if (
        len(words) > 2
        and _HANGUL.search(words[0])
        and _AFFILIATED_INSTITUTION.search(words[1])
        and not _JOB_WORD.search(words[1])
    ):
        return 2  # "국민건강보험 일산병원 2027년 …", "경기도의료원 수원병원 …": both words
    lead = 1
    while (
        lead < min(4, len(words) - 1)
        and not _HANGUL.search(words[0] + words[lead])
        # joined by "&" ("MUSE & CO.", "Bain & Company"), a run in capitals ("CJ ENM"), or
        # an organisation's ending ("Moonstone Games"; not "Naver Webtoon Data Scientist")
        and (
            "&" in (words[lead], words[lead - 1])
            or (words[lead - 1].isupper() and words[lead].isupper())
            or ORG_END.fullmatch(words[lead].strip(_PUNCT)) is not None
        )
        and not words[lead - 1].endswith(",")
        and words[0].lower() not in _NOT_ORG
        and not _JOB_WORD.search(words[lead])
        and not _HR_FUNCTION.match(words[lead])
    ):
        lead += 1
    return lead


# What leads a hiring headline before the organisation: a year, a half, a season.
_HEADLINE_LEAD = re.compile(
    r"^(?:\d{2,4}(?:년|학년도)?|[상하]반기|[춘하추동]계|정기|수시|신입|경력)$"
)
_QUOTED = re.compile(r"['‘\"“「『]([^'’\"”」』\n]{4,60})['’\"”」』]")


def _headlines(lines: list[str]) -> list[tuple[str, str]]:
    """The organisation of a hiring headline below the first line or quoted in a sentence
    ("2026 카카오 신입 크루 공개채용", "'데브클래스 2026 상반기 서버 개발자 공채'"): its first
    word after a year or a season, when the rest announces the hiring."""
    spans = [m.group(1) for m in _QUOTED.finditer("\n".join(lines))]
    spans += [next((ln for ln in lines[1:] if _HIRING.search(ln)), "")]
    found = []
    for span in spans:
        words = span.split()
        while words and _HEADLINE_LEAD.match(words[0]):
            words = words[1:]
        lead = _leading_words(words) if words else 1
        if len(words) > lead and _HIRING.search(" ".join(words[lead:])):
            name = " ".join([*words[: lead - 1], _without_particles(words[lead - 1], False)])
            found.append(("title", name))
    return found


_METROPOLIS = re.compile(r"\S{2,}(?:특별시|광역시|특별자치시|특별자치도)")
# Who hires in a sentence without naming the organisation ("고객사가 …를 찾습니다",
# "대표님이 직접 …", "성장하는 스타트업이 …"): never a name.
# (the workplaces and the text's own words, 회사, 저희, 우리 …, are in _WORKPLACES)
_GENERIC_AGENTS = frozenset(
    {"고객사", "대표", "대표님", "사장님", "원장님", "기업", "스타트업", "분", "분들"}
    | {"클라이언트", "브랜드", "저", "제가", "팀장님", "담당자"}
)
# Who the text speaks of as itself ("우리 공단", "저희 매장"), never a name.
_SELF_WORDS = frozenset({"우리", "저희", "당", "본"})
# Kinds of store a word ending in 점 names, not one store of a company.
_STORE_KINDS = frozenset(
    {"편의점", "백화점", "음식점", "대리점", "가맹점", "직영점", "본점", "지점", "매점", "상점"}
    | {"서점", "면세점", "할인점", "전문점"}
)


def _branch_word(word: str) -> bool:
    """One store of a company, named by its place or its mall ("수원영통점", "성수점",
    "잠실롯데점"): a word ending in 점 whose stem Kiwi reads as a proper noun; never a kind of
    store ("편의점", "백화점") or a common noun ("관점", "문제점")."""
    if len(word) < 3 or not word.endswith("점") or " " in word:
        return False
    if any(word.endswith(kind) for kind in _STORE_KINDS):
        return False  # "대현백화점": a store of a kind, the company's own name
    tokens = analysed(word[:-1])
    return bool(tokens) and all(t.tag == "NNP" and not t.oov for t in tokens)


def _branches_of(lines: list[str]) -> list[tuple[str, str, int]]:
    """("branch", the word before a store's name, offset): "바로마트 수원영통점 농산 코너
    담당자", "오늘의빵집 성수점 매장 매니저"."""
    found, offset = [], 0
    for line in lines:
        for before, word in pairwise(re.finditer(r"\S+", line)):
            name = before.group(0).strip(_PUNCT)
            if (
                _branch_word(word.group(0).strip(_PUNCT))
                and not before.group(0).endswith((":", "："))  # "담당자: 영통점 점장"
                and len(re.findall(r"[가-힣A-Za-z]", name)) >= 2  # not "[D-5]"
                and _without_particles(name, endings=False) == name  # not "위치는 홍대점"
                and name.lower() not in _NOT_ORG
                and name not in _WORKPLACES
                and not _staff_word(name)
                and not _branch_word(name)
            ):
                found.append(("branch", name, offset + before.start()))
        offset += len(line) + 1
    return found


def _words_before(line: str, end: int) -> list[str]:
    return line[:end].split()


def _staff_word(word: str) -> bool:
    """A role, a team or a word of the hiring function ("대표", "인사팀", "Talent")."""
    return bool(_ROLE.match(word) or _HR_FUNCTION.match(word) or _UNIT.match(word))


def _hiring_places(lines: list[str]) -> list[tuple[str, str, int]]:
    """("hires" | "intro", name, offset): the place a sentence about hiring names with 에서,
    and the name a greeting introduces (before a role, or alone)."""
    found: list[tuple[str, str, int]] = []
    offset = 0
    for line in lines:
        for sentence in _SENTENCE.finditer(line):
            text = sentence.group(0)
            if _HIRING_WORDS.search(text):
                for m in _HIRES_AT.finditer(text):
                    name = m.group(1)
                    before = _words_before(text, m.start())
                    # "픽셀베어 스튜디오"; not "우리 공단에서": the text speaking of itself
                    # names nothing (the bare ending is dropped below)
                    if (
                        ORG_END.fullmatch(name)
                        and before
                        and before[-1].strip(_PUNCT) not in _SELF_WORDS
                    ):
                        name = f"{before[-1].strip(_PUNCT)} {name}"
                    found.append(("hires", name, offset + sentence.start() + m.start()))
            if defined := _DEFINES.match(text):
                # "하루는 제철 과일 디저트를 … 판매하는 식품 회사입니다": what the text says it is
                at = offset + sentence.start() + defined.start()
                found.append(("intro", defined.group(1), at))
            for m in _HIRING_SUBJECT.finditer(text):
                # "디저트 브랜드를 운영하는 하루가 온라인 MD를 찾습니다": who hires (not who
                # runs the place that does: "㈜하루식품이 운영하는 하루몰에서 …")
                name = _without_particles(m.group(1), endings=False)
                runs = text[m.end(1) :].lstrip().startswith("운영하는")
                if name != m.group(1) and not runs:
                    found.append(("hires", name, offset + sentence.start() + m.start()))
            for m in _INTRO.finditer(text):
                word = m.group(1)
                before = [w.strip(_PUNCT) for w in _words_before(text, m.start())]
                staff = [_staff_word(w) for w in before]
                if _staff_word(word) or (staff and staff[-1]):
                    # "페이플러스 채용팀입니다", "메이트랩 대표 윤도현입니다", "무신사 Talent
                    # Acquisition팀 박소연입니다": the word before the roles and teams
                    while staff and staff[-1]:
                        staff.pop()
                    name = before[len(staff) - 1] if staff else ""
                    rest = [w for w in before[: len(staff) - 1] if w and w != "안녕하세요"]
                    if name and _PERSON.fullmatch(name) and rest:
                        # "스튜디오 소온 김태오 실장입니다": a person's name before the role;
                        # the organisation is what stands before the person
                        name = " ".join(rest[-2:])
                elif re.match(r"\s*안녕하세요", text) or (before and before[0] == "안녕하세요"):
                    name = word  # "안녕하세요, 브랜딩 스튜디오 오브제입니다"
                else:
                    continue
                if name:
                    found.append(("intro", name, offset + sentence.start() + m.start()))
        offset += len(line) + 1
    return found


def rank(text: str, finder: str | None = None) -> str | None:
    """The organisation the text is about, or None when no candidate has evidence."""
    found = ranked(text, finder)
    if not found or found[0][1] < THRESHOLD:
        # nothing names it but the one site its mail or link is at ("지원: recruit@bluepeak.co.kr")
        domains = _mail_domains(undecorated(text))
        return domains.pop() if len(domains) == 1 else None
    name = found[0][0]
    if name.endswith("그룹") or name.lower().endswith(" group"):
        # a group's careers site ("신세계그룹 채용 | 계열사 소개 …") posting for one of its
        # affiliates, named by the posting's own headline ("2027 이마트 경력사원 채용")
        named = next(
            (
                n
                for n, score, evidence in found[1:]
                if score >= THRESHOLD and "title" in evidence and _name_like(n)
            ),
            None,
        )
        if named is not None:
            return as_always_written(named, undecorated(text))
    return _affiliate(name, undecorated(text)) or as_always_written(name, undecorated(text))


_PLACE_WORD = re.compile(r"([가-힣]{1,8}(?:특별시|광역시|특별자치도|시|군|구|도))[^\S\n]$")
_PLACE_SUFFIX = re.compile(r"(?:특별시|광역시|특별자치도|특별자치시|시|군|구|도)$")
_PUBLIC_END = re.compile(
    rf"(?:{_INSTITUTION_END.pattern[:-1]}|청|센터|도서관|복지관|체육회|문화재단)$"
)


def _is_place(word: str, times: int) -> bool:
    """Whether the word before a public body names a place: written before it more than
    once, or read as a proper noun ("수원시", "한빛구"), never an adverb or a common noun
    that happens to end in 시/군/구/도 ("반드시", "정도", "연구")."""
    if times >= 2:
        return True
    tokens = analysed(word)
    return bool(tokens) and tokens[0].tag == "NNP"


def as_always_written(name: str, text: str) -> str:
    """The name with the word the text writes beside it every time: a place before a
    public body ("한빛구 도시관리공단"), an organisation's ending after a name
    ("스테이지원 엔터테인먼트"); the name itself otherwise."""
    spots = [m.span() for m in re.finditer(re.escape(name), text)]
    if not spots:
        return name
    if _PUBLIC_END.search(name):
        places = {
            (p.group(1) if (p := _PLACE_WORD.search(text[max(0, a - 12) : a])) else None)
            for a, _ in spots
        }
        if (
            len(places) == 1
            and (place := places.pop())
            and _is_place(place, len(spots))
            # "부산광역시 부산시설공단", "서울특별시 서울의료원": the name says its place
            and not name.startswith(_PLACE_SUFFIX.sub("", place))
        ):
            name = f"{place} {name}"
    endings = {
        (
            e.group(1)
            if (e := re.match(r"[^\S\n]([가-힣A-Za-z]{2,12})(?![가-힣A-Za-z])", text[b : b + 14]))
            else None
        )
        for _, b in spots
    }
    if len(endings) == 1 and (end := endings.pop()) and ORG_END.fullmatch(end):
        name = f"{name} {end}"
    return name


_NAVIGATION = re.compile(r"^[^>\n]{1,20}(?:\s>\s[^>\n]{1,20}){2,}\s*$")
# A job site's list of other postings ("이 공고를 본 회원이 많이 본 공고 ▶ 하나은행 · …",
# "비슷한 공고", "People also viewed"): other employers, never this one.
_OTHER_POSTINGS = re.compile(
    r"(?:많이|함께|같이)\s*본\s*(?:채용\s*)?공고|(?:비슷한|유사한|추천|인기|다른)\s*(?:채용\s*)?공고|"
    r"(?i:people\s+also\s+viewed|similar\s+jobs|recommended\s+jobs|more\s+jobs\s+like)"
)
# "동원그룹 계열사 동원홈푸드에서", "한진그룹 계열사 진에어가": the group's affiliate hires
_AFFILIATE = (
    r"\s*(?:의\s*)?(?:계열사|자회사|관계사|그룹사)(?:인)?\s+([가-힣A-Za-z][가-힣A-Za-z0-9&]{1,20})"
)


_NOT_AFFILIATE = re.compile(r"(?:채용|모집|공개|신입|경력|사원|인재|및|전체|공동|통합)")


def _affiliate(name: str, text: str) -> str | None:
    """The affiliate a group's name introduces in the text, when the name is a group's."""
    if not name.endswith("그룹"):
        return None
    m = re.search(re.escape(name) + _AFFILIATE, text)
    if m is None:
        return None
    named = re.sub(r"(?:에서|에|이|가|은|는|을|를|의|와|과)$", "", m.group(1))
    if len(named) < 2 or _NOT_AFFILIATE.match(named) or not _name_like(named):
        return None  # "한진그룹 계열사 공개채용", "SK그룹 계열사 신입사원 모집"
    return named


# A site's business-information footer, which the law asks of every operator ("㈜하루리테일 |
# 대표: 정민우 | 사업자등록번호 …", "© GRAIN FOOD Co., Ltd."), and a sentence naming who runs
# a brand ("하루마트는 ㈜하루리테일이 운영하는 슈퍼마켓 브랜드입니다").
_BUSINESS_INFO = re.compile(
    r"(?m)^.*(?:(?:\|[^\S\n]*대표(?:이사|자)?|대표(?:이사|자)?[^\S\n]*[:：])[^\S\n]*[가-힣]{2,4}|"
    r"사업자[^\S\n]*(?:등록)?[^\S\n]*번호|통신판매|[©ⓒ]|(?i:all\s+rights\s+reserved)).*$"
)
_RUNS = re.compile(r"[^\s]{2,30}?(?:이|가)[^\S\n]+운영하는")


def _operators_yield(candidates: dict[str, _Candidate], text: str) -> None:
    """A name the text gives only as the operator (in the business-information footer, or
    as who runs a brand) yields to a name the posting presents itself by: its legal form
    and the header's reading no longer count, and it keeps an operator's small weight."""
    spans = [m.span() for m in _BUSINESS_INFO.finditer(text)]
    spans += [m.span() for m in _RUNS.finditer(text)]
    if not spans:
        return

    def operator(name: str) -> bool:
        at = [m.start() for m in re.finditer(re.escape(name), text)]
        return bool(at) and all(any(a <= i < b for a, b in spans) for i in at)

    operators = {name for name in candidates if operator(name)}
    if not any(
        name not in operators and c.evidence - {"proper", "coined", "suffix"}
        for name, c in candidates.items()
    ):
        return  # no other name presents the posting: the operator is the employer
    for name in operators:
        evidence = candidates[name].evidence
        if evidence & {"legal", "finder"}:
            evidence -= {"legal", "finder"}
            evidence.add("operator")


def ranked(text: str, finder: str | None = None) -> list[tuple[str, float, frozenset[str]]]:
    """Every candidate with its score and the kinds of evidence behind it, best first."""
    clean = undecorated(text)
    # a site's navigation ("덴탈잡 > 구인공고 > 경기", "홈 > 채용정보 > 생산·제조") names the
    # site and its menus, never the employer
    every = [
        ln
        for ln in clean.splitlines()
        if ln.strip() and not _NAVIGATION.search(ln) and not _OTHER_POSTINGS.search(ln)
    ]
    # the head, and the last lines where a mail signs and a page has its footer ("피플팀 |
    # 주식회사 오르빗랩스", "© 주식회사 로그프레임")
    lines = every[:HEAD_LINES] + every[max(HEAD_LINES, len(every) - TAIL_LINES) :]
    head = "\n".join(lines)
    proposals: list[tuple[str, str, int]] = []
    for kind, pattern in (
        ("legal", _CORP_BEFORE),
        ("legal", _CORP_AFTER),
        ("legal", _FORM_NAME),
        ("label", _LABEL),
        ("label", _CLIENT),
        ("notice", _NOTICE),
        ("bracket", _BRACKET),
        ("place", _DOT_PLACE),
        ("place", _PIPE_PLACE),
        ("sender", _SENDER),
        ("sender", _HR_UNIT),
        ("english", _AT),
        ("self", _SELF),
        ("branch", _BRANCH_OF),
        ("signature", _SIGNATURE),
        ("signature", _SIGN_OFF),
    ):
        for m in pattern.finditer(head):
            value = next((g for g in m.groups() if g), None)
            if value:
                proposals.append((kind, value, m.start()))
    proposals += [(kind, value, 0) for kind, value in _title(lines)]
    proposals += [(kind, value, head.find(value)) for kind, value in _headlines(lines)]
    proposals += [
        ("suffix", m.group(0), m.start())
        for m in re.finditer(r"[가-힣A-Za-z0-9&]{3,30}", head)
        if ORG_END.search(m.group(0)) and not ORG_END.fullmatch(m.group(0))
    ]
    proposals += _proper_nouns(lines)
    proposals += _hiring_places(lines)
    proposals += _branches_of(lines)
    # the address's domain as the text spells it ("quillbridge" -> "Quill Bridge")
    domains = _mail_domains(clean)
    for domain in domains:
        spelt = r"[\s&.\-]?".join(map(re.escape, domain))
        for m in re.finditer(rf"(?<![A-Za-z@]){spelt}(?![A-Za-z.])", head, re.I):
            proposals.append(("domain", m.group(0), m.start()))
    if finder:
        proposals.append(("finder", finder, head.find(finder) if finder in head else 0))
    candidates: dict[str, _Candidate] = defaultdict(lambda: _Candidate(""))
    for kind, value, at in proposals:
        if kind in _CHANNEL_KINDS and _FORWARDER.search(value):
            continue  # "[한국대 취업지원센터]": who forwards the posting
        if kind == "proper" and " " in value and _FORWARDER.search(value.split()[0]):
            value = value.split(" ", 1)[1]  # "잡알리오 한국농촌에너지공단": the site, then the name
        if kind == "legal":  # "㈜셀트리온은 …", "법무법인 다온에서": the name without its particle
            *lead, last = value.strip().split(" ")
            bare = _without_particles(last, endings=False)
            if bare == last and lead:
                # a name Kiwi reads as a verb ("해온에서"): the particle off its end
                bare = _topic_or_object_off(re.sub(r"(?<=..)(?:에서|에게|으로)$", "", last))
            value = " ".join([*lead, bare])
        name = normalise(value, named=kind == "legal")
        if name is None:
            continue
        if kind in ("hires", "intro", "self") and (_UNIT.match(name) or name in _WORKPLACES):
            continue  # "한국 지사에서 …", "우리 매장에서 함께 …": a workplace, not a name
        if kind in ("english", "finder") and _EN_NOT_NAME.search(name):
            continue  # "The Company is looking for …", "Data Platform Team is hiring"
        if kind in ("hires", "intro", "finder") and (name in _GENERIC_AGENTS or _staff_word(name)):
            continue  # "고객사가 … 찾습니다", "대표님이 직접 …": who, not which organisation
        if kind == "signature" and (
            _PERSON.fullmatch(name) or _TEAM.search(name) or _UNIT.match(name)
        ):
            continue  # "김민지 팀장 드림", "마케팅팀 팀장 드림": a person or a team signs
        if kind != "legal" and _branch_word(name):
            continue  # "수원영통점", "성수점": a store of the company, not its name
        if kind == "intro" and (
            _RECRUITER.search(name)
            or (_PERSON.fullmatch(name) and _RECRUITER.search(head[max(0, at - 12) : at]))
        ):
            continue  # "헤드헌터 최승우입니다", "이정훈 컨설턴트입니다": the person who writes
        if kind in ("self", "proper", "coined") and _TEAM.search(name):
            continue  # "저희 기업법무팀은 …": a team of the organisation, not its name
        if kind != "legal" and _DEPARTMENT.search(name):
            continue  # "[진단검사의학과] 임상병리사 채용": a hospital's or a school's department
        if kind == "label" and " " in name and _descriptor(name):
            continue  # "고객사: 국내 시공능력평가 20위권 종합건설사": who it is, not its name
        if (
            kind == "bracket"
            and not _of_a_store(value)
            and not (_name_like(name) and not _descriptor(name))
        ) or (kind == "title" and _descriptor(name)):
            continue  # "[경제]", "주요 대기업 …": a common word, not a name
        if kind in ("proper", "coined") and "·" in name:
            continue  # "교정·교열", "오픈·마감조": nouns listed with a middle dot
        if _BRANCH_ONLY.fullmatch(name):
            continue  # "홍대입구역점", "부산지점": a branch of the company, not its name
        if ORG_END.fullmatch(name):
            continue  # "파트너스", "스튜디오" alone: an organisation's ending, not its name
        if kind == "suffix" and _industry_words(name):
            continue  # "추천시스템", "무선통신", "4대보험": what a company does, not who it is
        if (kind == "suffix" and _common_word(name)) or (
            kind not in ("legal", "label", "notice") and _place(name)
        ):
            continue  # "핀테크 기업 '머니버스'": a descriptor; "서울 성동구 · 경력": a place
        candidate = candidates[name]
        candidate.name = name
        candidate.evidence.add(kind)
        candidate.first = min(candidate.first, at)
    # "근무지: 부산 해운대구": what follows a workplace label is where the job is, not who
    # offers it (unless a legal form, a label or a notice names it too)
    after_labels = [clean[m.end() : m.end() + 40] for m in _LOCATION_LABEL.finditer(clean)]
    for name, c in list(candidates.items()):
        if c.evidence.isdisjoint(("legal", "label", "notice", "title", "alone", "self")) and any(
            after.startswith(name) for after in after_labels
        ):
            del candidates[name]
    # who speaks in a pasted chat ("수아: 야 나 내일 면접이야" on two lines or more) is a person
    speakers = re.findall(r"(?m)^[^\S\n]*([^\s:：]{1,12})[^\S\n]*[:：][^\S\n]*\S", clean)
    # (or a messenger's copy: the speaker and the time on a line, "민지 오후 9:12")
    speakers += [h.group(1) for ln in clean.splitlines() if (h := SPEAKER_HEADER.match(ln))]
    for name in {n for n in speakers if speakers.count(n) >= 2}:
        candidates.pop(name, None)
    # one name in two cases ("MOONRISE GAMES" and "Moonrise Games"): one candidate with
    # both's evidence, spelt as a sentence writes it (not in capitals)
    for loud in [c for c in candidates.values() if c.name.isupper()]:
        quiet = next(
            (
                o
                for o in candidates.values()
                if o is not loud and o.name.lower() == loud.name.lower()
            ),
            None,
        )
        if quiet is not None:
            quiet.evidence |= loud.evidence
            quiet.first = min(quiet.first, loud.first)
            candidates.pop(loud.name, None)
    if not candidates:
        return []
    _operators_yield(candidates, clean)
    # a city before an institution it names is where the institution is ("서울특별시
    # 세종문화회관 … 채용 공고"); alone, the city hires ("서울특별시 공무직 채용 공고")
    for city in [c for c in candidates if _METROPOLIS.fullmatch(c)]:
        after = [_LEGAL.sub("", w) for w in re.findall(re.escape(city) + r"[^\S\n]+(\S+)", clean)]
        if after and all(any(w.startswith(o) for o in candidates if o != city) for w in after):
            del candidates[city]
    # the sender's address names the organisation ("talent@lumenmobility.com")
    for domain in domains:
        for c in candidates.values():
            spelt = re.sub(r"[^a-z0-9]", "", c.name.lower())
            # "Orion Strategy Group" of orionstrategy.com: the domain and its ending
            if spelt == domain or (
                spelt.startswith(domain) and ORG_END.fullmatch(c.name.split()[-1])
            ):
                c.evidence.add("domain")
    squashed = re.sub(r"\s", "", clean).lower()
    # a text in Korean: at least as many words in Hangul as in Latin letters alone (a
    # syllable block holds what takes two or three Latin letters)
    hangul_words = len(re.findall(r"\S*[가-힣]\S*", clean))
    korean = hangul_words > 0 and hangul_words >= len(re.findall(r"(?<!\S)[A-Za-z]+", clean))
    # one name in two scripts ("kakao careers" and "2026 카카오 신입 크루"): one candidate
    # with both's evidence, spelt in the text's script
    for latin in [c for c in candidates.values() if not _HANGUL.search(c.name)]:
        for hangul in [c for c in candidates.values() if _HANGUL.search(c.name)]:
            if not re.search(r"[A-Za-z]", hangul.name) and same_name(latin.name, hangul.name):
                kept, dropped = (hangul, latin) if korean else (latin, hangul)
                kept.evidence |= dropped.evidence
                kept.first = min(kept.first, dropped.first)
                candidates.pop(dropped.name, None)
                break
    # a Hangul name proposed by more than Kiwi's proper-noun reading
    hangul_named = any(
        _HANGUL.search(c.name) and c.evidence - {"proper", "coined"} for c in candidates.values()
    )

    def score(c: _Candidate) -> tuple[float, bool, int]:
        total = sum(_WEIGHTS[k] for k in c.evidence)
        # how often the text repeats it; a bare proper noun (a place, a brand, a word Kiwi
        # misreads) gains little from that: common words repeat too
        cap = 1 if c.evidence <= {"proper", "coined"} else 4
        total += min(squashed.count(re.sub(r"\s", "", c.name).lower()), cap)
        if ORG_END.search(c.name):
            total += 1.5
        # a shorter candidate inside a longer one: the longer one is the name
        # ("미소가득" in "미소가득치과")
        if any(o.name != c.name and c.name in o.name for o in candidates.values()):
            total -= 2.0
        # a Korean text names its company in Korean where it can: a Latin-only brand line
        # ("HYUNDAI MOTOR COMPANY | Careers", "PEARL ABYSS") yields to a Hangul name the
        # text also proposes ("[펄어비스] 게임 기획자")
        if korean and hangul_named and not _HANGUL.search(c.name):
            total -= LATIN_IN_KOREAN
        # among equals, the name with a legal form is the organisation, a brand's its
        # operator's ("'밥한끼'를 운영하는 ㈜푸드링크에서 … 찾습니다")
        return total, "legal" in c.evidence, -c.first

    order = sorted(candidates.values(), key=score, reverse=True)
    return [(c.name, score(c)[0], frozenset(c.evidence)) for c in order]
