"""A simulated chat model of fixed latency, for measuring the server's own overhead.

Defaults are the seed's measured Gemini figures: 600 ms to first token, 28 tokens/s. It
answers the analysis graph's calls (section digests as JSON, feedback as sectioned text)
and the interview's (questions, the report) so whole graphs run; tokens are
whitespace-separated words.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.messages.ai import UsageMetadata
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult

DIGEST = json.dumps(
    {"summary": "백엔드 개발 3년, 주문 API 개발과 쿼리 튜닝 경험", "skills": []}, ensure_ascii=False
)
FEEDBACK = (
    "[강점]\n- Spring Boot 기반 API 개발 경험이 공고의 핵심 요구와 맞습니다\n"
    "- MySQL 쿼리 튜닝으로 성능을 개선한 수치가 있습니다\n"
    "[약점]\n- Kubernetes 운영 경험이 드러나지 않습니다\n"
    "[개선 제안]\n- 배포 자동화와 컨테이너 운영 경험을 프로젝트로 보여주세요\n"
    "[강점 요약]\n백엔드 핵심 역량과 성능 개선 경험을 갖췄습니다\n"
    "[약점 요약]\n인프라 운영 경험이 부족합니다\n"
    "[추천]\n- 개인 프로젝트를 쿠버네티스에 배포하고 모니터링까지 구성해 보세요\n"
)


REPORT = (
    "[강점 패턴]\n- 수치로 성과를 설명하는 답변이 많습니다\n"
    "[약점 패턴]\n- 기술 선택의 이유 설명이 부족합니다\n"
    "[학습 가이드]\n- 주요 기술의 장단점과 대안을 정리해 보세요\n"
)
_KEYWORD = re.compile(r'키워드 "([^"]+)"')


def reply_for(messages: list[BaseMessage]) -> str:
    """Analysis: a section digest or the feedback. Interview: a question that contains the
    prompt's keyword (as a capable model would), or the report. Chat: a route or an answer."""
    last = messages[-1].text
    if "섹션:" in last:
        return DIGEST
    if '"route"' in messages[0].text:
        return '{"route": "general"}'
    if "## 질문" in last:
        return "질문의 의도를 먼저 확인하고, 경험을 상황-행동-결과 순서로 설명해 보세요."
    if last.rstrip().endswith(("다음 질문:", "꼬리 질문:")):
        keyword = _KEYWORD.search(messages[0].text)
        anchor = keyword.group(1) if keyword else "프로젝트"
        return f"{anchor}에 대해 본인이 내린 가장 중요한 결정과 그 근거를 말씀해 주시겠어요?"
    if "종합 피드백" in last:
        return REPORT
    return FEEDBACK


def token_count(text: str) -> int:
    return len(text.split())


class SimulatedChatModel(BaseChatModel):
    ttft_s: float = 0.6
    tokens_per_s: float = 28.0

    @property
    def _llm_type(self) -> str:
        return "simulated"

    def _usage(self, messages: list[BaseMessage], text: str) -> UsageMetadata:
        prompt = sum(token_count(m.text) for m in messages)
        return UsageMetadata(
            input_tokens=prompt,
            output_tokens=token_count(text),
            total_tokens=prompt + token_count(text),
        )

    def _generate(self, messages, stop=None, run_manager=None, **kwargs: Any) -> ChatResult:
        raise NotImplementedError("the simulated model is async only")

    async def _agenerate(self, messages, stop=None, run_manager=None, **kwargs) -> ChatResult:
        text = reply_for(messages)
        await asyncio.sleep(self.ttft_s + token_count(text) / self.tokens_per_s)
        message = AIMessage(content=text, usage_metadata=self._usage(messages, text))
        return ChatResult(generations=[ChatGeneration(message=message)])

    async def _astream(
        self, messages, stop=None, run_manager=None, **kwargs
    ) -> AsyncIterator[ChatGenerationChunk]:
        text = reply_for(messages)
        await asyncio.sleep(self.ttft_s)
        for piece in re.findall(r"\S+\s*", text):  # one token per word, as token_count counts
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=piece))
            if run_manager:
                await run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk
            await asyncio.sleep(1 / self.tokens_per_s)
        yield ChatGenerationChunk(
            message=AIMessageChunk(content="", usage_metadata=self._usage(messages, text))
        )


def model_alone_seconds(ttft_s: float, tokens_per_s: float) -> tuple[float, float]:
    """(time to first token, total) of the model alone for one analysis of the benchmark's
    documents: their sections are short, so the only call is the streamed feedback."""
    return ttft_s, ttft_s + token_count(FEEDBACK) / tokens_per_s
