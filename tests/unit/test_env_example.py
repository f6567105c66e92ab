"""Every setting is documented in .env.example, and nothing there is unknown."""

import re
from pathlib import Path

from core.settings import Settings

ENV_EXAMPLE = Path(__file__).resolve().parents[2] / ".env.example"


def test_env_example_documents_every_setting():
    names = set(re.findall(r"^#?\s*([A-Z][A-Z0-9_]+)=", ENV_EXAMPLE.read_text(), re.MULTILINE))
    fields = {name.upper() for name in Settings.model_fields}
    assert fields - names == set()
    assert names - fields == set()
