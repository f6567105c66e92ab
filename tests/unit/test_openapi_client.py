"""A typed client generated from `/openapi.json` (openapi-python-client, as a backend team
would generate theirs) decodes the server's real answers: results into their models, every
error into `ErrorResponse`, the 202 job and the task record. Nothing is left to
`UnexpectedStatus` (the client raises on a status the document does not declare)."""

from __future__ import annotations

import importlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from PIL import Image

from server import create_app
from tests.conftest import POSTING, RESUME


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> object:
    where = tmp_path_factory.mktemp("client")
    (where / "openapi.json").write_text(json.dumps(create_app().openapi()), encoding="utf-8")
    tools = Path(sys.executable).parent  # the generator and the ruff it formats with
    subprocess.run(
        [
            str(tools / "openapi-python-client"),
            *("generate", "--path", "openapi.json", "--meta", "none"),
            *("--output-path", "devths_client"),
        ],
        cwd=where,
        env={**os.environ, "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}"},
        check=True,
        capture_output=True,
    )
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module("devths_client")
    finally:
        sys.path.remove(str(where))
        for name in [m for m in sys.modules if m.split(".")[0] == "devths_client"]:
            del sys.modules[name]


def png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (64, 32), "white").save(buf, "PNG")
    return buf.getvalue()


async def test_a_generated_client_decodes_real_answers(generated, use_fake_model):
    from devths_client import Client
    from devths_client.api.aianalyze import ai_analyze_invoke_ai_analyze_invoke_post as analyze
    from devths_client.api.aiinterviewquestion import (
        ai_interview_question_invoke_ai_interview_question_invoke_post as question,
    )
    from devths_client.api.default import ocr_extract_ai_ocr_extract_post as ocr
    from devths_client.api.default import task_status_ai_tasks_task_id_get as task
    from devths_client.models import (
        AiAnalyzeInvokeRequest,
        AiInterviewQuestionInvokeRequest,
        AnalysisResult,
        BodyOcrExtractAiOcrExtractPost,
        ErrorResponse,
        JobAccepted,
        OcrResult,
        TaskRecord,
    )
    from devths_client.types import File

    use_fake_model()
    transport = httpx.ASGITransport(app=create_app())
    client = Client(
        base_url="http://test",
        raise_on_unexpected_status=True,
        httpx_args={"transport": transport},
        timeout=httpx.Timeout(60),
    )
    analysis = {"user_id": "u1", "resume_text": RESUME, "posting_text": POSTING}
    ok = await analyze.asyncio(
        client=client, body=AiAnalyzeInvokeRequest.from_dict({"input": analysis})
    )
    assert isinstance(ok.output, AnalysisResult)
    assert 0 <= ok.output.matching.score <= 100 and ok.output.matching.grade in "ABCDF"

    blank = {**analysis, "resume_text": " "}
    bad = await analyze.asyncio(
        client=client, body=AiAnalyzeInvokeRequest.from_dict({"input": blank})
    )
    assert isinstance(bad, ErrorResponse)
    assert (bad.error.code, bad.error.field) == ("INVALID_INPUT", "resume_text")

    unknown = {"user_id": "u1", "session_id": "nope", "answer": "네"}
    missing = await question.asyncio_detailed(
        client=client, body=AiInterviewQuestionInvokeRequest.from_dict({"input": unknown})
    )
    assert missing.status_code == 404 and isinstance(missing.parsed, ErrorResponse)
    assert missing.parsed.error.code == "SESSION_NOT_FOUND"

    upload = BodyOcrExtractAiOcrExtractPost(
        file=File(payload=io.BytesIO(png()), file_name="scan.png", mime_type="image/png"),
        user_id="u1",
    )
    queued = await ocr.asyncio_detailed(client=client, body=upload)
    assert queued.status_code == 202 and isinstance(queued.parsed, JobAccepted)
    upload.file.payload.seek(0)
    waited = await ocr.asyncio_detailed(client=client, body=upload, wait=True)
    assert waited.status_code == 200 and isinstance(waited.parsed, TaskRecord)
    done = await task.asyncio(waited.parsed.task_id, client=client)
    assert isinstance(done, TaskRecord) and done.status.value == "completed", done
    assert isinstance(done.result, OcrResult) and isinstance(done.result.extracted_text, str)

    gone = await task.asyncio("0" * 32, client=client)
    assert isinstance(gone, ErrorResponse) and gone.error.code == "TASK_NOT_FOUND"
