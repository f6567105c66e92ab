"""A checkpointer that is the active services' one, looked up on every call.

Routes are mounted when the app is created, but Redis (and so the real saver) only exists
once the lifespan has started. Graphs are compiled with `ServicesCheckpointer()`, which
forwards each call to `get_services().checkpointer`: Redis under the server, in-memory
under unit tests and `langgraph dev`.
"""

from __future__ import annotations

from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver

from core.services import get_services

_FORWARDED = (
    "aget_tuple",
    "alist",
    "aput",
    "aput_writes",
    "adelete_thread",
    "acopy_thread",
    "adelete_for_runs",
    "aprune",
    "aget_delta_channel_history",
    "get_tuple",
    "list",
    "put",
    "put_writes",
    "delete_thread",
    "copy_thread",
    "delete_for_runs",
    "prune",
    "get_delta_channel_history",
    "get_next_version",
)


class ServicesCheckpointer(BaseCheckpointSaver):
    @property
    def target(self) -> BaseCheckpointSaver:
        return get_services().checkpointer

    @property
    def config_specs(self) -> list[Any]:  # type: ignore[override]
        return self.target.config_specs


def _forward(name: str) -> Any:
    def method(self: ServicesCheckpointer, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.target, name)(*args, **kwargs)

    method.__name__ = name
    return method


for _name in _FORWARDED:
    if hasattr(BaseCheckpointSaver, _name):
        setattr(ServicesCheckpointer, _name, _forward(_name))
