"""Every rule citation points into the rule book that ships with the code (docs/rules/, issue 31 item 1).

A citation is ``docs/rules/<page>.md#<anchor>``, optionally followed by the decision id that settled the rule
(``docs/rules/taipao.md#split-deal F-2``); see docs/rules/README.md#citing.  This test scans the code, tests,
benches, docs and the web client and fails on a citation whose page or anchor does not exist, on a decision id
the cited page never mentions, and on any citation of the outside specification file or its old section
numbers (only the rule book's own "sources" note names that file)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULE_BOOK = ROOT / "docs" / "rules"
SCANNED = ("engine", "app", "tests", "bench", "docs", "web", "README.md")
TEXT_SUFFIXES = {".py", ".md", ".js", ".json", ".html", ".css", ".sh", ".txt", ".toml", ".yml", ".yaml"}
SOURCES_NOTE = RULE_BOOK / "README.md"

CITATION = re.compile(r"docs/rules/([\w.-]+?\.md)(?:#([\w-]+))?((?: [A-F]-\d{1,2}\b)?)")
ANCHOR = re.compile(r'<a id="([\w-]+)"></a>')
IN_PAGE_REF = re.compile(r"`#([\w-]+)`")
# Built from pieces so that this file does not cite what it forbids.
SPEC_FILE = "RULES" + r"\.md"
OUTSIDE_SPEC = re.compile(SPEC_FILE + "|RULES" + r"(?:'s)? §")
# The specification's own section numbering: "§1.1 r18", "§2.1 rule 9", "§3.2", "§4 E-6", "§7", "§8".
OLD_SECTION = re.compile(r"§(?:[0-4](?:\.[123])?|[78])(?![\d.]*\d)(?![a-z0-9])")
NOT_RULES = re.compile(r"(?:lessons?|note's|note) §")
DECISIONS = {"A": 16, "B": 26, "C": 19, "D": 10, "E": 9, "F": 10}


def rule_book() -> dict[str, tuple[str, set[str]]]:
    """Each page of docs/rules/ by file name: its text and the anchors it declares."""
    return {p.name: (text, set(ANCHOR.findall(text))) for p in sorted(RULE_BOOK.glob("*.md"))
            for text in [p.read_text("utf-8")]}


def problems_in(text: str, where: str, book: dict[str, tuple[str, set[str]]]) -> list[str]:
    """What is wrong with the rule citations of ``text`` (named ``where`` in the messages)."""
    found = []
    for n, line in enumerate(text.splitlines(), 1):
        for m in CITATION.finditer(line):
            page, anchor, decision = m.group(1), m.group(2), m.group(3).strip()
            if page not in book:
                found.append(f"{where}:{n}: no page docs/rules/{page}")
                continue
            page_text, anchors = book[page]
            if anchor and anchor not in anchors:
                found.append(f"{where}:{n}: no section #{anchor} in docs/rules/{page}")
            if decision and not re.search(rf"\b{decision}\b", page_text):
                found.append(f"{where}:{n}: docs/rules/{page} never mentions {decision}")
        if OUTSIDE_SPEC.search(line):
            found.append(f"{where}:{n}: cites the outside specification; cite a docs/rules/ section")
        for m in OLD_SECTION.finditer(line):
            if not NOT_RULES.search(line[max(0, m.start() - 12):m.end()]):
                found.append(f"{where}:{n}: old section number {m.group(0)!r}; cite a docs/rules/ section")
    return found


def scanned_files() -> list[Path]:
    """The text files of the scanned trees, this test and the rule book's sources note excepted."""
    out = []
    for top in SCANNED:
        base = ROOT / top
        paths = [base] if base.is_file() else sorted(base.rglob("*"))
        for p in paths:
            if p.is_file() and p.suffix in TEXT_SUFFIXES and p != Path(__file__).resolve() and p != SOURCES_NOTE \
                    and "node_modules" not in p.parts:
                out.append(p)
    return out


def test_every_rule_citation_lands_on_a_section():
    book = rule_book()
    found = []
    for path in scanned_files():
        try:
            text = path.read_text("utf-8")
        except UnicodeDecodeError:
            continue
        found += problems_in(text, str(path.relative_to(ROOT)), book)
    assert found == [], "\n".join(found)


def test_the_sources_note_is_the_only_mention_of_the_outside_specification():
    text = SOURCES_NOTE.read_text("utf-8")
    before, sep, sources = text.partition('<a id="sources"></a>')
    assert sep, "docs/rules/README.md has a sources note"
    assert not OUTSIDE_SPEC.search(before), "only the sources note names the outside specification"
    assert problems_in(before, "docs/rules/README.md", rule_book()) == []


def test_references_inside_a_page_land_on_its_own_sections():
    for name, (text, anchors) in rule_book().items():
        missing = sorted(set(IN_PAGE_REF.findall(text)) - anchors)
        assert missing == [], f"docs/rules/{name}: no section for {missing}"


def test_anchors_are_unique_within_a_page():
    for p in sorted(RULE_BOOK.glob("*.md")):
        ids = ANCHOR.findall(p.read_text("utf-8"))
        assert len(ids) == len(set(ids)), f"{p.name}: duplicate anchors"


def test_the_rule_book_states_every_decision():
    """Every decision id of the specification (A-1 … F-10) is stated somewhere in the rule book."""
    text = "\n".join(t for t, _ in rule_book().values())
    missing = [f"{k}-{i}" for k, n in DECISIONS.items() for i in range(1, n + 1)
               if not re.search(rf"\b{k}-{i}\b", text)]
    assert missing == []


@pytest.mark.parametrize(("line", "complaint"), [
    ("see docs/rules/taipao.md#split-deal", None),
    ("see docs/rules/taipao.md#split-deal F-2", None),
    ("see docs/rules/taipao.md", None),
    ("see docs/rules/taipao.md#no-such-section", "no section #no-such-section"),
    ("see docs/rules/nowhere.md#deal", "no page docs/rules/nowhere.md"),
    ("see docs/rules/timing.md#auto-play A-5", "never mentions A-5"),
    ("see " + "RULES" + ".md §2.1 r15", "outside specification"),
    ("(§1.1 rule 22)", "old section number"),
    ("(§4 E-6)", "old section number"),
    ("(server-lessons §7.4, the note's §3.2)", None),
])
def test_the_checker_catches_what_it_should(line, complaint):
    found = problems_in(line, "x", rule_book())
    if complaint is None:
        assert found == []
    else:
        assert any(complaint in f for f in found), found
