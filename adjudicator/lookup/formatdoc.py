"""The reference part of docs/incident-format.md, made from adjudicator/core/schema.py.

`adjudicator events` prints it; tests/test_docs.py checks the document holds exactly this text
between its markers, so the document and the definition in code cannot drift apart.
"""
from __future__ import annotations

from adjudicator.lookup import laws
from adjudicator.core import schema

START = "<!-- reference:start (made by `adjudicator events --markdown`; do not edit by hand) -->"
END = "<!-- reference:end -->"


def _field_rows(fields) -> list[str]:
    rows = ["| field | type | required | meaning |", "|---|---|---|---|"]
    for f in fields:
        typ = f.type if not f.choices else " / ".join(f.choices)
        rows.append(f"| `{f.name}` | {typ} | {'yes' if f.required else ''} | {f.doc} |")
    return rows


def reference() -> str:
    out: list[str] = ["## Reference", "", "### Top-level keys", ""]
    out += _field_rows(schema.TOP)
    out += ["", "### Value types", "", "| type | written as |", "|---|---|"]
    for name, doc in schema.TYPES.items():
        out.append(f"| {name} | {doc} |")
    out += ["", "### Events", "",
            "Each event is a one-key mapping, `- name: {field: value, ...}`; events are in the order they "
            "happened. Laws listed are those of each code whose rules read the event, worked out from "
            "the rules (`adjudicator events NAME` prints them too).", ""]
    for group in schema.GROUPS:
        out += [f"#### {group}", ""]
        for ev in schema.EVENTS.values():
            if ev.group != group:
                continue
            by_code = "; ".join(f"{c} {', '.join(ls)}" for c, ls in laws.event_laws(ev.name).items())
            read = f" (laws: {by_code})" if by_code else " (no code's rules read it)"
            out += [f"##### `{ev.name}`", "", f"{ev.doc}{read}", ""]
            if ev.fields:
                out += _field_rows(ev.fields)
            else:
                out.append("No fields.")
            out += ["", "```yaml", ev.example, "```", ""]
    return "\n".join(out).rstrip() + "\n"


def block() -> str:
    return f"{START}\n{reference()}{END}\n"
