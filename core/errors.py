"""The one error family of the server.

Every error that reaches a client is an `AIError` rendered as the contract's shape:
`{"error": {"code": "UPPER_SNAKE", "message": "...", "field": "optional"}}`.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

M = TypeVar("M", bound=BaseModel)


class ErrorBody(BaseModel):
    """The contract's error object: `code` (UPPER_SNAKE), a message for people, and the
    input field, header or part of the request at fault (every 4xx names one)."""

    code: str
    message: str
    field: str | None = None


class ErrorResponse(BaseModel):
    """Every error answer of the server, and the `error` event that ends a failed stream."""

    error: ErrorBody


class AIError(Exception):
    """Base of all errors the server reports on purpose."""

    code = "INTERNAL_ERROR"
    status_code = 500

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        code: str | None = None,
        status_code: int | None = None,
        retry_after_s: int | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.field = field
        self.retry_after_s = retry_after_s
        if code:
            self.code = code
        if status_code:
            self.status_code = status_code

    def to_dict(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field:
            body["field"] = self.field
        return {"error": body}

    @property
    def headers(self) -> dict[str, str] | None:
        """HTTP headers of the error response: `Retry-After` when a retry can succeed."""
        if self.retry_after_s is None:
            return None
        return {"Retry-After": str(max(1, self.retry_after_s))}


class InvalidInputError(AIError):
    code = "INVALID_INPUT"
    status_code = 422


class NotFoundError(AIError):
    code = "NOT_FOUND"
    status_code = 404


class UnauthorizedError(AIError):
    code = "UNAUTHORIZED"
    status_code = 401


class PayloadTooLargeError(AIError):
    code = "PAYLOAD_TOO_LARGE"
    status_code = 413


class RateLimitedError(AIError):
    """Too many requests in a window (per user or per key); Retry-After says when."""

    code = "RATE_LIMITED"
    status_code = 429


class QuotaExceededError(AIError):
    """The user's daily model-token quota is spent; Retry-After says when it renews."""

    code = "QUOTA_EXCEEDED"
    status_code = 429


class ModelUnavailableError(AIError):
    """No configured model provider can be used (missing package, key or endpoint)."""

    code = "MODEL_UNAVAILABLE"
    status_code = 503


class ModelOutputError(AIError):
    """The model answered, but not in the required structure, even after a retry."""

    code = "MODEL_OUTPUT_INVALID"
    status_code = 502


class ModelTimeoutError(AIError):
    code = "MODEL_TIMEOUT"
    status_code = 504


class DependencyError(AIError):
    """A backing service (Redis, the vector store) failed."""

    code = "DEPENDENCY_UNAVAILABLE"
    status_code = 503


# How long a client is told to wait (Retry-After) when Redis cannot be reached: a
# restart or failover takes seconds, and a retry that comes too early is refused as quickly.
REDIS_RETRY_AFTER_S = 5


def redis_unavailable(what: str = "Redis") -> DependencyError:
    """The error of a request that needs Redis while it cannot be reached: 503
    DEPENDENCY_UNAVAILABLE with Retry-After. The message names the dependency only, never
    its address or credentials (redis-py's own messages carry host and port)."""
    return DependencyError(
        f"{what} is unreachable; retry shortly", retry_after_s=REDIS_RETRY_AFTER_S
    )


def redis_failure(exc: BaseException, what: str) -> AIError:
    """The coded error for a failed Redis command: unreachable -> 503 with Retry-After
    (`as_ai_error`), anything else (e.g. a wrong type) -> 503 naming what failed."""
    return as_ai_error(exc) or DependencyError(f"{what} failed: {type(exc).__name__}")


def _redis_unreachable(exc: BaseException | None, depth: int = 0) -> bool:
    """Whether `exc` means "Redis cannot be reached", itself or through what it wraps:
    redis-py's ConnectionError (refused, reset, closed, the blocking pool's wait for a free
    connection running out, the server still loading its data, authentication) or
    TimeoutError (no reply within the socket or connect timeout), also when a library
    re-raised it as its own error (`limits`' StorageError, redisvl's errors: their
    `__cause__`), or inside an exception group."""
    if exc is None or depth > 8:
        return False
    if isinstance(exc, RedisConnectionError | RedisTimeoutError):
        return True
    if isinstance(exc, BaseExceptionGroup):
        return any(_redis_unreachable(e, depth + 1) for e in exc.exceptions)
    wrapped = getattr(exc, "storage_error", None)  # limits.errors.StorageError
    if isinstance(wrapped, BaseException) and _redis_unreachable(wrapped, depth + 1):
        return True
    if _redis_unreachable(exc.__cause__, depth + 1):
        return True
    return not exc.__suppress_context__ and _redis_unreachable(exc.__context__, depth + 1)


def as_ai_error(exc: BaseException) -> AIError | None:
    """The AIError an exception stands for: itself, or a known failure of a backing
    service (Redis unreachable: 503 DEPENDENCY_UNAVAILABLE with Retry-After); None for an
    unexpected one (a bug: INTERNAL_ERROR, logged)."""
    if isinstance(exc, AIError):
        return exc
    if _redis_unreachable(exc):
        return redis_unavailable()
    return None


def error_body(exc: BaseException) -> dict[str, Any]:
    """The contract's error object for any exception; unknown ones become INTERNAL_ERROR."""
    known = as_ai_error(exc)
    if known is not None:
        return known.to_dict()
    return {"error": {"code": "INTERNAL_ERROR", "message": "Internal server error"}}


def validated(schema: type[M], data: Any) -> M:
    """`schema.model_validate(data)`, with a failure reported as InvalidInputError (422)
    naming the first offending field: how every graph checks its input."""
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        field = ".".join(str(p) for p in first["loc"]) or None
        raise InvalidInputError(f"{field}: {first['msg']}", field=field) from exc
