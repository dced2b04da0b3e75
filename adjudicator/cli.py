"""The `adjudicator` command.

    adjudicator adjudicate FILE... [--json] [--show-facts]
    adjudicator check [PATH...]
    adjudicator compare FILE [--codes A,B] [--json]
    adjudicator law CODE NUMBER [--json]
    adjudicator search WORDS... [--code CODE] [--limit N] [--json]
    adjudicator topic [NAME] [--json]
    adjudicator codes [--json]
    adjudicator remedies [--json]
    adjudicator quiz [-n N] [--seed S] [--code C] [--topic T] [--law L] [--review] [--reset] [--sheet N] [--json]
    adjudicator quiz stats [--json]

Exit codes: 0 a ruling (or all cases pass), 1 a case failed or an internal fault, 2 bad input.
clingo and yaml are imported inside the commands, so --help stays fast.
"""
from __future__ import annotations

import sys
import traceback

import click

from .errors import AdjudicatorError


def _error_json(err: AdjudicatorError) -> dict:
    out = {"message": getattr(err, "message", str(err)), "exit_code": err.exit_code}
    for key in ("file", "line", "column", "hint", "problems"):
        if getattr(err, key, None) is not None:
            out[key] = getattr(err, key)
    return {"error": out}


def _fail(err: BaseException, debug: bool, as_json: bool = False) -> int:
    """Say what went wrong; the solver's own messages and the traceback only with --debug."""
    if isinstance(err, AdjudicatorError):
        click.echo(str(err), err=True)
        if debug and getattr(err, "details", None):
            click.echo(f"details: {err.details}", err=True)
        if as_json:
            import json
            click.echo(json.dumps(_error_json(err), indent=2, ensure_ascii=False))
        return err.exit_code
    if isinstance(err, MemoryError):
        click.echo("internal error: the adjudicator ran out of memory.", err=True)
    else:
        click.echo(f"internal error ({type(err).__name__}).", err=True)
    click.echo("This is a fault in the adjudicator, not in your incident; run with --debug for details "
               "and report it with the incident.", err=True)
    if debug:
        traceback.print_exception(err)
    if as_json:
        import json
        click.echo(json.dumps({"error": {"message": f"internal error ({type(err).__name__})", "exit_code": 1}},
                              indent=2))
    return 1


def _run(debug: bool, fn, as_json: bool = False):
    try:
        code = fn()
    except SystemExit:
        raise
    except BrokenPipeError:
        # the reader went away (`adjudicator events | head`): nothing left to say
        import os
        os._exit(0)
    except BaseException as e:  # noqa: BLE001 - every failure becomes a message and an exit code
        if isinstance(e, KeyboardInterrupt):
            raise
        if debug and isinstance(e, AdjudicatorError):
            traceback.print_exc()
        code = _fail(e, debug, as_json)
    sys.exit(code or 0)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show tracebacks and solver messages on failure.")
@click.pass_context
def main(ctx, debug):
    """Settle disputes at the card table under the classic codes of law.

    Describe what happened in a YAML incident (docs/incident-format.md) and run
    `adjudicator adjudicate FILE`.
    """
    ctx.obj = {"debug": debug}


@main.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Print the rulings as JSON.")
@click.option("--show-facts", is_flag=True, help="Also print the facts the rules saw.")
@click.option("--no-story", is_flag=True, help="Leave out the account of what happened, told in words.")
@click.pass_context
def adjudicate(ctx, files, as_json, show_facts, no_story):
    """Rule on the incidents in FILES ('-' reads standard input)."""
    def go():
        import json
        from . import engine, incident, render, ruling
        worst = 0
        outputs = []
        stdin_text = incident.read_stdin() if "-" in files else None
        for path in files:
            try:
                inc = incident.load(path, stdin_text)
                sol = engine.solve(inc)
                result = ruling.build(inc, sol)
            except AdjudicatorError as e:
                if len(files) == 1:
                    raise
                worst = max(worst, _fail(e, ctx.obj["debug"]))
                if as_json:
                    outputs.append({"file": path, **_error_json(e)})
                continue
            if show_facts:
                result["facts"] = sorted(str(s) for s in sol.facts)
            if not no_story:
                result["story"] = _story(inc)
            if as_json:
                outputs.append(result)
            else:
                if show_facts:
                    click.echo("Facts the rules saw:")
                    for f in result["facts"]:
                        click.echo(f"  {f}.")
                    click.echo("")
                if not no_story:
                    click.echo(_story_text(result["story"]))
                click.echo(render.ruling_text(result, inc.players))
        if as_json:
            click.echo(json.dumps(outputs[0] if len(files) == 1 else outputs, indent=2, ensure_ascii=False))
        return worst
    _run(ctx.obj["debug"], go, as_json)


def _story(inc) -> str:
    """What happened, told in words (adjudicator/narrator.py): shown above the ruling."""
    from . import narrator
    return narrator.tell(inc)


def _story_text(story: str) -> str:
    from .render import _wrap
    return "\n".join(_wrap(story, "What happened: ", "  ")) + "\n"


@main.command()
@click.argument("file")
@click.option("--codes", "codes", default=None,
              help="Comma-separated codes to compare (default: every encoded code of the incident's game).")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@click.pass_context
def compare(ctx, file, codes, as_json):
    """Rule on the incident in FILE under several codes, side by side, marking where they differ."""
    def go():
        import json
        from . import compare as cmp, incident, registry
        stdin_text = sys.stdin.read() if file == "-" else None
        if codes:
            wanted = [c.strip() for c in codes.split(",") if c.strip()]
        else:
            game = incident.load(file, stdin_text).game
            wanted = [c for c in registry.codes_of(game) if registry.encoded(c)]
        for c in wanted:
            registry.code_info(c)
        result = cmp.compare(file, wanted, stdin_text)
        if as_json:
            result.pop("players", None)
            click.echo(json.dumps(result, indent=2, ensure_ascii=False))
        else:
            click.echo(cmp.render(result))
        return 0
    _run(ctx.obj["debug"], go, as_json)


@main.command()
@click.argument("paths", nargs=-1)
@click.option("--quiet", "-q", is_flag=True, help="Print only failures and the summary.")
@click.pass_context
def check(ctx, paths, quiet):
    """Run case files (default: cases/) and report pass or fail."""
    def go():
        from . import cases
        files = cases.find(paths or ["cases"])
        if not files:
            click.echo("no case files found", err=True)
            return 2
        failed = 0
        for path in files:
            try:
                out = cases.run(path)
            except AdjudicatorError as e:
                failed += 1
                click.echo(f"FAIL {path}\n    {e}")
                continue
            if out.ok:
                if not quiet:
                    click.echo(f"pass {path}: {out.name}")
            else:
                failed += 1
                click.echo(f"FAIL {path}: {out.name}\n{out.diff}")
        click.echo(f"{len(files) - failed} passed, {failed} failed, {len(files)} cases")
        return 1 if failed else 0
    _run(ctx.obj["debug"], go)


@main.command()
@click.argument("code")
@click.argument("number")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def law(ctx, code, number, as_json):
    """Print law NUMBER of CODE (e.g. `adjudicator law american-1893 24`, 17.II, 24.boston).

    With its exceptions for other games, the laws it refers to and that refer to it, its topics,
    and, for a code encoded as rules, the rule files citing it and the cases exercising it.
    """
    def go():
        import json
        from . import laws, registry, render
        info = dict(registry.code_info(code))
        book = laws.book(code)
        info["source"] = book.get("source", {})
        entry, clause, exception = laws.find(code, number)
        ident = exception or (f"{entry['id']}.{clause}" if clause else entry["id"])
        encoded = registry.encoded(code)
        links = {"exception": exception,
                 "refers_to": laws.refers_to(code, ident),
                 "referred_by": laws.referred_by(code, ident),
                 "topics": laws.topics_of(code, ident),
                 "encoded_in": laws.encoded_in(code, ident) if encoded else None}
        if encoded:
            links["cases"] = laws.exercised_by(code, ident)
        if as_json:
            click.echo(json.dumps({"code": code, "clause": clause, **entry, **links, "encoded": encoded,
                                   "cases": links.get("cases"),
                                   "cases_available": encoded and links["cases"] is not None,
                                   "source": info["source"]}, indent=2, ensure_ascii=False))
        else:
            click.echo(render.law_text(info, entry, clause, links))
        return 0
    _run(ctx.obj["debug"], go)


@main.command()
@click.argument("words", nargs=-1, required=True)
@click.option("--code", help="Search only this code's laws (`adjudicator codes` lists them).")
@click.option("--limit", default=10, show_default=True, type=click.IntRange(1, 500), help="How many laws to show.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def search(ctx, words, code, limit, as_json):
    """Find the laws of every code on WORDS, best first, with the words found in context.

    Plain words do: `adjudicator search card dropped on the floor`. Inflections and old
    spellings match (revoking / revoke, honors / honours, jack / knave).
    """
    def go():
        import json
        from . import laws, registry, render
        from . import search as searching
        from .errors import InputError
        if code:
            registry.code_info(code)
            if code not in laws.codes():
                raise InputError(f"code '{code}' has no law texts", file="adjudicator search",
                                 hint="`adjudicator codes` lists the codes")
        result = searching.search(" ".join(words), code=code, limit=limit)
        if not result["groups"]:
            raise InputError(f"nothing to search for in '{' '.join(words)}': only common words",
                             file="adjudicator search", hint="name the thing: `adjudicator search lead out of turn`")
        if as_json:
            click.echo(json.dumps(result, indent=2, ensure_ascii=False))
        else:
            click.echo(render.search_text(result), nl=False)
        return 0
    _run(ctx.obj["debug"], go, as_json)


@main.command()
@click.argument("name", nargs=-1)
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def topic(ctx, name, as_json):
    """List the laws of every code on topic NAME side by side (no NAME: list the topics).

    E.g. `adjudicator topic revoke`, `adjudicator topic lead out of turn`.
    """
    def go():
        import json
        from . import laws, render
        if not name:
            rows = laws.topic_list()
            click.echo(json.dumps(rows, indent=2, ensure_ascii=False) if as_json else render.topics_text(rows),
                       nl=as_json)
            return 0
        t = laws.topic(laws.resolve_topic(" ".join(name)))
        click.echo(json.dumps(t, indent=2, ensure_ascii=False) if as_json else render.topic_text(t), nl=as_json)
        return 0
    _run(ctx.obj["debug"], go, as_json)


@main.command()
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def codes(ctx, as_json):
    """List the games and codes of law known, with each game's default code."""
    def go():
        import json
        from . import registry
        rows = []
        for game in registry.games():
            for code in registry.codes_of(game):
                info = registry.code_info(code)
                rows.append({"game": game, "code": code, "title": info["title"],
                             "default": code == registry.default_code(game)})
        if as_json:
            click.echo(json.dumps(rows, indent=2))
        else:
            wg = max(len(r["game"]) for r in rows) + 1
            wc = max(len(r["code"]) for r in rows) + 1
            for r in rows:
                mark = " (default)" if r["default"] else ""
                click.echo(f"{r['game']:<{wg}} {r['code']:<{wc}} {r['title']}{mark}")
        return 0
    _run(ctx.obj["debug"], go)


@main.command()
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def remedies(ctx, as_json):
    """List the remedy ids a ruling can name (and a `demand` event can ask for)."""
    def go():
        import json
        from . import registry
        rem = registry.remedies()
        if as_json:
            click.echo(json.dumps(rem, indent=2))
        else:
            for k, v in rem.items():
                click.echo(f"{k:<32} {v}")
        return 0
    _run(ctx.obj["debug"], go)


@main.command()
@click.option("--markdown", is_flag=True, help="Print the reference as docs/incident-format.md holds it.")
@click.pass_context
def events(ctx, markdown):
    """List the incident format's top-level keys and events, with their fields."""
    def go():
        from . import docs, schema
        if markdown:
            click.echo(docs.block(), nl=False)
            return 0
        for f in schema.TOP:
            click.echo(f"{f.name:<14} {f.doc}")
        click.echo("")
        for ev in schema.EVENTS.values():
            fields = ", ".join(f.name + ("*" if f.required else "") for f in ev.fields)
            click.echo(f"{ev.name:<20} {fields}")
        click.echo("\n(* required)  docs/incident-format.md explains each one.")
        return 0
    _run(ctx.obj["debug"], go)

@main.group(invoke_without_command=True)
@click.option("-n", "count", default=10, show_default=True, type=click.IntRange(1, 1000),
              help="How many questions.")
@click.option("--seed", type=int, default=None, help="Draw the same questions again (a quiz is reproducible).")
@click.option("--code", default=None, help="Only this code's cases (`adjudicator codes`).")
@click.option("--topic", default=None, help="Only this topic (`adjudicator topic` lists them).")
@click.option("--law", default=None, help="Only questions on this law (with --code).")
@click.option("--kind", default=None, help="Only this kind: remedy, who, who-not, law, status, compare.")
@click.option("--review", is_flag=True, help="Ask the questions missed and those due again.")
@click.option("--reset", is_flag=True, help="Forget all progress (answers and schedule).")
@click.option("--sheet", "sheet", type=click.IntRange(1, 500), default=None,
              help="Write a printable sheet of N questions (Markdown and HTML) with the answer key.")
@click.option("--out", default="quiz-sheet", show_default=True, help="With --sheet: the files' name, without .md/.html.")
@click.option("--json", "as_json", is_flag=True, help="Print the questions with their answers as JSON.")
@click.pass_context
def quiz(ctx, count, seed, code, topic, law, kind, review, reset, sheet, out, as_json):
    """Law-study quiz: questions from the cases, graded by the engine's own ruling.

    Answers are read from the terminal (or standard input), one line each; q stops.
    Progress is kept in the user's data folder (or $ADJUDICATOR_DATA_DIR).
    """
    if ctx.invoked_subcommand:
        return

    def go():
        import json
        import random
        from . import progress, quiz as qz
        topic_name = qz.check_filters(code, topic, law, kind)
        if reset:
            store = progress.Store()
            for note in store.notices:
                click.echo(note, err=True)
            store.reset()
            click.echo(f"Progress cleared ({store.path}).")
            return 0
        used_seed = seed if seed is not None else random.SystemRandom().randrange(1, 10**6)
        n = sheet or count
        store = None
        if review:
            store = progress.Store()
            for note in store.notices:
                click.echo(note, err=True)
            questions = qz.review_questions(store.review_ids(), n)
            questions = [q for q in questions if qz._fits(q, code, topic_name, law, kind)]
            if not questions:
                click.echo("Nothing to review: no question missed and none due. "
                           "`adjudicator quiz` asks new ones.")
                return 0
        else:
            questions = qz.draw(n, used_seed, code, topic_name, law, kind)
            if not questions:
                from .errors import InputError
                raise InputError("no question fits these filters", file="adjudicator quiz",
                                 hint="widen them: `adjudicator topic` lists topics, `adjudicator codes` codes")
        if as_json:
            click.echo(json.dumps({"seed": used_seed, "questions": [q.to_json() for q in questions]},
                                  indent=2, ensure_ascii=False))
            return 0
        if sheet:
            md, html = f"{out}.md", f"{out}.html"
            with open(md, "w", encoding="utf-8") as fh:
                fh.write(qz.sheet_markdown(questions, used_seed))
            with open(html, "w", encoding="utf-8") as fh:
                fh.write(qz.sheet_html(questions, used_seed))
            click.echo(f"Wrote {md} and {html}: {len(questions)} questions, answer key at the end (seed {used_seed}).")
            return 0
        if store is None:
            store = progress.Store()
            for note in store.notices:
                click.echo(note, err=True)
        if not review:
            n_q = len(questions)
            click.echo(f"Law quiz: {n_q} question{'' if n_q == 1 else 's'} (seed {used_seed}).\n")

        def read():
            click.echo("> ", nl=False)
            try:
                line = sys.stdin.readline()
            except KeyboardInterrupt:   # Ctrl-C stops the quiz like q: the answers so far are kept
                line = ""
            if not line:
                click.echo("")
                return None
            return line

        qz.run(questions, store, read, click.echo)
        return 0
    _run(ctx.obj["debug"], go)


@quiz.command("stats")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def quiz_stats(ctx, as_json):
    """Progress so far, by code and by topic."""
    def go():
        import json
        from . import progress
        store = progress.Store()
        for note in store.notices:
            click.echo(note, err=True)
        st = store.stats()
        if as_json:
            click.echo(json.dumps(st, indent=2))
            return 0
        click.echo(f"{st['right']} of {st['answers']} answers right; {st['questions_seen']} questions seen, "
                   f"{st['to_review']} to review.  ({store.path})")
        for title, rows in (("By code:", st["by_code"]), ("By topic:", st["by_topic"])):
            if rows:
                click.echo(f"\n{title}")
                for k, v in rows.items():
                    click.echo(f"  {k:<36} {v['right']:>4} of {v['answered']:<4} right")
        return 0
    _run(ctx.obj["debug"], go)


def entry():
    """The console script: run the command, flush, and leave without tearing the interpreter down.

    Freeing a clingo program at exit costs more than a tenth of a short run; the output is complete
    and flushed by then, so the process ends at once with the command's exit code.
    """
    import os
    try:
        rc = main.main(standalone_mode=False)
    except SystemExit as e:
        rc = e.code
    except click.exceptions.Exit as e:
        rc = e.exit_code
    except click.exceptions.ClickException as e:
        e.show()
        rc = e.exit_code
    except click.exceptions.Abort:
        click.echo("Aborted!", err=True)
        rc = 1
    except BrokenPipeError:
        os._exit(0)
    if not isinstance(rc, int):
        rc = 0 if rc is None else 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BrokenPipeError:
        pass
    os._exit(rc)


if __name__ == "__main__":  # pragma: no cover
    entry()
