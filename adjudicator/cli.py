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
    adjudicator quiz ruling TOKEN
    adjudicator serve [--host H] [--port P]

Exit codes: 0 a ruling (or all cases pass), 1 a case failed or an internal fault, 2 bad input; a
reader that stopped reading (`| head`) ends it quietly, as SIGPIPE ends git or cat.
clingo and yaml are imported inside the commands, so --help stays fast. How the output looks on a
terminal (colour, the pager) is adjudicator/cli_style.py's.
"""
from __future__ import annotations

import re
import sys
import traceback

import click

from adjudicator import cli_style as ui
from adjudicator.errors import AdjudicatorError, error_json, safe, said


def _where(err: BaseException) -> str | None:
    """Where an error is, as its message begins: the file (line, column), or the command."""
    file = getattr(err, "file", None)
    if not file:
        return None
    where = safe(file)
    if getattr(err, "line", None) is not None:
        where += f":{err.line}"
        if getattr(err, "column", None) is not None:
            where += f":{err.column}"
    return where


def _error_json(err: BaseException) -> dict:
    """An error as `--json` prints it (errors.error_json: `command` where the error is the command
    line's, `file` where it is a file's), the files this command was given kept as files."""
    return error_json(err, _values_given())


def _values_given() -> set[str]:
    """The values given to the running command's arguments and options (files among them)."""
    ctx = click.get_current_context(silent=True)
    out: set[str] = set()
    for value in (ctx.params.values() if ctx is not None else ()):
        out.update(v for v in (value if isinstance(value, (tuple, list)) else (value,)) if isinstance(v, str))
    return out


def _fail(err: BaseException, debug: bool, as_json: bool = False) -> int:
    """Say what went wrong; the solver's own messages and the traceback only with --debug."""
    if isinstance(err, OSError) and err.filename is not None and not debug:
        # a path given on the command line that cannot be opened or written (`--out` in a
        # folder that does not exist): the user's to mend, said with the path (exit 2)
        from adjudicator.errors import UsageError
        err = UsageError(f"'{safe(err.filename, 80)}': {(err.strerror or 'cannot be used').lower()}",
                         hint="check the path: its folder must exist and be writable, a file to read must exist")
    if isinstance(err, AdjudicatorError):
        ui.echo_err(str(err), where=_where(err))
        if debug and getattr(err, "details", None):
            click.echo(f"details: {err.details}", err=True)
        if as_json:
            import json
            click.echo(json.dumps(_error_json(err), ensure_ascii=False, separators=(",", ":")))   # one line
        return err.exit_code
    if isinstance(err, MemoryError):
        ui.echo_err("internal error: the adjudicator ran out of memory.")
    else:
        ui.echo_err(f"internal error ({type(err).__name__}).")
    click.echo("This is a fault in the adjudicator, not in your incident; run with --debug for details "
               "and report it with the incident.", err=True)
    if debug:
        traceback.print_exception(err)
    if as_json:
        import json
        click.echo(json.dumps({"error": {"message": f"internal error ({type(err).__name__})", "exit_code": 1}},
                              separators=(",", ":")))       # one line, as every other --json error
    return 1


OUTPUT_FAILED = 1     # the output could not be written (a full disk, a closed standard output)
INTERRUPTED = 130     # stopped by Ctrl-C (128 + SIGINT)
READER_GONE = 141     # the reader stopped reading (128 + SIGPIPE), where the signal itself cannot end us


def _is_output_error(e: OSError) -> bool:
    import errno
    return e.errno in (errno.ENOSPC, errno.EIO, errno.EBADF, errno.EFBIG, getattr(errno, "EDQUOT", -1))


def _reader_gone() -> None:
    """The reader of the output stopped reading (`adjudicator remedies | head`, `| head -c0`): normal
    in a pipe. End quietly as git, cat or grep end there, killed by SIGPIPE (the shell's status 141,
    128 + 13, which `set -o pipefail` reads as it reads theirs); nothing is said, as nobody reads it.
    In a test's own process (CliRunner), the same status as an exit."""
    import os
    import signal
    try:
        sys.stderr.flush()
    except (OSError, AttributeError, ValueError):
        pass
    from adjudicator.core import allocator
    if not allocator.leaves_with_exit:
        sys.exit(READER_GONE)
    if hasattr(signal, "SIGPIPE"):
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGPIPE)
    os._exit(READER_GONE)


def _output_failed(e: OSError | None, done: str | None = None) -> None:
    """Say on standard error that the output could not be written, and end (exit 1). `done`: what
    was complete all the same (`ask` had saved the incident), said in place of "nothing is complete"."""
    import os
    why = (e.strerror or "write error").lower() if e is not None else "standard output is closed"
    try:
        sys.stderr.write(f"adjudicator: the output could not be written ({why}); {done or 'nothing is complete'}\n")
        sys.stderr.flush()
    except (OSError, AttributeError, ValueError):
        pass
    os._exit(OUTPUT_FAILED)


def _run(debug: bool, fn, as_json: bool = False):
    try:
        code = fn()
    except SystemExit:
        raise
    except BrokenPipeError:
        # the reader went away before the output was written (`adjudicator remedies | head`): it
        # wanted no more, as `git log | head`'s reader
        _reader_gone()
    except OSError as e:
        if not _is_output_error(e):
            code = _fail(e, debug, as_json)
        else:
            _output_failed(e)
    except BaseException as e:  # noqa: BLE001 - every failure becomes a message and an exit code
        if isinstance(e, KeyboardInterrupt):
            raise
        if debug and isinstance(e, AdjudicatorError):
            traceback.print_exc()
        code = _fail(e, debug, as_json)
    sys.exit(code or 0)


def _summary(help_text: str | None) -> str:
    """A command's one-line summary: the first paragraph of its help, whole."""
    import inspect
    return " ".join(inspect.cleandoc(help_text or "").split("\n\n")[0].split())


class Command(click.Command):
    """A command whose summary in `adjudicator --help` is the first paragraph of its help, whole:
    click cut it at 45 characters, or at its first full stop, that of an `e.g.` ("Print law NUMBER
    of CODE (e.g."). Each first paragraph is one short sentence."""

    def get_short_help_str(self, limit: int = 45) -> str:
        return _summary(self.short_help or self.help)


class Group(click.Group):
    command_class = Command
    group_class = type          # (quiz, a group under the group: this class too)

    def get_short_help_str(self, limit: int = 45) -> str:
        return _summary(self.short_help or self.help)


class Words(click.ParamType):
    """An argument given as text, which says what it could be when it is missing (click said a bare
    "Missing argument 'FILES...'") and completes as the shell should: `could_be` the words said,
    `candidates` (ctx, incomplete) the values named then (and `after` them), `complete` (ctx,
    incomplete) the values TAB offers (default: the candidates), `files` a file's name."""

    name = "text"

    def __init__(self, could_be: str, candidates=None, files: bool = False, after: str = "", complete=None):
        self.could_be, self.candidates, self.files, self.after = could_be, candidates, files, after
        self.complete = complete or candidates

    def convert(self, value, param, ctx):
        return value

    def get_missing_message(self, param, ctx) -> str:
        from adjudicator.core.render import wrap
        said = self.could_be
        words = []
        if self.candidates is not None:
            try:
                words = self.candidates(ctx, "")
            except Exception:       # noqa: BLE001 - a list that cannot be had is only not said
                words = []
        if not words:
            return said + "."
        return said + ":\n" + "\n".join(wrap(", ".join(words) + "." + (f" {self.after}" if self.after else ""),
                                              _width() - 2, "  ", "  "))

    def shell_complete(self, ctx, param, incomplete):
        from click.shell_completion import CompletionItem
        if self.files:
            return [CompletionItem(incomplete, type="file")]
        if self.complete is None:
            return []
        return [CompletionItem(w) for w in self.complete(ctx, incomplete)]


EXAMPLES = """\b
Examples:
  adjudicator adjudicate incident.yaml   rule on what happened at the table
  adjudicator law whist 24               read law 24 of whist's code
  adjudicator quiz --code piquet -n 5    five questions on piquet's laws

`adjudicator events` lists what an incident may say, `adjudicator law whist` the laws of a code;
`adjudicator COMMAND -h` says more of each command."""


@click.group(cls=Group, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXAMPLES)
@click.version_option(package_name="adjudicator", prog_name="adjudicator",
                      message="%(prog)s %(version)s")   # the version of the installed package's metadata
@click.option("--debug", is_flag=True, help="Show tracebacks and solver messages on failure.")
@ui.color_option
@ui.pager_option
@click.pass_context
def main(ctx, debug):
    """Settle disputes at the card table under the classic codes of law.

    Describe what happened in a YAML incident (docs/incident-format.md) and run
    `adjudicator adjudicate FILE`: the remedies the law gives, who may exact each one, who may
    not and why, each with its law.
    """
    ctx.obj = {"debug": debug}


def _long_run(files: int) -> None:
    """A command given many files (adjudicate, check) rules incident after incident, as `serve`
    does: ADJUDICATOR_MALLOC is checked and the garbage collector looks less often
    (adjudicator/core/allocator.py). Called before anything is read or printed. In a test's own
    process (a command called by CliRunner) nothing is done."""
    from adjudicator.core import allocator
    if files >= allocator.MANY_FILES and allocator.leaves_with_exit:
        allocator.check_setting()
        allocator.settle_collector()


def _starting(words, incomplete: str) -> list[str]:
    """The words that begin with what was typed, in any case, as the commands read a code, a game or
    an event name in any case (`law WHIST 24`, `events LEAD`); each once, in order (loo and
    french-boston are each a game and its code: they were offered twice)."""
    typed = incomplete.lower()
    return list(dict.fromkeys(w for w in words if w.lower().startswith(typed)))


def _code_words(encoded_only: bool = False) -> list[str]:
    """The codes, then the games' names (rules/codes.yaml only: no clingo, no YAML incident);
    `encoded_only`: those with rules, which alone have cases and questions."""
    from adjudicator.core import registry
    codes = [c for g in registry.games() for c in registry.codes_of(g)
             if not encoded_only or registry.encoded(c)]
    games = [g for g in registry.games() if not encoded_only or registry.encoded(registry.default_code(g))]
    return codes + games


def _complete_codes(ctx, param, incomplete):
    """TAB completion of a code or a game's name; in a comma-separated list (`compare --codes
    american-1893,eng`), of its last item."""
    before, comma, last = incomplete.rpartition(",")
    return [before + comma + w for w in _starting(_code_words(), last)]


def _complete_quiz_codes(ctx, param, incomplete):
    """`quiz --code`: the codes with questions (encoded as rules) and their games."""
    return _starting(_code_words(encoded_only=True), incomplete)


def _law_ids(code: str | None, incomplete: str) -> list[str]:
    """The ids of a code's laws beginning with what was typed; past a law's id and its dot
    (`17.`, `24.b`), its clauses and the exceptions inserted in it."""
    if not code:
        return []
    from adjudicator import api
    try:
        listed = api.law_ids(code)      # (kept in the cache folder: no YAML read at a press)
    except AdjudicatorError:            # (an unknown code: nothing to offer)
        return []
    head = incomplete.rpartition(".")[0].lower()
    inside = [i for law, within in listed.items() if law.lower() == head for i in within]
    return _starting(list(listed) + inside, incomplete)


def _complete_law_number(ctx, param, incomplete):
    """`law CODE <TAB>`: the laws of the code given."""
    return _law_ids(ctx.params.get("code_or_game"), incomplete)


def _complete_quiz_law(ctx, param, incomplete):
    """`quiz --code C --law <TAB>`: the laws of that code (--law needs --code)."""
    return _law_ids(ctx.params.get("code"), incomplete)


def _complete_topics(ctx, param, incomplete):
    """A topic's name (`topic <TAB>`, `quiz --topic <TAB>`); `topic` takes its name as words, so a
    second word completes nothing."""
    from adjudicator import api
    if param.name == "name" and ctx.params.get("name"):
        return []
    return _starting(api.topic_names(), incomplete)


def _complete_games(ctx, param, incomplete):
    from adjudicator.core import registry
    return _starting(registry.games(), incomplete)


def _complete_events(ctx, param, incomplete):
    from adjudicator.core import schema
    return _starting(list(schema.EVENTS) + list(schema.TOP_KEYS), incomplete)


class Whole(click.IntRange):
    """A whole number in plain ASCII decimal digits (a sign allowed), in a range: click's int()
    took '３' (fullwidth), '١' (Arabic-Indic) and '1_000' for numbers, where the web API's
    `limit` (reading.chosen_number) and the incident's numbers refuse them: `search --limit ３` was
    read as 3 and `/api/search?limit=３` refused."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.min is None and self.max is None:
            self.name = "integer"       # (the metavar: INTEGER, not INTEGER RANGE)

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not re.fullmatch(r"[+-]?[0-9]+", value.strip()):
            self.fail(f"'{safe(value, 40)}' is not a whole number in plain digits (0-9)", param, ctx)
        if isinstance(value, str) and len(value.strip()) > 100:       # (past 4,300 digits int() refuses)
            self.fail(f"'{safe(value.strip(), 20)}' has {len(value.strip()):,} digits: at most 100", param, ctx)
        return super().convert(value, param, ctx)

    def _describe_range(self) -> str:
        """No bound at all (`--seed`: any whole number) is no range to describe: click's own said
        `[x<=None]` in `quiz --help`."""
        if self.min is None and self.max is None:
            return ""
        return super()._describe_range()


JOBS = click.option("--jobs", "-j", default=1, show_default=True, type=Whole(0, 256),
                    help="Worker processes for many files (0: one per core); output stays in input order.")


INCIDENT_FILE = Words("Give an incident: a YAML file saying what happened (docs/incident-format.md; "
                      "`adjudicator events` lists what it may say), or '-' to read it from standard input",
                      files=True)


@main.command()
@click.argument("files", nargs=-1, required=True, type=INCIDENT_FILE)
@click.option("--json", "as_json", is_flag=True, help="Print the rulings as JSON.")
@click.option("--show-facts", is_flag=True, help="Also print the facts the rules saw.")
@click.option("--no-story", is_flag=True, help="Leave out the account of what happened, told in words.")
@JOBS
@ui.color_option
@ui.pager_option
@click.pass_context
def adjudicate(ctx, files, as_json, show_facts, no_story, jobs):
    """Rule on the incidents in FILES ('-' reads standard input).

    Each ruling gives the remedies the law allows, who may exact each one, who may not and why,
    and the laws it turns on; an account with facts `unknown` gets a ruling for each way they
    may be.

    \b
    Examples:
      adjudicator adjudicate incident.yaml
      adjudicator adjudicate --json cases/piquet/*.yaml | jq .rulings
      cat incident.yaml | adjudicator adjudicate -
    """
    def go():
        if files.count("-") > 1:     # standard input is read once: a second '-' would rule on the same text again
            from adjudicator.errors import UsageError
            raise UsageError(f"'-' (standard input) is named {files.count('-')} times: standard input can be read "
                             "only once", hint="name '-' once; to rule on one incident twice, save it to a file and "
                             "name the file twice")
        _long_run(len(files))              # (before standard input is read)
        from adjudicator import api
        stdin_text = api.read_stdin() if "-" in files else None
        worst = 0           # one file or many: each is ruled, and its error said, the same way

        def rulings():
            nonlocal worst
            for got in api.adjudicate_files(files, stdin=stdin_text, story=not no_story, facts=show_facts,
                                            jobs=jobs):
                if isinstance(got, AdjudicatorError):
                    err = str(got) + "\n"
                    if ctx.obj["debug"] and getattr(got, "details", None):
                        err += f"details: {got.details}\n"
                    ui.echo_err(err, where=_where(got), nl=False)
                    if as_json:
                        click.echo(_json_line(_error_json(got)))
                    worst = max(worst, got.exit_code)
                elif as_json:
                    click.echo(_json_line(got.as_dict()))
                else:
                    yield got.text(), got

        if as_json:
            for _ in rulings():
                pass
        else:           # (styled by the ruling's own data: its code's title, its verdict)
            ui.echo_pieces(rulings(), paint=lambda text, got: ui.paint_ruling(text, got.as_dict()))
        return worst
    _run(ctx.obj["debug"], go, as_json)


def _json_line(data) -> str:
    """`adjudicate --json` prints one JSON object per incident, each on one line (JSON Lines), in the
    order of the files: the same shape for one file or many (a single file's output is one JSON
    document; `jq` reads both)."""
    import json
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


@main.command()
@click.argument("args", nargs=-1, metavar="FILE | --game GAME [WORDS]...")
@click.option("--game", default=None, shell_complete=_complete_games,
              help="Start from this game and a few words about what happened, instead of a file.")
@click.option("--answers", default=None,     # checked by reading.open_to_read: a folder is refused as a FIFO is
              help="Read the answers from this file, one a line, instead of standard input.")
@click.option("--save", default=None, help="Where to save the incident built (default: FILE-answered.yaml here, "
              "or incident-answered.yaml when starting from a game).")
@click.option("--json", "as_json", is_flag=True, help="Print the questions asked, the answers, the file saved and "
              "the ruling as one line of JSON (the interview itself goes to standard error).")
@ui.color_option
@click.pass_context
def ask(ctx, args, game, answers, save, as_json):
    """Interview on an incident, asking only what the ruling turns on.

    Interview about the incident in FILE, or about what happened at GAME told in a few WORDS;
    save the incident built and print the ruling on it.

    \b
    Examples:
      adjudicator ask incident.yaml
      adjudicator ask --game piquet the younger hand looked at the cards he left
    """
    def go():
        import sys
        from adjudicator.interview import ask as interview
        from adjudicator.core import reading
        from adjudicator.errors import InputError
        if game is None and len(args) != 1:
            raise InputError("ask needs an incident FILE, or --game GAME and a few words", "adjudicator ask",
                             hint="e.g. adjudicator ask incident.yaml, or adjudicator ask --game whist "
                                  "lead out of turn")
        import os
        if game is not None and args and (args[0].lower().endswith((".yaml", ".yml")) or os.path.isfile(args[0])):
            raise InputError(f"ask was given both an incident FILE ('{safe(args[0], 60)}') and --game",
                             "adjudicator ask", hint="give the FILE alone, or --game GAME and a few words")
        if game is None and args[0] == "-" and answers is None:
            raise InputError("the incident cannot come from standard input: the answers do", "adjudicator ask",
                             hint="give the incident as a file, or the answers with --answers FILE")
        target = save if save is not None else (interview._default_save(args[0]) if game is None
                                                else "incident-answered.yaml")
        if game is None and os.path.isfile(args[0]) and reading.same_file(args[0], target):
            # (`ask inc.yaml --save ./inc.yaml` put the incident with the answers in place of the
            # account as the user wrote it, and left with 0: refused before any question. Only a
            # regular file: '-' is standard input, and a folder or a FIFO is refused as adjudicate
            # refuses it, "this is a directory", not as a file saved over itself)
            raise InputError(f"the incident would be saved over itself: {reading.path_quoted(args[0])} is both "
                             "the incident FILE and where it is saved", "adjudicator ask --save",
                             hint="give --save another file (or leave it out: FILE-answered.yaml here)")
        fh = None
        if answers is not None:     # (`--answers ''` is refused, not standard input) a regular file, opened without blocking: a FIFO or /dev/zero is refused at once
            fh = reading.open_to_read(answers, lambda what: InputError(
                f"cannot read the answers: {reading.path_quoted(answers)} {what}", "adjudicator ask --answers",
                hint="give a regular file with one answer a line (an empty one: \"I don't know\" to every question)"),
                lambda line: InputError(
                    "the answers are not UTF-8 text (a UTF-16 or Latin-1 file, or a NUL byte)", answers, line,
                    hint="save the file as UTF-8 (plain text) and run again"))
        if fh is not None:          # (the incident saved over the answers being read: they were lost)
            if reading.same_file(answers, target):
                fh.close()
                raise InputError(f"the incident would be saved over the answers: {reading.path_quoted(answers)} "
                                 "is both --answers and where the incident is saved", "adjudicator ask --save",
                                 hint="give --save another file (or leave it out: FILE-answered.yaml here)")
        stream = fh if fh else getattr(sys.stdin, "buffer", sys.stdin)
        echo = True if fh else not (sys.stdin is not None and sys.stdin.isatty())

        def read():     # one answer's line, with the quiz's bound (reading.read_answer)
            return reading.read_answer(stream) if stream is not None else None
        out = sys.stderr if as_json else sys.stdout      # --json: standard output holds the JSON alone
        if out is None:     # standard error closed (`2>&-`): the interview is said to nobody, never to
            out = open(os.devnull, "w", encoding="utf-8")  # standard output (print(file=None) wrote it there)
        saved: list[str] = []
        try:
            try:
                if game is None:
                    done = interview.run(args[0], save, read, out, echo=echo, on_saved=saved.append)
                else:
                    done = interview.run_from_game(game, " ".join(args), save, read, out, echo=echo,
                                                   on_saved=saved.append)
            finally:
                if fh:
                    fh.close()
            if as_json:
                click.echo(_json_line(done))
        except OSError as e:
            # (`ask --json > /dev/full` saved the incident and then said "nothing is complete"; a
            # reader gone, `| head`, ends it quietly, the incident saved)
            if saved and not isinstance(e, BrokenPipeError) and _is_output_error(e):
                _output_failed(e, f"the incident was saved to {reading.path_quoted(saved[-1])} "
                                  "(`adjudicator adjudicate` rules on it again), nothing else is complete")
            raise
        return 0
    _run(ctx.obj["debug"], go, as_json)


@main.command()
@click.argument("file", type=INCIDENT_FILE)
@click.option("--codes", "codes", default=None, shell_complete=_complete_codes,
              help="Comma-separated codes to compare (default: every encoded code of the incident's game).")
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@ui.color_option
@ui.pager_option
@click.pass_context
def compare(ctx, file, codes, as_json):
    """Rule on one incident under several codes, side by side.

    Each remedy of the incident in FILE is marked `same` or `DIFFERS` (the remedy, who may exact
    it, its status, its choice), with each code's laws.

    \b
    Example:
      adjudicator compare incident.yaml --codes american-1893,english-1864
    """
    def go():
        import json
        from adjudicator import api
        if file == "-":         # bounded, as adjudicate reads it
            found = api.compare(api.read_stdin(), codes, name="<stdin>")
        else:
            found = api.compare(api.AsGiven(file), codes)
        if as_json:
            click.echo(json.dumps(found.as_dict(), indent=2, ensure_ascii=False))
        else:
            ui.echo(found.text(), paint=ui.paint_compare, nl=True)
        return 2 if found.errors else 0      # a code that gave no ruling: its refusal is bad input
    _run(ctx.obj["debug"], go, as_json)


@main.command()
@click.argument("paths", nargs=-1, type=Words("", files=True))
@click.option("--quiet", "-q", is_flag=True, help="Print only failures and the summary.")
@click.option("--json", "as_json", is_flag=True, help="Print each case's outcome and the totals as JSON.")
@JOBS
@ui.color_option
@click.pass_context
def check(ctx, paths, quiet, as_json, jobs):
    """Run case files (default: cases/) and report pass or fail.

    A case file is an incident with the ruling it must get (`expected`); a failure prints what
    differs.

    \b
    Example:
      adjudicator check -q cases/piquet
    """
    import os
    if not paths and not os.path.isdir("cases"):
        raise click.UsageError("no cases/ folder here (the case files come with a checkout of the "
                               "repository): give the case files or folders to run, e.g. "
                               "`adjudicator check path/to/cases`", ctx)
    if "-" in paths:
        raise click.UsageError("check runs case files named by path, not standard input (a case's "
                               "`expected` is read beside its file): give the file, or use "
                               "`adjudicator adjudicate -` to rule on an incident from standard input", ctx)

    def go():
        from adjudicator import api
        files = api.find_cases(paths or ["cases"])
        if not files:       # (said bare, "no case files found", with no --json line)
            from adjudicator.errors import UsageError
            raise UsageError("no case files found: the folders given hold no .yaml file",
                             hint="give case files, or folders holding them (`adjudicator check cases`)")
        _long_run(len(files))
        failed, rows = 0, []
        for result in api.check(files, jobs=jobs):
            text, row = _case_said(result, quiet)
            failed += not row["ok"]
            rows.append(row)
            if text and not as_json:
                ui.echo(text, paint=ui.paint_check, page=False, nl=True)
        if as_json:
            import json
            click.echo(json.dumps({"passed": len(files) - failed, "failed": failed, "cases": rows},
                                  indent=2, ensure_ascii=False))
        else:
            ui.echo(f"{len(files) - failed} passed, {failed} failed, {_count(len(files), 'case')}",
                    paint=ui.paint_check, page=False, nl=True)
        return 1 if failed else 0
    _run(ctx.obj["debug"], go, as_json)


def _count(n: int, word: str) -> str:
    """A number and its noun, singular for one ("1 case", not "1 cases")."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _case_said(res, quiet: bool) -> tuple[str, dict]:
    """One case file run: (what to print, its outcome as data)."""
    if res.error is not None:
        return f"FAIL {safe(res.file)}\n    {res.error}", {"file": res.file, "ok": False, **error_json(res.error)}
    row = {"file": res.file, "name": res.name, "ok": res.ok, **({} if res.ok else {"diff": res.diff})}
    if res.ok:
        return ("" if quiet else f"pass {safe(res.file)}: {safe(res.name)}"), row
    return f"FAIL {safe(res.file)}: {safe(res.name)}\n{res.diff}", row


def _games(ctx, incomplete):
    from adjudicator.core import registry
    return _starting(registry.games(), incomplete)


CODE = Words("A code, or a game's name for its default code", _games, after="(`adjudicator codes` lists the codes.)",
             complete=lambda ctx, typed: _starting(_code_words(), typed))


@main.command()
@click.argument("code_or_game", metavar="CODE", type=CODE)
@click.argument("number", required=False, shell_complete=_complete_law_number)
@click.option("--json", "as_json", is_flag=True, help="Print the law (or the code's laws) as JSON.")
@ui.color_option
@ui.pager_option
@click.pass_context
def law(ctx, code_or_game, number, as_json):
    """Print a law of a code; without NUMBER, list the code's laws.

    NUMBER is a law's id (24), a clause (17.II) or an exception for another game (24.boston). A
    game's name stands for its default code: `law piquet 54`, `law whist 24`.

    With its exceptions for other games, the laws it refers to and that refer to it, its topics,
    and, for a code encoded as rules, the rule files citing it and the cases exercising it.

    An id the code has not exits 2, saying what it has: a section's laws (`law whist etiquette`:
    etiquette.1 to etiquette.9), or for a number out of range how the code's laws are numbered.

    \b
    Examples:
      adjudicator law american-1893 24
      adjudicator law whist 17.II
      adjudicator law loo              (loo's laws, each with its summary)
    """
    def go():
        import json
        from adjudicator import api
        if number is None:      # `law loo`: what NUMBER could be, the code's laws
            listed = api.laws(code_or_game)
            if as_json:
                click.echo(json.dumps(listed, indent=2, ensure_ascii=False))
            else:
                ui.echo(_laws_text(listed, code_or_game), paint=ui.paint_laws)
            return 0
        found = api.law(code_or_game, number)
        if as_json:
            click.echo(json.dumps(found.as_dict(), indent=2, ensure_ascii=False))
        else:
            ui.echo(found.text(), paint=ui.paint_law)
        return 0
    _run(ctx.obj["debug"], go, as_json)


def _laws_text(listed: dict, asked: str) -> str:
    """A code's laws (`adjudicator law CODE`), section by section, each id beside our summary,
    wrapped to the terminal."""
    from adjudicator.core.render import wrap
    width = _width()
    n = len(listed["laws"])
    lines = wrap(f"{listed['code']} -- {listed['title']}: {_count(n, 'law')}", width, "", "  ")
    if listed.get("asked_code"):
        lines += wrap(f"{listed['asked_code']} reads this book: its exceptions are inserted in these laws.",
                      width, "", "  ")
    if listed.get("base_code"):
        lines += wrap(f"Beside these, its rulings cite the laws of {listed['base_code']} "
                      f"(`adjudicator law {listed['base_code']}`).", width, "", "  ")
    col = min(max((len(x["id"]) for x in listed["laws"]), default=0), 12)
    section = None
    for x in listed["laws"]:
        if x["section"] != section or section is None:
            section = x["section"]
            lines += [""] + (wrap(section, width, "", "  ") if section else [])
        pad = "  " + " " * (col + 2)
        if len(x["id"]) > col:
            lines.append(f"  {x['id']}")
            lines += wrap(x["summary"], width, pad, pad)
        else:
            lines += wrap(x["summary"], width, f"  {x['id']:<{col}}  ", pad)
    lines += ["", f"`adjudicator law {safe(asked, 40)} NUMBER` prints one in full."]
    return "\n".join(lines) + "\n"


@main.command()
@click.argument("words", nargs=-1, required=True,
                type=Words("Give a few plain words, e.g. `adjudicator search card dropped on the floor`"))
@click.option("--code", "code_given", shell_complete=_complete_codes, help="Search only this code's laws (`adjudicator codes` lists them; a game's name "
              "stands for its default code).")
@click.option("--limit", default=10, show_default=True, type=Whole(1, 500), help="How many laws to show.")
@click.option("--page", default=1, show_default=True, type=Whole(1, 10000),
              help="Which page of results: the laws after the first LIMIT x (PAGE - 1).")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@ui.color_option
@ui.pager_option
@click.pass_context
def search(ctx, words, code_given, limit, page, as_json):
    """Find the laws of every code on a few plain words, best first.

    Each law found is shown with the words found in context (highlighted on a terminal, marked
    *so* elsewhere). Inflections and old spellings match (revoking / revoke, honors / honours,
    jack / knave).

    \b
    Examples:
      adjudicator search card dropped on the floor
      adjudicator search carte blanche --code piquet
    """
    def go():
        import json
        from adjudicator import api
        found = api.search(" ".join(words), code=code_given, limit=limit, offset=limit * (page - 1))
        if as_json:
            click.echo(json.dumps(found.as_dict(), indent=2, ensure_ascii=False))
        else:
            ui.echo(found.text(), paint=ui.paint_search)
        return 0
    _run(ctx.obj["debug"], go, as_json)


@main.command()
@click.argument("name", nargs=-1, shell_complete=_complete_topics)
@click.option("--code", "codes_given", multiple=True, shell_complete=_complete_codes,
              help="Show only this code's laws (repeat for several; a game's name stands for its default code).")
@click.option("--json", "as_json", is_flag=True, help="Print the topic (or the list) as JSON.")
@ui.color_option
@ui.pager_option
@click.pass_context
def topic(ctx, name, codes_given, as_json):
    """List every code's laws on one topic; without NAME, the topics.

    \b
    Examples:
      adjudicator topic revoke
      adjudicator topic lead out of turn --code piquet
    """
    def go():
        import json
        from adjudicator import api
        # (`topic --code piquet` lists piquet's topics alone, not whist's and loo's too)
        found = api.topic(" ".join(name), codes=codes_given) if name else api.topics(codes=codes_given)
        if as_json:
            click.echo(json.dumps(found.as_dict(), indent=2, ensure_ascii=False))
        else:
            ui.echo(found.text(), paint=ui.paint_topic if name else ui.paint_topics)
        return 0
    _run(ctx.obj["debug"], go, as_json)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@ui.color_option
@ui.pager_option
@click.pass_context
def codes(ctx, as_json):
    """List the games and codes of law, with each game's default."""
    def go():
        import json
        from adjudicator import api
        rows = api.codes()
        if as_json:
            click.echo(json.dumps(rows, indent=2))
        else:
            wg = max(len(r["game"]) for r in rows) + 1
            wc = max(len(r["code"]) for r in rows) + 1
            text = "".join(_row(f"{r['game']:<{wg}} {r['code']:<{wc}} ",
                                r["title"] + (" (default)" if r["default"] else "")) + "\n" for r in rows)
            ui.echo(text, paint=ui.paint_first_column)
        return 0
    _run(ctx.obj["debug"], go, as_json)


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Print the list as JSON.")
@ui.color_option
@ui.pager_option
@click.pass_context
def remedies(ctx, as_json):
    """List the remedy ids a ruling names and a `demand` asks for."""
    def go():
        import json
        from adjudicator import api
        rem = api.remedies()
        if as_json:
            click.echo(json.dumps(rem, indent=2))
        else:
            ui.echo("".join(_row(f"{k:<32} ", v) + "\n" for k, v in rem.items()), paint=ui.paint_first_column)
        return 0
    _run(ctx.obj["debug"], go, as_json)


@main.command()
@click.argument("name", required=False, shell_complete=_complete_events)
@click.option("--markdown", is_flag=True, help="Print the reference as docs/incident-format.md holds it.")
@click.option("--json", "as_json", is_flag=True, help="Print the list (or the event) as JSON.")
@ui.color_option
@ui.pager_option
@click.pass_context
def events(ctx, name, markdown, as_json):
    """List the incident format's keys and events, or explain one.

    An event (or top-level key) explained: what it records, each field, an example and the laws
    of every code whose rules read it.

    \b
    Example:
      adjudicator events lead
    """
    def go():
        import json
        from adjudicator import api
        from adjudicator.core import schema
        if markdown and (name is not None or as_json):
            # (`events lead --markdown` printed lead's entry in plain text and `events --markdown
            # --json` the JSON list: --markdown passed over without a word)
            from adjudicator.errors import InputError
            what = "JSON (--json)" if name is None else f"one entry ('{safe(name, 40)}')"
            raise InputError(f"--markdown prints the whole reference, as docs/incident-format.md holds it, not {what}",
                             "adjudicator events",
                             hint="adjudicator events --markdown (the reference), or adjudicator events [NAME] [--json]")
        if name is not None:        # (an empty NAME is no name: refused, not read as none given)
            found = api.event(name)
            if as_json:
                click.echo(json.dumps(found.as_dict(), indent=2, ensure_ascii=False))
            else:
                ui.echo(_wrap_lines(found.text()), paint=ui.paint_event, nl=True)
            return 0
        if as_json:
            click.echo(json.dumps(api.events(), indent=2, ensure_ascii=False))
            return 0
        if markdown:
            ui.echo(api.format_reference())         # (Markdown, to save: never styled; paged at a terminal)
            return 0
        rows = [_row(f"{f.name:<14} ", f.doc) for f in schema.TOP] + [""]
        for ev in schema.EVENTS.values():
            fields = ", ".join(f.name + ("*" if f.required else "") for f in ev.fields)
            rows.append(_row(f"{ev.name:<20} ", fields))
        rows += ["", _wrap_lines("(* required)  `adjudicator events NAME` explains one; docs/incident-format.md all.")]
        ui.echo("\n".join(rows), paint=ui.paint_first_column, nl=True)
        return 0
    _run(ctx.obj["debug"], go, as_json)




def _width() -> int:
    import shutil
    return max(40, min(100, shutil.get_terminal_size((80, 24)).columns))


def _row(head: str, text: str) -> str:
    """A table row: its first column, then the text wrapped to the terminal under the second."""
    from adjudicator.core.render import wrap
    width = max(_width() - len(head), 20)
    parts = wrap(text, width) or [""]
    return "\n".join([head + parts[0]] + [" " * len(head) + p for p in parts[1:]])


def _wrap_lines(text: str) -> str:
    """Each line wrapped to the terminal's width (at most 100), its indent kept."""
    from adjudicator.core.render import wrap
    width = _width()
    out = []
    for line in text.splitlines():
        indent = line[:len(line) - len(line.lstrip())]
        out.append("\n".join(wrap(line.lstrip(), width, indent, indent + "  ")) if line.strip() else line)
    return "\n".join(out)


def _complete_kinds(ctx, param, incomplete):
    from adjudicator.study.quiz import KINDS
    return [k for k in KINDS if k.startswith(incomplete)]


def _quiz_json(seed, questions, message=None) -> str:
    """`quiz --json`: one shape whatever was asked (questions drawn, none to review, a reset)."""
    import json
    return json.dumps({"seed": seed, "questions": [q.to_json() for q in questions], "message": message},
                      indent=2, ensure_ascii=False)


@main.group(invoke_without_command=True)
@click.option("-n", "count", default=10, show_default=True, type=Whole(1, 1000),
              help="How many questions.")
@click.option("--seed", type=Whole(), default=None, help="Draw the same questions again (a quiz is reproducible).")
@click.option("--code", default=None, shell_complete=_complete_quiz_codes,
              help="Only this code's cases (`adjudicator codes`).")
@click.option("--topic", default=None, shell_complete=_complete_topics,
              help="Only this topic (`adjudicator topic` lists them).")
@click.option("--law", default=None, shell_complete=_complete_quiz_law,
              help="Only questions on this law (with --code).")
@click.option("--kind", default=None, shell_complete=_complete_kinds,
              help="Only this kind: remedy, who, law, status, compare.")
@click.option("--review", is_flag=True, help="Ask the questions missed and those due again.")
@click.option("--new-per-day", "new_per_day", type=Whole(1, 1000), default=20, show_default=True,
              help="At most this many new questions a day (a review is not new).")
@click.option("--reviews-per-day", "reviews_per_day", type=Whole(1, 10000), default=200, show_default=True,
              help="At most this many reviews a day.")
@click.option("--reset", is_flag=True, help="Forget all progress (answers and schedule).")
@click.option("--sheet", "sheet", type=Whole(1, 500), default=None,
              help="Write a printable sheet of N questions (Markdown and HTML) with the answer key.")
@click.option("--out", default="quiz-sheet", show_default=True, help="With --sheet: the files' name, without .md/.html.")
@click.option("--json", "as_json", is_flag=True, help="Print the questions with their answers as JSON.")
@ui.color_option
@click.pass_context
def quiz(ctx, count, seed, code, topic, law, kind, review, new_per_day, reviews_per_day, reset, sheet, out, as_json):
    """Drill on the laws with questions graded by the engine.

    The questions are drawn from the cases, and graded by the engine's own ruling. Answers are read
    from the terminal (or standard input), one line each; q stops. At a terminal the time each
    answer takes is measured and a right answer may be graded Again, Hard, Good or Easy (spaced
    repetition, FSRS). Progress is kept in the user's data folder (or $ADJUDICATOR_DATA_DIR);
    `adjudicator quiz stats` shows it, with what is due today and after.

    \b
    Examples:
      adjudicator quiz --code piquet -n 5
      adjudicator quiz --topic revoke --kind who
      adjudicator quiz --review
    """
    if ctx.invoked_subcommand:
        return

    def go():
        import random
        from adjudicator.study import progress, quiz as qz
        nonlocal code
        qz.refuse_empty(code, topic, law, kind)
        if code:      # a game's name stands for its default code, as everywhere a code is taken
            from adjudicator.core.registry import resolve_code
            code = resolve_code(code, "adjudicator quiz --code")
        topic_name = qz.check_filters(code, topic, law, kind)
        if reset:
            store = progress.Store()
            for note in store.notices:
                click.echo(note, err=True)
            store.reset()
            said = f"Progress cleared ({safe(store.path)})."
            click.echo(_quiz_json(None, [], said) if as_json else said)
            return 0
        used_seed = seed if seed is not None else random.SystemRandom().randrange(1, 10**6)
        n = sheet or count
        store = None
        drill = not sheet and not as_json        # answered here, and recorded: the daily limits count
        exclude = None
        if review or drill:
            store = progress.Store()
            for note in store.notices:
                click.echo(note, err=True)
        if drill:
            n, said = qz.allowance(store, n, review, new_per_day, reviews_per_day)
            if said:
                click.echo(said)
                return 0
            exclude = store.seen_ids() if not review else None
        if review:
            questions = qz.review_questions(store.review_ids(), n, random.Random())
            questions = [q for q in questions if qz._fits(q, code, topic_name, law, kind)]
            if not questions:
                said = "Nothing to review: no question missed and none due. `adjudicator quiz` asks new ones."
                click.echo(_quiz_json(None, [], said) if as_json else said)
                return 0
        else:
            questions = qz.draw(n, used_seed, code, topic_name, law, kind, exclude=exclude)
            if not questions:
                from adjudicator.errors import InputError
                raise InputError("no question fits these filters" if not exclude else
                                 "no new question fits these filters: every one has been answered",
                                 file="adjudicator quiz",
                                 hint="widen them: `adjudicator topic` lists topics, `adjudicator codes` codes"
                                 + ("; `adjudicator quiz --review` asks those due again" if exclude else ""))
        if sheet:       # (with --json too: the sheet is written, and the JSON says so)
            md, html = qz.write_sheet(out, questions, used_seed)
            said = (f"Wrote {safe(md, 80)} and {safe(html, 80)}: {len(questions)} question{'' if len(questions) == 1 else 's'}, "
                    f"answer key at the end (seed {used_seed}).")
            click.echo(_quiz_json(None if review else used_seed, questions, said) if as_json else said)
            return 0
        if as_json:
            click.echo(_quiz_json(None if review else used_seed, questions))
            return 0
        if store is None:
            store = progress.Store()
            for note in store.notices:
                click.echo(note, err=True)
        if not review:
            n_q = len(questions)
            click.echo(f"Law quiz: {n_q} question{'' if n_q == 1 else 's'} (seed {used_seed}).\n")

        stdin = getattr(sys.stdin, "buffer", sys.stdin)     # bytes: a line not UTF-8 is still read

        def read():
            click.echo("> ", nl=False)
            try:
                # bounded: a line past qz.MAX_ANSWER is refused; standard input closed (`<&-`, None)
                # is the end of the answers, as an empty one is (it was an internal AttributeError)
                line = qz.read_answer(stdin) if stdin is not None else None
            except KeyboardInterrupt:   # Ctrl-C stops the quiz like q: the answers so far are kept
                line = None
            if line is None:
                click.echo("")
            return line

        at_terminal = stdin is not None and hasattr(sys.stdin, "isatty") and sys.stdin.isatty()
        done = qz.run(questions, store, read, lambda text: ui.echo(text, paint=ui.paint_quiz, page=False, nl=True),
                      ask_grade=at_terminal)
        if done["unreadable"]:
            from adjudicator.errors import InputError
            raise InputError(f"the quiz stops: {done['unreadable']}", file="adjudicator quiz",
                             hint=f"answer each question on a line of its own (at most {qz.MAX_ANSWER} "
                                  "bytes), or q to stop; the answers given so far are kept")
        return 0
    _run(ctx.obj["debug"], go, as_json)


@quiz.command("stats")
@click.option("--json", "as_json", is_flag=True, help="Print the progress as JSON.")
@ui.color_option
@ui.pager_option
@click.pass_context
def quiz_stats(ctx, as_json):
    """Progress so far: what is due, by code and by topic."""
    def go():
        import json
        from adjudicator.study import progress
        store = progress.Store()
        for note in store.notices:
            click.echo(note, err=True)
        from adjudicator.study import quiz as qz
        st = store.stats()
        if as_json:
            click.echo(json.dumps(st, indent=2))
            return 0
        ui.echo(qz.stats_text(st, store.path), paint=ui.paint_stats, nl=True)
        return 0
    _run(ctx.obj["debug"], go, as_json)


@quiz.command("ruling")
@click.argument("token")
@click.pass_context
def quiz_ruling(ctx, token):
    """The whole ruling on a quiz question's incident, by its token."""
    def go():
        from adjudicator.errors import InputError
        from adjudicator.study import quiz as qz
        case = qz.case_of_token(token)
        if case is None:
            raise InputError(f"no question of the bank has the token '{safe(token, 40)}'", file="adjudicator quiz ruling",
                             hint="give the token the quiz printed after an answer (16 letters and digits)")
        click.echo(qz.whole_ruling(case), nl=False)
        return 0
    _run(ctx.obj["debug"], go, False)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (0.0.0.0: every address, to serve a club's room).")
@click.option("--port", default=8000, show_default=True, type=Whole(1, 65535), help="The port to listen on.")
@click.option("--workers", default=None, type=Whole(1, 256), metavar="N",
              help="Processes that rule (a heavy ruling holds one; lookups never wait for them). "
                   "Default: as many as cores.")
@ui.color_option
@click.pass_context
def serve(ctx, host, port, workers):
    """Serve the referee's web page and its JSON API.

    The page gives rulings, the interview, laws, search, compare and the quiz; its JSON API
    under /api/ answers as the commands' --json. See docs/web.md.
    """
    def go():
        from adjudicator import web
        from adjudicator.errors import InputError
        try:
            host.encode("idna")     # (as the resolver reads it: a label over 63 characters was an internal error)
        except UnicodeError as e:
            import re
            why = re.search(r"UnicodeError: (.*)\)$", str(e))       # (the codec's own reason, inside its wrapping)
            raise InputError(f"cannot listen on {safe(host, 40)}:{port}: this is not a host name "
                             f"({safe(why.group(1) if why else e, 60)})", "adjudicator serve",
                             hint="give --host an address of this machine, e.g. 127.0.0.1 (this machine only) "
                                  "or 0.0.0.0 (every address)") from None
        from adjudicator.core import allocator
        if allocator.leaves_with_exit:        # (a real command, not one a test calls in its own process)
            allocator.check_setting()
            allocator.settle_collector()
        try:
            web.serve(host, port, echo=click.echo, workers=workers)
        except OSError as e:
            if isinstance(e, BrokenPipeError) or _is_output_error(e):
                raise           # writing "Serving on ..." failed, not listening: said as any output error
            import socket
            hint = ("give --host an address of this machine, e.g. 127.0.0.1 (this machine only) or 0.0.0.0 "
                    "(every address)") if isinstance(e, socket.gaierror) or e.errno == 99 else \
                "choose another --port, or stop what is using this one"
            raise InputError(f"cannot listen on {safe(host, 40)}:{port}: {(e.strerror or str(e)).lower()}" if host else
                             f"--host is empty: it names no address to listen on", "adjudicator serve",
                             hint=hint)
        return 0
    _run(ctx.obj["debug"], go)


def _usage_json(e: click.exceptions.ClickException) -> None:
    """Under --json, a usage error click finds (a bad option value, a missing argument) printed as
    every other error is: one line of JSON on standard output, beside the message on standard error."""
    import json
    out = {"message": said(e.format_message(), 400), "exit_code": e.exit_code}
    ctx = getattr(e, "ctx", None)
    if ctx is not None:             # (the command, not a file: `command`, as every usage error's)
        out["command"] = said(ctx.command_path, 80)
    try:
        click.echo(json.dumps({"error": out}, ensure_ascii=False, separators=(",", ":")))
    except BrokenPipeError:
        _reader_gone()
    except OSError as e:    # (a full disk: said, exit 1, as for every other output)
        _output_failed(e)


def _show_usage_error(e: click.exceptions.ClickException) -> None:
    """A usage error click finds, as click shows it (the usage, where to find help, "Error: ..."),
    its "Error:" styled when standard error takes colour."""
    ctx = getattr(e, "ctx", None)
    if ctx is not None:
        hint = ""
        if ctx.command.get_help_option(ctx) is not None:
            hint = f"Try '{ctx.command_path} {ctx.help_option_names[0]}' for help.\n"
        click.echo(f"{ctx.get_usage()}\n{hint}", err=True)
    on = ui.colour(err=True)
    click.echo((ui.style("Error:", "error") if on else "Error:") + " " + e.format_message(), err=True, color=on)


def _null_for_closed_streams() -> None:
    """Started with standard input or standard error closed (`<&-`, `2>&-`): the descriptor is held
    by /dev/null, so that no file opened later (an incident, the progress database, a saved
    incident) is given descriptor 0 or 2 and read as standard input or written by whatever writes
    to standard error; and a closed standard error is a sink. Python's None for it had every
    command end in exit 1 after a complete ruling (sys.stderr.flush), `ask --json` write its
    interview on standard output, among the JSON, and `serve` stop before listening."""
    import os
    for fd in (0, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stderr is None:
        sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)


def entry():
    """The console script: run the command, flush, and leave without tearing the interpreter down.

    Freeing a clingo program at exit costs more than a tenth of a short run; the output is complete
    and flushed by then, so the process ends at once with the command's exit code.
    """
    import os

    from adjudicator.core import allocator
    allocator.leaves_with_exit = True     # (below: os._exit once the output is flushed)
    _null_for_closed_streams()
    if sys.stdout is None:        # started with standard output closed (`adjudicator ... >&-`)
        _output_failed(None)
    try:
        rc = main.main(standalone_mode=False)
    except SystemExit as e:
        rc = e.code
    except click.exceptions.Exit as e:
        rc = e.exit_code
    except click.exceptions.ClickException as e:
        e.message = said(str(e.message), 400)
        if isinstance(e, click.exceptions.UsageError):
            _show_usage_error(e)
        else:
            e.show()
        rc = e.exit_code
        if "--json" in sys.argv[1:sys.argv.index("--") if "--" in sys.argv else None]:
            _usage_json(e)
    except click.exceptions.Abort:
        # Ctrl-C (the quiz takes it as q): click's "Aborted!" and exit 1, which says an internal
        # fault; stopped by the user is 130 (128 + SIGINT), as a shell says it
        click.echo("adjudicator: stopped (Ctrl-C): what was not finished is neither printed nor saved", err=True)
        rc = INTERRUPTED
        if "--json" in sys.argv[1:sys.argv.index("--") if "--" in sys.argv else None]:
            import json
            click.echo(json.dumps({"error": {"message": "stopped (Ctrl-C)", "exit_code": INTERRUPTED}},
                                  separators=(",", ":")))
    except OSError as e:            # writing --version or --help (click's own echo) failed
        if isinstance(e, BrokenPipeError):
            _reader_gone()
        if _is_output_error(e):
            _output_failed(e)
        raise
    if type(sys.stdout).__name__ == "_PacifyFlushWrapper":
        # click met a closed pipe writing its own output (--version, --help) and only left quietly
        _reader_gone()
    if not isinstance(rc, int):
        rc = 0 if rc is None else 1
    try:
        sys.stdout.flush()
    except BrokenPipeError:         # (the reader stopped reading: as above)
        _reader_gone()
    except OSError as e:            # (a full disk)
        _output_failed(e)
    try:
        if sys.stderr is not None:      # (None: started with standard error closed, `2>&-`; a ruling
            sys.stderr.flush()          # written whole is still exit 0, not an AttributeError's 1)
    except OSError:
        pass
    os._exit(rc)


if __name__ == "__main__":  # pragma: no cover
    entry()
