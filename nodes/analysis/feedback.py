"""The written feedback format: readable while it streams, parsed when it is done.

The model writes labelled sections ("[강점]\\n- ...\\n[약점]\\n- ..."); users see those tokens
as they come, and `parse_feedback` turns the finished text into `MatchFeedback`. With the
embedded model, `FEEDBACK_GRAMMAR` (llama.cpp GBNF) makes the format impossible to break.
"""

from __future__ import annotations

from pydantic import ValidationError

from nodes.analysis.schemas import MatchFeedback
from text.labelled import parse_labelled

# label in the text -> field of MatchFeedback, in the order the prompt asks for.
LABELS: dict[str, str] = {
    "강점": "strengths",
    "약점": "weaknesses",
    "개선 제안": "suggestions",
    "강점 요약": "strength_summary",
    "약점 요약": "weakness_summary",
    "추천": "recommendations",
}
_SINGLE = {"strength_summary", "weakness_summary"}

FEEDBACK_GRAMMAR = r"""
root  ::= lists summaries recs
lists ::= "[강점]\n" items "[약점]\n" items "[개선 제안]\n" items
summaries ::= "[강점 요약]\n" line "[약점 요약]\n" line
recs  ::= "[추천]\n" items
items ::= item item?
item  ::= "- " text "\n"
line  ::= text "\n"
text  ::= [^\n\[\]\- ] [^\n\[\]]{4,60}
"""


def parse_feedback(text: str) -> MatchFeedback:
    """Parse the sectioned text; raises ValueError when a section is missing or empty."""
    fields = parse_labelled(text, LABELS)
    values: dict[str, object] = {}
    for name, items in fields.items():
        values[name] = " ".join(items) if name in _SINGLE else items[:5]
    try:
        return MatchFeedback.model_validate(values)
    except ValidationError as exc:
        missing = sorted({str(e["loc"][0]) for e in exc.errors()})
        raise ValueError(f"feedback lacks sections: {', '.join(missing)}") from exc
