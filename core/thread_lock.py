"""One run at a time per checkpoint thread.

Two overlapping runs of one thread (a chat room, an interview session) would both start from
the same checkpoint, and the later write would silently drop the earlier turn. A lock per
thread id serialises them: in Redis when the server has it (across processes), otherwise in
process. A run that cannot take the lock within `wait_s` fails with 409 THREAD_BUSY; with
`wait_s=0` a concurrent run is refused at once (a duplicate interview answer must not be
applied to the next question).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from langchain_core.runnables import Runnable, RunnableBinding, RunnableConfig
from langgraph._internal._constants import CONFIG_KEY_DURABILITY
from redis.exceptions import LockError, RedisError

from core.errors import AIError, DependencyError, as_ai_error
from core.security import thread_id
from core.services import get_services

LOCK_PREFIX = "devths:lock:"
log = logging.getLogger(__name__)


class ThreadBusyError(AIError):
    code = "THREAD_BUSY"
    status_code = 409


# In-process locks by thread id, dropped when no run holds or waits for them.
_LOCAL: dict[str, tuple[asyncio.Lock, int]] = {}


@contextlib.asynccontextmanager
async def _local_turn(thread_id: str, wait_s: float, field: str | None) -> AsyncIterator[None]:
    lock, users = _LOCAL.get(thread_id, (asyncio.Lock(), 0))
    _LOCAL[thread_id] = (lock, users + 1)
    try:
        if wait_s <= 0 and lock.locked():
            raise ThreadBusyError(_busy(wait_s), field=field)
        try:
            async with asyncio.timeout(wait_s if wait_s > 0 else None):
                await lock.acquire()
        except TimeoutError:
            raise ThreadBusyError(_busy(wait_s), field=field) from None
        try:
            yield
        finally:
            lock.release()
    finally:
        lock, users = _LOCAL[thread_id]
        if users == 1:
            del _LOCAL[thread_id]
        else:
            _LOCAL[thread_id] = (lock, users - 1)


async def _keep_alive(lock: Any, ttl_s: float) -> None:
    """Renew the lock's TTL every third of it while its run lives. A process that dies
    stops renewing, so its thread is free again within `ttl_s`, not after the longest a
    run may take."""
    while True:
        await asyncio.sleep(ttl_s / 3)
        try:
            await lock.reacquire()
        except (LockError, RedisError):  # lost (expired, or Redis gone): the run goes on
            log.warning("could not renew a thread lock; it may expire during its run")
            return


@contextlib.asynccontextmanager
async def _redis_turn(
    redis: Any, thread_id: str, wait_s: float, hold_s: float, field: str | None
) -> AsyncIterator[None]:
    # thread_local=False: every request runs on the event loop's one thread, so a
    # thread-local token would be shared (and overwritten) by concurrent requests.
    lock = redis.lock(
        LOCK_PREFIX + thread_id,
        timeout=hold_s,
        sleep=0.05,
        blocking=wait_s > 0,
        blocking_timeout=wait_s or None,
        thread_local=False,
    )
    try:
        acquired = await lock.acquire()
    except RedisError as exc:  # unreachable: 503 with Retry-After (as_ai_error)
        raise as_ai_error(exc) or DependencyError("Redis lock failed") from exc
    if not acquired:
        raise ThreadBusyError(_busy(wait_s), field=field)
    renewal = asyncio.create_task(_keep_alive(lock, hold_s), name=f"renew-{LOCK_PREFIX}")
    try:
        yield
    finally:
        renewal.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await renewal
        with contextlib.suppress(LockError, RedisError):  # expired or Redis gone: TTL frees it
            await lock.release()


def _busy(wait_s: float) -> str:
    if wait_s:
        return f"Another request of this conversation is still running after {wait_s:g} s"
    return "Another request of this conversation is running; retry when it has finished"


def thread_turn(
    thread_id: str, wait_s: float, field: str | None = None
) -> contextlib.AbstractAsyncContextManager[None]:
    """Hold the thread's lock for one run (see the module docstring); `field` is the input
    field naming the conversation, which a 409 THREAD_BUSY reports."""
    services = get_services()
    if services.redis is None:
        return _local_turn(thread_id, wait_s, field)
    # A short TTL, renewed while the run lives: a crashed process frees the thread soon.
    ttl_s = services.settings.thread_lock_ttl_s
    return _redis_turn(services.redis, thread_id, wait_s, ttl_s, field)


class OneRunPerThread(RunnableBinding):
    """Delegates to the bound graph. Each run's checkpoint thread is derived from its own
    input (`{prefix}:{user_id}:{input[key_field]}`, whatever thread id a client sent), which
    is what lets `/batch` serve several rooms at once; the run holds that thread's lock.
    With `queue`, a run waits up to TURN_WAIT_S for the thread; without, it is refused."""

    prefix: str
    key_field: str
    queue: bool = False

    @property
    def wait_s(self) -> float:
        return get_services().settings.turn_wait_s if self.queue else 0.0

    def _threaded(self, input: Any, config: RunnableConfig | None) -> RunnableConfig:
        """The run's config with its thread id; run metadata (and so traces) carry the
        pseudonymous form, which LangGraph would otherwise copy from the raw one."""
        given = input if isinstance(input, dict) else {}
        ids = (self.prefix, given.get("user_id"), given.get(self.key_field), self.key_field)
        base: dict[str, Any] = dict(config or {})
        base["configurable"] = {
            **base.get("configurable", {}),
            "thread_id": thread_id(*ids),
            # Checkpoints written when the run ends (LangGraph's "exit" durability), not
            # after every step: a turn is one run under this thread's lock, nobody reads
            # its intermediate steps, and the per-step Redis writes were most of a turn's
            # time (a prefetched interview question: ~100 ms -> ~25 ms). A run that fails
            # midway still saves what it had done, as before.
            CONFIG_KEY_DURABILITY: "exit",
        }
        base["metadata"] = {
            **base.get("metadata", {}),
            "thread_id": thread_id(*ids, pseudonymous=True),
        }
        return base  # type: ignore[return-value]

    def _turn(self, config: RunnableConfig) -> contextlib.AbstractAsyncContextManager[Any]:
        return thread_turn(config["configurable"]["thread_id"], self.wait_s, self.key_field)

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> Any:
        config = self._threaded(input, config)
        async with self._turn(config):
            return await super().ainvoke(input, config, **kwargs)

    async def abatch(  # type: ignore[override]
        self, inputs: list[Any], config: Any = None, **kwargs: Any
    ) -> list[Any]:
        # Runnable's own batch runs `self.ainvoke` per input (so each takes its thread);
        # RunnableBinding's would hand the whole batch to the graph with one config.
        return await Runnable.abatch(self, inputs, config, **kwargs)

    def _locked(self, stream: Callable[[RunnableConfig], AsyncIterator[Any]], input: Any, config):
        config = self._threaded(input, config)

        async def run() -> AsyncIterator[Any]:
            async with self._turn(config):
                async for item in stream(config):
                    yield item

        return run()

    def astream(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any):
        parent: Any = super()
        return self._locked(lambda c: parent.astream(input, c, **kwargs), input, config)

    def astream_events(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any):
        parent: Any = super()
        return self._locked(lambda c: parent.astream_events(input, c, **kwargs), input, config)

    def astream_log(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any):
        parent: Any = super()
        return self._locked(lambda c: parent.astream_log(input, c, **kwargs), input, config)


def one_run_per_thread(runnable: Any, prefix: str, key_field: str, queue: bool) -> OneRunPerThread:
    return OneRunPerThread(
        bound=runnable, kwargs={}, config={}, prefix=prefix, key_field=key_field, queue=queue
    )
