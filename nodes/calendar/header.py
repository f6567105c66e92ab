"""The calendar parser's company/position finder is shared with the other features that read
a posting: it lives in `nodes/shared/header.py`. This module keeps its old import path."""

from nodes.shared.header import Header, clean_company, clean_position, find_header

__all__ = ["Header", "clean_company", "clean_position", "find_header"]
