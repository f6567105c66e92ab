"""The house's floors, checked from the imports (#30): every project module imports only
modules on its own floor or below, no module imports itself back through others, and a
feature's nodes import no other feature's nodes.

    core, prompts  <  text (the language layer), scan (the document engine)  <  tools
                   <  nodes  <  graphs  <  server.py, worker.py  <  evals  <  bench

Imports inside functions count too: a lazy import is still an arrow."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("core", "prompts", "text", "scan", "tools", "nodes", "graphs", "evals", "bench")
SCRIPTS = ("server", "worker")
FLOOR = {
    "core": 0,
    "prompts": 0,
    "text": 1,
    "scan": 1,
    "tools": 2,
    "nodes": 3,
    "graphs": 4,
    "server": 5,
    "worker": 5,
    "evals": 6,
    "bench": 7,
}


def _modules() -> dict[str, Path]:
    found = {name: ROOT / f"{name}.py" for name in SCRIPTS}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts).removesuffix(".__init__")] = path
    return found


def _arrows() -> dict[str, set[str]]:
    modules = _modules()
    arrows: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                wanted = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                wanted = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            else:
                continue
            for target in wanted:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    targets.add(target)
        arrows[name] = targets
    return arrows


ARROWS = _arrows()


def _floor(module: str) -> int:
    return FLOOR[module.split(".")[0]]


def test_the_check_reads_the_house() -> None:
    # a check that reads nothing passes everything: it must see the known arrows
    assert "graphs.chat" in ARROWS and "nodes.chat.steps" in ARROWS["graphs.chat"]
    assert len(ARROWS) > 150


def test_no_arrow_runs_back_up() -> None:
    up = [
        f"{a} -> {b}"
        for a, targets in sorted(ARROWS.items())
        for b in sorted(targets)
        if _floor(b) > _floor(a)
    ]
    assert up == []


def test_a_feature_imports_no_other_feature() -> None:
    side = [
        f"{a} -> {b}"
        for a, targets in sorted(ARROWS.items())
        for b in sorted(targets)
        if a.startswith("nodes.") and b.startswith("nodes.") and a.split(".")[1] != b.split(".")[1]
    ]
    assert side == []


def test_no_circles() -> None:
    """No module reaches itself through its imports (Tarjan's strongly connected parts)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in ARROWS.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for module in sorted(ARROWS):
        if module not in index:
            visit(module)
    assert circles == []
