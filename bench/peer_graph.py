"""The analysis graph for `langgraph dev`, on the simulated model (the peer benchmark).

Importing this module installs in-process services whose every model is the simulated
one, then exposes the same uncompiled builder the server uses.
"""

from bench.simulated import SimulatedChatModel
from core.models import ModelRegistry
from core.services import in_process_services, set_services
from core.settings import get_settings
from graphs.analysis import build_analysis_graph

_settings = get_settings()
set_services(
    in_process_services(_settings, models=ModelRegistry(_settings, {"*": SimulatedChatModel()}))
)
builder = build_analysis_graph()
