"""The referee's web page: the command line's answers in a browser, and its JSON under /api/.

Plain HTML forms (no script at all): every page works on a phone, prints, and can be driven by
any browser. Every ruling shown is service.adjudicate's, which is `adjudicator adjudicate --json`.
"""
from __future__ import annotations

import json
import os
import random

from jinja2 import Environment, PackageLoader
from markupsafe import Markup, escape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from adjudicator.core.limits import MAX_BYTES
from adjudicator.core.render import NONE_REMEDIES, alternatives, none_may_sentence, presented, status_sentence
from adjudicator.web import examples, service
from adjudicator.web.service import Refusal

FORM_ENVELOPE = 64 * 1024   # a form's own bytes around the incident (boundaries, other fields)

env = Environment(loader=PackageLoader("adjudicator.web", "templates"), autoescape=True,
                  trim_blocks=True, lstrip_blocks=True)


def _seat_word() -> dict[str, str]:
    """Every seat's word, from the games' tables (rules/codes.yaml)."""
    from adjudicator.interview import builder
    return dict(builder.seat_words())


def _who(seats, players) -> str:
    """As render._who says it: 'Ames (N), Clark (S)', 'North', 'no one'."""
    out = []
    for s in seats or []:
        name = (players or {}).get(s)
        out.append(f"{name} ({s})" if name else _seat_word().get(s, s))
    return ", ".join(out) if out else "no one"


def _marked(snippet: str) -> Markup:
    """A search snippet, its *matched words* shown marked (the text escaped first)."""
    parts = str(escape(snippet)).split("*")
    return Markup("".join(f"<mark>{p}</mark>" if i % 2 else p for i, p in enumerate(parts)))


def _may_not_groups(r: dict) -> list[tuple[str, list[str], list[str]]]:
    groups: dict[tuple, list[str]] = {}
    for m in r["may_not_exact"]:
        groups.setdefault((m["reason"], tuple(m["laws"])), []).append(m["seat"])
    return [(reason, list(laws), seats) for (reason, laws), seats in groups.items()]


def _law_url(code: str, ident: str) -> str:
    from urllib.parse import quote
    return f"/law/{quote(code, safe='')}/{quote(str(ident), safe='')}"


def _turning_laws(tree) -> list[str]:
    """The laws whose rulings differ between the branches (as unknowns.text says them)."""
    from adjudicator.core.render import laws_turned_on
    return laws_turned_on(tree)


env.filters["who"] = _who
env.filters["marked"] = _marked
env.globals.update(presented=presented, dict=dict,
                   none_may=lambda m, players, game: none_may_sentence(m, players, game, refs=False),
                   alternatives=alternatives, law_url=_law_url, turning_laws=_turning_laws, token=service.quiz_token, may_not_groups=_may_not_groups, status_sentence=status_sentence, none_remedies=NONE_REMEDIES,
                   law_words=service.law_words, max_bytes=MAX_BYTES)


def _style_version() -> str:
    """The style sheet's version in its address (`/static/style.css?v=...`): its content's digest."""
    import hashlib
    with open(os.path.join(os.path.dirname(__file__), "static", "style.css"), "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()[:12]


env.globals["style_version"] = _style_version()


def page(name: str, status: int = 200, **context) -> HTMLResponse:
    if name == "quiz.html":         # its filters: the codes that rule, the topics of the concordance
        from adjudicator import api
        from adjudicator.core import registry
        context.setdefault("quiz_codes", [c["code"] for c in registry.all_codes() if registry.encoded(c["code"])])
        context.setdefault("quiz_topics", api.topics().data)
    return HTMLResponse(env.get_template(name).render(**context), status_code=status)


def refused_page(r: Refusal, incident_text: str = "", action: str = "/rule", title: str = "Not ruled") -> HTMLResponse:
    """An exit-2 refusal (or a fault) as the page says it: the message, the line, the fix, and the
    incident again with that line marked, to correct it in place."""
    d = r.detail
    lines = incident_text.splitlines()
    return page("refused.html", r.http_status, title=title, error=d, lines=lines,
                bad_line=d.get("line"), incident=incident_text, action=action)


# --- reading a request --------------------------------------------------------------------------

def _sent_fields(body: bytes, content_type: str) -> list[tuple[bytes, bytes]]:
    """The text fields of a form as sent, (name, value) in bytes, never decoded: read again beside
    Starlette's reading, which takes bytes that are not UTF-8 for Latin-1 (a multipart field) or
    for U+FFFD (a percent-encoded one), so that a form sent in Latin-1 was ruled on with a player
    `Jos\ufffd`. A file's part is left out (its bytes are read as an incident file's are)."""
    from urllib.parse import unquote_to_bytes

    from python_multipart.multipart import parse_options_header
    kind, params = parse_options_header(content_type)
    out: list[tuple[bytes, bytes]] = []
    if kind == b"application/x-www-form-urlencoded":
        for piece in body.split(b"&"):
            if piece:
                name, _, value = piece.partition(b"=")
                out.append((unquote_to_bytes(name.replace(b"+", b" ")), unquote_to_bytes(value.replace(b"+", b" "))))
    elif kind == b"multipart/form-data" and params.get(b"boundary"):
        for part in body.split(b"--" + params[b"boundary"])[1:]:
            head, sep, value = part.partition(b"\r\n\r\n")
            if not sep:
                continue
            lines = [line.partition(b":") for line in head.strip(b"\r\n").split(b"\r\n")]
            disposition = next((v for k, _, v in lines if k.strip().lower() == b"content-disposition"), b"")
            _, options = parse_options_header(disposition.strip())
            if b"name" in options and b"filename" not in options:
                out.append((options[b"name"], value.removesuffix(b"\r\n")))
    return out


class FormNotUtf8(Exception):
    """A form's field that is not UTF-8 text: said as Starlette's refusal of a form is."""

    def __init__(self, detail: str):
        self.detail = detail
        super().__init__(detail)


async def _form(request: Request, raw: tuple[str, ...] = (), **limits):
    """The form (request.form, with its limits), its text fields, and the bytes of the fields named
    in `raw` as sent (the incident: a byte that is not UTF-8 in it is refused as the file's would
    be, at its line and column). A name or any other field that is not UTF-8 text, or a byte that
    is not ASCII in a form sent URL-encoded (a browser percent-encodes every such byte), is refused
    (FormNotUtf8, 400): the page asks for UTF-8, and a form in Latin-1 was ruled on with the bytes
    taken for other letters."""
    body = await request.body()       # (first: the form is then read from it; the Guard has bounded it)
    form = await request.form(**limits)
    content_type = request.headers.get("content-type", "")
    kept: dict[str, bytes] = {}
    if content_type.lower().startswith("application/x-www-form-urlencoded") and not body.isascii():
        byte = next(b for b in body if b > 127)
        raise FormNotUtf8(f"the form holds the byte 0x{byte:02x}, which a form sent URL-encoded never holds "
                          "(each byte past ASCII is sent as %XX)")
    for name, value in _sent_fields(body, content_type):
        try:
            field = name.decode("utf-8")
        except UnicodeDecodeError as e:
            raise FormNotUtf8(f"a field's name is not UTF-8 text (byte 0x{name[e.start]:02x})") from None
        if field in raw:
            kept[field] = value
            continue
        try:
            value.decode("utf-8")
        except UnicodeDecodeError as e:
            from adjudicator.core.values import shown
            raise FormNotUtf8(f"the field '{shown(field)}' is not UTF-8 text (byte 0x{value[e.start]:02x})") from None
    fields = {k: v for k, v in form.multi_items() if isinstance(v, str)}
    return form, fields, kept


async def _form_incident(request: Request) -> tuple[bytes, dict]:
    """The incident from a form: the uploaded file's bytes (its name is never used) or the pasted
    text, as sent; and the form's other fields."""
    from starlette.exceptions import HTTPException
    try:
        form, fields, sent = await _form(request, ("incident",), max_files=1, max_fields=20,
                                         max_part_size=MAX_BYTES + FORM_ENVELOPE)
    except (HTTPException, FormNotUtf8) as e:     # a form that is not one (python-multipart's refusal)
        raise Refusal(2, {"error": {"message": f"the form could not be read: {e.detail}", "exit_code": 2,
                                    "hint": "send the incident from the page's own form, in UTF-8"}}) from None
    upload = form.get("upload")
    data = b""
    if upload is not None and not isinstance(upload, str):
        data = await upload.read(MAX_BYTES + 1)
        await upload.close()
    if not data:
        pasted = sent.get("incident")
        if pasted is None:
            pasted = (fields.get("incident") or "").encode("utf-8", "surrogateescape")
        data = pasted.replace(b"\r\n", b"\n")
    await form.close()
    return data, fields


def _text(data: bytes) -> str:
    return data[:MAX_BYTES].decode("utf-8", "replace")


# --- pages --------------------------------------------------------------------------------------

def _refusal(status: int, title: str, message: str, hint: str):
    """A page that says what in the request cannot be answered, and what to do instead."""
    return page("refused.html", status, title=title, error={"message": message, "hint": hint},
                lines=[], bad_line=None, incident="", action=None)


def _example(request: Request):
    """The example a page was asked to start from (`?example=NAME`): its text, "" for none asked,
    or None for a name that is not an example's."""
    name = request.query_params.get("example")
    if name is None or name == "":
        return ""
    return examples.get(name)


def _no_example(request: Request):
    from adjudicator.core.values import shown
    return _refusal(404, "No such example", f"there is no example '{shown(request.query_params['example'])}'",
                    "the examples: " + ", ".join(k for k, _ in examples.NAMES))


async def home(request: Request):
    ex = _example(request)
    if ex is None:
        return _no_example(request)
    return page("home.html", title="Rule on an incident", incident=ex or "", examples=examples.NAMES)


async def _read_form(request: Request, action: str):
    try:
        data, fields = await _form_incident(request)
    except Refusal as r:
        return (b"", {}), refused_page(r, "", action=action, title="Not read")
    replaced = _replacement(data)
    if replaced is not None:
        return (b"", {}), refused_page(replaced, _text(data), action=action, title="Not read")
    return (data, fields), None


REPLACEMENT = "\ufffd".encode("utf-8")


def _replacement(data: bytes) -> Refusal | None:
    """An incident sent from a page's form holding U+FFFD, the character the page puts, in the
    incident shown again to be corrected, where a byte that was not UTF-8 text was (a form sent in
    Latin-1): refused at its line and column, never ruled as a player `Jos\ufffd` when the box is
    sent back uncorrected. (The API reads what it is sent, as the command reads a file.)"""
    at = data.find(REPLACEMENT)
    if at < 0:
        return None
    line = data.count(b"\n", 0, at) + 1
    column = len(data[data.rfind(b"\n", 0, at) + 1:at].decode("utf-8", "replace")) + 1
    return Refusal(2, {"error": {"message": "\ufffd stands here for a byte that was not UTF-8 text",
                                 "exit_code": 2, "file": service.STDIN, "line": line, "column": column,
                                 "hint": "write the letter that was meant (José, not Jos\ufffd) and send it again"}})


async def rule(request: Request):
    (data, fields), refused = await _read_form(request, "/rule")
    if refused:
        return refused
    if not data.strip():
        return page("home.html", 400, title="Rule on an incident", incident="", examples=examples.NAMES,
                    message="Paste the incident (or choose its file) first.")
    return await _ruling_page(data)


async def _ruling_page(data: str):
    """The ruling page on an incident's text (pasted, or carried by a share link), or the page of its
    refusal."""
    try:
        found = await service.engine(service.ruling, data)
        result, text = found.as_dict(), (await run_in_threadpool(found.text)).removesuffix("\n")
    except Refusal as r:
        return refused_page(r, _text(data))
    return page("ruling.html", title="Ruling", result=result, players=found.players, terminal=text,
                incident=_text(data), as_json=json.dumps(result, indent=2, ensure_ascii=False))


async def ask_page(request: Request):
    ex = _example(request)
    if ex is None:
        return _no_example(request)
    return page("ask_start.html", title="Interview", incident=ex or "", examples=examples.NAMES)


async def ask_step(request: Request):
    (data, fields), refused = await _read_form(request, "/ask")
    if refused:
        return refused
    if not data.strip():
        return page("ask_start.html", 400, title="Interview", incident="", examples=examples.NAMES,
                    message="Paste the incident, as far as it is known, first.")
    answers = (fields.get("answers") or "").split()
    if fields.get("answer"):
        answers.append(fields["answer"])
    try:
        step = await service.engine(service.interview, data, answers)
    except Refusal as r:
        return refused_page(r, _text(data), action="/ask", title="No interview")
    if step["question"] is not None:
        return page("ask_question.html", title="Interview", step=step, incident=_text(data),
                    answers=" ".join(answers), number=len(answers) + 1)
    built = step["incident"].encode("utf-8")
    try:
        found = await service.engine(service.ruling, built)
        result, text = found.as_dict(), (await run_in_threadpool(found.text)).removesuffix("\n")
    except Refusal as r:
        return refused_page(r, step["incident"])
    return page("ruling.html", title="Ruling", result=result, players=found.players, terminal=text,
                incident=step["incident"], asked=step["asked"], built=True,
                as_json=json.dumps(result, indent=2, ensure_ascii=False))


# --- the builder: the dispute told as players tell it (interview/story.py) ---------------------------
DRAFT_IN_ADDRESS = 6000      # a draft's token longer than this is carried in the form, not the address


async def build_page(request: Request):
    """/build: the same questions as `adjudicator ask --game`, a step a page. Each step answered is
    sent (POST) and the page answers with the draft in its address (303 to /build?d=...): a reload,
    the back button, a tab closed and opened again, or the address sent to another phone, all show
    the account as far as it was told. A step refused comes back with what was typed and the
    problem beside the question."""
    from starlette.exceptions import HTTPException
    if request.method in ("GET", "HEAD"):      # (HEAD is GET's head: not a form sent)
        token, game = request.query_params.get("d"), request.query_params.get("game")
        try:
            d, step, told = await run_in_threadpool(service.story_page, token, game)
        except Refusal as r:
            return _build_refused(r)
        return _build_render(d, step, told)
    try:
        form, fields, _ = await _form(request, max_files=0, max_fields=400, max_part_size=MAX_BYTES + FORM_ENVELOPE)
    except (HTTPException, FormNotUtf8) as e:
        return _build_refused(Refusal(2, {"error": {"message": f"the form could not be read: {e.detail}",
                                                    "exit_code": 2, "hint": "send the page's own form, in UTF-8"}}))
    for name in {k for k in fields if k.startswith("hand_")}:     # a hand picked card by card: every card ticked
        fields[name] = " ".join(v for v in form.getlist(name) if isinstance(v, str))
    try:
        d, again = await service.engine(service.story_send, fields)
    except Refusal as r:
        return _build_refused(r)
    if again is not None:
        told = (await run_in_threadpool(service.story_told, d))[1]
        return _build_render(d, again, told, status=400)
    token = d.token()
    if len(token) <= DRAFT_IN_ADDRESS:
        return RedirectResponse(f"/build?d={token}", status_code=303)
    step, told = await run_in_threadpool(service.story_told, d)
    return _build_render(d, step, told)


def _build_render(d, step, told, status: int = 200) -> HTMLResponse:
    from adjudicator.interview import story
    yaml_text = story.yaml_of(d) if d.game else ""
    return page("build.html", status, title="Describe it step by step", step=step, told=told, token=d.token(),
                incident=yaml_text, game=d.game, ready=story.ready(d), suits=_SUIT_SIGNS, players=d.data.get("players") or {})


_SUIT_SIGNS = (("spades", "\u2660"), ("hearts", "\u2665"), ("diamonds", "\u2666"), ("clubs", "\u2663"))


def _build_refused(r: Refusal) -> HTMLResponse:
    return page("build.html", r.http_status, title="Describe it step by step", step=None, told=None, token="",
                incident="", game=None, ready=False, error=r.detail, suits=_SUIT_SIGNS, players={})


async def ruling_link(request: Request):
    """/ruling?i=...: the ruling on the incident the address carries (the share link of a ruling page)."""
    from adjudicator.interview import story
    token = request.query_params.get("i", "")
    try:
        data = story.unpack_incident(token)
    except Exception as e:  # noqa: BLE001 - any address that is not one of ours
        from adjudicator.errors import InputError
        err = e if isinstance(e, InputError) else InputError("this link does not carry an incident", "the ruling's link",
                                                             hint="ask for the link again from the ruling's page")
        return refused_page(service._refuse(err), "", action=None, title="Not read")
    return await _ruling_page(data)


def _share_url(incident_text: str) -> str:
    """The ruling's address, the incident in it (nothing is kept on the server)."""
    from adjudicator.interview import story
    return "/ruling?i=" + story.pack_incident(incident_text or "")


env.globals["share_url"] = _share_url


async def events_page(request: Request):
    """The incident format (`adjudicator events [NAME]`), from schema.py's one definition."""
    from adjudicator.core import schema
    from adjudicator.interview import builder
    name = request.path_params.get("name")
    if name is None:
        return page("events.html", title="The incident format", event=None, keys=schema.TOP,
                    groups=builder.event_groups())
    ev = schema.EVENTS.get(name.strip().lower())
    if ev is None:
        return _refusal(404, "No such event", f"no event '{name[:40]}'", "the events are listed on /events")
    from adjudicator import api          # (the laws of every code whose rules read it: as `adjudicator events NAME`)
    from adjudicator.core.render import NO_LAWS_READ
    return page("events.html", title=f"The event {ev.name}", event=ev, types=schema.TYPES,
                event_laws=api.event(ev.name).data["laws_by_code"], no_laws_read=NO_LAWS_READ)


async def law_lookup(request: Request):
    code = request.query_params.get("code", "").strip()
    number = request.query_params.get("number", "").strip()
    if code and number:
        return RedirectResponse(_law_url(code, number), status_code=303)
    rows = await run_in_threadpool(service.codes)
    if code and "number" in request.query_params:
        # the form sent with the number blank or spaces: refused as `law CODE ''` is, where the
        # page came back as it was, saying nothing
        try:
            await run_in_threadpool(service.law, code, "")
        except Refusal as r:
            return page("law_lookup.html", r.http_status, title="Look a law up", codes=rows, code=code,
                        number="", error=r.detail)
    return page("law_lookup.html", title="Look a law up", codes=rows, code=code, number=number)


async def law_page(request: Request):
    # (/law/CODE, no number: refused as the number '' is, saying how the laws are numbered)
    code, number = request.path_params["code"], request.path_params.get("number", "")
    try:
        d = await run_in_threadpool(service.law, code, number)
    except Refusal as r:
        rows = await run_in_threadpool(service.codes)
        return page("law_lookup.html", r.http_status, title="Look a law up", codes=rows, code=code,
                    number=number, error=r.detail)
    if d.get("asked_code"):     # Dummy's rulings cite the whist code's laws beside its own exceptions
        return RedirectResponse(_law_url(d["code"], number), status_code=303)
    return page("law.html", title=f"Law {d.get('exception') or d['id']}", law=d,
                code_title=_title(d["code"]))


def _title(code: str) -> str:
    from adjudicator.core import registry
    return registry.code_info(code)["title"]


async def search_page(request: Request):
    q = request.query_params.get("q", "").strip()
    code = request.query_params.get("code", "").strip()
    rows = await run_in_threadpool(service.codes)
    if not q:
        return page("search.html", title="Search the laws", q="", code=code, codes=rows, result=None)
    from adjudicator.core import reading
    page_no = reading.chosen_number(request.query_params.get("page", "1").strip(), 1, 10000) or 1
    try:
        result = await run_in_threadpool(service.search, q, code or None, 10, 10 * (page_no - 1))
    except Refusal as r:
        return page("search.html", r.http_status, title="Search the laws", q=q, code=code, codes=rows,
                    result=None, error=r.detail)
    return page("search.html", title=f"Search: {q}", q=q, code=code, codes=rows, result=result, page_no=page_no)


async def topic_page(request: Request):
    name = request.path_params.get("name")
    try:
        d = await run_in_threadpool(service.topic, name)
    except Refusal as r:
        topics = await run_in_threadpool(service.topic, None)
        return page("topics.html", r.http_status, title="Topics", topics=topics, error=r.detail)
    if name:
        return page("topic.html", title=d["title"], topic=d)
    return page("topics.html", title="Topics", topics=d)


async def compare_page(request: Request):
    rows = await run_in_threadpool(service.codes)
    if request.method in ("GET", "HEAD"):      # (HEAD is GET's head: not a form sent)
        ex = _example(request)
        if ex is None:
            return _no_example(request)
        return page("compare.html", title="Compare codes", incident=ex or "", codes=rows,
                    examples=examples.NAMES, result=None)
    (data, fields), refused = await _read_form(request, "/compare")
    if refused:
        return refused
    wanted = ",".join(c for c in [fields.get("code_a", ""), fields.get("code_b", "")] if c.strip()) or None
    if not data.strip():
        return page("compare.html", 400, title="Compare codes", incident="", codes=rows,
                    examples=examples.NAMES, result=None, message="Paste the incident first.")
    chosen = {c.strip() for c in (fields.get("code_a", ""), fields.get("code_b", "")) if c.strip()}
    if len(chosen) == 1:        # (the command's refusal names its --codes, which the page has not)
        return page("compare.html", 400, title="Compare codes", incident=_text(data), codes=rows,
                    examples=examples.NAMES, result=None, code_a=fields.get("code_a", ""),
                    code_b=fields.get("code_b", ""),
                    message=f"Only one code is chosen ({next(iter(chosen))[:40]}): a comparison needs two. Choose a "
                            "second, different code, or leave both empty for every code of the game.")
    try:
        result, players = await service.engine(service.compare, data, wanted)
    except Refusal as r:
        return refused_page(r, _text(data), action="/compare", title="Not compared")
    return page("compare.html", title="Compare codes", incident=_text(data), codes=rows,
                examples=examples.NAMES, result=result, players=players,
                code_a=fields.get("code_a", ""), code_b=fields.get("code_b", ""))


def _person(request: Request) -> tuple[str, bool]:
    """Who studies: the person the quiz's cookie names, or a new device key (True: to be set)."""
    found = service.person_from_cookie(request.cookies.get(service.COOKIE))
    return (found, False) if found else (service.new_device(), True)


def _keep_person(response: Response, person: str, new: bool) -> Response:
    """The person kept in the quiz's cookie (a year; only this site's pages send it back)."""
    if new:
        response.set_cookie(service.COOKIE, person, max_age=365 * 24 * 3600, path="/", httponly=True,
                            samesite="lax")
    return response


def _studying(person: str) -> dict:
    return {"person_name": service.person_name(person)}


async def quiz_page(request: Request):
    p = request.query_params
    code, topic = p.get("code", "").strip(), p.get("topic", "").strip()
    seed_text = p.get("seed", "").strip()
    digits = seed_text[1:] if seed_text.startswith("-") else seed_text     # (`quiz --seed -5` draws too)
    from adjudicator.core import reading
    if seed_text and reading.chosen_number(digits, 0, 999_999_999) is None:
        from adjudicator.core.values import shown
        return _refusal(400, "Quiz", f"the seed '{shown(seed_text)}' is not a question's number",
                        "leave the seed out for a new question, or give the number (up to nine digits) "
                        "shown beneath one")
    seed = int(seed_text) if seed_text else random.SystemRandom().randrange(1, 10**6)
    review = p.get("review") == "1"
    person, new = _person(request)
    try:
        found: list[str] = []        # what opening the progress file had to say (a damaged one kept aside)
        said = None
        if review:
            q, found = await run_in_threadpool(service.quiz_review, person)
            if q is None:
                said = "Nothing to review: no question missed and none due. Draw a new one."
        else:
            q, said, found = await run_in_threadpool(service.quiz_draw, seed, code or None, topic or None, person)
        stats, where, notices = await run_in_threadpool(service.quiz_stats, person)
    except Refusal as r:
        return _keep_person(page("quiz.html", r.http_status, title="Quiz", q=None,
                                 error=_quiz_filter_words(r.detail, code, topic), code=code, topic=topic,
                                 **_studying(person)), person, new)
    if q is None:
        return _keep_person(page("quiz.html", title="Quiz", q=None, code=code, topic=topic, stats=stats,
                                 notices=found + notices, message=said, **_studying(person)), person, new)
    return _keep_person(page("quiz.html", title="Quiz", q=q, seed=None if review else seed, code=code, topic=topic,
                             stats=stats, notices=found + notices, code_title=_title(q.code), letters="abcdefgh",
                             review=review, once=service.quiz_once(), **_studying(person)), person, new)


def _quiz_filter_words(error: dict, code: str, topic: str) -> dict:
    """A refusal of the quiz's filters in the page's words: the command names its options
    (`--topic 渡: no topic '渡'`, `--code C: ...`), which the page has not; the page has its lists
    'Only the code' and 'Only the topic'."""
    from adjudicator.errors import safe
    from adjudicator.core.reading import QUOTE
    message, hint = error.get("message", ""), error.get("hint") or ""
    for flag, field, given, listed in (("--topic", "topic", topic, "the list 'Only the topic' below (or the Topics page)"),
                                       ("--code", "code", code, "the list 'Only the code' below")):
        shown = safe(given, QUOTE)
        prefix = f"{flag} {shown}: "
        if not given or not message.startswith(prefix):
            continue
        said = message[len(prefix):]
        said = said if f"'{shown}'" in said else f"the {field} '{shown}': {said}"
        hint = hint.replace(f"`adjudicator {field}` lists them", f"{listed} lists them")
        hint = hint.replace("`adjudicator codes` lists them", "the list 'Only the code' below lists them")
        return {**error, "message": said, "hint": hint}
    return error


async def quiz_answer(request: Request):
    from starlette.exceptions import HTTPException

    from adjudicator.study import quiz
    person, new = _person(request)
    try:
        form, _, _ = await _form(request, max_files=0, max_fields=20)
    except (HTTPException, FormNotUtf8) as e:
        return page("quiz.html", 400, title="Quiz", q=None, code="", topic="",
                    error={"message": f"the form could not be read: {e.detail}", "hint": "answer from the page's own form"})
    qid = str(form.get("qid") or "")
    said = [str(v) for v in form.getlist("answer") if isinstance(v, str)]
    code, topic = str(form.get("code") or ""), str(form.get("topic") or "")
    once = str(form.get("once") or "")[:40]
    try:
        q = await run_in_threadpool(service.quiz_question, qid)
        graded = await run_in_threadpool(service.quiz_answer, q, said, once, person)
    except Refusal as r:
        return page("quiz.html", r.http_status, title="Quiz", q=None, error=r.detail, code=code, topic=topic)
    if not graded["understood"]:
        from adjudicator.core.reading import QUOTE
        from adjudicator.errors import safe
        typed = " ".join(said)
        message = (quiz.not_read(q, typed) if typed.strip() else
                   ("Tick every choice that applies, then Answer." if q.many else "Choose one, then Answer."))
        return _keep_person(page("quiz.html", 400, title="Quiz", q=q, seed="", code=code, topic=topic, stats=None,
                                 code_title=_title(q.code), letters="abcdefgh", once=once, message=message,
                                 **_studying(person)), person, new)
    return _keep_person(page("quiz_answer.html", title="Quiz: the answer", q=q, g=graded, fb=graded["feedback"],
                             code=code, topic=topic, code_title=_title(q.code), **_studying(person)), person, new)


async def quiz_grade(request: Request):
    """The grade of an answer changed (Again, Hard, Good, Easy), from the page shown after it."""
    from starlette.exceptions import HTTPException
    person, _new = _person(request)
    try:
        form, _, _ = await _form(request, max_files=0, max_fields=10)
    except (HTTPException, FormNotUtf8) as e:
        return _refusal(400, "Quiz", f"the form could not be read: {e.detail}", "grade from the page's own form")
    from adjudicator.core import reading
    rating = reading.chosen_number(str(form.get("rating") or ""), 1, 4)
    once = str(form.get("once") or "")[:40]
    try:
        done = await run_in_threadpool(service.quiz_regrade, once, rating or 0, person)
    except Refusal as r:
        return page("quiz.html", r.http_status, title="Quiz", q=None, error=r.detail, code="", topic="",
                    **_studying(person))
    stats, where, notices = await run_in_threadpool(service.quiz_stats, person)
    return page("quiz.html", title="Quiz", q=None, code="", topic="", stats=stats, notices=notices,
                message=(f"Graded {done['grade']}" + (" (a wrong answer is always Again)" if done["kept_again"] else "")
                         + f": next review {done['due'].strftime('%Y-%m-%d %H:%M')} UTC."),
                **_studying(person))


async def quiz_person_set(request: Request):
    """Study under a name (kept in this browser's cookie), or as this device alone (the name left empty)."""
    from starlette.exceptions import HTTPException
    try:
        form, _, _ = await _form(request, max_files=0, max_fields=10)
    except (HTTPException, FormNotUtf8) as e:
        return _refusal(400, "Quiz", f"the form could not be read: {e.detail}", "give the name in the page's own form")
    name = " ".join(str(form.get("name") or "").split())
    refused = service.name_refused(name)
    if refused:
        return _refusal(400, "Quiz", refused, f"give a name of at most {service.NAME_MAX} letters, or none")
    person = service.person_of_name(name) if name else service.new_device()
    return _keep_person(RedirectResponse("/quiz", status_code=303), person, True)


async def quiz_ruling_page(request: Request):
    """The whole ruling on a question's incident, one step from the answer's page."""
    token = request.path_params["token"]
    try:
        ruling, story = await service.engine(service.quiz_whole_ruling, token)
    except Refusal as r:
        return page("quiz.html", r.http_status, title="Quiz", q=None, error=r.detail, code="", topic="")
    return page("quiz_ruling.html", title="The whole ruling", r=ruling, story=story)


async def quiz_stats_page(request: Request):
    person, new = _person(request)
    try:
        stats, where, notices = await run_in_threadpool(service.quiz_stats, person)
    except Refusal as r:
        return page("quiz.html", r.http_status, title="Quiz", q=None, error=r.detail, code="", topic="")
    from adjudicator.study import quiz
    return _keep_person(page("quiz_stats.html", title="Quiz progress", stats=stats, notices=notices,
                             limits=(quiz.NEW_PER_DAY, quiz.REVIEWS_PER_DAY), **_studying(person)), person, new)


# --- the API: exactly the command's --json -------------------------------------------------------

def _json(data, status: int = 200, one_line: bool | None = None) -> Response:
    """As the command prints it: `adjudicate --json` and every refusal one line (cli._json_line,
    cli._fail), the lookups indented by two; UTF-8 as is. (one_line None: a refusal's status says.)"""
    if one_line is None:
        one_line = status >= 400
    if one_line:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    else:
        text = json.dumps(data, indent=2, ensure_ascii=False)
    return Response(text + "\n", status_code=status, media_type="application/json")


async def _api(fn, *args, one_line: bool = False, rules: bool = False) -> Response:
    """fn(*args)'s answer in JSON; `rules`: fn rules on the client's incident (service.engine)."""
    try:
        return _json(await (service.engine(fn, *args) if rules else run_in_threadpool(fn, *args)), one_line=one_line)
    except Refusal as r:
        return _json(r.payload, r.http_status)


async def download(request: Request):
    """The incident on the page, back as a file to keep (nothing is stored on the server)."""
    (data, fields), refused = await _read_form(request, "/rule")
    if refused:
        return refused
    if not data.strip():
        return _refusal(400, "Nothing to download", "the incident is empty: there is nothing to download",
                        "write the incident on the page (or start from an example), then download it")
    return Response(data, media_type="application/yaml",
                    headers={"content-disposition": 'attachment; filename="incident.yaml"'})


async def api_adjudicate(request: Request):
    return await _api(service.adjudicate, await request.body(), one_line=True, rules=True)


async def api_compare(request: Request):
    codes = request.query_params.get("codes")    # (`?codes=` is `--codes ''`, refused as the command refuses it)
    body = await request.body()
    try:
        result, _players = await service.engine(service.compare, body, codes)
    except Refusal as r:
        return _json(r.payload, r.http_status)
    # a code that gave no ruling: the comparison of the others, with the status of a refusal, as the
    # command prints it and exits 2
    return _json(result, 400 if result["errors"] else 200, one_line=False)


async def api_law(request: Request):
    return await _api(service.law, request.path_params["code"], request.path_params.get("number", ""))


async def api_search(request: Request):
    p = request.query_params
    limit_text = p.get("limit", "10")
    from adjudicator.core import reading
    limit = reading.chosen_number(limit_text, 1, 500)
    if limit is None:        # (the command's --limit, said in the API's words)
        from adjudicator.errors import InputError
        from adjudicator.core.values import shown
        bad = InputError(f"limit is '{shown(limit_text)}', not a number of results from 1 to 500",
                         file="/api/search", hint="give limit as a whole number from 1 to 500")
        return _json(service._refuse(bad).payload, 400)
    return await _api(service.search, p.get("q", ""), p.get("code"), limit)    # (`&code=`: `--code ''`)


async def api_topic(request: Request):
    return await _api(service.topic, request.path_params.get("name"))


async def api_topic_unnamed(request: Request):
    """`/api/topic/`: the name left empty, `topic ''` (and `/api/topic/%0A`, which Starlette's `$`
    takes for this address, `topic $'\\n'`)."""
    return await _api(service.topic, request.scope["path"].removeprefix("/api/topic/"))


async def api_codes(request: Request):
    return await _api(service.codes)


API_FIXED = ("/api/adjudicate", "/api/compare", "/api/search", "/api/codes")     # (addresses with no argument)


class _ApiAddress(Route):
    """Every address under /api that no route before it takes, in any method, whatever its
    characters (a path convertor's `.*` stops at a newline): no such API address, in JSON."""

    def __init__(self, path, endpoint):
        super().__init__(path, endpoint)
        self.methods = None         # (every method: no such address, whatever it is asked with)

    def matches(self, scope):
        from starlette.routing import Match
        path = scope.get("path", "") if scope["type"] == "http" else None
        if path is not None and (path == "/api" or path.startswith("/api/")):
            # (PARTIAL: a route before it that takes the address in another method is found first,
            # and answers 405; else this one answers, in any method)
            return Match.PARTIAL, {"endpoint": self.endpoint, "path_params": {}}
        return Match.NONE, {}


async def api_not_found(request: Request):
    from starlette.exceptions import HTTPException
    raise HTTPException(404)


async def not_found(request: Request, exc):
    from adjudicator.core.values import shown
    if request.url.path.startswith("/api/") or request.url.path == "/api":
        status = getattr(exc, "status_code", 404)
        path = request.url.path
        message = (f"{request.method} is not how {path} is used" if status == 405
                   else "no such API address" + (f": '{shown(path, 60)}' ends in a slash (the API never redirects: "
                                                 "write the address without it)" if path.endswith("/") and
                                                 path.rstrip("/") in API_FIXED else ""))
        return _json({"error": {"message": message, "exit_code": 2,
                                "hint": "POST /api/adjudicate, POST /api/compare, GET /api/law/CODE/NUMBER, "
                                        "GET /api/search?q=WORDS, GET /api/topic[/NAME], GET /api/codes"}},
                     status)
    status = getattr(exc, "status_code", 404)
    if status == 405:
        return _refusal(405, "Not allowed", f"{request.method} is not how {request.url.path} is used",
                        "use the page's own buttons and links")
    return _refusal(status, "Not found", "There is no such page here.", "use the links above")


async def server_error(request: Request, exc):
    payload = {"error": {"message": f"internal error ({type(exc).__name__})", "exit_code": 1}}
    if request.url.path.startswith("/api/"):
        return _json(payload, 500)
    return _refusal(500, "Fault", payload["error"]["message"] + ": a fault in the adjudicator, not in your incident.",
                    "report it with the incident")


# --- safety: body limit and headers ---------------------------------------------------------------

DRAIN_BYTES = 8 * MAX_BYTES      # a body over the limit read this far (and dropped) before the 413


class Guard:
    """ASGI middleware: a request body over the limit is refused with 413 before the app sees it
    (the API's limit is the command's standard-input limit, a form's that plus its envelope), read
    and dropped up to DRAIN_BYTES first, so that a client still sending reads the 413 rather than a
    connection reset; a request that would change something (any method but GET, HEAD, OPTIONS)
    sent by a browser from another site is refused 403 (_cross_site); every response says it runs
    no script and may not be framed."""

    HEADERS = [
        (b"content-security-policy", b"default-src 'none'; style-src 'self'; img-src 'self'; "
                                     b"form-action 'self'; frame-ancestors 'none'; base-uri 'none'"),
        (b"x-content-type-options", b"nosniff"),
        # (the page's own forms then carry its Origin: with no-referrer, browsers send `null`)
        (b"referrer-policy", b"same-origin"),
        (b"x-frame-options", b"DENY"),
    ]

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        scope = self._origin_form(scope)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                message = {**message, "headers": list(message.get("headers", [])) + self.HEADERS}
            await send(message)

        is_api = scope["path"].startswith("/api/") or scope["path"] == "/api"
        limit = MAX_BYTES if is_api else MAX_BYTES + FORM_ENVELOPE
        headers = dict(scope.get("headers") or [])
        refused = self._unreadable(scope, headers)
        if refused is not None:
            return await self._bad_request(scope, send_with_headers, is_api, *refused)
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > limit:
                await self._drain(receive, len(body), more)
                return await self._too_large(scope, send_with_headers, is_api)
        declared = headers.get(b"content-length")
        if declared is not None and int(declared) > limit:      # (a body shorter than it said)
            return await self._too_large(scope, send_with_headers, is_api)
        refused = self._cross_site(scope, headers)
        if refused is not None:
            return await self._bad_request(scope, send_with_headers, is_api, 403, *refused)
        replayed = False

        async def replay():
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()
        await self.app(scope, replay, send_with_headers)

    @staticmethod
    async def _drain(receive, read: int, more: bool) -> None:
        """The rest of a body over the limit read and dropped, up to DRAIN_BYTES in all: a client
        that is still sending when the answer comes and the connection closes sees a reset, not the
        413 (curl, Python's urllib). Past DRAIN_BYTES the connection is closed at once."""
        while more and read <= DRAIN_BYTES:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            read += len(message.get("body", b""))
            more = message.get("more_body", False)

    @staticmethod
    def _cross_site(scope, headers) -> tuple[str, str] | None:
        """Why a request that changes something (the quiz's answer and grade, the name studied
        under, and every form) is refused as sent from another site, or None. A browser says where
        a request comes from: `Sec-Fetch-Site` (every current browser; no page can set it), else
        `Origin` (sent with every POST); the request is taken when it comes from this page itself (same-origin, or
        `none`: typed or bookmarked), or says neither (a program: curl, a script, which no other
        site can make a visitor's browser be). A site on another port or a neighbouring name
        (same-site) is another site. The host compared is the one the request was sent to (its
        Host header), so a proxy in front keeps working."""
        if scope.get("method", "GET") in ("GET", "HEAD", "OPTIONS"):
            return None
        site = headers.get(b"sec-fetch-site")
        origin = headers.get(b"origin")
        said = ("this request was sent from another site, and is refused (it would change something "
                "here: an answer recorded, a form sent)")
        if site is not None:        # (a header no page can set: it decides, Origin aside, which
            if site.strip().lower() not in (b"same-origin", b"none"):     # Chromium sends as `null`)
                return said, "use the forms of this server's own pages"
            return None
        if origin is not None:
            from urllib.parse import urlsplit
            try:
                where = urlsplit(origin.decode("latin-1")).netloc.lower()
            except ValueError:
                where = ""
            host = headers.get(b"host", b"").decode("latin-1").lower()
            if not where or where != host:
                return said, "use the forms of this server's own pages"
        return None

    @staticmethod
    def _unreadable(scope, headers) -> tuple[int, str, str] | None:
        """Why a request cannot be read as its sender meant it (status, message, hint), or None:
        - an address (its path or a query's name or value) whose %XX bytes are not UTF-8
          (`/api/topic/%E9`, `/search?q=%E9`): read as U+FFFD, it was answered for a topic '\ufffd';
        - a query's name given twice (`?codes=a&codes=b`): the last was taken, the first dropped
          unsaid (no page of the server's own sends one twice);
        - a Content-Length that is not a number of bytes (`-5`), said to be over the size limit;
        - a body in a Content-Encoding (gzip): read as its compressed bytes (415)."""
        from urllib.parse import unquote_to_bytes

        from adjudicator.core.values import shown
        raw = scope.get("raw_path") or scope.get("path", "").encode("utf-8", "surrogateescape")
        try:
            unquote_to_bytes(raw).decode("utf-8")
        except UnicodeDecodeError as e:
            return (400, f"the address is not UTF-8 text (byte 0x{unquote_to_bytes(raw)[e.start]:02x})",
                    "write the address in UTF-8: each byte past ASCII as %XX of its UTF-8")
        seen: set[str] = set()
        for piece in (scope.get("query_string") or b"").split(b"&"):
            if not piece:
                continue
            for part in piece.partition(b"="):
                if part == b"=":
                    continue
                sent = unquote_to_bytes(part.replace(b"+", b" "))
                try:
                    sent.decode("utf-8")
                except UnicodeDecodeError as e:
                    return (400, f"the address's query is not UTF-8 text (byte 0x{sent[e.start]:02x})",
                            "write the query in UTF-8: each byte past ASCII as %XX of its UTF-8")
            name = unquote_to_bytes(piece.partition(b"=")[0].replace(b"+", b" ")).decode("utf-8")
            if name in seen:
                return (400, f"the address gives '{shown(name)}' twice", f"give '{shown(name)}' once")
            seen.add(name)
        declared = headers.get(b"content-length")
        if declared is not None and not (declared.isascii() and declared.isdigit()):
            return (400, f"the request's Content-Length is '{shown(declared.decode('latin-1'))}', not a number of bytes",
                    "send the request's length in bytes, or let the client say it")
        coding = headers.get(b"content-encoding", b"identity").strip().lower()
        if coding not in (b"", b"identity"):
            return (415, f"the body is sent in the Content-Encoding '{shown(coding.decode('latin-1'))}', which is "
                    "not read here", "send the incident as plain UTF-8 text, not compressed")
        return None

    @staticmethod
    async def _bad_request(scope, send, is_api, status, message, hint):
        if is_api:
            response = _json({"error": {"message": message, "exit_code": 2, "hint": hint}}, status)
        else:
            response = _refusal(status, "Not read", message, hint)
        response.headers["connection"] = "close"
        await response(scope, None, send)

    @staticmethod
    def _origin_form(scope):
        """A request line in absolute form (`GET http://host:8000/law/whist/24 HTTP/1.1`), which a
        server must accept (RFC 9112, 3.2.2), read as its path: uvicorn's h11 passed the whole URL
        as the path, and every page was not found."""
        path = scope.get("path", "")
        if not path[:8].lower().startswith(("http://", "https://")):
            return scope
        from urllib.parse import unquote
        raw = scope.get("raw_path") or path.encode("utf-8")
        rest = raw.split(b"//", 1)[1]              # the authority, then the path (the query is apart)
        slash = rest.find(b"/")
        raw_path = rest[slash:] if slash >= 0 else b"/"
        return {**scope, "path": unquote(raw_path.decode("latin-1")), "raw_path": raw_path}

    @staticmethod
    async def _too_large(scope, send, is_api):
        err = service.too_large()
        if is_api:
            response = _json(err.payload, 413)
        else:
            response = refused_page(err, "", action=None, title="Too large")
        response.headers["connection"] = "close"
        await response(scope, None, send)


class _Static(StaticFiles):
    """The style sheet, kept by browsers a day (Cache-Control; each page links it with its
    content's digest, `?v=`, so a new version is a new address), with a Range header that cannot be read (`bytes=abc`, `bytes=5-2`, `items=0-5`)
    ignored, as RFC 9110 (14.2) lets a server and as nginx and Apache do: the whole file, 200, not
    Starlette's plain-text 400. A range past the end is still 416, a good one still 206."""

    CACHE = (b"cache-control", b"public, max-age=86400")     # a day; the page links it by its version

    async def __call__(self, scope, receive, send):
        async def cached(message):
            if message["type"] == "http.response.start" and message["status"] in (200, 206, 304):
                message = {**message, "headers": list(message.get("headers", [])) + [self.CACHE]}
            await send(message)
        await self._ranged(scope, receive, cached)

    async def _ranged(self, scope, receive, send):
        headers = scope.get("headers") or []
        if scope["type"] != "http" or not any(k == b"range" for k, _ in headers):
            return await super().__call__(scope, receive, send)
        refused = False

        async def unless_refused(message):
            nonlocal refused
            if message["type"] == "http.response.start" and message["status"] == 400:
                refused = True
            if not refused:
                await send(message)
        await super().__call__(scope, receive, unless_refused)
        if refused:
            scope = {**scope, "headers": [(k, v) for k, v in headers if k != b"range"]}
            await super().__call__(scope, receive, send)


def _whole_address(route) -> None:
    """A route takes its whole address, and no address with a newline after it: Starlette ends each
    pattern in `$`, which matches before a final newline too, so `/api/codes%0A` was answered as
    /api/codes and `/law/whist/24%0A` as law 24. Ended in `\\Z` instead, such an address is no
    route's: the API's JSON 404 (no such API address), a page's 404."""
    import re
    regex = getattr(route, "path_regex", None)
    if regex is not None and regex.pattern.endswith("$"):
        route.path_regex = re.compile(regex.pattern[:-1] + r"\Z")


def create_app(pool=None) -> Starlette:
    """The app; with `pool` (workers.Pool, from `adjudicator serve`), its rulings in worker
    processes started with the app and stopped with it."""
    import contextlib

    from starlette.exceptions import HTTPException
    static = os.path.join(os.path.dirname(__file__), "static")
    routes = [
        Route("/", home),
        Route("/rule", rule, methods=["POST"]),
        Route("/ask", ask_page, methods=["GET"]),
        Route("/build", build_page, methods=["GET", "POST"]),
        Route("/ruling", ruling_link, methods=["GET"]),
        Route("/ask", ask_step, methods=["POST"]),
        Route("/events", events_page),
        Route("/events/{name}", events_page),
        Route("/law", law_lookup),
        Route("/law/{code}/{number:path}", law_page),
        Route("/law/{code}", law_page),     # (answered, not redirected to /law/CODE/: see api_law's)
        Route("/search", search_page),
        Route("/topic", topic_page),
        Route("/topic/{name}", topic_page),
        Route("/compare", compare_page, methods=["GET", "POST"]),
        Route("/quiz", quiz_page, methods=["GET"]),
        Route("/quiz", quiz_answer, methods=["POST"]),
        Route("/quiz/grade", quiz_grade, methods=["POST"]),
        Route("/quiz/person", quiz_person_set, methods=["POST"]),
        Route("/quiz/ruling/{token:str}", quiz_ruling_page),
        Route("/quiz/stats", quiz_stats_page),
        Route("/download", download, methods=["POST"]),
        # The API answers each address as written and never redirects (a 307 with an empty body is
        # no JSON): `/api/codes/` is no such address; a trailing slash on a lookup is its argument
        # left empty, refused as the command refuses it (`/api/topic/` is `topic ''`, `/api/law/whist/`
        # is `law whist ''`), where Starlette redirected the first to /api/topic. (_ApiAddress, last,
        # takes every other /api address: Starlette redirects only where no route is found.)
        Route("/api/adjudicate", api_adjudicate, methods=["POST"]),
        Route("/api/compare", api_compare, methods=["POST"]),
        Route("/api/law/{code}/{number:path}", api_law),
        # (a code without a number is answered in JSON, saying how its laws are numbered)
        Route("/api/law/{code}", api_law),
        Route("/api/search", api_search),
        Route("/api/topic", api_topic),
        Route("/api/topic/", api_topic_unnamed),        # (the name left empty)
        Route("/api/topic/{name}", api_topic),
        Route("/api/codes", api_codes),
        Mount("/static", _Static(directory=static), name="static"),
        _ApiAddress("/api", api_not_found),
    ]
    for route in routes:
        _whole_address(route)
    @contextlib.asynccontextmanager
    async def lifespan(app):
        if pool is not None:
            pool.start()
            service.POOL = pool
        try:
            yield
        finally:
            if pool is not None:
                service.POOL = None
                pool.stop()
    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found, 500: server_error},
                    lifespan=lifespan)
    app.add_middleware(Guard)
    from starlette.middleware.gzip import GZipMiddleware
    app.add_middleware(GZipMiddleware, minimum_size=500)       # (outermost: every answer, Guard's too)
    return app
