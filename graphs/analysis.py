"""Resume-posting analysis: check cache -> extract sections -> score deterministically
(sent at once as the `analysis_match` custom event) -> summarise each long section in
parallel -> write feedback (streamed) -> store result.

    START -> check_cache --hit--> END
                 | miss
          extract_sections -> score_match --Send x N (long sections)--> summarise_section
                                   | (all sections short)                      |
                                   +--------------------------------> write_feedback
                                                                  -> store_result -> END
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from nodes.analysis import steps
from nodes.analysis.state import AnalysisInput, AnalysisOutput, AnalysisState, SectionTask


def build_analysis_graph() -> StateGraph:
    """The uncompiled builder (LangGraph Studio compiles it; the server compiles it too)."""
    graph = StateGraph(AnalysisState, input_schema=AnalysisInput, output_schema=AnalysisOutput)
    graph.add_node("check_cache", steps.check_cache, destinations=("extract_sections", END))
    graph.add_node("extract_sections", steps.extract_sections)
    graph.add_node("summarise_section", steps.summarise_section, input_schema=SectionTask)
    graph.add_node("score_match", steps.score_match)
    graph.add_node("write_feedback", steps.write_feedback)
    graph.add_node("store_result", steps.store_result)
    graph.add_edge(START, "check_cache")
    graph.add_edge("extract_sections", "score_match")
    graph.add_conditional_edges(
        "score_match", steps.fan_out_summaries, ["summarise_section", "write_feedback"]
    )
    graph.add_edge("summarise_section", "write_feedback")
    graph.add_edge("write_feedback", "store_result")
    graph.add_edge("store_result", END)
    return graph


builder = build_analysis_graph()
