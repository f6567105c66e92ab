"""The user's personal schedule: get / add / update / delete, stored in Redis per user.

Every call takes the user id from the request (the graph state), never from a model or a
document: an id of another user's schedule is simply not found. Ids are stable (random,
assigned once). Without Redis (degraded mode) an in-process store keeps the same rules.
A per-user version number changes on every write, so cached reads never outlive a change.
"""

from __future__ import annotations

import json
import uuid
from datetime import date
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import RedisError

from core.errors import NotFoundError, redis_failure

_MEMORY: dict[str, dict[str, str]] = {}
_MEMORY_VERSIONS: dict[str, int] = {}


def _key(user_id: str) -> str:
    return f"devths:schedule:{user_id}"


class ScheduleStore:
    def __init__(self, client: Redis | None) -> None:
        self.client = client

    async def _all(self, user_id: str) -> dict[str, dict[str, Any]]:
        try:
            raw = (
                await self.client.hgetall(_key(user_id))
                if self.client is not None
                else _MEMORY.get(user_id, {})
            )
        except RedisError as exc:
            raise redis_failure(exc, "Redis schedule read") from exc
        items = {}
        for k, v in raw.items():
            key = k.decode() if isinstance(k, bytes) else k
            items[key] = json.loads(v)
        return items

    async def _put(self, user_id: str, item: dict[str, Any]) -> None:
        value = json.dumps(item, ensure_ascii=False)
        try:
            if self.client is not None:
                async with self.client.pipeline(transaction=True) as pipe:
                    pipe.hset(_key(user_id), item["schedule_id"], value)
                    pipe.incr(f"{_key(user_id)}:version")
                    await pipe.execute()
            else:
                _MEMORY.setdefault(user_id, {})[item["schedule_id"]] = value
                _MEMORY_VERSIONS[user_id] = _MEMORY_VERSIONS.get(user_id, 0) + 1
        except RedisError as exc:
            raise redis_failure(exc, "Redis schedule write") from exc

    async def version(self, user_id: str) -> int:
        if self.client is None:
            return _MEMORY_VERSIONS.get(user_id, 0)
        try:
            return int(await self.client.get(f"{_key(user_id)}:version") or 0)
        except RedisError as exc:
            raise redis_failure(exc, "Redis schedule read") from exc

    async def get(
        self, user_id: str, start_date: date | None = None, end_date: date | None = None
    ) -> list[dict[str, Any]]:
        items = (await self._all(user_id)).values()
        chosen = [
            i
            for i in items
            if (start_date is None or i["date"] >= start_date.isoformat())
            and (end_date is None or i["date"] <= end_date.isoformat())
        ]
        return sorted(chosen, key=lambda i: (i["date"], i.get("time") or ""))

    async def add(
        self, user_id: str, title: str, when: date, time: str | None = None, memo: str | None = None
    ) -> dict[str, Any]:
        item = {
            "schedule_id": uuid.uuid4().hex[:12],
            "title": title,
            "date": when.isoformat(),
            "time": time,
            "memo": memo,
        }
        await self._put(user_id, item)
        return item

    async def update(
        self, user_id: str, schedule_id: str, **changes: Any
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """(the item as it was, the item as it is now)."""
        items = await self._all(user_id)
        if schedule_id not in items:
            raise NotFoundError(
                "No such schedule for this user", code="SCHEDULE_NOT_FOUND", field="schedule_id"
            )
        item = items[schedule_id]
        before = dict(item)
        for name in ("title", "date", "time", "memo"):
            value = changes.get(name)
            if value is not None:
                item[name] = value.isoformat() if isinstance(value, date) else value
        await self._put(user_id, item)
        return before, item

    async def delete(self, user_id: str, schedule_id: str) -> dict[str, Any]:
        items = await self._all(user_id)
        if schedule_id not in items:
            raise NotFoundError(
                "No such schedule for this user", code="SCHEDULE_NOT_FOUND", field="schedule_id"
            )
        try:
            if self.client is not None:
                async with self.client.pipeline(transaction=True) as pipe:
                    pipe.hdel(_key(user_id), schedule_id)
                    pipe.incr(f"{_key(user_id)}:version")
                    await pipe.execute()
            else:
                _MEMORY[user_id].pop(schedule_id)
                _MEMORY_VERSIONS[user_id] = _MEMORY_VERSIONS.get(user_id, 0) + 1
        except RedisError as exc:
            raise redis_failure(exc, "Redis schedule write") from exc
        return items[schedule_id]
