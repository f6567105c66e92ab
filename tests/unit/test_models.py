import pytest

from core.errors import ModelUnavailableError
from core.models import ModelRegistry, build_chat_model
from core.settings import Settings


def test_fallback_chain_is_feature_model_then_fallbacks_without_duplicates():
    s = Settings(
        chat_model="local",
        analysis_model="google_genai:gemini-2.0-flash",
        model_fallbacks="ollama:exaone, local",
    )
    assert s.fallback_chain("analysis") == [
        "google_genai:gemini-2.0-flash",
        "ollama:exaone",
        "local",
    ]
    assert s.fallback_chain("chat") == ["local", "ollama:exaone"]


def test_providers_without_a_key_are_skipped_not_fatal():
    s = Settings(
        analysis_model="google_genai:gemini-2.0-flash", google_api_key=None, model_fallbacks="local"
    )
    registry = ModelRegistry(s)
    assert registry.spec("analysis") == "local"


def test_no_usable_provider_is_a_clear_error():
    s = Settings(analysis_model="google_genai:gemini", google_api_key=None, model_fallbacks="")
    with pytest.raises(ModelUnavailableError, match="GOOGLE_API_KEY"):
        ModelRegistry(s).chain("analysis")


def test_unknown_provider_is_rejected():
    with pytest.raises(ModelUnavailableError, match="Unknown model provider"):
        build_chat_model("openai:gpt", Settings())


def test_local_model_gets_schema_and_grammar_constraints():
    from nodes.analysis.schemas import SectionDigest

    registry = ModelRegistry(Settings(chat_model="local", model_fallbacks=""))
    bound = registry.runnable("chat", schema=SectionDigest, grammar='root ::= "x"', max_tokens=7)
    kwargs = bound.kwargs
    assert kwargs["response_format"]["schema"]["title"] == "SectionDigest"
    assert kwargs["grammar"] == 'root ::= "x"' and kwargs["max_tokens"] == 7
