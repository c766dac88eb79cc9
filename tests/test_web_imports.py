"""The browser client's module graph (issue 22): no import circle under ``web/js``, and the screens reach
each other only through ``web/js/router.js`` (a screen importing another screen is how app.js and the five
screens became one circle)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB_JS = ROOT / "web" / "js"
IMPORT = re.compile(r"""^\s*import\s[^;]*?from\s+["'](\.{1,2}/[^"']+)["']""", re.MULTILINE | re.DOTALL)
# keys.js is the table screen's keyboard, elsewhere.js its "open in another tab" alert and progress.js the
# lobby's progress panel: parts of one screen.
SCREEN_PARTS = {("keys.js", "table.js"), ("table.js", "elsewhere.js"), ("lobby.js", "progress.js")}


def module_imports(path: Path) -> set[Path]:
    """The modules ``path`` imports by relative specifier (static imports; dynamic ones load lazily)."""
    text = path.read_text(encoding="utf-8")
    return {(path.parent / spec).resolve() for spec in IMPORT.findall(text)}


def import_graph() -> dict[Path, set[Path]]:
    return {path.resolve(): module_imports(path) for path in WEB_JS.rglob("*.js")}


def find_cycle(graph: dict[Path, set[Path]]) -> list[Path] | None:
    """One import circle of ``graph`` as the list of modules along it, or None (depth-first, three colours)."""
    state: dict[Path, int] = {}
    stack: list[Path] = []

    def visit(node: Path) -> list[Path] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_import_reader_sees_a_circle() -> None:
    """The checker itself: a two-module circle is found, a chain is not."""
    a, b, c = Path("/a.js"), Path("/b.js"), Path("/c.js")
    assert find_cycle({a: {b}, b: {a}}) == [a, b, a]
    assert find_cycle({a: {b}, b: {c}, c: set()}) is None


def test_web_client_has_no_import_circle() -> None:
    cycle = find_cycle(import_graph())
    assert cycle is None, " -> ".join(str(p.relative_to(WEB_JS)) for p in cycle or [])


def test_screens_do_not_import_each_other() -> None:
    screens = WEB_JS / "screens"
    assert (WEB_JS / "router.js").exists()
    for path in sorted(screens.glob("*.js")):
        for target in module_imports(path):
            if target.parent == screens.resolve():
                assert (path.name, target.name) in SCREEN_PARTS, f"{path.name} imports {target.name}"
    app_imports = module_imports(WEB_JS / "app.js")
    assert not any(target.parent == screens.resolve() for target in app_imports)
