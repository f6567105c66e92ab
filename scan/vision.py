"""OCR by a vision chat model (Gemini by default, OCR_MODEL), and the `auto` policy."""

from __future__ import annotations

import base64
import io

from langchain_core.messages import HumanMessage, SystemMessage
from PIL import Image

from core.services import get_services
from core.structured import invoke_text
from prompts import load_prompt
from scan.ocr import is_hangul

PROMPT = load_prompt("documents/vision_ocr")
MIN_CHARS = 20
MIN_HANGUL_SHARE = 0.1


def needs_second_opinion(text: str) -> bool:
    """Tesseract's text is suspect when it is very short, or when its letters are almost
    never Hangul on documents that are Korean (a wrong script or a garbled scan)."""
    letters = [c for c in text if c.isalpha()]
    if len("".join(text.split())) < MIN_CHARS:
        return True
    return sum(is_hangul(c) for c in letters) / max(1, len(letters)) < MIN_HANGUL_SHARE


async def read_with_model(image: Image.Image) -> str:
    services = get_services()
    buf = io.BytesIO()
    image.convert("RGB").save(buf, "PNG")
    url = "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()
    messages = [
        SystemMessage(content=PROMPT.system),
        HumanMessage(
            content=[
                {"type": "text", "text": PROMPT.user},
                {"type": "image_url", "image_url": {"url": url}},
            ]
        ),
    ]
    model = services.models.runnable("ocr", internal=True)
    text = await invoke_text(
        model, messages, {"run_name": "vision_ocr"}, services.settings.model_timeout_s
    )
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())
