"""Chat evals with the embedded defaults:

1. Routing and tool arguments: 64 Korean messages (evals/datasets/chat_routing.jsonl) run
   through the chat graph; what the fast router decided alone, what went to the model.
2. Retrieval: 26 questions over one user's 5 documents (chat_documents.json,
   chat_retrieval.jsonl): hit@1/hit@5/MRR, and the relevance threshold calibrated on the
   top-1 similarity of answerable versus unanswerable questions.

    python -m evals.run_chat      -> evals/results/chat-latest.{json,md}
"""

from __future__ import annotations

import asyncio
import json
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from core.services import get_services, in_process_services, set_services
from core.settings import get_settings
from evals.judges import Judged
from evals.lab import Case, Metric, Row, Suite, Target
from evals.lab import run as lab_run
from evals.report import write_results
from graphs.chat import build_chat_graph
from graphs.embed import build_embed_graph
from text.degenerate import degenerate_reason
from tools.schedule import ScheduleStore

HERE = Path(__file__).parent
NOW = "2026-11-29T10:00:00+09:00"
SEEDED = (
    ("네이버 1차 면접", "2026-12-04", "15:00"),
    ("코딩 스터디", "2026-12-01", "19:00"),
    ("카카오 면접", "2026-12-10", "14:00"),
)
TARGETS = {"tool_selection": 0.95, "tool_arguments": 0.90}


def load_dataset(name: str) -> list[dict[str, Any]]:
    text = (HERE / "datasets" / name).read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


async def seed_documents(user: str) -> None:
    embed = build_embed_graph().compile()
    docs = json.loads((HERE / "datasets" / "chat_documents.json").read_text(encoding="utf-8"))
    for doc_id, doc in docs.items():
        await embed.ainvoke({"user_id": user, "doc_id": doc_id, **doc})


def _args_match(gold: dict[str, Any], call: dict[str, Any], ids: dict[str, str]) -> bool:
    expected = dict(gold)
    target = expected.pop("target", None)
    if target is not None:
        expected = {"schedule_id": ids[target], **expected}
    return call["args"] == expected


async def routing(graph: Any, dataset: str = "chat_routing.jsonl") -> dict[str, Any]:
    rows = load_dataset(dataset)
    results = []
    for i, row in enumerate(rows):
        user = f"eval-{dataset.split('.')[0]}-{i}"  # fresh schedules for every message
        store = ScheduleStore(None)
        ids = {}
        for title, day, time in SEEDED:
            from datetime import date

            item = await store.add(user, title, date.fromisoformat(day), time)
            ids[title] = item["schedule_id"]
        if row["route"] in ("calendar", "rag", "general"):
            user = "evaldocs"
        config = {"configurable": {"thread_id": f"chat:{user}:{dataset}{i}"}}
        out = await graph.ainvoke(
            {"user_id": user, "room_id": f"r{i}", "message": row["message"], "now": NOW}, config
        )
        state = (await graph.aget_state(config)).values
        first = out["tool_calls"][0] if out["tool_calls"] else None
        tool_ok = out["route"] == row["route"] and (
            (first is None and row["tool"] is None)
            or (first is not None and first["name"] == row["tool"])
        )
        args_ok = None
        if row["tool"]:
            args_ok = bool(tool_ok and first and _args_match(row["args"], first, ids))
        # Compound requests (the new sets' `tools`): every operation, in order.
        all_tools_ok = None
        if row.get("tools"):
            wanted = [t["tool"] if "tool" in t else t.get("name") for t in row["tools"]]
            all_tools_ok = [c["name"] for c in out["tool_calls"]] == wanted
        results.append(
            {
                "message": row["message"],
                "gold_route": row["route"],
                "route": out["route"],
                "routed_by": state.get("routed_by"),
                "tool_ok": tool_ok,
                "args_ok": args_ok,
                "all_tools_ok": all_tools_ok,
                "tool_calls": out["tool_calls"],
                # what the user reads: junk (a loop, an echo, not Korean) must never be it
                "degenerate": degenerate_reason(out["answer"]),
            }
        )
    by: dict[str, list[bool]] = {}
    for r in results:
        by.setdefault(r["routed_by"], []).append(r["route"] == r["gold_route"])
    with_args = [r["args_ok"] for r in results if r["args_ok"] is not None]
    compound = [r["all_tools_ok"] for r in results if r["all_tools_ok"] is not None]
    return {
        "compound": {"n": len(compound), "all_tools": sum(compound) / len(compound)}
        if compound
        else None,
        "messages": len(results),
        "route_accuracy": sum(r["route"] == r["gold_route"] for r in results) / len(results),
        "tool_selection": sum(r["tool_ok"] for r in results) / len(results),
        "tool_arguments": sum(with_args) / len(with_args),
        "decided_by": {k: {"n": len(v), "accuracy": sum(v) / len(v)} for k, v in by.items()},
        "degenerate_answers": sum(r["degenerate"] is not None for r in results),
        "degenerate_reasons": sorted({r["degenerate"] for r in results if r["degenerate"]}),
        "errors": [r for r in results if not r["tool_ok"] or r["args_ok"] is False],
        # every message's route and the stage that decided it (for the per-stage tables)
        "decisions": [
            {k: r[k] for k in ("message", "gold_route", "route", "routed_by")} for r in results
        ],
    }


# --- cross-author sets (#27): single messages, RAG answers, multi-turn exchanges ---------

DOC_IDS = ("resume", "kakao", "naver", "portfolio", "cover")


def _norm(text: str) -> str:
    return "".join(text.split()).lower()


@cache
def _doc_lines() -> list[str]:
    docs = json.loads((HERE / "datasets" / "chat_documents.json").read_text(encoding="utf-8"))
    lines = [line.strip(" -•\t") for d in docs.values() for line in d["text"].splitlines()]
    return [_norm(line) for line in lines if len(_norm(line)) >= 10 and not line.startswith("[")]


def rag_verdict(row: dict[str, Any], answer: str, lines: list[str]) -> bool | None:
    """Answerable: one of the row's answer strings in the answer's first line (the answer
    stated first). Unanswerable: no line of the documents quoted (a 10+ character line of
    any document inside the answer). None for rows without a RAG label."""
    if row.get("answer"):
        first = _norm(answer.strip().split("\n")[0])
        return any(_norm(a) in first for a in row["answer"])
    if row.get("answerable") is False:
        shown = _norm(answer)
        return not any(line in shown for line in lines)
    return None


async def _reset_schedule(store: ScheduleStore, user: str) -> None:
    from datetime import date

    for item in await store.get(user):
        await store.delete(user, item["schedule_id"])
    for title, day, time in SEEDED:
        await store.add(user, title, date.fromisoformat(day), time)


def _turn_ok(gold: dict[str, Any], out: dict[str, Any], ids: dict[str, str]) -> tuple[bool, bool]:
    """(route + tool right, args right) of one turn; an ask-back turn is right when no
    tool was called and the answer asks which one."""
    first = out["tool_calls"][0] if out["tool_calls"] else None
    if gold.get("ask_back"):
        ok = first is None and "어느" in out["answer"]
        return ok, ok
    tool_ok = out["route"] == gold["route"] and (
        (first is None and gold["tool"] is None)
        or (first is not None and first["name"] == gold["tool"])
    )
    if not gold.get("tool"):
        return tool_ok, tool_ok
    target = gold["args"].get("target")
    if target is not None and target not in ids:
        return tool_ok, False
    return tool_ok, bool(tool_ok and first and _args_match(gold["args"], first, ids))


XA_SPLITS = {
    # #27: written by helpers who saw only the contract and a brief (chat_xa_brief.md)
    "xa_dev": "chat_xa_dev.jsonl",
    "xa_dev2": "chat_xa_dev2.jsonl",
    # the first cross-author test split, read eight times (sessions 15-18): development now
    "xa_dev3": "chat_xa_dev3.jsonl",
    # the second (session 20, chat_xa_dev4_brief.md), read in ten changes: development now
    "xa_dev4": "chat_xa_dev4.jsonl",
    # session 22: 200 rows by a third helper from the same brief (chat_xa_dev5_brief.md),
    # the frozen test split of sessions 22-24, read in their changes: development now
    "xa_dev5": "chat_xa_dev5.jsonl",
    # session 26: 120 rows (40 exchanges aimed at references) by a fifth helper from the
    # test's brief with other counts (chat_xa_dev6_brief.md); development from the start
    "xa_dev6": "chat_xa_dev6.jsonl",
    # session 27: 90 rows (30 exchanges) by a sixth helper from the same brief with other
    # counts (chat_xa_dev7_brief.md); development from the start
    "xa_dev7": "chat_xa_dev7.jsonl",
    # session 28: 90 rows (30 exchanges) by a seventh helper from the same brief with other
    # counts (chat_xa_dev8_brief.md); development from the start
    "xa_dev8": "chat_xa_dev8.jsonl",
    # session 28: 40 exchanges by an eighth helper, a terse phone-typing user
    # (chat_xa_dev9_brief.md); development from the start
    "xa_dev9": "chat_xa_dev9.jsonl",
    # session 29: 45 exchanges (120 turns) aimed at references, many kinds of users, by a
    # tenth helper (chat_xa_dev10_brief.md); development from the start
    "xa_dev10": "chat_xa_dev10.jsonl",
    # session 29: 40 exchanges (103 turns) of references that are easy to get wrong, by an
    # eleventh helper (chat_xa_dev11_brief.md); development from the start
    "xa_dev11": "chat_xa_dev11.jsonl",
    # session 30: 36 exchanges (103 turns) of references by how items are named (what they
    # are about, their day, their place in a list), by a twelfth helper
    # (chat_xa_dev12_brief.md); development from the start
    "xa_dev12": "chat_xa_dev12.jsonl",
    # session 30: 60 single messages and 34 exchanges from many kinds of users, by a
    # thirteenth helper (chat_xa_dev13_brief.md); development from the start
    "xa_dev13": "chat_xa_dev13.jsonl",
    # session 31: 40 exchanges (110 turns) of references (renames, memos, English, a
    # posting's stage into the schedule, corrections, two turns back), by a fourteenth
    # helper (chat_xa_dev14_brief.md); its first read is chat-xa-dev14-first-read.md
    "xa_dev14": "chat_xa_dev14.jsonl",
    # session 32: 40 exchanges (112 turns): two changes to one item, a title said apart,
    # an item picked from a listing, days left, a posting's dates then its content, undo,
    # by a fifteenth helper (chat_xa_dev15_brief.md); first read chat-xa-dev15-first-read.md
    "xa_dev15": "chat_xa_dev15.jsonl",
    # session 32: 100 messages and 36 exchanges by a sixteenth helper, given the frozen
    # test2 split's own brief and counts (chat_xa_dev16_brief.md): development that reads
    # like test2 without being it; first read chat-xa-dev16-first-read.md
    "xa_dev16": "chat_xa_dev16.jsonl",
    # session 33: the same brief and counts again, by a seventeenth helper asked to vary
    # how later turns refer back (chat_xa_dev17_brief.md); its first read (on the code
    # before session 33's changes) is chat-xa-dev17-first-read.md
    "xa_dev17": "chat_xa_dev17.jsonl",
    # session 33: 30 messages and 50 exchanges (124 turns) of references in every register,
    # by an eighteenth helper (chat_xa_dev18_brief.md); first read chat-xa-dev18-first-read.md
    "xa_dev18": "chat_xa_dev18.jsonl",
    # session 33: 60 messages and 40 exchanges from job seekers of every field (an accountant,
    # nurses, a marketer, public-sector applicants), by a nineteenth helper
    # (chat_xa_dev19_brief.md); first read chat-xa-dev19-first-read.md
    "xa_dev19": "chat_xa_dev19.jsonl",
    # session 34: test2's brief, 40 messages and 45 exchanges referring back in many ways
    # (chat_xa_dev20_brief.md); first read chat-xa-dev20-first-read.md
    "xa_dev20": "chat_xa_dev20.jsonl",
    # session 35: a twenty-first author, 30 single messages and 50 exchanges referring back
    # (chat_xa_dev21_brief.md); first read chat-xa-dev21-first-read.md
    "xa_dev21": "chat_xa_dev21.jsonl",
    # session 35: a twenty-second author, 30 single messages and 45 exchanges continuing the
    # conversation by ellipsis, pointers and corrections (chat_xa_dev22_brief.md); first read
    # chat-xa-dev22-first-read.md
    "xa_dev22": "chat_xa_dev22.jsonl",
    # session 36: a twenty-third author, 30 single messages and 45 exchanges of 3-5 turns
    # whose references reach past turns about something else, across kinds
    # (chat_xa_dev23_brief.md); first read chat-xa-dev23-first-read.md
    "xa_dev23": "chat_xa_dev23.jsonl",
    # session 36: a twenty-fourth author, 20 single messages and 45 exchanges completing
    # requests over several turns (a day, a value or an item asked for and given), written
    # after the waiting operation was built (chat_xa_dev24_brief.md); first read
    # chat-xa-dev24-first-read.md
    "xa_dev24": "chat_xa_dev24.jsonl",
    # session 37: a twenty-fifth author, 90 single messages and 25 exchanges whose dates and
    # times are written the way people write them (chat_xa_dev25_brief.md; a row's "note"
    # gives the author's reading of a form two readers could take apart); first read
    # chat-xa-dev25-first-read.md, at the code before the month's weeks were read
    "xa_dev25": "chat_xa_dev25.jsonl",
    # session 37: a twenty-sixth author, 20 single messages and 50 exchanges whose later
    # turns refer to what earlier turns produced or said, several at once, across an
    # unrelated turn (chat_xa_dev26_brief.md); first read chat-xa-dev26-first-read.md
    "xa_dev26": "chat_xa_dev26.jsonl",
    # operations on several items and on the rest ("X 빼고 다", "나머지", "둘 다"), and
    # references after a calendar or RAG turn (chat_xa_dev27_brief.md); first read
    # chat-xa-dev27-first-read.md
    "xa_dev27": "chat_xa_dev27.jsonl",
    # session 39: a twenty-eighth author, 30 single messages and 45 exchanges whose later
    # turns refer back in every way (pronoun, description, a listing, a posting, a
    # correction, across an unrelated turn) (chat_xa_dev28_brief.md); first read
    # chat-xa-dev28-first-read.md, at the session's starting code (ed98d29)
    "xa_dev28": "chat_xa_dev28.jsonl",
    # a twenty-ninth author, the everyday mix of the test brief with no focus (40 messages,
    # 40 exchanges each referring back in its own way; chat_xa_dev29_brief.md); first read
    # chat-xa-dev29-first-read.md, at 27d49e7
    "xa_dev29": "chat_xa_dev29.jsonl",
    # session 40: a thirtieth author briefed like the frozen test2's exchanges: long rooms
    # (3-4 turns) whose later turns refer back, a third starting with pasted mail
    # (chat_xa_dev30_brief.md); first read chat-xa-dev30-first-read.md, at the session's
    # starting code (46defe1)
    "xa_dev30": "chat_xa_dev30.jsonl",
    # session 41: a thirty-first author briefed like the frozen test2 (50 messages, 50
    # exchanges of 2-4 turns whose later turns refer back in many ways; new users)
    # (chat_xa_dev31_brief.md); first read chat-xa-dev31-first-read.md, at the session's
    # starting code (a1708dc)
    "xa_dev31": "chat_xa_dev31.jsonl",
    # a thirty-second author: later turns leaning on an earlier turn of another kind (a
    # document answer, a posting's dates, advice in between), elliptical follow-ups
    # (chat_xa_dev32_brief.md); first read chat-xa-dev32-first-read.md, at f29fb33 (session
    # 41's end, before any change made against it)
    "xa_dev32": "chat_xa_dev32.jsonl",
    # session 42: a thirty-third author: rooms that build state over 3-4 turns and name an
    # item by what tells it apart (a property, when it was touched, a company two turns
    # back, a value or position the assistant showed), corrections, unusual date forms
    # (chat_xa_dev33_brief.md); first read chat-xa-dev33-first-read.md, at 0a2625f (before
    # any change made against it)
    "xa_dev33": "chat_xa_dev33.jsonl",
    # session 43: a thirty-fourth author: the everyday mix, nothing planted: long rooms whose
    # later turns refer back as comes naturally, a third opening with pasted mail or notices
    # (chat_xa_dev34_brief.md); first read chat-xa-dev34-first-read.md, at the session's
    # starting code (7100559), before any change made against it
    "xa_dev34": "chat_xa_dev34.jsonl",
    # a thirty-fifth author: references of every everyday kind across long rooms (two or
    # three turns back, after an unrelated turn, nicknames the user invents, corrections of
    # what was just done, mixed English) (chat_xa_dev35_brief.md); first read
    # chat-xa-dev35-first-read.md, at session 43's end (270372a), before any change against it
    "xa_dev35": "chat_xa_dev35.jsonl",
    # session 44: a thirty-sixth author: the everyday mix from users not yet heard (requests
    # spread over sentences with a reason between, conditions, yes/no and comparison
    # questions about the documents, bookings, references by a detail the assistant showed)
    # (chat_xa_dev36_brief.md); first read chat-xa-dev36-first-read.md, at session 43's end
    # code (5716af4), before any change made against it
    "xa_dev36": "chat_xa_dev36.jsonl",
    # session 25: 200 rows by a fourth helper from the same brief (chat_xa_test_brief.md);
    # its first read is evals/results/chat-xa-test-first-read.md
    "xa_test": "chat_xa_test.jsonl",
    # session 29: 136 rows (36 exchanges) by a ninth helper from the test's brief with other
    # counts, many kinds of users (chat_xa_test2_brief.md); frozen, its first read is
    # evals/results/chat-xa-test2-first-read.md. The split above is worn (read in many
    # changes since session 25) and is reported beside it.
    "xa_test2": "chat_xa_test2.jsonl",
    # #13: written to a spec of variation (chat_spec.md); dev fixed against, test frozen
    "dev": "chat_dev.jsonl",
    "test": "chat_test.jsonl",
}
USER = "evaldocs"


def cases(split: str, limit: int | None = None) -> list[Case]:
    """One case per single message or multi-turn exchange (played in one room)."""
    out = []
    for i, row in enumerate(load_dataset(XA_SPLITS[split])):
        turns = row.get("turns") or [row]
        out.append(
            Case(
                key=row.get("id") or f"{split}-{i}",
                inputs={"messages": [t["message"] for t in turns]},
                reference={
                    "turns": [{k: v for k, v in t.items() if k != "message"} for t in turns],
                    "exchange": "turns" in row,
                },
                metadata={"family": row.get("family")},
            )
        )
    return out[:limit]


async def in_process() -> Target:
    settings = get_settings().model_copy(
        update={"model_timeout_s": 300.0, "chroma_path": tempfile.mkdtemp(prefix="chat-eval-")}
    )
    set_services(in_process_services(settings))
    await seed_documents(USER)
    graph = build_chat_graph().compile(checkpointer=get_services().checkpointer)
    store = ScheduleStore(None)
    rooms = iter(range(10**9))

    async def play(inputs: dict[str, Any]) -> dict[str, Any]:
        """Every turn of the exchange in a new room, over the seeded schedule."""
        await _reset_schedule(store, USER)
        room = f"xa-{next(rooms)}"
        config = {"configurable": {"thread_id": f"chat:{USER}:{room}"}}
        turns = []
        for message in inputs["messages"]:
            ids = {item["title"]: item["schedule_id"] for item in await store.get(USER)}
            out = await graph.ainvoke(
                {"user_id": USER, "room_id": room, "message": message, "now": NOW}, config
            )
            turns.append(
                {
                    "route": out["route"],
                    "routed_by": out.get("routed_by"),
                    "tool_calls": out["tool_calls"],
                    "answer": out["answer"],
                    "sources": [s["text"] for s in out["sources"]],
                    "ids": ids,
                }
            )
        return {"room": room, "turns": turns}

    return play


def _turn_records(inputs: dict[str, Any], outputs: dict[str, Any], gold: dict[str, Any]) -> list:
    """Each turn scored as if the previous ones went right (the exchange's references are
    the turns marked `refers`); every answer checked for leaks (settings, model names,
    internal ids)."""
    from text.user_text import leak_reason

    records = []
    for message, g, out in zip(inputs["messages"], gold["turns"], outputs["turns"], strict=True):
        ids = out["ids"]
        tool_ok, args_ok = _turn_ok(g, out, ids)
        known = "\n".join([message, *out["sources"]])
        leak = leak_reason(out["answer"], [*ids.values(), *DOC_IDS, USER, outputs["room"]], known)
        verdict = rag_verdict(g, out["answer"], _doc_lines())
        records.append(
            {
                "message": message,
                "gold": {k: g.get(k) for k in ("route", "tool", "args", "ask_back")},
                "route": out["route"],
                "tool_calls": out["tool_calls"],
                "answer": out["answer"][:300],
                "route_ok": out["route"] == g["route"],
                "tool_ok": tool_ok,
                "args_ok": args_ok if g.get("tool") or g.get("ask_back") else None,
                "leak": leak,
                "refers": g.get("refers"),
                "rag": None
                if verdict is None
                else {"answerable": bool(g.get("answer")), "ok": verdict},
            }
        )
    return records


def per_case(
    inputs: dict[str, Any], outputs: dict[str, Any], gold: dict[str, Any]
) -> dict[str, float | bool | None]:
    records = _turn_records(inputs, outputs, gold)

    def every(key: str) -> bool | None:
        values = [r[key] for r in records if r[key] is not None]
        return all(values) if values else None

    refs = [r["args_ok"] for r in records if r["refers"]]
    rag = [r["rag"]["ok"] for r in records if r["rag"]]
    return {
        "route": every("route_ok"),
        "tool": every("tool_ok"),
        "args": every("args_ok"),
        "references": all(refs) if refs else None,
        "rag": all(rag) if rag else None,
        "leak": any(r["leak"] for r in records),
    }


def summarise(rows: list[Row]) -> dict[str, Any]:
    singles, turns, rag, leaks = [], [], [], []
    for row in rows:
        for n, record in enumerate(_turn_records(row.case.inputs, row.outputs, row.case.reference)):
            record = {
                "id": row.case.key,
                "turn": n,
                "family": row.case.metadata.get("family"),
                **record,
            }
            if record["leak"]:
                leaks.append(record)
            if record["rag"]:
                rag.append({**record, **record["rag"]})
            (turns if row.case.reference["exchange"] else singles).append(record)

    def share(records: list[dict[str, Any]], key: str) -> float | None:
        values = [r[key] for r in records if r[key] is not None]
        return round(sum(values) / len(values), 3) if values else None

    refs = [t for t in turns if t["refers"]]
    answerable = [r["ok"] for r in rag if r["answerable"]]
    unanswerable = [r["ok"] for r in rag if not r["answerable"]]
    both = singles + turns
    return {
        "messages": len(singles) + len(turns),
        "single": {
            "n": len(singles),
            "route": share(singles, "route_ok"),
            "tool": share(singles, "tool_ok"),
            "args": share(singles, "args_ok"),
        },
        "turns": {
            "exchanges": sum(r.case.reference["exchange"] for r in rows),
            "n": len(turns),
            "route": share(turns, "route_ok"),
            "tool": share(turns, "tool_ok"),
            "args": share(turns, "args_ok"),
            "references": len(refs),
            "references_resolved": share(refs, "args_ok") if refs else None,
        },
        "all": {
            "route": share(both, "route_ok"),
            "tool": share(both, "tool_ok"),
            "args": share(both, "args_ok"),
        },
        "route": share(both, "route_ok"),
        "tool": share(both, "tool_ok"),
        "args": share(both, "args_ok"),
        "references_resolved": share(refs, "args_ok") if refs else None,
        "rag": {
            "answerable": len(answerable),
            "answered_first": round(sum(answerable) / len(answerable), 3) if answerable else None,
            "unanswerable": len(unanswerable),
            "nothing_quoted": round(sum(unanswerable) / len(unanswerable), 3)
            if unanswerable
            else None,
        },
        "rag_answered_first": round(sum(answerable) / len(answerable), 3) if answerable else None,
        "rag_nothing_quoted": round(sum(unanswerable) / len(unanswerable), 3)
        if unanswerable
        else None,
        "leaks": len(leaks),
        "leak_examples": leaks[:10],
        "misses": [
            r
            for r in both + rag
            if not r["tool_ok"] or r["args_ok"] is False or r.get("ok") is False
        ],
    }


def _appropriateness_view(
    inputs: dict[str, Any], outputs: dict[str, Any], gold: dict[str, Any]
) -> dict[str, str] | None:
    last = outputs["turns"][-1]
    return {
        "message": inputs["messages"][-1],
        "answer": last["answer"],
        "context": "\n".join(last["sources"]) or "(없음)",
    }


def _rag_view(
    inputs: dict[str, Any], outputs: dict[str, Any], gold: dict[str, Any]
) -> dict[str, str] | None:
    last, g = outputs["turns"][-1], gold["turns"][-1]
    if g.get("route") != "rag" or not last["sources"]:
        return None
    return {
        "inputs": inputs["messages"][-1],
        "outputs": last["answer"],
        "context": "\n\n".join(last["sources"]),
    }


SUITE = Suite(
    feature="chat",
    splits=tuple(XA_SPLITS),
    cases=cases,
    target=in_process,
    score=per_case,
    summarise=summarise,
    metrics=(
        Metric("route", "route accuracy", 0.95),
        Metric("tool", "tool selection", TARGETS["tool_selection"]),
        Metric("args", "tool arguments", TARGETS["tool_arguments"]),
        Metric("references_resolved", "references resolved", 0.90),
        Metric("rag_answered_first", "RAG answer first and right", 0.85),
        Metric("rag_nothing_quoted", "RAG nothing quoted when unanswerable", 0.90),
        Metric("leaks", "user texts with settings, model names or ids", 0, lower_is_better=True),
    ),
    judges=(
        Judged("chat_appropriateness", _appropriateness_view),
        Judged("rag_faithfulness", _rag_view),
        Judged("rag_relevance", _rag_view),
    ),
    model_features=("chat",),
)


def render_cross_author(r: dict[str, Any]) -> str:
    s, t, a, g = r["single"], r["turns"], r["all"], r["rag"]
    rows = [
        ("messages (single + turns)", f"{r['messages']} ({s['n']} + {t['n']})", ""),
        (
            "all: route / tool / arguments",
            f"{a['route']} / {a['tool']} / {a['args']}",
            ">= 0.95 / 0.95 / 0.90",
        ),
        ("single: route / tool / arguments", f"{s['route']} / {s['tool']} / {s['args']}", ""),
        (
            f"multi-turn ({t['exchanges']} exchanges, {t['n']} turns): route / tool / arguments",
            f"{t['route']} / {t['tool']} / {t['args']}",
            "",
        ),
        (
            f"references resolved ({t['references']} turns)",
            f"{t['references_resolved']}",
            ">= 0.90",
        ),
        (
            f"RAG answer first and right ({g['answerable']} answerable)",
            f"{g['answered_first']}",
            ">= 0.85",
        ),
        (
            f"RAG nothing quoted ({g['unanswerable']} unanswerable)",
            f"{g['nothing_quoted']}",
            ">= 0.90",
        ),
        ("user texts with settings, model names or ids", f"{r['leaks']}", "0"),
    ]
    return "\n".join(
        [
            f"Chat, cross-author set {r['dataset']} (embedded defaults)",
            "",
            "| metric | value | target |",
            "|---|---|---|",
            *(f"| {x} | {y} | {z} |" for x, y, z in rows),
        ]
    )


async def run_cross_author(split: str) -> dict[str, Any]:
    """One split through `evals.lab` (LangSmith `aevaluate`), summarised for the table."""
    experiment = await lab_run(SUITE, split)
    return {"dataset": XA_SPLITS[split], "experiment": experiment.name, **experiment.summary}


async def retrieval(user: str) -> dict[str, Any]:
    services = get_services()
    rows = load_dataset("chat_retrieval.jsonl")
    out = []
    for row in rows:
        vector = services.embeddings.embed_query(row["question"])
        hits = await services.vectors.query(user, vector, 10)
        docs = [h.doc_id for h in hits]
        rank = docs.index(row["doc_id"]) + 1 if row["doc_id"] in docs else None
        out.append(
            {
                **row,
                "rank": rank,
                "top_score": hits[0].score if hits else 0.0,
                "scores": [round(h.score, 4) for h in hits],
                "chars_top10": sum(len(h.text) for h in hits),
                "chars_top5": sum(len(h.text) for h in hits[:5]),
            }
        )
    answerable = [r for r in out if r["doc_id"]]
    unanswerable = [r for r in out if not r["doc_id"]]
    candidates = sorted({round(r["top_score"], 3) for r in out})
    best = max(
        candidates,
        key=lambda t: (
            sum(r["top_score"] >= t for r in answerable)
            + sum(r["top_score"] < t for r in unanswerable)
        ),
    )
    configured = services.settings.rag_min_score

    def kept_chars(r: dict[str, Any], t: float) -> int:
        return sum(1 for s in r["scores"][:5] if s >= t)

    return {
        "questions": len(out),
        "hit_at_1": sum(r["rank"] == 1 for r in answerable) / len(answerable),
        "hit_at_5": sum(r["rank"] is not None and r["rank"] <= 5 for r in answerable)
        / len(answerable),
        "mrr": sum(1 / r["rank"] for r in answerable if r["rank"]) / len(answerable),
        "answerable_top1_min": min(r["top_score"] for r in answerable),
        "unanswerable_top1_max": max(r["top_score"] for r in unanswerable),
        "best_threshold": best,
        "configured_threshold": configured,
        "kept_answerable_at_configured": sum(r["top_score"] >= configured for r in answerable)
        / len(answerable),
        "dropped_unanswerable_at_configured": sum(r["top_score"] < configured for r in unanswerable)
        / len(unanswerable),
        "context_chars_top10": sum(r["chars_top10"] for r in out) / len(out),
        "context_chars_top5": sum(r["chars_top5"] for r in out) / len(out),
        "chunks_kept_top5_threshold": sum(kept_chars(r, configured) for r in out) / len(out),
        "rows": out,
    }


async def run() -> dict[str, Any]:
    settings = get_settings().model_copy(
        # Answers are not scored here (routing and retrieval are): keep them short.
        update={
            "model_timeout_s": 300.0,
            "chat_max_output_tokens": 32,
            "chroma_path": tempfile.mkdtemp(prefix="chat-eval-"),
        }
    )
    set_services(in_process_services(settings))
    await seed_documents("evaldocs")
    graph = build_chat_graph().compile(checkpointer=get_services().checkpointer)
    return {
        "routing": await routing(graph),
        # Written after the router's rules were revised on the set above; never tuned on.
        "routing_holdout": await routing(graph, "chat_routing_holdout.jsonl"),
        # Session 5 (#13): 263 messages over 41 families (chat_spec.md) written by someone
        # who never read the router; fix against dev, read the frozen test once per change.
        "routing_dev": await routing(graph, "chat_dev.jsonl"),
        # Session 7: a second dev batch (206) written to the same spec, fixed against too.
        "routing_dev2": await routing(graph, "chat_dev2.jsonl"),
        "routing_test": await routing(graph, "chat_test.jsonl"),
        "retrieval": await retrieval("evaldocs"),
    }


def render(r: dict[str, Any]) -> str:
    ro, re_, ho = r["routing"], r["retrieval"], r["routing_holdout"]
    decided = ", ".join(
        f"{k}: {v['n']} ({v['accuracy']:.2f} correct)" for k, v in ro["decided_by"].items()
    )
    rows = [
        ("tool selection (route + tool)", f"{ro['tool_selection']:.3f}", ">= 0.95"),
        ("tool arguments (exact)", f"{ro['tool_arguments']:.3f}", ">= 0.90"),
        ("route accuracy", f"{ro['route_accuracy']:.3f}", ""),
        (
            f"HELD-OUT ({ho['messages']} messages): tool selection / arguments",
            f"{ho['tool_selection']:.3f} / {ho['tool_arguments']:.3f}",
            ">= 0.95 / >= 0.90",
        ),
        ("decided by", decided, ""),
        *(
            (
                f"{name.upper()} ({r[key]['messages']} messages): route / tool selection / "
                "arguments; compound all tools",
                f"{r[key]['route_accuracy']:.3f} / {r[key]['tool_selection']:.3f} / "
                f"{r[key]['tool_arguments']:.3f}; "
                + (
                    f"{r[key]['compound']['all_tools']:.3f} of {r[key]['compound']['n']}"
                    if r[key]["compound"]
                    else "-"
                ),
                "0.95 / 0.95 / 0.90",
            )
            for name, key in (
                ("dev", "routing_dev"),
                ("dev2", "routing_dev2"),
                ("test", "routing_test"),
            )
        ),
        *(
            (
                f"{name} decided by (stage: n, accuracy)",
                ", ".join(
                    f"{k}: {v['n']} ({v['accuracy']:.2f})" for k, v in r[key]["decided_by"].items()
                ),
                "",
            )
            for name, key in (
                ("dev", "routing_dev"),
                ("dev2", "routing_dev2"),
                ("test", "routing_test"),
            )
        ),
        (
            "degenerate answers (routing / held-out / dev / dev2 / test)",
            " / ".join(
                f"{r[k]['degenerate_answers']} of {r[k]['messages']}"
                for k in (
                    "routing",
                    "routing_holdout",
                    "routing_dev",
                    "routing_dev2",
                    "routing_test",
                )
            ),
            "0",
        ),
        (
            "retrieval hit@1 / hit@5 / MRR",
            f"{re_['hit_at_1']:.3f} / {re_['hit_at_5']:.3f} / {re_['mrr']:.3f}",
            "",
        ),
        (
            "top-1 similarity: answerable min / unanswerable max",
            f"{re_['answerable_top1_min']:.3f} / {re_['unanswerable_top1_max']:.3f}",
            "",
        ),
        (
            "threshold: best on this set / configured",
            f"{re_['best_threshold']} / {re_['configured_threshold']}",
            "",
        ),
        (
            "at the configured threshold: answerable kept / unanswerable dropped",
            f"{re_['kept_answerable_at_configured']:.3f} / "
            f"{re_['dropped_unanswerable_at_configured']:.3f}",
            "",
        ),
        (
            "context chars per question: top-10 / top-5",
            f"{re_['context_chars_top10']:.0f} / {re_['context_chars_top5']:.0f}",
            "",
        ),
        (
            "chunks kept per question (top-5 + threshold)",
            f"{re_['chunks_kept_top5_threshold']:.2f}",
            "",
        ),
    ]
    lines = [
        f"Chat eval: {ro['messages']} routing messages, {re_['questions']} retrieval questions "
        f"(embedded defaults)",
        "",
        "| metric | value | target |",
        "|---|---|---|",
        *(f"| {a} | {b} | {c} |" for a, b, c in rows),
    ]
    return "\n".join(lines)


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--cross-author",
        choices=tuple(k.removeprefix("xa_") for k in XA_SPLITS if k.startswith("xa_")),
        help="run only a cross-author split (chat_xa_{dev,dev2,...,dev9,test,test2}.jsonl)",
    )
    parser.add_argument("--tag", default="latest", help="results file suffix")
    args = parser.parse_args()
    if args.cross_author:
        result = asyncio.run(run_cross_author(f"xa_{args.cross_author}"))
        name = f"chat-xa-{args.cross_author}-{args.tag}"
        write_results(name, render_cross_author(result), result)
        return
    result = asyncio.run(run())
    write_results("chat-latest", render(result), result)


if __name__ == "__main__":
    main()
