"""Chat answers written from what the chat computed, not by a model.

Used for every answer when the chat's model is the embedded stand-in (which cannot write
Korean: asked a question, it echoes its prompt's headings), and for one answer whenever a
model's text is junk (`text/degenerate.py`; counted in
`devths_degenerate_outputs_total{feature="chat",reason}`):

- a document question: the line(s) of the user's documents that answer it, stated first,
  then where they are (the document as the user knows it, "카카오 채용공고", and its own
  heading); when the documents do not say it, what was not found, quoting nothing else;
- anything else: what can be answered without a model (a greeting, thanks, today's date),
  and honestly that free answers are not available now (in the user's terms: settings,
  model names and ids are for operators);
- a tool-calling model's turn: what its tools did (schedules listed, added, changed,
  deleted; recruitment stages; passages found).

The schedule and calendar texts are the same ones the deterministic path answers with.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from nodes.chat.focus import (
    COMPANY_POINTER,
    THERE,
    ordinal_position,
    points_at_noun,
    points_back,
)
from nodes.chat.router import CAPABILITY, ROLE_ASKED, koreanised
from text.degenerate import degenerate_reason
from text.korean_text import analysed, content_words
from text.particles import particle_for
from text.sections import DUTIES_ASKED, DocKind, asked_heading, heading_of, korean_heading
from text.skills import find_skills, taxonomy

DOC_LABELS = {"resume": "이력서", "posting": "채용공고", "portfolio": "포트폴리오", "note": "메모"}
WEEKDAYS = "월화수목금토일"

# Headings and fences of the chat's prompts: a model repeating them is echoing its prompt
# (what the stand-in does: "질문\n\n## 지난 대화\n(없음)\n\n## 참고 문서 ...").
PROMPT_ECHOES = (
    "지난 대화 요약",
    "## 최근 대화",
    "## 참고 문서",
    "## 질문",
    "<data",
    "</data",
    "(찾은 문서 없음)",
)

# A document named in the question narrows the passages to that kind of document.
_NAMED_TYPES = (
    (
        re.compile(r"이력서|경력\s*기술서|(?i:(?<![A-Za-z])(?:resume|cv)(?![A-Za-z]))"),
        ("resume",),
        "이력서",
    ),
    (
        re.compile(r"자기\s*소개서|자소서|(?i:(?<![A-Za-z])cover\s+letter(?![A-Za-z]))"),
        ("resume", "note"),
        "자기소개서",
    ),
    (
        re.compile(r"포트폴리오|포폴|(?i:(?<![A-Za-z])portfolio(?![A-Za-z]))"),
        ("portfolio",),
        "포트폴리오",
    ),
    (
        re.compile(
            r"공고|(?i:(?<![A-Za-z])(?:job\s+)?posting(?![A-Za-z])|\bjob\s+description(?![A-Za-z]))"
        ),
        ("posting",),
        "채용공고",
    ),
    (re.compile(r"메모|노트"), ("note",), "메모"),
)
# Words that name a document rather than what is asked about it.
_DOC_WORDS = {
    "이력서",
    "자기소개서",
    "자소서",
    "소개서",
    "포트폴리오",
    "포폴",
    "공고",
    "채용공고",
    "채용",
    "문서",
    "메모",
    "노트",
    "기술서",
}
_HEADING = re.compile(r"\A\s*\[([^\]\n]{1,40})\]\s*(?:\n|\Z)")
# A sentence ends at . ! ? followed by space; "3." opening a numbered item does not end one.
_GREETING = re.compile(r"안녕|반가[워웠운]|반갑|하이\b|\bhello\b|\bhi\b", re.IGNORECASE)
_THANKS = re.compile(
    r"고마[워웠운]|고맙|감사(?:합니다|해요|해|드려요|드립니다)|땡큐|\bthanks?\b", re.IGNORECASE
)
_TODAY = re.compile(
    r"오늘\s*(?:은|이)?\s*(?:며칠|몇\s*월\s*며칠|몇\s*일|무슨\s*요일|날짜)|(?:무슨|몇)\s*요일"
)

# What a job seeker reads when the server runs on the embedded stand-in: what it cannot do,
# in the user's terms. Which model runs, and how to configure another, is for operators
# (`/health`, `/metrics`, the logs, README "Models"), never for a user.
STAND_IN_NOTE = "지금은 자유로운 대화나 조언에는 답하기 어려워요."
EXAMPLES = (
    "올리신 문서 내용, 지원한 회사의 채용 일정, 개인 일정은 지금도 바로 찾아 드려요"
    "(예: '내 이력서에 적은 기술 스택 알려줘', '카카오 서류 마감 언제야?')."
)
RETRY_NOTE = "답변을 제대로 만들지 못했어요. 질문을 조금 바꿔서 다시 물어봐 주세요."
CAN_SCHEDULE = (
    "네, 개인 일정은 여기서 말로 추가·조회·변경·삭제할 수 있어요"
    "(예: '카카오 면접 4시로 옮겨줘', '다음 주 일정 보여줘')."
)
CAN_ALL = (
    "올리신 이력서·포트폴리오·채용공고의 내용을 찾아 답하고, 지원한 회사의 채용 일정을 알려 "
    "드리고, 개인 일정을 말로 추가·조회·변경·삭제해 드려요(예: '내 이력서에 적은 기술 스택 "
    "알려줘', '카카오 서류 마감 언제야?', '카카오 면접 4시로 옮겨줘')."
)
CAN_DOCUMENTS = (
    "네, 올리신 이력서·포트폴리오·채용공고의 내용은 물어보시면 찾아 드려요"
    "(예: '내 이력서에 적은 기술 스택 알려줘')."
)


@dataclass(frozen=True)
class Passage:
    """A retrieved chunk as the grounded answer quotes it."""

    doc_id: str
    doc_type: str
    section: str
    text: str
    score: float
    company: str | None = None
    position: str | None = None  # a posting's job, as its head names it

    @classmethod
    def of(cls, record: dict[str, Any]) -> Passage:
        """From a `passages` record (the retrieve step) or a contract `sources` entry (whose
        section is the chunk's "[heading]" line, when it has one)."""
        text = str(record.get("text") or "")
        section = record.get("section")
        if section is None:
            heading = _HEADING.match(text)
            section = heading.group(1) if heading else ""
        return cls(
            doc_id=str(record.get("doc_id") or ""),
            doc_type=str(record.get("doc_type") or ""),
            section=str(section),
            text=text,
            score=float(record.get("score") or 0.0),
            company=record.get("company"),
            position=record.get("position"),
        )

    @property
    def title(self) -> str:
        """The document as its owner knows it: its type in Korean, a posting with its
        company ("카카오 채용공고"). Never the internal doc_id: that is the backend's."""
        label = DOC_LABELS.get(self.doc_type, self.doc_type or "문서")
        if self.doc_type == "posting" and self.company:
            label = f"{self.company} {label}"
        return label


def _compact(text: str) -> str:
    return "".join(text.split()).lower()


def named_types(message: str) -> tuple[set[str], list[str]]:
    types: set[str] = set()
    names: list[str] = []
    for pattern, doc_types, name in _NAMED_TYPES:
        if pattern.search(message):
            types.update(doc_types)
            names.append(name)
    return types, names


_ENGLISH_DOC_WORDS = frozenset({"resume", "cv", "portfolio", "posting", "job", "letter", "cover"})


def in_korean_terms(query: str) -> str:
    """A question with its English company names in Korean and, after it, the Korean heading
    each English heading stands for ("requirements" 자격요건, "preferred qualifications"
    우대사항), so a search over Korean documents finds their words. Calls the Korean
    analyser: run it in a worker thread."""
    query = koreanised(query)
    # the question's words as asked_words reads them (an English heading, one word or two,
    # in Korean); those the question does not already hold are the translated headings
    said = _compact(query)
    headings = [w for w in asked_words(query) if not w.isascii() and w not in said]
    return " ".join([query, *headings])


# A sentence that asks: a question mark, a question word, or a request to be told.
_ASKING_SENTENCE = re.compile(
    r"\?|뭐|무엇|무슨|어떻게|어떤|언제|어디|몇|알려|궁금|있을까요|인지|는지|(?i:\b(?:what|which|how)\b)"
)


def asked_words(message: str) -> list[str]:
    """What the question asks about: its nouns and foreign words (compact, lower case),
    without the words that only name a document; an English word for a part of a document
    is read as the heading Korean documents give it ("what certification is on my resume?"
    asks for 자격증). Of a message of several sentences, the words of the last one that asks,
    when it asks about something ("…40대 중반에 전향 준비 중인 사람입니다. … 자격 요건이 뭐라고
    되어 있는지 알려주실 수 있을까요?": not 중반, 전향). Calls the Korean analyser."""
    sentences = [s for s in re.split(r"(?<=[.!?。])\s+|\n+", message.strip()) if s.strip()]
    asking = [n for n, s in enumerate(sentences) if _ASKING_SENTENCE.search(s)]
    if len(sentences) >= 2 and asking == [len(sentences) - 1]:
        # (the sentences before it tell, and their skills stay asked: "Kafka 공부하고 있는데.
        # 네이버 자격요건에도 있어?")
        told = " ".join(sentences[:-1])
        words = _words_asked(sentences[-1])
        if words:
            return [*words, *(_compact(k) for k in find_skills(told) if _compact(k) not in words)]
    return _words_asked(message)


def _words_asked(message: str) -> list[str]:
    words = []
    kind: DocKind | None = "posting" if "posting" in named_types(message)[0] else None
    if DUTIES_ASKED.search(message):
        words.append(_compact("담당업무"))  # "무슨 일 하는 거야?": what the job does
    if (category := _CATEGORY_ASKED.search(message)) is not None:
        # "어떤 프로그래밍 언어 요구해?", "which programming language": a kind of skill
        words.append(_LANGUAGES)
        message = f"{message[: category.start()]} {message[category.end() :]}"
    found = content_words(message)
    skip = False
    for w, after in zip(found, [*found[1:], ""], strict=False):
        if skip:  # the second word of a two-word heading read just before
            skip = False
            continue
        lower = w.lower()
        if w in _DOC_WORDS or lower in _ENGLISH_DOC_WORDS:
            continue
        # "preferred qualifications" is one heading (우대사항), not two
        pair = (lower + after.lower()) if w.isascii() and after.isascii() else ""
        if pair and (heading := korean_heading(pair, kind)) is not None:
            words.append(_compact(heading))
            skip = True
            continue
        if lower == "about" and after.lower() != "me":
            continue  # "what about certificates": no "about me" part asked
        if (heading := asked_heading(w, kind)) is not None:
            # ("Which university …", "전 직장 이름": that part of the resume; a posting's
            # "전공 조건" is its own words)
            words.append(_compact(heading))
            continue
        if w in _ASKING_NOUNS or lower in _ENGLISH_FUNCTION_WORDS:
            continue
        if w in ("go", "went") and after.lower() == "to":
            continue  # "did I go to": no word asked (the language is "Go")
        words.append(_compact(w))
    return words


# Korean nouns that ask for a list, not what is in it, as "requirements" does in English:
# "DB 관련 요구사항 있어?" (Kiwi: 요구 + 사항) asks for DB, not for a heading with 사항 in it.
_ASKING_NOUNS = frozenset(
    {"요구", "사항", "요구사항", "내용", "얼마", "이름", "명칭", "회사명"}
    # a number asked for ("성과 수치 뭐였지"): the line's digits answer, not the word
    | {"수치", "숫자"}
    # the job itself, not something in it ("네이버 데엔 포지션 무슨 일 하는 거야?")
    | {"포지션", "직무", "자리"}
    # how the asking is said ("기재된 자격증 … 확인해 주시겠습니까?") and a year asked for
    # ("취득 연도": the line's digits answer, not the word)
    | {"기재", "확인", "기입", "표기", "명시", "연도", "년도", "목록", "리스트"}
    # "what" said twice, as people type it ("자격요건 머머 나와?")
    | {"머머", "뭐뭐", "모모", "뭐뭐뭐"}
)


# English words that ask, not what is asked about ("and what do they require?").
_ENGLISH_FUNCTION_WORDS = frozenset(
    {
        "a",
        "an",
        "and",
        "are",
        "at",
        "be",
        "by",
        "can",
        "did",
        "do",
        "does",
        "for",
        "from",
        "have",
        "how",
        "i",
        "in",
        "is",
        "it",
        "me",
        "my",
        "of",
        "on",
        "or",
        "say",
        "said",
        "the",
        "their",
        "them",
        "they",
        "this",
        "to",
        "was",
        "we",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "with",
        "write",
        "wrote",
        "you",
        "your",
        "require",
        "required",
        "requirement",
        "requirements",
        # asking verbs and quantifiers ("what does the posting list as …", "how many
        # years do they want", "do I actually meet that")
        "about",
        "actually",
        # whether a text says it ("is Kubernetes mentioned in there too?")
        "mentioned",
        "mention",
        # where the text says it ("which college did I go to, per my resume?")
        "per",
        "according",
        "mentions",
        "too",
        "also",
        "included",
        "include",
        "written",
        "stated",
        "any",
        "as",
        "check",
        "give",
        "list",
        "listed",
        "many",
        "meet",
        "much",
        "need",
        "show",
        "tell",
        "that",
        "there",
        "these",
        "those",
        "want",
        # what opens or closes a turn of talk ("ok what about certificates then")
        "ok",
        "okay",
        "so",
        "then",
        "now",
        "well",
        "oh",
        "hmm",
        "um",
    }
)


def _has_text(lines: list[str]) -> bool:
    return any(line.strip() and not _HEADING.match(line.strip()) for line in lines)


def _parts(passage: Passage) -> list[Passage]:
    """A chunk holding several headed parts ("[성격의 장단점]" lines that sectioning did not
    know) as one passage per part, each named by its own heading (a chunk of the
    untitled "개요" section takes the name of a heading it starts with). Each part keeps
    its heading line, so trimming still tells a part from a chunk's continuation."""
    parts: list[Passage] = []
    section, current = passage.section, []
    for i, line in enumerate(passage.text.strip().splitlines()):
        heading = _HEADING.match(line.strip())
        if heading is None:
            current.append(line)
            continue
        if _has_text(current):
            parts.append(replace(passage, section=section, text="\n".join(current)))
        if i or section in ("", "개요"):
            section = heading.group(1)
        current = [line]
    if _has_text(current):
        parts.append(replace(passage, section=section, text="\n".join(current)))
    return parts or [passage]


# A question that asks for a number or a date ("몇 년차", "얼마나 줄였어", "언제 땄어"): a
# line without a digit does not answer it.
_ASKS_NUMBER = re.compile(
    r"몇|얼마|언제|며칠|수치|점수|기간|(?i:\b(?:how\s+(?:many|much|long)|when|what\s+year)\b)"
)
_DIGIT = re.compile(r"\d")
# A period asked for ("몇년부터 몇년까지", "언제부터", "how long")
_SPAN_ASKED = re.compile(
    r"몇\s*년|언제부터|언제까지|부터\s*\S*\s*까지|기간|(?i:\bfrom\s+when\b|\bhow\s+long\b|\bwhat\s+years?\b)"
)
# A question asking how many of something by its counter ("몇 명이서", "몇 개", "몇 번"):
# only a line that counts with that counter answers it (a line with other numbers, "지연 2초
# → 200ms", does not say how many people). Counters a document writes after its number;
# 년, 점 and the like are often left out ("TOEIC 850") and are not checked.
_ASKS_COUNT = re.compile(r"몇\s*(명|개|곳|군데|팀|번|건|가지)")
_NATIVE_COUNT = r"(?:한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)"


def _counts(text: str, counter: str) -> bool:
    return bool(re.search(rf"\d\s*{counter}|{_NATIVE_COUNT}\s*{counter}", text))


# A question asking for an address answers only with one: a link or an e-mail address.
_ASKS_ADDRESS = re.compile(
    r"링크|이메일|메일\s*주소|(?:웹|웹사이트|사이트|블로그|깃허브|노션)\s*주소|"
    r"(?i:\burl\b|\blink\b|\be-?mail\b|github\s*주소)"
)
_ADDRESS = re.compile(r"https?://|www\.|\b[\w.-]+\.(?:com|io|net|org|kr|dev|me)\b|@[\w-]+\.")
_NUMBERING = re.compile(r"^\s*(?:\d{1,2}[.)]|[-•·*])\s*")
_ANSWER_MAX_CHARS = 200
# A line that is only a list of names ("Java, Spring Boot, JPA, MySQL").
_LIST_LINE = re.compile(r"\s*[^,，·/]{1,25}(?:\s*[,，·/]\s*[^,，·/]{1,25}){2,}\s*")


@dataclass(frozen=True)
class _Line:
    part: Passage
    index: int
    text: str  # without its list marker


def _body_lines(part: Passage) -> list[str]:
    body = part.text.strip()
    heading = _HEADING.match(body)
    if heading is not None:
        body = body[heading.end() :]
    return [line.strip() for line in body.splitlines() if line.strip()]


def _lines_of(parts: Iterable[Passage]) -> list[_Line]:
    """Every body line of the parts, in order, without its list marker."""
    return [
        _Line(part, n, _NUMBERING.sub("", text))
        for part in parts
        for n, text in enumerate(_body_lines(part))
    ]


def _covered(word: str, texts: Iterable[str]) -> bool:
    return any(word in _compact(t) for t in texts)


def _as_written(word: str, message: str) -> str:
    """A word the analyser cut ("엔드" of "백엔드는") as the question wrote it, without its
    particle ("백엔드")."""
    for token in message.split():
        bare = re.sub(r"(?:은|는|이|가|을|를|도|에서|에|으로|로|의)?[?？!.,]*$", "", token)
        if word in bare.lower() and len(bare) <= len(word) + 4:
            return bare
    return word


# Heads of a noun phrase that name nothing of their own ("결제 시스템은 어떤 기술로 했어?":
# the 결제 work is asked about, wherever the documents call it a system or not).
_GENERIC_HEADS = frozenset(
    {"시스템", "서비스", "프로젝트", "부분", "쪽", "파트", "업무", "작업", "관련", "기능", "경험"}
)


# Asked whether it is there, as a clause ("기재되어 있는지.", "나와 있는지").
_WHETHER_END = re.compile(r"(?:있|없)는지(?:도|요)?\s*[.?!~]*\s*$")
# What a line shows without naming it ("링크 있어?" is a line with an address, "성과" one
# with a figure, "회사" a work entry's head).
_SHOWN_KINDS = frozenset(
    {"링크", "주소", "url", "성과", "결과", "회사", "회사이름", "이름"}
    # (and what a line is said to have or do: "카카오 언급 있어?", "자격증 취득 연도")
    | {"언급", "취득", "보유", "이수", "수료", "발급", "내용", "얘기", "이야기", "부분"}
)
# Kinds of value a line with dates gives ("기간", "연도"), and what such a line holds.
_DATED_KINDS = frozenset({"기간", "날짜", "연도", "년도", "시기", "일자", "재직기간", "근무기간"})
_PERIOD = re.compile(
    r"(?:19|20)\d{2}\s*[.\-/년]\s*\d{1,2}|(?:19|20)\d{2}\s*[~–-]|\((?:19|20)\d{2}\)"
)


def _topic_marked(word: str, message: str) -> bool:
    """Whether the question marks `word` as its topic with 은/는 ("백엔드는 뭘로 …?")."""
    return re.search(rf"{re.escape(word)}(?:은|는)(?![가-힣A-Za-z])", message.lower()) is not None


def _heads(head: _Line, line: _Line) -> bool:
    """Whether `head` ("1. 실시간 재고 알림 서비스") heads `line`, the "- …" line under it."""
    if head.part is not line.part or line.index != head.index + 1:
        return False
    raw = _body_lines(head.part)
    return not raw[head.index].startswith("-") and raw[line.index].startswith("-")


# "Kafka 말고 또 뭐 있어?", "Python 말고 다른 건?", "간호사 면허 말고 IT 쪽으로": a thing
# named as what is not asked for (a pointer, "그거 말고", is _OTHER_THAN's).
_BESIDES = re.compile(
    r"(?<![^\s,.!?])([A-Za-z가-힣0-9+#.]+?)[^\S\n]*(?:은|는|이랑|랑)?[^\S\n]*말고(?![가-힣])"
    r"|(?i:\b(?:besides|other\s+than|apart\s+from|except(?:\s+for)?)\s+([A-Za-z0-9+#.]+))"
)


def _besides(message: str, context: str = "") -> tuple[list[str], str] | None:
    """The words of a thing named as not asked for ("Kafka 말고 또 뭐 있어?") and the
    question without it (the question before, when it asks nothing else: "내 기술 스택
    알려줘" then "Kafka 말고 또 뭐 있어?"); None when there is none or nothing is asked."""
    besides = _BESIDES.search(message)
    if besides is None or _OTHER_THAN.match(message[besides.start() :]) is not None:
        return None
    not_asked = asked_words(besides.group(1) or besides.group(2))
    rest = message[: besides.start()] + message[besides.end() :]
    if not asked_words(rest) and context:
        rest = context
    return (not_asked, rest) if not_asked and asked_words(rest) else None


def without_besides(message: str) -> str:
    """The question without what it names as not asked for ("카카오 말고 네이버 자격요건":
    "네이버 자격요건"), for the search. Calls the Korean analyser."""
    besides = _besides(message)
    if besides is None:
        return message
    # (only a document named instead of another: "Python 말고 또 뭐 있어" is still searched
    # with Python, which finds the list it is in)
    named = _BESIDES.search(message)
    said = (named.group(1) or named.group(2)) if named else ""
    proper = [t for t in analysed(said) if t.tag == "NNP"]
    if (proper or named_types(said)[0]) and not find_skills(said):
        return besides[1]
    return message


# Another company than the one named before ("다른 회사 우대사항은?", "카카오 말고 다른 데").
_ANOTHER_COMPANY = re.compile(
    r"다른\s*(?:회사|데|곳|공고|기업)|말고|(?i:\bother\s+(?:company|posting|one)\b)"
)


def answer_lines(
    message: str, passages: Iterable[Passage], context: str = ""
) -> tuple[list[_Line], list[str]]:
    besides = _besides(message, context)
    if besides is None:
        return _answer_lines(message, passages, context)
    # the question without the thing named, then none of its lines: what else there is
    not_asked, rest = besides
    found, missing = _answer_lines(rest, passages, "" if rest == context else context)
    kept = []
    excluded = {_compact(k) for w in not_asked for k in find_skills(w)}
    for ln in found:
        if not any(_line_holds(w, ln, with_heading=False) for w in not_asked):
            kept.append(ln)
            continue
        # a list on one line ("Java, Spring Boot, JPA"): the rest of its items
        items = [i.strip() for i in ln.text.split(",") if i.strip()]
        rest_items = [i for i in items if not any(_compact(w) in _compact(i) for w in not_asked)]
        if len(items) >= 3 and rest_items and len(rest_items) < len(items):
            kept.append(replace(ln, text=", ".join(rest_items)))
        elif excluded and {_compact(k) for k in find_skills(ln.text)} - excluded:
            # (a line naming other skills beside it still answers: "그 프로젝트에서 Tableau
            # 말고 또 뭐 썼어?" is that project's line)
            kept.append(ln)
    return kept, missing


def _answer_lines(
    message: str, passages: Iterable[Passage], context: str = ""
) -> tuple[list[_Line], list[str]]:
    """The lines of the user's documents that answer the question, best first, and the
    question's words no candidate holds (what the documents do not say).

    The question's words (nouns, foreign words; `context`: an earlier question this one
    points back to, "그거 언제 땄다고 돼 있어?") are looked up in every line and in its
    section's heading: a line holding the most of them answers; without one, a section
    whose heading holds them answers with its lines ("우대사항에 뭐 있어"). A question
    asking for a number or a date is answered only by a line holding a digit (a list's
    numbering does not count). Calls the Korean analyser: run it in a worker thread."""
    # a company named in English is the posting's company ("the kakao posting": 카카오)
    message, context = koreanised(message), koreanised(context)
    candidates = [part for p in passages for part in _parts(p)]
    every_part = list(candidates)
    # the document this question names wins over the one the earlier question named ("거기
    # 나온 Elasticsearch 경험, 내 포폴에 있는 걸로 어필할 만한 거 있어?" after a posting's line)
    # (a question naming a company of the user's postings is about that posting, whatever
    # the earlier one's document: "카카오 마지막 우대사항은?" after the portfolio's projects)
    own_company = any(p.company and p.company in message for p in every_part)
    types = named_types(message)[0] or (set() if own_company else named_types(context)[0])
    if types:
        candidates = [p for p in candidates if p.doc_type in types]
    companies = {p.company for p in candidates if p.company and p.company in message}
    if companies:
        # a question naming one of the user's postings' companies is about that posting
        # ("네이버는?" after "카카오 담당업무 뭐야", "카카오 지원하려면 경력 몇 년 이상이어야 돼?")
        candidates = [p for p in candidates if p.doc_type == "posting" and p.company in companies]
    named = {_compact(c) for c in companies}
    # (nor a part of it the analyser split: "토스뱅크" read as 토스 + 뱅크)
    own = [w for w in asked_words(message) if not any(w in n for n in named)]
    # the job a posting's head names, said to name the posting ("네이버 데이터 엔지니어 공고에서
    # 우대사항이 뭐였죠?"): not what is asked, when something else is
    jobs = {_compact(p.position) for p in every_part if p.position and p.position in message}
    if jobs and (rest := [w for w in own if not any(w in j for j in jobs)]):
        own = rest
    # English words of an English question that no document holds (the documents are
    # Korean) frame the question: "quick q, when did I leave 에이비씨커머스 …" asks of
    # 에이비씨커머스, "… list under 우대 사항? just keywords pls" of 우대사항; names written
    # with a capital and skills stay asked ("Does it mention Kubernetes?")
    every_text = [f"{p.section} {p.text}" for p in every_part]
    framing = [
        w
        for w in own
        if w.isascii()
        and w.isalpha()
        and re.search(rf"(?<![A-Za-z]){re.escape(w)}(?![A-Za-z])", message)
        and not find_skills(w)
        and not _covered(w, every_text)
    ]
    if framing and len(framing) < len(own):
        own = [w for w in own if w not in framing]
    if context and SAME_THING.search(message):
        # "카카오 건 같은 항목 뭐였어" after "네이버 공고 우대사항 알려줘": the earlier
        # question's words, of what this one names ("항목" is no word of it)
        own = [w for w in own if w not in _SAME_NOUNS]
    # the earlier question's company is no word of this one when this one names another
    # ("카카오 건 같은 항목" after a question about 네이버's posting)
    replaced = {_compact(p.company) for p in every_part if p.company} if companies else set()
    earlier = [w for w in asked_words(context) if w not in named | replaced and w not in own]
    held_over = {p.company for p in every_part if p.company and p.company in context}
    if held_over and not (companies or own_company or _ANOTHER_COMPANY.search(message)):
        # "우대사항은?" after "카카오 자격요건에 Kafka 있어?": still that company's posting
        # (unless only another posting holds what is asked: "Python은?" after a question on
        # Kakao's requirements)
        kept = [p for p in candidates if p.doc_type != "posting" or p.company in held_over]
        texts = [f"{p.section} {p.text}" for p in kept]
        if not own or any(_covered(w, texts) for w in own):
            candidates = kept
    if own and earlier and all(any(w == _compact(p.section) for p in every_part) for w in own):
        # "그럼 자격증은?", "what about certificates then" after "이력서에 토익 점수 있어?"
        # found nothing: the part of the documents named now is asked; the earlier words
        # no document holds are not asked again ("우대사항은?" after "자격요건에 Kafka
        # 있어?" still looks for Kafka)
        earlier = [w for w in earlier if _covered(w, every_text)]
    position = ordinal_position(message) if context else None
    if position is not None:
        # "세 번째 거 기술스택 뭐였지" after a list of projects: that item of the list
        # that answered before (not when the question names another document or company:
        # "카카오 마지막 우대사항은?")
        before, _ = answer_lines(context, candidates)
        part = before[0].part if before else None
        other = part is not None and (
            (types and part.doc_type not in types) or (companies and part.company not in companies)
        )
        nth = _nth_item(message, part) if part is not None and not other else []
        if nth:
            return nth[:4], []
        # (only a posting's list of requirements or duties, one item a line, asked of the
        # user's own document: not a project's head and detail lines, not another posting)
        own_types = types & {"resume", "portfolio", "cover"}
        listed = (
            answer_lines(context, every_part)[0] if own_types and "posting" not in types else []
        )
        if not all(
            ln.part.doc_type == "posting" and _canonical(ln.part.section) in _LISTED_SECTIONS
            for ln in listed
        ):
            listed = []
        if not own and -len(listed) <= position < len(listed):
            # "첫번째 거 관련해서 내 이력서엔 뭐라고 써놨지?" after a posting's list: that item
            # of the list is what is looked for in the document this question names (its
            # skills, else its words)
            nth_text = listed[position].text
            own = [_compact(s) for s in find_skills(nth_text)] or asked_words(nth_text)
    # ("몇년부터 몇년까지" after the resume's work entry: its period, nothing else named)
    at_entry = (
        context
        and _ASKS_NUMBER.search(message)
        and (_AT_ENTRY.search(message) or (not own and _SPAN_ASKED.search(message)))
    )
    said = [f"{p.section} {p.text}" for p in candidates]
    # "어디서 했던 거야?" after a line of the resume: where it was done, its entry's head
    where = bool(context and _WHERE_DONE.search(message) and not own)
    if (at_entry or where) and not any(_covered(w, said) for w in own if w not in _ENTRY_WORDS):
        # "그 회사 다닌 기간은?" after "이력서에 카프카 경험 써있어?": the work entry the line
        # that answered before belongs to, its head line (company and dates)
        # (entries are the user's own documents': "거기 경력 몇 년 이상 요구해?" after a
        # posting's dates asks the posting's text)
        before, _ = answer_lines(context, candidates)
        entry = bool(before) and before[0].part.doc_type != "posting"
        head = _entry_head(before[0]) if entry else None
        if head is not None:
            return [head], []
        if not own and not _AT_ENTRY.search(message):
            # "언제부터 언제까지 썼어?" after the tech stack: no entry, no period said there
            return [], []
    if context and _AT_ENTRY.search(message):
        # "거기서 Kafka로는 뭐 했다고 했지?" after a work entry of the resume: in that document
        before, _ = answer_lines(context, candidates)
        if before and before[0].part.doc_type == "resume":
            candidates = [p for p in candidates if p.doc_id == before[0].part.doc_id]
    # the lines that answered the question this one points back to ("거기 기술스택 뭐뭐
    # 썼다고 돼있어?" after "포폴 첫 번째 프로젝트 뭐였지"): among equals, the answer is there
    referent: list[_Line] = []
    pointing = points_back(message) or points_at_noun(message) or bool(THERE.search(message))
    other_than = _OTHER_THAN.search(message) if context and pointing else None
    if other_than is not None:
        # "그 프로젝트 말고 SQL 쓴 건?": the thing pointed at is what is not asked for; its
        # words name it, they look for nothing ([프로젝트] is no section asked about)
        named_it = set(asked_words(other_than.group(1)))
        own = [w for w in own if w not in named_it]
        # "그거 말고 다른 거": the question before, asked again of the rest
        # (the kind it names is the kind asked for: "그 프로젝트 말고 다른 거")
        own = own or asked_words(context)
        pointing = False
    if context and pointing:
        referent, _ = answer_lines(context, candidates)
        if (
            referent
            and own
            and all(w in _SHOWN_KINDS or w in _DATED_KINDS for w in own)
            and (_ASKS_NUMBER.search(message) or re.search(r"연도|년도|날짜|일자|시기", message))
            and _PERIOD.search(referent[0].text)
        ):
            # "그거 취득 연도는?" after "정보처리기사 (2021)": the line pointed at shows it
            return referent, []
        if referent and _HOW_ABOUT.search(message) and not any(_covered(w, said) for w in own):
            # "그거 어떻게 보완한다고 했어?" after the line about a weakness: the documents
            # have no word of the question; the line pointed at is what it asks about
            return referent, []
        if (
            referent
            and all(_line_holds(w, referent[0]) for w in own)
            and any(_line_holds(w, referent[0], with_heading=False) for w in own)
        ):
            # "그거 무슨 기술로 했다고 돼있어?" after "정산 배치 개선: Spring Batch로 …": the
            # line pointed at says it; a section named by the same word ([기술 스택]) is
            # about the whole resume, not the thing pointed at
            return referent, []
    if own and earlier and (COMPANY_POINTER.search(message) or THERE.search(message)):
        # "그 회사 지원동기 …", "그 회사에서 Kafka 경험 원해?": the company the question before
        # named (its postings, and the user's own documents), not only the document just read
        named_before = {
            p.company for p in every_part if p.company and _compact(p.company) in earlier
        }
        if named_before:
            candidates = [
                p for p in candidates if p.doc_type != "posting" or p.company in named_before
            ]
            earlier = []
    if own and earlier and pointing:
        # "그거 배포 주소도 적혀 있어?": "그거" is the document just talked about; the
        # answer is in it or nowhere, and only this question's own words count as found
        def hits(p: Passage) -> int:  # (a posting's chunk says whose it is by its company)
            return sum(w in _compact(f"{p.section} {p.text} {p.company or ''}") for w in earlier)

        top = max((hits(p) for p in candidates), default=0)
        docs = {p.doc_id for p in candidates if top and hits(p) == top}
        candidates = [p for p in candidates if p.doc_id in docs] if docs else candidates
        earlier = []
    words = own + earlier
    if _WHICH_KIND.search(message) or _REQUIRED_ASKED.search(message):
        # "필수야 우대야?": the two lists asked between are not what is looked for
        words = [w for w in words if not re.match(r"필수|우대|자격|요건", w)]
        # (nor a list to look in: "is Kafka required?" is answered from either)
        own = [w for w in own if w in words] or own
    if not candidates or not words:
        return [], words
    # what the documents say at all (a word outside the section asked about is still found)
    everything = [f"{p.section} {p.text}" for p in candidates]
    # a section the question names ("우대사항에 쿠버네티스 있었나?", "자격요건에 무슨 언어"):
    # the answer is in it
    sections = [p for p in candidates if any(w in _compact(p.section) for w in own)]

    def held(p: Passage) -> int:  # in its lines, not its heading
        body = _compact(" ".join(_body_lines(p)))
        return sum(w in body for w in own)

    # ... unless another part holds more of the question's words than the named section does
    # with its heading ("주식 시세 대시보드는 무슨 기술 썼어?": the project, not [기술 스택])
    # a section named as a place ("자격요건에 무슨 언어", "우대사항엔") is asked about whatever
    # else the question says
    placed = any(
        re.search(rf"{re.escape(w)}\s*(?:에서|에는|에|엔)", message)
        for w in own
        if any(w in _compact(p.section) for p in sections)
    )
    others = [p for p in candidates if p not in sections]
    if (
        sections
        and others
        and (placed or max(map(held, others)) <= max(held(p) + 1 for p in sections))
    ):
        candidates = sections
    lines = _lines_of(candidates)
    if other_than is not None:
        before, _ = answer_lines(context, candidates)
        shown = {(ln.part.doc_id, ln.text) for ln in before}
        lines = [ln for ln in lines if (ln.part.doc_id, ln.text) not in shown]
    # a skill written in another script or form ("쿠버네티스" for "Kubernetes", "k8s"): the
    # taxonomy's name for it; a skill the documents hold that the analyser does not read as
    # a noun ("도커도") is asked about all the same
    skill_of = {w: set(find_skills(w)) for w in words}
    asked_skills = find_skills(message)
    skills_everywhere = (
        taxonomy().closure(find_skills("\n".join(everything)))
        if asked_skills or any(skill_of.values())
        else set()
    )
    for skill in asked_skills:
        if skill in skills_everywhere and not any(skill in s for s in skill_of.values()):
            words.append(_compact(skill))
            skill_of[_compact(skill)] = {skill}
    # a word for the kind, not one skill ("기술스택", "무슨 기술", "tech stack"): any skill
    # answers it
    kinds = {w for w in words if w in _SKILL_KINDS}
    if kinds and not skills_everywhere:
        skills_everywhere = taxonomy().closure(find_skills("\n".join(everything)))

    def of_category(word: str, skills: Iterable[str]) -> bool:
        # "프로그래밍 언어" asked: a skill of that category ("Python 능숙자")
        wanted = _CATEGORIES_OF_KIND.get(word, frozenset())
        return any(taxonomy().category.get(skill) in wanted for skill in skills)

    held_anywhere = (
        find_skills("\n".join(everything)) if any(w in _CATEGORIES_OF_KIND for w in words) else []
    )
    missing = [
        w
        for w in words
        if not _covered(w, everything)
        and not skill_of[w] & skills_everywhere
        and not (w in kinds and skills_everywhere)
        and not of_category(w, held_anywhere)
    ]
    wants_number = bool(_ASKS_NUMBER.search(message))

    line_skills: dict[str, set[str]] = {}

    def skills_of(text: str) -> set[str]:
        # with what they imply: a line naming MySQL answers a question about DB
        if text not in line_skills:
            line_skills[text] = taxonomy().closure(find_skills(text))
        return line_skills[text]

    def holds(word: str, line: _Line) -> bool:
        if word in _compact(line.text):
            return True
        if word in kinds and skills_of(line.text):
            return True
        if word in _CATEGORIES_OF_KIND:
            return of_category(word, find_skills(line.text))
        return bool(skill_of[word] & skills_of(line.text))

    pointed = {(ln.part.doc_id, ln.text) for ln in referent}

    asked_here = set(own)

    def score(line: _Line) -> tuple[int, int, int, int, int, float]:
        # the follow-up's own words first ("정산 배치는?" after a question on query tuning:
        # the line about the batch), the earlier question's words after them
        mine = sum(holds(w, line) for w in words if w in asked_here)
        all_held = sum(holds(w, line) for w in words)
        heading = sum(w in _compact(line.part.section) for w in words)
        # among lines naming the same words, one that says something about them beats a
        # list that only names them ("Redis 분산 락으로 중복 결제 0건 달성" over
        # "Java, Spring Boot, JPA, MySQL, Redis")
        says = 0 if _LIST_LINE.fullmatch(line.text) else 1
        there = int((line.part.doc_id, line.text) in pointed)
        return mine, all_held, there, heading, says, line.part.score

    wants_address = bool(_ASKS_ADDRESS.search(message))
    count = _ASKS_COUNT.search(message)
    usable = [
        ln
        for ln in lines
        if (
            _counts(ln.text, count.group(1))
            if count is not None
            else not wants_number or _DIGIT.search(ln.text)
        )
        and (not wants_address or _ADDRESS.search(ln.text))
    ]
    ranked = sorted(usable, key=score, reverse=True)
    if wants_number and lines:
        # "주식 시세 대시보드 프로젝트 기간 얼마나 걸렸다고 적었지?": the line about what is
        # asked has no number; another project's numbers are no answer
        about = max(lines, key=score)
        # (a project's head, "1. 실시간 재고 알림 서비스", and its "- …" line are one item)
        under = bool(ranked) and _heads(about, ranked[0])
        if not under and score(about)[:2] > (score(ranked[0])[:2] if ranked else (0, 0)):
            asked = own or words
            there = _compact(f"{about.text} {about.part.section}")
            return [], [w for w in asked if not holds(w, about) and w not in there] or asked
    if not ranked and wants_address:
        # "깃허브 링크 뭐였지?": no line holds one; the link is what is not there
        return [], [m.group(0) for m in _ASKS_ADDRESS.finditer(message)]
    if not ranked:
        return [], words
    _, top_own, _, top_heading, _, _ = score(ranked[0])
    # the topic asked about, marked with 은/는 ("주식 대시보드 백엔드는 뭘로 만들었다고 돼
    # 있어?"): when the documents never say it, the other words found answer nothing
    # (a skill is looked for by what implies it too: "DB는" is answered by MySQL)
    topic = [
        w
        for w in missing
        if w in asked_here
        and _topic_marked(w, message)
        and w not in _GENERIC_HEADS
        and not find_skills(_as_written(w, message))
        # (a kind of value a dated line gives: "경력 기간은 어떻게 기재되어 있습니까?")
        and not (w in _DATED_KINDS and any(_PERIOD.search(ln.text) for ln in lines))
    ]
    # a word that qualifies a heading word found ("수상 경력" of [경력]): that other kind
    # of it is what is asked, and the documents do not say it
    # (not a place in a list, "마지막 우대사항", nor a thing pointed at, "그 회사 지원동기")
    compact = _compact(message)
    # (asked whether it is there: "수상 경력 기재돼 있어?"; "주요 경력 알려줘" asks the heading)
    qualifies = [
        w
        for w in missing
        if w in asked_here
        and asks_yes_or_no(message)
        and ordinal_position(w) is None
        and any(
            re.search(rf"(?<![그이저]){re.escape(w)}{re.escape(h)}", compact)
            for h in own
            if h != w and any(h == _compact(p.section) for p in candidates)
        )
    ]
    # the head of a compound asked, missing after a word found ("졸업 학점도 기재되어
    # 있는지": [학력] says 졸업, not its 학점): what is asked is not there
    headless = [
        w
        for w in missing
        if w in asked_here
        and (asks_yes_or_no(message) or _WHETHER_END.search(message))
        and w not in _GENERIC_HEADS
        and w not in _SHOWN_KINDS
        and not (w in _DATED_KINDS and any(_PERIOD.search(ln.text) for ln in lines))
        and any(
            f"{h}{w}" in compact
            for h in own
            # (after a heading, a word asks of it: "자격요건 머머 나와?")
            if h != w and not any(h == _compact(p.section) for p in candidates)
        )
    ]
    if (
        top_own + top_heading == 0
        or len(missing) > top_own + top_heading
        or topic
        or qualifies
        or headless
    ):
        return [], missing or words
    if top_own == 0:  # the section answers: its lines, in order
        part = ranked[0].part
        section = [ln for ln in lines if ln.part is part]
        nth = _nth_item(message, part)
        return (nth or section)[:4], missing
    best = ranked[0]
    picked = [best]
    follows = [ln for ln in lines if ln.part is best.part and ln.index == best.index + 1]
    raw = _body_lines(best.part)
    if follows and not raw[best.index].startswith("-") and raw[best.index + 1].startswith("-"):
        picked.append(follows[0])  # "3. 주식 시세 대시보드" heads "- React와 WebSocket으로 ..."
    heads = [ln for ln in lines if ln.part is best.part and ln.index == best.index - 1]
    item = {(best.part.doc_id, ln.text) for ln in [best, *heads]}
    if (
        heads
        and raw[best.index].startswith("-")
        and _ITEM.match(raw[best.index - 1])
        and not item & pointed
        and not any(w in _compact(heads[0].text) for w in own)
    ):
        # "포폴 프로젝트 중에 Kafka 쓴 거 뭐야": the numbered item the line is under names
        # what it is about ("1. 실시간 재고 알림 서비스"), said before it (not of the item
        # the question names or a follow-up points at: "거기 기술스택 뭐 썼어?" knows which)
        picked.insert(0, heads[0])
    return picked, missing


_ITEM = re.compile(r"^\s*\d{1,2}[.)]\s*")
# A kind of skill asked by its category ("어떤 프로그래밍 언어", "요구하는 언어", "which
# programming language"): a line naming a skill of that category answers it.
_CATEGORY_ASKED = re.compile(
    r"(?:프로그래밍|개발|코딩)\s*언어|"
    # (not a spoken language's: "언어 점수", "외국어나 언어 능력")
    r"(?<![가-힣])언어(?=\s|$|[은는이가을를도만?]|로\s)(?!\s*(?:점수|능력|성적|시험|회화|자격))|"
    r"(?i:\b(?:programming|coding)\s+languages?\b|(?:코딩|코드)\s+languages?\b)"
)
_LANGUAGES = "프로그래밍언어"


def asks_skill_category(message: str) -> bool:
    """Whether a question asks for a kind of skill by its category ("어떤 프로그래밍 언어")."""
    return _CATEGORY_ASKED.search(message) is not None


_CATEGORIES_OF_KIND = {_LANGUAGES: frozenset({"language"})}
# Words for the kind of thing skills are, not one of them.
_SKILL_KINDS = frozenset(
    {"기술스택", "스택", "기술", "기술들", "툴", "도구", "프레임워크", "라이브러리"}
    | {"tech", "stack", "techstack", "tools", "tool"}
)
# A question about how or why something just quoted is done: the quote answers it.
_HOW_ABOUT = re.compile(r"어떻게|어케|뭐라고|왜|어떤\s*식|무슨\s*뜻|(?i:\bhow\b|\bwhy\b)")
# The words of a question about a work entry itself ("그 회사 다닌 기간은?"), not about
# something done there ("거기서 응답시간 몇 퍼 줄였다고 썼어").
_ENTRY_WORDS = frozenset({"회사", "직장", "기간", "팀", "근무", "재직", "경력"})
# "어디서 했던 거야?", "어느 회사에서?": where something the documents say was done.
_WHERE_DONE = re.compile(r"어디서|어디에서|어느\s*(?:회사|곳)|(?i:\bwhere\b)")
# "같은 항목", "같은 거", "the same thing": the earlier question asked again of another.
SAME_THING = re.compile(
    r"같은\s*(?:항목|거|것|걸|내용|부분|질문|섹션)(?!\s*(?:야|예요|에요|지|냐|임|인가|아냐))|"
    r"똑같은\s*(?:거|것|걸|항목|내용)(?!\s*(?:야|예요|에요|지|냐|임|인가|아냐))|"
    r"(?i:\bthe\s+same\s+(?:thing|section|part|question|one)\b)|"
    # "아까 그 질문 네이버 공고로도": the question asked before, of another
    r"(?:아까|방금)\s*(?:그|했던|물어본|한)?\s*질문(?![하한했])"
)
_SAME_NOUNS = frozenset({"항목", "내용", "부분", "질문", "섹션", "section", "part", "thing"})
# "그거 말고", "그 프로젝트 말고 다른 거": what was just quoted is not the answer.
_OTHER_THAN = re.compile(
    r"^\s*((?:그|저|이)\s*[가-힣]{1,6}?|그거|그것|이거|저거|거기)\s*(?:은|는)?\s*말고"
)
# "그 회사", "거기서", "그 직장": the place of work a line just quoted is from.
_AT_ENTRY = re.compile(
    r"(?:그|이)\s*(?:회사|직장|곳|팀)|거기서?(?!\S*\s*(?:공고|채용))|"
    r"(?i:\b(?:that|this)\s+(?:company|job|place|team|firm|employer)\b)"
)


def _line_holds(word: str, line: _Line, *, with_heading: bool = True) -> bool:
    """Whether a line (with its section's heading) says what a word of a question asks:
    the word itself, a skill of the kind asked ("기술"), or the skill the word names."""
    text = f"{line.part.section} {line.text}" if with_heading else line.text
    if word in _compact(text):
        return True
    skills = taxonomy().closure(find_skills(line.text))
    return bool(skills) and (word in _SKILL_KINDS or bool(set(find_skills(word)) & skills))


def _entry_head(line: _Line) -> _Line | None:
    """The head of the entry a bullet line is under: the nearest line above it (itself when
    it is one) that is no bullet and holds a date; None when there is none."""
    raw = _body_lines(line.part)
    for n in range(line.index, -1, -1):
        text = raw[n]
        if not re.match(r"\s*[-•·*]", text) and re.search(r"\d{4}", text):
            return _Line(line.part, n, _NUMBERING.sub("", text))
    return None


def _counted_items(message: str, passages: Iterable[Passage]) -> tuple[Passage, list[str]] | None:
    """ "프로젝트 몇 개": the numbered items (two or more) of the one section whose heading
    holds a word of a question asking how many things (개, 건, 가지); None otherwise."""
    count = _ASKS_COUNT.search(message)
    if count is None or count.group(1) not in ("개", "건", "가지"):
        return None
    types, _ = named_types(message)
    words = asked_words(message)
    found = []
    for part in (p for passage in passages for p in _parts(passage)):
        if types and part.doc_type not in types:
            continue
        if not any(w in _compact(part.section) for w in words):
            continue
        items = [_ITEM.sub("", line) for line in _body_lines(part) if _ITEM.match(line)]
        if len(items) >= 2:
            found.append((part, items))
    distinct = {(p.doc_id, p.section) for p, _ in found}
    return found[0] if len(distinct) == 1 else None


def _nth_item(message: str, part: Passage) -> list[_Line]:
    """ "첫 번째 프로젝트": the numbered item of the section at that position (its line and
    the "- " lines under it); [] when the question names no position or the section has
    no numbered items."""
    at = ordinal_position(message)
    raw = _body_lines(part)
    starts = [n for n, text in enumerate(raw) if _ITEM.match(text)]
    if at is None or not starts:
        return []
    if not -len(starts) <= at < len(starts):
        return []
    first = starts[at]
    end = next((n for n in starts if n > first), len(raw))
    return [_Line(part, n, _NUMBERING.sub("", raw[n])) for n in range(first, end)]


# "필수야 우대야?", "required or preferred?": the question is which list a line is in.
_WHICH_KIND = re.compile(
    r"(?:필수|자격\s*요건).{0,6}(?:우대)|(?:우대).{0,6}(?:필수|자격\s*요건)|"
    r"(?i:required\s+or\s+(?:preferred|nice)|(?:preferred|nice\s+to\s+have)\s+or\s+required)"
)
# Whether a thing is required ("쿠버네티스 경험 필수임?", "Kafka 꼭 있어야 돼?"): answered by
# which list it is in, as "필수야 우대야?" is.
_REQUIRED_ASKED = re.compile(
    r"필수(?:임|야|예요|에요|인가요?|인지|냐|인감|\s*[?？])|꼭\s*(?:있어야|필요)|"
    r"(?i:\bis\s+(?:it\s+)?(?:\S+\s+){0,3}required\b|\bmust[- ]have\b)"
)
# A question asked of what, where, when, how many or which: not one answered yes or no.
_WH_WORD = re.compile(
    r"뭐|무엇|무슨|어떤|어떻게|어디|언제|몇|누구|왜|얼마|어느|"
    r"(?i:\b(?:what|which|when|where|who|how|why)\b)"
)
# How a question ends: a question mark, a Korean question ending ("보던가", "있나요", "있음?"),
# or an English auxiliary first ("Is Kubernetes mentioned …", "Does it ask for …").
_QUESTION_END = re.compile(
    r"(?:[?？]|(?:가|나|냐|니|까|음|던가|나요|가요|까요|죠|니까|습니까))\s*[?？]*\s*[.!~ㅎㅋ]*\s*$"
)
_ENGLISH_POLAR = re.compile(r"(?i)^\s*(?:is|are|does|do|did|was|were|has|have|can|will)\b")


# A question asked in the negative ("Kafka 없지?", "안 보지?", "isn't it …"): a yes is ambiguous.
_NEGATIVE = re.compile(r"없|않|(?<![가-힣])안\s|(?i:\bnot\b|n't\b)")
# The list a question asks it to be in ("필수야?", "우대야?", "required", "preferred").
_ASKED_KIND = re.compile(
    r"필수|자격\s*요건|(?i:\brequired\b)|(우대|(?i:\bpreferred\b|\bnice\s+to))"
)


def asks_yes_or_no(message: str) -> bool:
    """Whether a message asks a yes-or-no question ("Kafka 보던가?", "is Kubernetes mentioned
    in there too?"), not one of what or which ("우대사항 뭐야?"), a request ("알려줘") or a
    question in the negative ("없지?")."""
    if _WH_WORD.search(message) or _NEGATIVE.search(message):
        return False
    return bool(_ENGLISH_POLAR.match(message) or _QUESTION_END.search(message))


# The words that name a list rather than a thing asked for ("필수", "우대", "required").
_COMPACT_KIND_WORDS = frozenset({"필수", "우대", "required", "preferred", "자격요건", "우대사항"})


def _all_held(message: str, found: list[_Line]) -> bool:
    """Whether the lines found hold every word the question asks about (their document's
    company and heading count: "카카오 공고에서도 Kafka 보던가?"), and are in the list it asks
    about, if any ("Spark 우대야?" answered from 자격요건 is no yes)."""
    kinds = {_REQUIREMENT_KIND.get(_canonical(ln.part.section)) for ln in found}
    asked_kind = _ASKED_KIND.search(message)
    if asked_kind and ("우대" if asked_kind.group(1) else "필수") not in kinds:
        return False
    held = _compact(" ".join(f"{ln.text} {ln.part.title} {ln.part.section}" for ln in found))
    # (a number asked is one of the words: "5년 이상이야?" of a line saying 3년 is no yes)
    asked = [*asked_words(koreanised(message)), *re.findall(r"\d+", message)]
    return all(w in held for w in asked if w not in _COMPACT_KIND_WORDS)


def _canonical(section: str) -> str:
    """A posting's section by the section finder's canonical name ("자격 요건" -> 자격요건)."""
    found = heading_of(f"[{section}]", "posting")
    return found[0] if found else ""


# The posting's sections that are lists of one item a line.
_LISTED_SECTIONS = frozenset({"자격요건", "우대사항", "담당업무"})


# The list a posting's section is ("자격요건", "지원자격", "Requirements" -> 필수): the section
# finder's canonical names.
_REQUIREMENT_KIND = {"자격요건": "필수", "우대사항": "우대"}


# The words of a question about a posting's job, not what it asks about.
_ROLE_WORDS = frozenset({"공고", "채용", "직무", "포지션", "직군", "분야", "부문", "모집", "자리"})
_ROLE_WORDS |= {"role", "position", "job"}


def _posting_role(message: str, passages: list[Passage]) -> str | None:
    """ "네이버 공고 무슨 직무야": the job the one posting asked about is for (read from its
    head when it was stored, as the calendar reads it; every chunk carries it), with where
    it is; None when the question asks something else or the posting names no job."""
    if not ROLE_ASKED.search(message) or DUTIES_ASKED.search(message):
        return None
    types = named_types(message)[0]
    if types and "posting" not in types:
        return None  # "내 포트폴리오 프로젝트들은 어떤 분야야?": another document's
    postings = [p for p in passages if p.doc_type == "posting"]
    named = [p for p in postings if p.company and p.company in koreanised(message)]
    pool = named or postings
    if len({p.doc_id for p in pool}) != 1:
        return None
    # a word of the question the posting does not hold ("토스 공고 무슨 직무야?" of 카카오's
    # posting): another posting's
    said = [f"{p.section} {p.text} {p.company or ''}" for p in pool]
    if any(not _covered(w, said) for w in asked_words(message) if w not in _ROLE_WORDS):
        return None
    role = next((p.position for p in pool if p.position), None)
    return f"{role}\n(출처: {pool[0].title})" if role else None


# "그 중에 내 이력서에 있는 거 있어?", "Which of Kakao's preferred qualifications do I already
# have on my resume?": which of a posting's lines the resume also shows.
# A posting's lines as the subject: its sections, its word, or what was just listed of it.
_POSTING_SUBJECT = re.compile(
    r"공고|우대|자격|요건|필수|그\s*중|(?:나온|말한|알려\s*준)\s*(?:것|거)\s*중|"
    r"(?i:qualification|requirement|posting|\bjd\b|\bof\s+(?:them|those|these)\b)"
)
HELD_BY_RESUME = re.compile(
    r"(?:내\s*)?(?:이력서|경력)(?:에|에도)?\s*(?:있는|나온|적힌|해당|겹치)|"
    r"(?:내가|제가)\s*(?:이미\s*)?(?:가진|갖춘|해당되는|충족하는)|"
    # "내 이력서에는 그 중에 뭐가 있어?", "내 resume에는 그중 뭐가 있어?"
    r"(?:이력서|(?i:resume|cv))(?:에|에는|엔|에도)\s*(?:\S+\s+)?그\s*중|"
    # "본인의 이력서가 해당 요건을 충족하는지", "내 이력서로 자격요건 맞출 수 있나"
    r"이력서(?:가|는|로)\s*(?:\S+\s+){0,3}?(?:충족|만족|갖추|갖췄|맞추|부합)|"
    r"(?i:\b(?:do\s+i|i)\s+(?:already\s+)?(?:have|meet|match)\b|\bon\s+my\s+(?:resume|cv)\b)|"
    # what the two share ("내 이력서랑 비교하면 겹치는 기술 있어?", "공통으로 있는 거", "그 중에
    # 제가 해본 게 있나요?")
    r"겹치는\s*(?:기술|스킬|역량)|공통(?:으로|된|인)?\s*(?:\S+\s+)?(?:기술|스킬|역량)|"
    r"(?:내가|제가|난|전)\s*(?:\S+\s+)?해\s*본\s*(?:게|거|것|건)\s*(?:있|뭐|어떤|몇)"
)

# "우대사항 중에 내 이력서에 없는 거", "그 중에 거기 없는 건" (거기: the resume just read),
# "which ones don't I have": the posting's lines the resume does not show.
NOT_HELD_BY_RESUME = re.compile(
    r"(?:이력서|거기)(?:에|에는|엔)\s*(?:없는|안\s*(?:나온|적힌|보이는|써\s*있는)|빠진|빠져\s*있는)|"
    r"(?:이력서|거기)\s+(?:없는|빠진)|(?:내가|제가)\s*(?:못\s*갖춘|안\s*갖춘|부족한)|"
    # what the resume lacks of it ("부족한 건 뭐야", "모자란 기술", "제가 안 해본 거")
    r"(?<![가-힣])(?:부족한|모자란)\s*(?:기술|스킬|역량|거|게|것|건)|"
    r"(?:내가|제가|난|전)\s*(?:\S+\s+)?안\s*해\s*본\s*(?:게|거|것|건)|"
    r"(?i:\b(?:i\s+(?:don'?t|do\s+not)|don'?t\s+i|do\s+i\s+not)\s+(?:have|meet)\b|\b(?:missing|absent)\s+(?:from|in|on)\s+"
    r"my\s+(?:resume|cv)\b|\bnot\s+(?:on|in)\s+my\s+(?:resume|cv)\b)"
)


# The lines themselves asked for too ("뭐가 있었죠?", "what are they"), not only which are held.
# ("우대사항 중에 내 이력서에 있는 거 뭐야?" asks only which are held)
_LINES_ASKED = re.compile(
    r"뭐가\s*(?:있|적혀|나와)|뭐\s*(?:있었|있어|있나|있지)|무엇이\s*있|"
    r"어떤\s*(?:게|것|거|항목)(?:이|가)?\s*있|(?i:\bwhat\s+(?:are|were)\s+(?:the|its|their)\b)"
)


# Among the lines just shown ("그 중에", "of those").
_AMONG_SHOWN = re.compile(r"그\s*중|(?i:\bof\s+(?:them|those|these)\b)")


def asks_held_by_resume(message: str, context: str = "") -> bool:
    """ "그 중에 내 이력서에 있는 거 있어?", "카카오 우대사항 중 내 이력서에 없는 거": which of a
    posting's lines the resume shows, or does not (not "이력서에 있는 프로젝트 중에 …": the
    resume's own); a follow-up ("부족한 건 뭐야") of a question about a posting (`context`)."""
    return bool(
        (HELD_BY_RESUME.search(message) or NOT_HELD_BY_RESUME.search(message))
        and (_POSTING_SUBJECT.search(message) or _POSTING_SUBJECT.search(context))
        # (another of the user's documents named is what is compared: not the resume)
        and not named_types(message)[0] & {"portfolio", "cover"}
    )


def _held_by_resume(message: str, passages: list[Passage], context: str) -> str | None:
    """The posting's lines asked about (those that answered the question before, "그 중에",
    or those this question names, "Kakao's preferred qualifications") whose skills the
    resume also names, each with the skills it shares; None when the question is not that
    or no posting line is asked about."""
    if not asks_held_by_resume(message, context):
        return None
    resume = [p for p in passages if p.doc_type == "resume"]
    postings = [p for p in passages if p.doc_type == "posting"]
    if not resume or not postings:
        return None
    lacking = bool(NOT_HELD_BY_RESUME.search(message))
    asked = NOT_HELD_BY_RESUME.sub(" ", HELD_BY_RESUME.sub(" ", message))
    lines, _ = answer_lines(asked, postings)
    # ("거기 없는 건" names the resume just read, it points at no posting line)
    sections_named = any(
        w == _compact(p.section) for p in postings for w in asked_words(asked) if p.section
    )
    if context and (points_back(asked) or not lines):
        # (the comparison before named no line either: the whole posting, below)
        lines = [] if asks_held_by_resume(context) else answer_lines(context, postings)[0]
        if not _AMONG_SHOWN.search(asked):
            # ("부족한 건 뭐야" after "우대사항에 Kafka 있어?": of that whole list; "그 중에"
            # is of the lines shown)
            lines = _lines_of(dict.fromkeys(ln.part for ln in lines))
        sections_named = sections_named or bool(lines)
    lines = [ln for ln in lines if ln.part.doc_type == "posting"]
    companies = {p.company for p in postings if p.company and p.company in f"{context} {message}"}
    if (not sections_named or not any(find_skills(ln.text) for ln in lines)) and len(
        companies
    ) == 1:
        # "네이버 공고랑 내 이력서 비교하면 겹치는 기술 있어?": no line named, the posting's
        # lines that name a skill
        lines = [
            ln
            for ln in _lines_of(p for p in postings if p.company in companies)
            if find_skills(ln.text)
        ]
    if not lines:
        return None
    if not any(find_skills(ln.text) for ln in lines):
        return None  # "경력 3년 이상": no skill to look for in the resume
    held = taxonomy().closure(find_skills("\n".join(p.text for p in resume)))
    where = lines[0].part.title + (f" · {lines[0].part.section}" if lines[0].part.section else "")
    # "우대사항에 뭐가 있었죠? 제가 해당되는 게 있나 보려고요": the lines themselves first
    listed = (
        f"{lines[0].part.section}: {', '.join(ln.text for ln in lines)}\n"
        if _LINES_ASKED.search(asked)
        else ""
    )
    if lacking:
        absent = {
            ln.text: [s for s in find_skills(ln.text) if s not in held]
            for ln in lines
            if find_skills(ln.text)
        }
        absent = {text: skills for text, skills in absent.items() if skills}
        if not absent:
            return f"{listed}이 항목들의 기술은 이력서에 모두 있어요.\n(출처: {where}, 이력서)"
        names = list(dict.fromkeys(s for skills in absent.values() for s in skills))
        named = f"{', '.join(names)}{particle_for(names[-1], '이에요')}"
        return f"{listed}이력서에 없는 건 {named}: {', '.join(absent)}\n(출처: {where}, 이력서)"
    shared = {}
    for ln in lines:
        skills = [s for s in find_skills(ln.text) if s in held]
        if skills:
            shared[ln.text] = skills
    if not shared:
        return f"{listed}이력서에는 이 항목들의 기술이 보이지 않아요.\n(출처: {where}, 이력서)"
    names = list(dict.fromkeys(s for skills in shared.values() for s in skills))
    said = ", ".join(shared)
    named = f"{', '.join(names)}{particle_for(names[-1], '이에요')}"
    return f"{listed}이력서에도 있는 건 {named}: {said}\n(출처: {where}, 이력서)"


def rag_answer(message: str, passages: Iterable[Passage], context: str = "") -> str:
    """The answer to a question about the user's documents: the line(s) that answer it,
    stated first, then where they are (the document as the user knows it and its heading).
    When the documents do not say it: what was not found, and nothing unrelated quoted.
    Calls the Korean analyser: run it in a worker thread."""
    candidates = list(passages)
    direct = _posting_role(message, candidates) or _held_by_resume(message, candidates, context)
    if direct is not None:
        return direct
    found, missing = answer_lines(message, candidates, context)
    counted = None if found else _counted_items(message, candidates)
    if counted is not None:
        # "포트폴리오에 프로젝트 몇 개 들어가 있어?": the numbered items of the section named
        part, items = counted
        asked = _ASKS_COUNT.search(message)
        counter = asked.group(1) if asked else "개"
        listing = ", ".join(items)
        if len(listing) > _ANSWER_MAX_CHARS:
            listing = listing[:_ANSWER_MAX_CHARS].rsplit(",", 1)[0] + "…"
        return f"{len(items)}{counter}예요: {listing}\n(출처: {part.title} · {part.section})"
    if found:
        text = ", ".join(dict.fromkeys(ln.text for ln in found))
        if len(text) > _ANSWER_MAX_CHARS:
            text = text[:_ANSWER_MAX_CHARS].rsplit(" ", 1)[0].rstrip(" ,") + "…"
        sources = dict.fromkeys(
            ln.part.title
            + (f" · {ln.part.section}" if ln.part.section and ln.part.section != "개요" else "")
            for ln in found
        )
        kind = _REQUIREMENT_KIND.get(_canonical(found[0].part.section))
        if kind and (_WHICH_KIND.search(message) or _REQUIRED_ASKED.search(message)):
            # "Spark 경험은 필수야 우대야?": which list it is in is the answer
            text = f"{kind}예요({found[0].part.section}): {text}"
        elif kind and not missing and asks_yes_or_no(message) and _all_held(message, found):
            # "카카오 공고에서도 Kafka 보던가?", "is Kubernetes mentioned in there too?": yes,
            # and the list it is in (only when the lines hold every word asked: "우대사항에
            # Kubernetes 있어?" answered with the section's other lines is no yes)
            text = f"네, {found[0].part.section}에 있어요: {text}"
        return f"{text}\n(출처: {', '.join(sources)})"
    types, names = named_types(message)
    where = f"올리신 {'·'.join(names)}" if names else "올리신 문서"
    if any(not types or p.doc_type in types for p in candidates):
        topic = ", ".join(dict.fromkeys(_as_written(w, message) for w in missing[:3]))
        about = f"'{topic}'에 대한 내용은" if topic else "질문에 답이 되는 내용은"
        return f"{where}에서 {about} 찾지 못했어요. 문서에 적혀 있지 않은 것 같아요."
    if names:
        named = "·".join(names)
        return (
            f"올리신 {named}에서 질문과 관련된 부분을 찾지 못했어요. "
            f"{named}{particle_for(names[-1], '을')} 아직 올리지 않으셨다면 먼저 올려 주세요."
        )
    return (
        "올리신 문서에서 질문과 관련된 내용을 찾지 못했어요. 이력서, 포트폴리오, 채용공고를 "
        "올려 주시거나, 문서에 적힌 표현(예: 기술 스택, 경력, 자격요건)으로 다시 물어봐 주세요."
    )


def general_answer(message: str, today: date, *, stand_in: bool) -> str:
    """A reply to a message outside the documents and schedules: what needs no model (a
    greeting, thanks, today's date), then the honest part. On the stand-in: free answers
    are not available now, in the user's terms (no setting, no model name); after a
    capable model's junk: that no answer could be written, and to ask again."""
    parts = []
    if _GREETING.search(message):
        parts.append("안녕하세요!")
    if _THANKS.search(message):
        parts.append("천만에요!")
    if _TODAY.search(message):
        parts.append(f"오늘은 {today.isoformat()} ({WEEKDAYS[today.weekday()]}요일)이에요.")
    if CAPABILITY.search(message):
        # "여기서 일정 수정도 돼?", "너 내 이력서 볼 수 있냐": what it can do is known
        can = [
            CAN_SCHEDULE
            if re.search(r"일정|스케줄|캘린더|약속|(?i:calendar|schedule)", message)
            else "",
            CAN_DOCUMENTS
            if named_types(message)[0] or re.search(r"문서|파일|(?i:\bfiles?\b|\bdocs?\b)", message)
            else "",
        ]
        if any(can):
            return " ".join([*parts, *(c for c in can if c)])
        # "what can you actually do?": all it does
        return " ".join([*parts, CAN_ALL])
    parts.append(STAND_IN_NOTE if stand_in else RETRY_NOTE)
    parts.append(EXAMPLES)
    return " ".join(parts)


# --- schedules and recruitment stages (the deterministic path uses the same texts) -------


def _at(item: dict[str, Any]) -> str:
    return f"{item['date']} {item['time']}" if item.get("time") else str(item["date"])


def schedule_list_text(items: list[dict[str, Any]]) -> str:
    if not items:
        return "해당 기간에 등록된 일정이 없어요."
    lines = [f"- {i['date']} {i.get('time') or ''} {i['title']}".replace("  ", " ") for i in items]
    return "일정이에요:\n" + "\n".join(lines)


def kind_list_text(kind: str, items: list[dict[str, Any]], count: bool) -> str:
    """ "면접은 2개예요: …": a listing of one kind of item, with how many when asked."""
    lines = [f"- {i['date']} {i.get('time') or ''} {i['title']}".replace("  ", " ") for i in items]
    head = f"{kind}{particle_for(kind, '은')} {len(items)}개예요" if count else f"{kind} 일정이에요"
    return f"{head}:\n" + "\n".join(lines)


def the_one_asked_text(item: dict[str, Any], position: int, of: int) -> str:
    """ "제일 빠른 게 뭐예요?": the one item a listing's position picks, with how many there
    were to pick from."""
    which = {-1: "가장 늦은", 0: "가장 빠른"}.get(position, f"{position + 1}번째")
    title = item["title"]
    return f"{of}개 중 {which} 일정은 {_at(item)} '{title}'{particle_for(title, '이에요')}."


def added_text(item: dict[str, Any]) -> str:
    at = f" {item['time']}" if item.get("time") else ""
    memo = f" 메모: {item['memo']}" if item.get("memo") else ""
    return f"{item['date']}{at}에 '{item['title']}' 일정을 추가했어요.{memo}"


def moved_text(item: dict[str, Any]) -> str:
    return f"'{item['title']}' 일정을 {_at(item)}로 옮겼어요."


def updated_text(item: dict[str, Any], changed: Iterable[str] = ()) -> str:
    """What a change of an item's name or memo did, naming what changed."""
    changed = set(changed)
    if changed == {"memo"} and item.get("memo"):
        return f"'{item['title']}' 일정에 메모를 남겼어요: {item['memo']}"
    if "memo" in changed and "title" not in changed and item.get("memo"):
        # moved and noted in one change: "2시로 당기고 메모에 '신분증' 넣어줘"
        return f"'{item['title']}' 일정을 {_at(item)}로 옮기고 메모를 남겼어요: {item['memo']}"
    if "title" in changed:
        name = f"'{item['title']}'"
        return f"일정 이름을 {name}{particle_for(item['title'], '로')} 바꿨어요 ({_at(item)})."
    return f"'{item['title']}' 일정을 바꿨어요 ({_at(item)})."


def deleted_text(item: dict[str, Any]) -> str:
    return f"'{item['title']}' 일정({item['date']})을 삭제했어요."


def stages_text(company: str, stages: list[dict[str, Any]]) -> str:
    if not stages:
        return f"{company} 공고에서 해당 전형 일정을 찾지 못했어요."
    lines = [
        f"- {s['stage']}: "
        # a period with both ends ("2026-12-01(화) ~ 2026-12-15(화) 18:00")
        f"{_with_weekday(s['start_date']) + ' ~ ' if s.get('start_date') else ''}"
        f"{_with_weekday(s['date']) if s['date'] else '날짜 미정'}"
        f"{' ' + s['time'] if s['time'] else ''}"
        for s in stages
    ]
    return f"{company} 채용 일정이에요:\n" + "\n".join(lines)


def days_left_text(company: str, stages: list[dict[str, Any]], today: date) -> str:
    """How many days are left until each dated stage ("서류 마감: 2026-12-10(목)까지 11일
    남았어요"), counted from `today`."""
    dated = [s for s in stages if s.get("date")]
    if not dated:
        return f"{company} 공고에서 날짜가 정해진 전형을 찾지 못했어요."
    lines = []
    for s in dated:
        days = (date.fromisoformat(s["date"]) - today).days
        left = (
            f"{days}일 남았어요 (D-{days})"
            if days > 0
            else "오늘이에요 (D-day)"
            if days == 0
            else f"{-days}일 지났어요"
        )
        lines.append(f"- {s['stage']}: {_with_weekday(s['date'])}, {left}")
    return f"{company} 채용 일정까지 남은 날이에요:\n" + "\n".join(lines)


def _with_weekday(day: str) -> str:
    """ "2026-12-15" -> "2026-12-15(화)": the weekday a user asks of a stage ("마감 몇요일?")."""
    try:
        return f"{day}({'월화수목금토일'[date.fromisoformat(day).weekday()]})"
    except ValueError:
        return day


def tool_results_answer(message: str, results: list[tuple[str, dict[str, Any]]]) -> str:
    """What a turn's tools did, from their results (`(tool name, artifact)` of the calls
    that ran without error, in order). Calls the Korean analyser for passages: run it in a
    worker thread."""
    parts: list[str] = []
    for name, artifact in results:
        if name == "get_schedule":
            parts.append(schedule_list_text(artifact.get("schedules") or []))
        elif name in ("add_schedule", "update_schedule", "delete_schedule"):
            item = artifact.get("schedule")
            if item:
                text = {"add_schedule": added_text, "update_schedule": updated_text}.get(
                    name, deleted_text
                )
                parts.append(text(item))
        elif name == "get_recruitment_schedule":
            parts.append(
                stages_text(artifact.get("company") or "해당 공고", artifact.get("stages") or [])
            )
        elif name == "search_documents":
            sources = artifact.get("sources") or []
            parts.append(rag_answer(message, [Passage.of(s) for s in sources]))
    if not parts:
        return "요청하신 작업을 처리하지 못했어요. 다시 말씀해 주세요."
    return "\n\n".join(dict.fromkeys(parts))


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9+#]*")


def junk_reason(text: str, known: str = "") -> str | None:
    """Why a model's chat answer must not reach the user (see degenerate_reason), or None.

    Latin words the model was given (`known`: the question, the passages, the tools'
    results) do not count against the answer being Korean: "Java, Spring Boot, MySQL을
    쓰셨어요" quotes the user's own skill names."""
    reason = degenerate_reason(text, korean=False, echoes=PROMPT_ECHOES)
    if reason is not None:
        return reason
    given = {w.lower() for w in _LATIN_WORD.findall(known)}
    own = _LATIN_WORD.sub(lambda m: "" if m.group(0).lower() in given else m.group(0), text)
    return "not_korean" if degenerate_reason(own) == "not_korean" else None
