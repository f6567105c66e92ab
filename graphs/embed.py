"""Document embedding (`/ai/file/embed`): chunk, embed in batches, replace by doc_id.

START -> check_unchanged --same content already stored--> END
               |
         embed_chunks -> store_chunks -> END
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from nodes.embed import steps
from nodes.embed.state import EmbedIn, EmbedOut, EmbedState


def build_embed_graph() -> StateGraph:
    graph = StateGraph(EmbedState, input_schema=EmbedIn, output_schema=EmbedOut)
    graph.add_node("check_unchanged", steps.check_unchanged, destinations=("embed_chunks", END))
    graph.add_node("embed_chunks", steps.embed_chunks)
    graph.add_node("store_chunks", steps.store_chunks)
    graph.add_edge(START, "check_unchanged")
    graph.add_edge("embed_chunks", "store_chunks")
    graph.add_edge("store_chunks", END)
    return graph


builder = build_embed_graph()
