"""What a spoken answer does with its question: answers it, says it cannot, or turns to
another topic. Read before the rubric, so that neither of the last two is scored as a thin
answer or followed up on its own words.

- `cannot`: the answer says the candidate does not know, has not done it, or would rather
  not say ("잘 모르겠습니다", "써 본 적이 없어서요", "말씀드리기 곤란한데요", "말씀드릴 게
  없을 것 같아요"), and says little else: what remains once those sentences and an opening
  echo of the question are taken away is under `THIN_CHARS` characters and has no number.
  "써 본 적은 없지만 비슷한 X로 …" followed by a real account is an answer.
- `evades`: the answer turns away from the question to what the candidate would rather talk
  about: a turn of topic ("대신 제 강점을 말씀드리면", "그보다는", "제일 중요한 건 …",
  "… 중요하다고 생각해서") after which the topic the question asked about never comes back,
  and no measured result is reported (a routine's "매일 30분씩" is none). An opening
  that points at the question ("그 부분은…", "그건…") echoes it like its words would. An
  answer that opens by asking the interviewer something, and asks in at least half its
  sentences ("수당이 어느 정도 나오는지 여쭤봐도 될까요?", "…는지 궁금했는데요"), answers
  nothing either. The topic is what the answer's opening echoed of the question ("거절이요…",
  "조기 퇴사요…", "실패라고 하긴 좀 그렇지만…"); without such an opening, the question's own
  content words.

And how firmly an answer stands behind what it says (`hedges`): guesses and hearsay
("…것 같아요", "…걸로 알고 있습니다", "빨라졌다고 들었습니다", "아마", "헷갈리네요") and work
handed to someone else ("팀 리드분이 주로 하셨는데요", "IT팀이 했습니다"), the marks of a
weak answer that graders mark down even when it names the right things.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from nodes.interview.measures import measured_results
from text.clauses import sentences
from text.korean_text import content_words, squash
from text.skills import taxonomy

# Saying one cannot answer: not knowing, not remembering, never having done it, not wanting
# to say. Spacing varies in speech, so every gap is optional.
_CANNOT = re.compile(
    r"모르겠|모릅니다|모르는데|잘\s?모르|기억이\s?(?:안|잘\s?안|나지)|생각이\s?안\s?나|"
    r"(?:말씀|설명|답변)?(?:드리기|말하기|답하기)(?:는|가)?\s?(?:좀\s?)?(?:곤란|어렵|어려울|조심스럽)|"
    r"말씀드리지\s?않|말씀드릴\s?(?:게|것이|것은|만한\s?게)\s?없|다른\s?질문으로|넘어가\s?주|"
    r"(?:해|써|겪어|경험해|다뤄)\s?(?:본|보지)\s?(?:적이|적은|적)?\s?(?:없|못)|"
    r"(?:해|써|다뤄|찾아|봐)\s?보지\s?(?:는\s?)?못|(?:보|찾아보|해\s?보)진\s?못|"
    r"(?:안|못)\s?(?:해|써|다뤄|겪어|찾아)?\s?(?:봤|보았)"
)
# A turn to another topic: a substitute offered, a reframing, or what the candidate holds
# most important, meaningful or is sure of.
_TURN = re.compile(
    r"대신|그보다|그것보다|그건\s?그렇고|다른\s?얘기|(?:이)?라기\s?보다|"
    r"(?:제일|가장)\s?(?:중요(?:한|하게|하다)|의미\s?있|자신\s?있)|중요하다고\s?생각|"
    r"중요하게\s?생각|(?:말씀|얘기)(?:를)?\s?드리면"
)
# The opening echo: a short first stretch ending in a trailing pause ("거절이요…",
# "실패라고 하긴 좀 그렇지만…", "안전재고는…").
_OPENING = re.compile(r"\s*([^…]{1,24}?)(?:…|\.{2,})")
# Clauses of spoken Korean: sentences, commas and the connective endings that join them.
_CLAUSE = re.compile(
    r"(?<=[.!?])\s+|…\s*|\.{2,}\s*|,\s*|(?<=[은는]데)\s|(?<=[은는]데요)\s|(?<=고요)\s"
)
_FILLER = re.compile(r"^(?:음+|어+|아+|그러니까|솔직히|글쎄요|네)[,.\s]*")
_DIGIT = re.compile(r"\d")
# The candidate as the subject: what an answer that leaves its question talks about instead.
_SELF = re.compile(r"(?:^|\s)(?:저는|제가|저도)\s")
# Guesses and hearsay: the epistemic endings and adverbs of spoken Korean, and taking back
# what was just said ("아 아니다", "아, 아니").
_HEDGE = re.compile(
    r"(?:것|거)\s?같|(?:걸|거|것으)로\s?알|다고\s?(?:들었|하더)|헷갈|아마|잘은\s?모르|"
    r"아,?\s?아니(?:다|고)?(?=[\s,.])|"
    r"정확히는\s?(?:잘\s?)?모르|않을까요|개념(?:은|만)\s?(?:좀\s?)?알|들어(?:는\s?)?봤|"
    r"한\s?건\s?아니|하진\s?않았"
)
# Work handed to someone else (a team or a person as the one who did it), or a failure
# laid on them ("설명을 제대로 안 해 주셔서", "공유를 안 해 줘서").
_DEFERRED = re.compile(
    r"(?:팀|분|분들|님)(?:이|가|께서|에서)\s?(?:주로\s?|다\s?|알아서\s?)?(?:하셨|했|해야|맡|정해|처리)|"
    r"안\s?해\s?(?:줘서|주셔서|줬|주셨|주니까)"
)
# A stalling opening ("좋은 질문이네요.", "음, 좋은 질문이라고 생각합니다."): time bought,
# nothing said; where the answer really begins is after it.
_STALL = re.compile(r"^(?:(?:네|음|아|어)[,.\s]*)*좋은\s?질문[^.!?]*[.!?]\s*")
# An opening that points at the question instead of repeating its words.
_POINTER = re.compile(r"^(?:(?:아|음|어)\s?)?(?:그\s?부분|그건|그거|그\s?질문|그\s?점)")
# A sentence that asks the interviewer something: the speech acts of asking, not a
# question mark (a guess or a self-check ends in one: "덮어쓰지 않을까요?").
_ASKS = re.compile(r"궁금|여쭤|여쭙")
# Why the candidate wants the job or what they are studying: the topics a dodge turns to.
_MOTIVE = re.compile(
    r"회사(?:라고|라는|가|에서|에)|매력|기회를\s?주신다면|들어가(?:면|게)|입사(?:하면|하게|해서)|"
    r"열심히\s?하겠|기여하고\s?싶|성실하게|배우면서|좌우명|믿습니다|자격증|"
    r"공부(?:하고|를\s?하|하면서)|준비하고\s?있|관심이\s?많|좋아해서|인상\s?깊|공감"
)
# Questions that ask for exactly that: motivation, goals, the future, an introduction.
_ASKS_MOTIVE = re.compile(
    # ("이 방식을 선택한 이유", "지원하는 DB", "관심사 분리" ask something technical)
    r"지원\s?(?:동기|이유|하(?:신|셨|게|려|였)|한\s|했)|동기|입사|포부|목표|왜\s?저희|"
    r"(?:이직|퇴사|전직|회사를\s?고른|저희를\s?선택한)\S*\s?이유|계기|"
    r"(?:직무|분야|직군|회사|진로|저희|우리)(?:를|을)?\s?(?:선택|택|고른)\S*\s?이유|"
    r"관심(?:을\s?(?:갖|가지)|이\s?생|\s?(?:있는\s?)?분야)|자기\s?소개|하고\s?싶은\s?말|마지막|질문\s?있|"
    r"(?:\d+\s?년|입사|합격)\s?(?:뒤|후)|미래|되고\s?싶|계획"
)
_FIRST_SENTENCE = re.compile(r"[.?!]|요[,\s]|데요")
OPENING_CHARS = 16
# How far into the answer (after its opening) a turn away can be.
TURN_CHARS = 50
THIN_CHARS = 40


@dataclass(frozen=True)
class Stance:
    kind: Literal["answers", "cannot", "evades"]
    # the question's words the answer set out from (its opening echo); for "evades" never
    # empty (the echo, else the question's first content word)
    topic: tuple[str, ...] = ()


def read_stance(question: str, answer: str) -> Stance:
    """The answer's stance towards its question (module docstring). Calls the Korean
    analyser for the opening's and the question's content words."""
    text = (answer or "").strip()
    asked = squash(question)
    opening = _OPENING.match(text)
    if opening and len(squash(opening.group(1))) > OPENING_CHARS:
        opening = None
    topic = (
        tuple(w for w in content_words(opening.group(1)) if squash(w) in asked) if opening else ()
    )
    # an opening that takes up the question's words, or points at it: where the answer sets
    # out from
    echo = bool(topic) or bool(opening and _POINTER.match(opening.group(1).strip()))
    rest = text[opening.end() :] if opening else text
    rest = _STALL.sub("", rest)
    if _CANNOT.search(text):
        kept = [c for c in _CLAUSE.split(rest) if c.strip() and not _CANNOT.search(c)]
        remains = _FILLER.sub("", " ".join(kept))
        if len(squash(remains)) < THIN_CHARS and not _DIGIT.search(remains):
            return Stance("cannot", topic)
    asked_words = (*topic, *content_words(question))
    said = sentences(text)
    asking = [x for x in said if _ASKS.search(x)]
    if asked_words and said and _ASKS.search(said[0]) and 2 * len(asking) >= len(said):
        return Stance("evades", topic or asked_words[:1])
    turn = _TURN.search(rest)
    if turn and turn.start() > TURN_CHARS:
        turn = None  # a dodge turns at once; an "instead" late in an account is part of it
    # after a turn, nothing the question asked comes back (what the opening echoed, or
    # without an echo, the question's words; a measured result is an answer then); a
    # question with no words of its own gives nothing to leave
    left = False
    if turn is not None and asked_words:
        left = not _mentions(rest[turn.end() :], topic or asked_words)
    if left and (echo or not measured_results(rest)):
        return Stance("evades", topic or asked_words[:1])
    # an echo, then the answer goes on about the candidate and nothing the question asked
    if echo and _SELF.search(rest) and not _mentions(rest, asked_words):
        return Stance("evades", topic or asked_words[:1])
    # a question about something else answered with why the candidate wants the job or what
    # they are studying ("…매력적인 회사라고 생각하는데요 … 기회를 주신다면", "요즘 자격증을
    # 준비하고 있는데요"), the question's words never coming back after the first sentence
    first = _FIRST_SENTENCE.search(rest)
    after_first = rest[first.end() :] if first else rest
    if (
        asked_words
        and not _ASKS_MOTIVE.search(question)
        and len(_MOTIVE.findall(text)) >= 2
        and not _mentions(after_first, asked_words)
    ):
        return Stance("evades", topic or asked_words[:1])
    return Stance("answers", topic)


def _mentions(text: str, words: tuple[str, ...] | list[str]) -> bool:
    """Whether `text` says any of `words` (as written, or the same skill in another
    spelling: "Kafka" / "카프카")."""
    said = squash(text)
    if any(squash(w) in said for w in words):
        return True
    known = taxonomy()
    skills = {known.normalise(w) for w in words} - {None}
    return bool(skills & set(known.find(text)))


def hedges(answer: str) -> list[str]:
    """The answer's guesses, hearsay and work handed to others, as written."""
    text = answer or ""
    return [m.group(0) for pattern in (_HEDGE, _DEFERRED) for m in pattern.finditer(text)]
