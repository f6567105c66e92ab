"""The developer pages in a real browser, offline: Debian's headless Chromium, driven over
the Chrome DevTools Protocol (a small client below, on `websockets`), against a real
server process.

Every page fails its test on a console error, an uncaught exception or a failed load, and
on any request that leaves loopback: the page's requests are intercepted, those to other
hosts are recorded and refused, and the browser's own traffic goes to a proxy that does
not exist (loopback is never proxied)."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import itertools
import json
import shutil
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from tests.conftest import POSTING, RESUME
from tests.integration.conftest import free_port, serve_app

pytestmark = pytest.mark.integration

PLAYGROUNDS = {  # path: the fields its form must show
    "/ai/analyze": ["User Id", "Resume Text", "Posting Text", "Now"],
    "/ai/chat": ["User Id", "Room Id", "Message", "Now"],
    "/ai/interview/question": ["User Id", "Session Id", "Interview Type", "Resume Text"],
    "/ai/interview/report": ["User Id", "Session Id"],
    "/ai/calendar/parse": ["Text", "Now", "User Id"],
    "/ai/file/embed": ["User Id", "Doc Id", "Doc Type", "Text"],
}
WAIT_S = 30.0
RUN_WAIT_S = 90.0

# The input that a field's label names (the playground draws each field as a labelled
# control; a required field's label ends in "*").
FIELD_JS = """(title) => {
  const label = [...document.querySelectorAll('label')]
    .find(l => l.textContent.trim().replace(/\\*$/, '') === title);
  return label ? document.getElementById(label.htmlFor) : null;
}"""


class DevTools:
    """One DevTools websocket: commands by id, events to the listening pages."""

    def __init__(self, ws: ClientConnection) -> None:
        self._ws = ws
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._pages: dict[str, Page] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._reader = asyncio.create_task(self._read())

    async def send(
        self, method: str, params: dict[str, Any] | None = None, session: str | None = None
    ) -> dict[str, Any]:
        msg_id = next(self._ids)
        reply = asyncio.get_running_loop().create_future()
        self._pending[msg_id] = reply
        message: dict[str, Any] = {"id": msg_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        await self._ws.send(json.dumps(message))
        answer = await asyncio.wait_for(reply, WAIT_S)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer.get("result", {})

    def spawn(self, work: Awaitable[None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _read(self) -> None:
        async for raw in self._ws:
            message = json.loads(raw)
            if "id" in message:
                reply = self._pending.pop(message["id"], None)
                if reply is not None and not reply.done():
                    reply.set_result(message)
            elif (page := self._pages.get(message.get("sessionId", ""))) is not None:
                page.on_event(message["method"], message.get("params", {}))

    async def new_page(self) -> Page:
        target = await self.send("Target.createTarget", {"url": "about:blank"})
        attached = await self.send(
            "Target.attachToTarget", {"targetId": target["targetId"], "flatten": True}
        )
        page = Page(self, attached["sessionId"], target["targetId"])
        self._pages[page.session] = page
        for domain in ("Runtime", "Log", "Page", "Network"):
            await page.send(f"{domain}.enable")
        await page.send("Fetch.enable", {"patterns": [{"urlPattern": "*"}]})
        return page

    async def close_page(self, page: Page) -> None:
        await self.send("Target.closeTarget", {"targetId": page.target})
        self._pages.pop(page.session, None)

    async def aclose(self) -> None:
        self._reader.cancel()
        await self._ws.close()


def is_loopback(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    host = parts.hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Page:
    """One tab: what went wrong on it, and the requests it made."""

    def __init__(self, tools: DevTools, session: str, target: str) -> None:
        self.tools = tools
        self.session = session
        self.target = target
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.requests: list[str] = []

    def send(self, method: str, params: dict[str, Any] | None = None) -> Awaitable[dict]:
        return self.tools.send(method, params, self.session)

    def on_event(self, method: str, params: dict[str, Any]) -> None:
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.errors.append(details.get("exception", {}).get("description") or details["text"])
        elif method == "Runtime.consoleAPICalled" and params["type"] in ("error", "assert"):
            args = params.get("args", [])
            text = " ".join(str(a.get("value", a.get("description", ""))) for a in args)
            self.errors.append(f"console.{params['type']}: {text}")
        elif method == "Log.entryAdded" and params["entry"]["level"] == "error":
            entry = params["entry"]
            self.errors.append(f"{entry['source']}: {entry['text']} {entry.get('url', '')}")
        elif method == "Network.loadingFailed" and not params.get("canceled"):
            self.errors.append(f"load failed: {params.get('errorText')} ({params['type']})")
        elif method == "Fetch.requestPaused":
            url = params["request"]["url"]
            self.requests.append(url)
            request = {"requestId": params["requestId"]}
            if is_loopback(url):
                self.tools.spawn(self.send("Fetch.continueRequest", request))
            else:
                self.outside.append(url)
                failed = {**request, "errorReason": "BlockedByClient"}
                self.tools.spawn(self.send("Fetch.failRequest", failed))

    async def goto(self, url: str) -> None:
        await self.send("Page.navigate", {"url": url})

    async def evaluate(self, expression: str) -> Any:
        reply = await self.send(
            "Runtime.evaluate",
            {"expression": expression, "returnByValue": True, "awaitPromise": True},
        )
        if "exceptionDetails" in reply:
            raise AssertionError(f"{expression!r} raised: {reply['exceptionDetails']}")
        return reply["result"].get("value")

    async def wait_for(self, expression: str, what: str, timeout_s: float = WAIT_S) -> Any:
        """The (truthy) value of `expression` once it has one; fails on a page error."""
        deadline = time.monotonic() + timeout_s
        while True:
            assert not self.errors, f"page errors while waiting for {what}: {self.errors}"
            value = await self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                text = await self.evaluate("document.body ? document.body.innerText : ''")
                raise AssertionError(f"no {what} within {timeout_s} s; page text: {text[:800]}")
            await asyncio.sleep(0.2)

    async def fill(self, title: str, text: str) -> None:
        """Types `text` into the field labelled `title`, as a person would (focus, then
        text input events), and waits until the form has taken it."""
        found = await self.evaluate(
            f"(() => {{ const el = ({FIELD_JS})({json.dumps(title)});"
            " if (!el) return false; el.focus(); return true; })()"
        )
        assert found, f"no field labelled {title!r}"
        await self.send("Input.insertText", {"text": text})
        await self.settled(title, text)

    async def choose(self, title: str, value: str) -> None:
        """Picks `value` in the select labelled `title` (a change event, as a click would)."""
        chosen = await self.evaluate(
            f"(() => {{ const el = ({FIELD_JS})({json.dumps(title)});"
            f" if (!el || el.tagName !== 'SELECT') return false; el.value = {json.dumps(value)};"
            " el.dispatchEvent(new Event('change', {bubbles: true})); return true; })()"
        )
        assert chosen, f"no select labelled {title!r}"
        await self.settled(title, value)

    async def settled(self, title: str, value: str) -> None:
        """The field still shows `value` once the page has rendered twice more and its
        timers ran. (The playground's form keeps its data in React state, then passes it
        back in: a second field changed before that round trip ends can lose the first,
        at machine speed only.)"""
        await self.evaluate(
            "new Promise(r => requestAnimationFrame(() => requestAnimationFrame("
            "() => setTimeout(r, 50))))"
        )
        shown = await self.evaluate(f"({FIELD_JS})({json.dumps(title)}).value")
        assert shown == value, f"field {title!r} shows {shown!r}, not {value!r}"

    def assert_clean(self) -> None:
        assert not self.errors, self.errors
        assert not self.outside, f"requests outside loopback: {self.outside}"


@pytest.fixture(scope="module")
def server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    logs = tmp_path_factory.mktemp("browser")
    with serve_app(
        redis_url,
        logs / "server.log",
        CHROMA_PATH=str(logs / "chroma"),
        WARM_UP_ON_START="false",
        CHAT_MAX_OUTPUT_TOKENS="48",
    ) as base:
        yield base


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Debian's Chromium, headless, with a fresh profile and no way off the machine; its
    DevTools websocket URL."""
    executable = shutil.which("chromium")
    assert executable, "Debian's chromium is missing: `make test` installs SYSTEM_PACKAGES"
    profile = tmp_path_factory.mktemp("chromium")
    cmd = [
        executable,
        "--headless",
        "--no-sandbox",  # tests run as root here
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--disable-default-apps",
        "--no-pings",
        f"--proxy-server=http://127.0.0.1:{free_port()}",  # nothing listens: no way out
        "--remote-debugging-port=0",
        f"--user-data-dir={profile}",
        "about:blank",
    ]
    with (profile / "chromium.log").open("w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        try:
            yield _devtools_url(profile, proc)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _devtools_url(profile: Path, proc: subprocess.Popen[bytes]) -> str:
    """Chromium writes its DevTools port and browser path to DevToolsActivePort."""
    port_file = profile / "DevToolsActivePort"
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        assert proc.poll() is None, f"chromium exited ({proc.returncode}); see {profile}"
        with contextlib.suppress(FileNotFoundError, ValueError):
            port, path = port_file.read_text().split()[:2]
            return f"ws://127.0.0.1:{int(port)}{path}"
        time.sleep(0.1)
    raise TimeoutError(f"chromium did not open DevTools within {WAIT_S} s")


@pytest.fixture(scope="module")
async def browser(chromium: str) -> AsyncIterator[DevTools]:
    async with connect(chromium, max_size=None) as ws:
        tools = DevTools(ws)
        try:
            yield tools
        finally:
            await tools.aclose()


@contextlib.asynccontextmanager
async def opened(
    browser: DevTools, url: str, headers: dict[str, str] | None = None
) -> AsyncIterator[Page]:
    """A new tab on `url` (every request with `headers`), clean when the test is done."""
    page = await browser.new_page()
    try:
        if headers:
            await page.send("Network.setExtraHTTPHeaders", {"headers": headers})
        await page.goto(url)
        yield page
        await page.evaluate("new Promise(r => setTimeout(r, 300))")  # late requests too
        page.assert_clean()
    finally:
        await browser.close_page(page)


async def playground_form(page: Page, fields: list[str]) -> None:
    """The playground has drawn its input form: every field, and the Start button."""
    await page.wait_for(
        "[...document.querySelectorAll('button')].some(b => b.textContent.includes('Start'))",
        "Start button",
    )
    for title in fields:
        await page.wait_for(f"!!({FIELD_JS})({json.dumps(title)})", f"field {title!r}")


def button(label: str) -> str:
    return f"[...document.querySelectorAll('button')].find(b => b.textContent.includes('{label}'))"


OUTPUT_JS = (
    "(() => { const h = [...document.querySelectorAll('h2')]"
    ".find(h => h.textContent.trim() === 'Output');"
    " return h ? h.parentElement.innerText : ''; })()"
)


async def start_run(page: Page) -> None:
    """Presses Start once the form's input is valid."""
    await page.wait_for(f"!{button('Start')}.disabled", "an enabled Start button (valid input)")
    await page.evaluate(f"{button('Start')}.click()")


async def output_showing(page: Page, expected: list[str]) -> str:
    """The Output section's text once it shows every `expected` string."""
    checks = " && ".join(f"t.includes({json.dumps(s)})" for s in expected)
    return await page.wait_for(
        f"(() => {{ const t = {OUTPUT_JS}; return {checks} ? t : ''; }})()",
        f"output showing {expected}",
        RUN_WAIT_S,
    )


async def run_playground(page: Page, expected: list[str]) -> str:
    """Starts a run; returns the Output section's text once the run has ended (the button
    is Start again) and the output shows every `expected` string."""
    await start_run(page)
    await output_showing(page, expected)
    await page.wait_for(f"!!{button('Start')}", "the run to end", RUN_WAIT_S)
    return await output_showing(page, expected)


@pytest.mark.parametrize("path", list(PLAYGROUNDS))
async def test_every_playground_draws_its_form(server: str, browser: DevTools, path: str):
    async with opened(browser, f"{server}{path}/playground/") as page:
        await playground_form(page, PLAYGROUNDS[path])


async def test_calendar_playground_parses_a_posting(server: str, browser: DevTools):
    async with opened(browser, f"{server}/ai/calendar/parse/playground/") as page:
        await playground_form(page, PLAYGROUNDS["/ai/calendar/parse"])
        await page.fill("Text", "[카카오] 백엔드 개발자 채용\n서류 마감: 2026.03.15 18:00")
        text = await run_playground(page, ["카카오", "2026-03-15", "DOCUMENT"])
        assert "18:00" in text


async def test_chat_playground_answers_a_schedule_request(server: str, browser: DevTools):
    user = f"pg-{uuid.uuid4().hex[:8]}"  # Redis outlives test runs: a fresh user each run
    async with opened(browser, f"{server}/ai/chat/playground/") as page:
        await playground_form(page, PLAYGROUNDS["/ai/chat"])
        await page.fill("User Id", user)
        await page.fill("Room Id", "playground")
        await page.fill("Message", "다음주 금요일 오후 3시에 네이버 1차 면접 추가해줘")
        await run_playground(page, ["add_schedule", "네이버 1차 면접", "15:00", '"schedule"'])


async def test_embed_playground_stores_a_document(server: str, browser: DevTools):
    user = f"pg-{uuid.uuid4().hex[:8]}"
    async with opened(browser, f"{server}/ai/file/embed/playground/") as page:
        await playground_form(page, PLAYGROUNDS["/ai/file/embed"])
        await page.fill("User Id", user)
        await page.fill("Doc Id", "note-1")
        await page.choose("Doc Type", "note")
        await page.fill("Text", "[메모]\nKafka 스트리밍 경험을 포트폴리오에 정리할 것.")
        await run_playground(page, ['"doc_id": "note-1"', '"chunks": 1'])


async def test_interview_playground_asks_the_first_question(server: str, browser: DevTools):
    user = f"pg-{uuid.uuid4().hex[:8]}"
    async with opened(browser, f"{server}/ai/interview/question/playground/") as page:
        await playground_form(page, PLAYGROUNDS["/ai/interview/question"])
        await page.fill("User Id", user)
        await page.fill("Session Id", "playground")
        await page.fill("Resume Text", RESUME)
        await page.fill("Posting Text", POSTING)
        await run_playground(page, ['"question_id": "q1"', '"question": "'])


async def test_analysis_playground_runs_to_its_result(server: str, browser: DevTools):
    """On the embedded default the feedback is grounded text written from the match (no
    model call), so the whole analysis streams into the output and ends by itself."""
    posting = f"{POSTING}문의: {uuid.uuid4().hex}"  # never a cached result
    async with opened(browser, f"{server}/ai/analyze/playground/") as page:
        await playground_form(page, PLAYGROUNDS["/ai/analyze"])
        await page.fill("User Id", f"pg-{uuid.uuid4().hex[:8]}")
        await page.fill("Resume Text", RESUME)
        await page.fill("Posting Text", posting)
        await start_run(page)
        await output_showing(page, ['"check_cache"', '"score_match"', '"strength_summary"'])
        await page.wait_for(f"!!{button('Start')}", "the run to end")


async def test_swagger_ui_renders_from_packaged_assets(server: str, browser: DevTools):
    async with opened(browser, f"{server}/docs") as page:
        count = await page.wait_for(
            "document.querySelectorAll('.swagger-ui .opblock').length", "Swagger UI operations"
        )
        assert count >= 20  # every feature's invoke/stream/... and the document routes
        title = await page.evaluate("document.querySelector('.swagger-ui .title').innerText")
        assert "devths-ai" in title
        assets = {urlsplit(u).path for u in page.requests}
        assert assets >= {
            "/docs/assets/swagger/swagger-ui-bundle.js",
            "/docs/assets/swagger/swagger-ui.css",
        }


async def test_redoc_renders_from_packaged_assets(server: str, browser: DevTools):
    async with opened(browser, f"{server}/redoc") as page:
        count = await page.wait_for(
            "document.querySelectorAll('[data-section-id^=\"operation/\"]').length",
            "ReDoc operations",
        )
        assert count >= 20
        # The menu's logo: ReDoc's own bundle fetches it from its CDN; the packaged one
        # asks the page's server.
        await page.wait_for(
            "(() => { const i = document.querySelector('img[alt=\"redocly logo\"]');"
            " return !!i && i.complete && i.naturalWidth > 0; })()",
            "ReDoc's logo, loaded",
        )
        assert {urlsplit(u).path for u in page.requests} >= {
            "/docs/assets/redoc/redoc.standalone.js",
            "/redoc/logo-mini.svg",
        }


async def test_the_api_accepts_and_documents_what_it_did(server: str):
    """The playground's schema is the only one that changed: the API takes null for an
    optional field as before, refuses a wrong type as before, and /openapi.json still
    documents `anyOf [..., null]`."""
    async with httpx.AsyncClient(base_url=server, timeout=60) as client:
        served = (await client.get("/ai/calendar/parse/input_schema")).json()
        assert served["properties"]["now"]["type"] == ["string", "null"]
        assert "anyOf" not in json.dumps(served)
        documented = (await client.get("/openapi.json")).json()["components"]["schemas"]
        assert {"type": "null"} in documented["CalendarParseInput"]["properties"]["now"]["anyOf"]
        assert {"type": "null"} in documented["InterviewTurnInput"]["properties"]["answer"]["anyOf"]
        text = "[카카오] 백엔드 개발자 채용\n서류 마감: 2026.03.15"
        ok = await client.post(
            "/ai/calendar/parse/invoke",
            json={"input": {"text": text, "now": None, "user_id": None}},
        )
        assert ok.status_code == 200, ok.text
        assert ok.json()["output"]["company"] == "카카오"
        wrong = await client.post(
            "/ai/calendar/parse/invoke", json={"input": {"text": text, "now": "next friday"}}
        )
        assert wrong.status_code == 422
        assert wrong.json()["error"]["code"] == "INVALID_INPUT"


KEY = {"X-API-Key": "browser-key"}


@pytest.fixture
def keyed_server(redis_url: str, tmp_path: Path) -> Iterator[str]:
    with serve_app(
        redis_url,
        tmp_path / "server.log",
        CHROMA_PATH=str(tmp_path / "chroma"),
        WARM_UP_ON_START="false",
        AI_API_KEY=KEY["X-API-Key"],
    ) as base:
        yield base


async def test_with_keys_the_pages_and_assets_need_one(keyed_server: str, browser: DevTools):
    """AI_API_KEY set: no page, asset or playground without X-API-Key; a browser that sends
    it (e.g. through a header extension) gets a working Swagger UI."""
    paths = [
        "/docs",
        "/redoc",
        "/openapi.json",
        "/docs/assets/swagger/swagger-ui-bundle.js",
        "/redoc/logo-mini.svg",
        "/ai/calendar/parse/playground/",
    ]
    async with httpx.AsyncClient(base_url=keyed_server) as client:
        for path in paths:
            assert (await client.get(path)).status_code == 401, path
            assert (await client.get(path, headers=KEY)).status_code == 200, path
        missing = await client.get("/docs/assets/swagger/nope.js", headers=KEY)
        assert missing.status_code == 404
    async with opened(browser, f"{keyed_server}/docs", headers=KEY) as page:
        count = await page.wait_for(
            "document.querySelectorAll('.swagger-ui .opblock').length", "Swagger UI"
        )
        assert count >= 20
