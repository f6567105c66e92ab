"""What must never reach a job seeker's screen: server settings, model or provider names,
internal ids and error internals (non-negotiable 10). Those are for operators (`/health`,
`/metrics`, the logs).

`leak_reason` is the one check every eval runs over every user-visible text it produces
(chat answers, interview questions and reports, analysis feedback, calendar fields), and
the unit tests of the grounded writers run on theirs. It is a detector, not a filter: a
leak is a bug in the text's writer, fixed there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from core.settings import Settings

# Every setting's environment name (CHAT_MODEL, GOOGLE_API_KEY ...), said as a setting:
# upper case, as the operator writes it.
# (Single words like HOST or PORT are ordinary words too: only the compound names count.)
_SETTING_NAMES = sorted(
    (name.upper() for name in Settings.model_fields if "_" in name), key=len, reverse=True
)
_A = r"(?<![A-Za-z0-9_])"  # word edges in ASCII: "REDIS_URL을" ends its name at 을
_Z = r"(?![A-Za-z0-9_])"
_SETTING = re.compile(
    _A
    + r"(?:"
    + "|".join(map(re.escape, _SETTING_NAMES))
    + r"|[A-Z][A-Z0-9]*_[A-Z0-9_]*(?:KEY|URL|MODEL|TOKEN))"
    + _Z
)
# Providers, model families and the libraries that run them: users never choose these.
_MODEL_NAMES = re.compile(
    r"(?i)(?<![A-Za-z0-9])(?:gemini|google[_ ]genai|ollama|exaone|qwen\d*|"
    r"llama(?:[-_.]?cpp)?|gpt-?\d\w*|"
    r"openai|anthropic|claude|langchain|langgraph|langsmith|huggingface|hugging face|"
    r"sentence[- ]transformers|ko-sroberta|multilingual-e5|gguf)(?![A-Za-z0-9])"
)
# Error internals: a traceback, an exception's class name, an error code of the API.
_INTERNALS = re.compile(
    r"Traceback \(most recent call last\)|"
    + _A
    + r"(?:[A-Z][A-Za-z]+(?:Error|Exception)|POSTING_NOT_FOUND|SESSION_NOT_FOUND|TASK_NOT_FOUND|"
    r"DEPENDENCY_UNAVAILABLE|MODEL_TIMEOUT|MODEL_ERROR|INTERNAL_ERROR|doc_id|schedule_id|"
    r"thread_id)" + _Z
)


def leak_reason(text: str, ids: Iterable[str] = (), known: str = "") -> str | None:
    """Why `text` must not be shown to a user ("setting", "model_name", "internal_id",
    "error_internals"), or None. `ids` are the internal ids in play (document and schedule
    ids, session ids): a text naming one leaks it, unless the id is an ordinary word of
    the text (an id like "resume" only leaks as "(resume)" or "resume=").  `known` is what
    the user gave (the message, their documents): a model name quoted from it ("LangChain
    으로 RAG 구현" in a resume) is the user's own word, not a leak."""
    if _SETTING.search(text):
        return "setting"
    given = {m.group(0).lower() for m in _MODEL_NAMES.finditer(known)}
    if any(m.group(0).lower() not in given for m in _MODEL_NAMES.finditer(text)):
        return "model_name"
    if _INTERNALS.search(text):
        return "error_internals"
    for raw in ids:
        ident = str(raw).strip()
        if not ident:
            continue
        if re.search(r"[0-9_\-:]", ident) or len(ident) >= 16:
            if ident in text:
                return "internal_id"
        elif re.search(rf"[(\[]\s*{re.escape(ident)}\s*[)\]]|\b{re.escape(ident)}\s*=", text):
            return "internal_id"
    return None
