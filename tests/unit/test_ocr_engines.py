"""The OCR engine policy (tesseract | gemini | auto) with a fake vision model."""

import pytest
from PIL import Image

from core.models import ModelRegistry
from core.services import in_process_services, set_services
from core.settings import Settings
from nodes.documents import steps
from scan.pages import PageImage
from scan.vision import needs_second_opinion

PAGE = PageImage(1, Image.new("RGB", (40, 40), "white"), None, "")
KOREAN = "이력서 이름 김민준 연락처 010-1234-5678 경력 백엔드 개발 3년"


def test_second_opinion_is_for_short_or_non_korean_text():
    assert needs_second_opinion("이력")
    assert needs_second_opinion("lorem ipsum dolor sit amet consectetur adipiscing")
    assert not needs_second_opinion(KOREAN)


@pytest.mark.parametrize(
    ("engine", "tesseract_text", "expected", "model_calls"),
    [
        ("tesseract", "짧음", ("짧음", "tesseract"), 0),
        ("auto", KOREAN, (KOREAN, "tesseract"), 0),
        ("auto", "짧음", ("모델이 읽은 글", "vision-model"), 1),
        ("gemini", KOREAN, ("모델이 읽은 글", "vision-model"), 1),
    ],
)
async def test_engine_policy(
    use_fake_model, monkeypatch, engine, tesseract_text, expected, model_calls
):
    fake = use_fake_model(respond=lambda m: "모델이 읽은 글")
    monkeypatch.setattr(steps, "_tesseract_text", lambda page, side: tesseract_text)
    assert await steps.page_text(PAGE, engine, 1920) == expected
    assert len(fake.calls) == model_calls
    if model_calls:  # the page went to the model as an image
        assert fake.calls[0][-1].content[1]["image_url"]["url"].startswith("data:image/png")


async def test_auto_keeps_tesseract_text_when_no_vision_model_is_configured(monkeypatch):
    settings = Settings(redis_url=None, google_api_key=None)
    set_services(in_process_services(settings, models=ModelRegistry(settings)))
    try:
        monkeypatch.setattr(steps, "_tesseract_text", lambda page, side: "짧음")
        assert await steps.page_text(PAGE, "auto", 1920) == ("짧음", "tesseract")
    finally:
        set_services(None)


async def test_a_text_layer_wins_over_any_engine(use_fake_model):
    fake = use_fake_model()
    page = PageImage(1, PAGE.image, 200, KOREAN)
    assert await steps.page_text(page, "gemini", 1920) == (KOREAN, "pdf-text-layer")
    assert fake.calls == []
