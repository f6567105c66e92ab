"""A stand-in LangSmith API: the endpoints `langsmith.Client` uses for datasets, examples,
experiments (tracer sessions), runs and feedback, kept in memory so a test can read what an
eval recorded.

    with LangSmithStandIn() as ls:
        os.environ |= {"LANGSMITH_ENDPOINT": ls.url, "LANGSMITH_API_KEY": "test"}
        ...
        ls.datasets, ls.examples, ls.sessions, ls.runs, ls.feedback

Wire format as `langsmith` 0.15.1 sends and reads it (`langsmith/client.py`): `GET /info`
(the stand-in turns off multipart examples and compression, so bodies are JSON),
`GET/POST /datasets`, `GET /examples?dataset=&splits=`, `POST /examples/bulk`,
`GET/POST/PATCH /sessions`, `POST /runs/batch`, `POST /runs`, `PATCH /runs/{id}`,
`POST /runs/query` (an experiment's root runs), `POST /datasets/comparative`,
`POST /feedback`.
Anything else is recorded in `unknown` and answered 404, so a test can assert that the
client asked for nothing the stand-in does not model.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.standins import StandIn, json_response, new_call, read_json

TENANT = "00000000-0000-0000-0000-00000000000a"


def _now() -> str:
    return datetime.now(UTC).isoformat()


class LangSmithStandIn(StandIn):
    def __init__(self) -> None:
        super().__init__()
        self.datasets: dict[str, dict[str, Any]] = {}
        self.examples: dict[str, dict[str, Any]] = {}
        self.sessions: dict[str, dict[str, Any]] = {}
        self.runs: dict[str, dict[str, Any]] = {}
        self.feedback: list[dict[str, Any]] = []
        self.comparisons: dict[str, dict[str, Any]] = {}
        self.unknown: list[str] = []

    def routes(self) -> list[Route]:
        return [Route("/{rest:path}", self.handle, methods=["GET", "POST", "PATCH", "DELETE"])]

    # --- what was recorded --------------------------------------------------------------
    def examples_of(self, dataset_name: str) -> list[dict[str, Any]]:
        ids = [d["id"] for d in self.datasets.values() if d["name"] == dataset_name]
        return [e for e in self.examples.values() if e["dataset_id"] in ids]

    def experiments_of(self, dataset_name: str) -> list[dict[str, Any]]:
        ids = [d["id"] for d in self.datasets.values() if d["name"] == dataset_name]
        return [s for s in self.sessions.values() if s.get("reference_dataset_id") in ids]

    def feedback_of(self, session_id: str) -> list[dict[str, Any]]:
        runs = {r["id"] for r in self.runs.values() if r.get("session_id") == session_id}
        return [
            f for f in self.feedback if f.get("run_id") in runs or f.get("session_id") == session_id
        ]

    # --- the API ------------------------------------------------------------------------
    async def handle(self, request: Request) -> Response:
        body = await read_json(request)
        call = new_call(request, body)
        self.record(call)
        path = request.url.path.rstrip("/")
        parts = [p for p in path.split("/") if p]
        method = request.method
        query = request.query_params
        with self._lock:
            answer = self._route(method, parts, query, body)
        if answer is None:
            self.unknown.append(f"{method} {path}")
            return json_response({"detail": "Not Found"}, status=404)
        return answer

    def _route(self, method: str, parts: list[str], query: Any, body: Any) -> Response | None:
        head = parts[0] if parts else ""
        if method == "GET" and head == "info":
            return json_response(
                {
                    "version": "0.10.0",
                    "instance_flags": {
                        "dataset_examples_multipart_enabled": False,
                        "zstd_compression_enabled": False,
                    },
                    "batch_ingest_config": {
                        "use_multipart_endpoint": False,
                        "size_limit": 100,
                        "size_limit_bytes": 20 * 1024 * 1024,
                        "scale_up_nthreads_limit": 1,
                        "scale_up_qsize_trigger": 1000,
                        "scale_down_nempty_trigger": 4,
                    },
                }
            )
        if head == "datasets" and parts[1:] == ["comparative"] and method == "POST":
            comparison = {
                **body,
                "id": str(body.get("id") or uuid.uuid4()),
                "tenant_id": TENANT,
                "modified_at": _now(),
                "created_at": body.get("created_at") or _now(),
            }
            self.comparisons[comparison["id"]] = comparison
            return json_response(comparison)
        if head == "datasets":
            return self._datasets(method, parts, query, body)
        if head == "examples":
            return self._examples(method, parts, query, body)
        if head == "sessions":
            return self._sessions(method, parts, query, body)
        if head == "runs":
            return self._runs(method, parts, body)
        if head == "feedback" and method == "POST":
            item = {**body, "id": body.get("id") or str(uuid.uuid4())}
            self.feedback.append(item)
            return json_response(item)
        return None

    def _datasets(self, method: str, parts: list[str], query: Any, body: Any) -> Response | None:
        if method == "POST" and len(parts) == 1:
            if any(d["name"] == body["name"] for d in self.datasets.values()):
                return json_response({"detail": "Dataset already exists"}, status=409)
            dataset = {
                "id": str(body.get("id") or uuid.uuid4()),
                "name": body["name"],
                "description": body.get("description"),
                "data_type": body.get("data_type") or "kv",
                "created_at": _now(),
                "modified_at": _now(),
                "tenant_id": TENANT,
                "example_count": 0,
                "session_count": 0,
            }
            self.datasets[dataset["id"]] = dataset
            return json_response(dataset)
        if method == "GET" and len(parts) == 1:
            found = [
                self._dataset_view(d)
                for d in self.datasets.values()
                if "name" not in query or d["name"] == query["name"]
            ]
            return json_response(found)
        if method == "GET" and len(parts) == 2 and parts[1] in self.datasets:
            return json_response(self._dataset_view(self.datasets[parts[1]]))
        return None

    def _dataset_view(self, dataset: dict[str, Any]) -> dict[str, Any]:
        count = sum(e["dataset_id"] == dataset["id"] for e in self.examples.values())
        return {**dataset, "example_count": count}

    def _examples(self, method: str, parts: list[str], query: Any, body: Any) -> Response | None:
        if method == "POST" and parts[1:] == ["bulk"]:
            created = []
            for item in body:
                example_id = str(item.get("id") or uuid.uuid4())
                if example_id in self.examples:
                    return json_response({"detail": "Example already exists"}, status=409)
                example = {
                    "id": example_id,
                    "dataset_id": str(item["dataset_id"]),
                    "inputs": item.get("inputs") or {},
                    "outputs": item.get("outputs"),
                    "metadata": item.get("metadata") or {},
                    "split": item.get("split"),
                    "created_at": _now(),
                    "modified_at": _now(),
                }
                self.examples[example_id] = example
                created.append(example)
            return json_response(created)
        if method == "GET" and len(parts) == 1:
            dataset = query.get("dataset")
            ids = set(query.getlist("id"))
            splits = set(query.getlist("splits"))
            found = [
                self._example_view(e)
                for e in self.examples.values()
                if (dataset is None or e["dataset_id"] == dataset)
                and (not ids or e["id"] in ids)
                and (not splits or self._splits(e) & splits)
            ]
            offset = int(query.get("offset", 0))
            limit = int(query.get("limit", 100))
            return json_response(found[offset : offset + limit])
        return None

    @staticmethod
    def _splits(example: dict[str, Any]) -> set[str]:
        split = example.get("split")
        return set(split) if isinstance(split, list) else {split} if split else {"base"}

    def _example_view(self, example: dict[str, Any]) -> dict[str, Any]:
        view = {k: v for k, v in example.items() if k != "split"}
        view["metadata"] = {**example["metadata"], "dataset_split": sorted(self._splits(example))}
        return view

    def _sessions(self, method: str, parts: list[str], query: Any, body: Any) -> Response | None:
        if method == "POST" and len(parts) == 1:
            if any(s["name"] == body["name"] for s in self.sessions.values()):
                return json_response({"detail": "Session already exists"}, status=409)
            session = {
                "id": str(body.get("id") or uuid.uuid4()),
                "name": body["name"],
                "description": body.get("description"),
                "reference_dataset_id": body.get("reference_dataset_id"),
                "extra": body.get("extra") or {},
                "start_time": body.get("start_time") or _now(),
                "end_time": None,
                "tenant_id": TENANT,
            }
            self.sessions[session["id"]] = session
            return json_response(session)
        if method == "GET" and len(parts) == 1:
            found = [
                s
                for s in self.sessions.values()
                if "name" not in query or s["name"] == query["name"]
            ]
            return json_response(found)
        if len(parts) == 2 and parts[1] in self.sessions:
            session = self.sessions[parts[1]]
            if method == "PATCH":
                session.update({k: v for k, v in (body or {}).items() if v is not None})
            return json_response(session)
        return None

    def _root_runs(self, session_ids: list[str]) -> list[dict[str, Any]]:
        names = {self.sessions[i]["name"]: i for i in session_ids if i in self.sessions}
        found = []
        for run in self.runs.values():
            session = run.get("session_id") or names.get(run.get("session_name", ""))
            if session in session_ids and not run.get("parent_run_id"):
                found.append({**run, "session_id": session})
        return found

    def _runs(self, method: str, parts: list[str], body: Any) -> Response | None:
        if method == "POST" and parts[1:] == ["query"]:
            return json_response(
                {
                    "runs": self._root_runs([str(s) for s in body.get("session") or []]),
                    "cursors": {},
                }
            )
        if method == "POST" and parts[1:] == ["batch"]:
            for run in body.get("post") or []:
                self.runs[str(run["id"])] = dict(run)
            for run in body.get("patch") or []:
                self.runs.setdefault(str(run["id"]), {}).update(run)
            return json_response({})
        if method == "POST" and len(parts) == 1:
            self.runs[str(body["id"])] = dict(body)
            return json_response({})
        if method == "PATCH" and len(parts) == 2:
            self.runs.setdefault(parts[1], {}).update(body or {})
            return json_response({})
        return None
