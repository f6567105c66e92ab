"""OCR and masking on real Tesseract, and the job lifecycle on the running server (real
Redis). Pages are rendered with known text and known PII boxes (evals/documents.py)."""

import time

import httpx
import pytest
import redis

from core.services import in_process_services, set_services
from evals.documents import render_page, to_pdf, to_png, to_text_pdf, with_rotation
from evals.metrics import cer, match_boxes
from graphs.documents import build_masking_graph, build_ocr_graph

pytestmark = pytest.mark.integration


@pytest.fixture
def services():
    set_services(in_process_services())
    yield
    set_services(None)


async def test_ocr_of_a_rendered_korean_page_meets_the_cer_target(services):
    page = render_page()
    out = (await build_ocr_graph().compile().ainvoke({"file_bytes": to_png(page)}))["result"]
    assert out["ocr_engine"] == "tesseract" and out["cached"] is False
    assert cer(page.text, out["extracted_text"]) < 0.05
    # per line: every PII-bearing line is read within 10% CER
    read_lines = out["extracted_text"].splitlines()
    pii_lines = [ln for ln in page.lines if any(p.text in ln.text for p in page.pii)]
    assert len(pii_lines) == 7
    for line in pii_lines:
        best = min(cer(line.text, r) for r in read_lines)
        assert best < 0.10, (line.text, best)


async def test_scanned_pdf_pages_are_rendered_and_read_in_order(services):
    pages = [render_page(person=0), render_page(person=1)]
    out = (await build_ocr_graph().compile().ainvoke({"file_bytes": to_pdf(pages)}))["result"]
    assert [p["page"] for p in out["pages"]] == [1, 2]
    assert "김민준" in out["pages"][0]["text"] and "이서연" in out["pages"][1]["text"]


@pytest.mark.parametrize("variant", ["inline", "table", "rotated"])
async def test_masking_finds_every_pii_value_box(services, variant):
    page = {
        "inline": render_page(),
        "table": render_page(person=1, layout="table"),
        "rotated": with_rotation(render_page(person=2)),
    }[variant]
    out = await build_masking_graph().compile().ainvoke({"file_bytes": to_png(page)})
    [result] = out["result"]["pages"]
    assert (result["width"], result["height"]) == page.image.size
    found = [(d["type"], d["coordinates"]) for d in result["detected_pii"]]
    ious, unmatched = match_boxes([(p.type, p.box) for p in page.pii], found, min_iou=0.5)
    missed = [p.type for p, i in zip(page.pii, ious, strict=True) if i is None]
    assert missed == []
    assert unmatched == []  # the photo-like block and the career lines are not PII
    assert result["masked_image"].startswith("data:image/png;base64,")


async def test_large_images_are_masked_downscaled_with_boxes_in_original_pixels(services):
    big = render_page(size=56, width=2480, height=3508)  # A4 at 300 dpi
    out = await build_masking_graph().compile().ainvoke({"file_bytes": to_png(big)})
    [result] = out["result"]["pages"]
    assert (result["width"], result["height"]) == (2480, 3508)
    found = [(d["type"], d["coordinates"]) for d in result["detected_pii"]]
    ious, _ = match_boxes([(p.type, p.box) for p in big.pii], found, min_iou=0.5)
    assert sum(i is not None for i in ious) >= 6


def test_job_lifecycle_over_http_and_redis(live_server, redis_url):
    png = to_png(render_page())
    with httpx.Client(base_url=live_server, timeout=120) as client:
        created = client.post(
            "/ai/ocr/extract", files={"file": ("scan", png)}, data={"user_id": "u1"}
        )
        assert created.status_code == 202
        task_id = created.json()["task_id"]
        assert created.json() == {"task_id": task_id, "status": "processing"}
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            task = client.get(f"/ai/tasks/{task_id}").json()
            if task["status"] != "processing":
                break
            time.sleep(0.5)
        assert task["status"] == "completed" and task["progress"] == 100
        assert task["kind"] == "ocr" and task["error"] is None
        assert "김민준" in task["result"]["extracted_text"]
        # The finished record expires with the job TTL; the upload (personal data) is gone.
        store = redis.Redis.from_url(redis_url)
        assert 0 < store.ttl(f"saq:job:devths-documents:{task_id}") <= 24 * 3600
        assert store.exists(f"devths:upload:{task_id}") == 0
        again = client.post(
            "/ai/ocr/extract?wait=true", files={"file": ("scan", png)}, data={"user_id": "u1"}
        )
        assert again.status_code == 200 and again.json()["result"]["cached"] is True
        masked = client.post(
            "/ai/masking/draft?wait=true", files={"file": ("scan", png)}, data={"user_id": "u1"}
        )
        assert masked.status_code == 200
        types = {d["type"] for d in masked.json()["result"]["pages"][0]["detected_pii"]}
        assert {"name", "phone", "email", "rrn"} <= types
        assert client.get("/ai/tasks/unknown").status_code == 404


@pytest.mark.parametrize(
    ("content", "status", "code"),
    [
        (b"MZ\x90\x00 an executable named cv.pdf", 415, "UNSUPPORTED_FILE_TYPE"),
        (b"%PDF-1.7\n%broken", 422, "BROKEN_PDF"),
        (b"", 422, "EMPTY_FILE"),
        (b"\xff\xd8\xff\xe0 not a jpeg", 422, "BROKEN_IMAGE"),
    ],
)
def test_bad_files_over_http_get_a_clear_4xx(live_server, content, status, code):
    r = httpx.post(
        f"{live_server}/ai/masking/draft",
        files={"file": ("resume.pdf", content)},
        data={"user_id": "u1"},
    )
    assert r.status_code == status
    assert r.json()["error"]["code"] == code


def test_missing_file_field_is_422(live_server):
    r = httpx.post(f"{live_server}/ai/ocr/extract", data={"user_id": "u1"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "file"


async def test_a_redelivered_masking_job_reuses_the_pages_already_done(services, monkeypatch):
    """A job re-run after its worker died (or the same file sent again) does not redo the
    pages it finished: they are kept by (file SHA-256, settings, page)."""
    from core.services import get_services
    from nodes.documents import steps

    calls = []
    real = steps.mask_page
    monkeypatch.setattr(steps, "mask_page", lambda page: calls.append(page.number) or real(page))
    data = to_pdf([render_page(person=0), render_page(person=1)])
    graph = build_masking_graph().compile()
    first = (await graph.ainvoke({"file_bytes": data}))["result"]
    assert sorted(calls) == [1, 2]
    # As if the worker died after page 1: page 2's result is missing.
    cache = get_services().cache
    keys = [k for k in cache._items if k.startswith("devths:mask-page:")]  # type: ignore[attr-defined]
    assert len(keys) == 2
    [page2] = [k for k in keys if (await cache.get(k))["page"] == 2]
    cache._items.pop(page2)  # type: ignore[attr-defined]
    again = (await graph.ainvoke({"file_bytes": data}))["result"]
    assert sorted(calls) == [1, 2, 2]  # only page 2 was done again
    assert again == first


async def test_a_born_digital_pdf_is_masked_from_its_text_layer_without_ocr(services, monkeypatch):
    """PDFium's character boxes give each value's box exactly; Tesseract is never called."""
    from scan import masking

    def no_ocr(*_a, **_k):
        raise AssertionError("a text-layer page must not be OCR'd")

    monkeypatch.setattr(masking, "readings_to_mask", no_ocr)
    page = render_page(person=1, layout="table", font="myeongjo")
    out = await build_masking_graph().compile().ainvoke({"file_bytes": to_text_pdf([page])})
    [result] = out["result"]["pages"]
    found = [(d["type"], d["coordinates"]) for d in result["detected_pii"]]
    ious, unmatched = match_boxes([(p.type, p.box) for p in page.pii], found, min_iou=0.5)
    assert None not in ious and unmatched == []
    assert min(ious) > 0.85  # glyph boxes, not widths guessed from OCR words
    assert {d["text"] for d in result["detected_pii"]} == {p.text for p in page.pii}
