"""The package as the README installs it (`pip install .`), run outside any checkout: the wheel is
built from a copy of the source, installed in a fresh virtual environment in a temporary folder (its
dependencies from pip's configured index, as a user gets them), and the quiz, `law`'s list of cases,
the web page's quiz and law pages and docs/api.md's examples are run from another folder, with no
checkout on the path. Issue 44: installed so, the quiz refused to start ("no case files found ...
run from a checkout") and `law` said "Cases: not available (installed package)"; and the wheel left
out adjudicator/core/incident, so that no command ran at all.

One test, because it is slow (building and installing take most of it): about 40 s on the 2-core
machine (`pytest -q tests/test_wheel.py --durations=1`).
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# What the wheel is built from (pyproject.toml names them); nothing of a working tree's leftovers
# (a build/ folder of an earlier build would put files since deleted into the wheel).
SOURCE = ("pyproject.toml", "README.md", "LICENSE", "adjudicator", "rules", "cases")
LEFT_OUT = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info", ".*")


def _run(args, cwd, env, stdin: str | None = None, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=timeout)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str, deadline: float) -> str:
    while True:
        try:
            with urllib.request.urlopen(url, timeout=30) as r:
                return r.read().decode("utf-8")
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def test_the_installed_wheel_has_its_quiz_its_cases_and_its_api_outside_the_checkout(tmp_path):
    t0 = time.monotonic()
    src = tmp_path / "src"
    src.mkdir()
    for name in SOURCE:
        path = os.path.join(ROOT, name)
        if os.path.isdir(path):
            shutil.copytree(path, src / name, ignore=LEFT_OUT)
        else:
            shutil.copy(path, src / name)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "ADJUDICATOR_CASES", "VIRTUAL_ENV", "PYTHONHOME")}
    built = _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"), str(src)],
                 tmp_path, env)
    assert built.returncode == 0, built.stderr
    wheels = os.listdir(tmp_path / "dist")
    assert len(wheels) == 1 and wheels[0].endswith(".whl"), wheels
    venv = tmp_path / "venv"
    made = _run([sys.executable, "-m", "venv", str(venv)], tmp_path, env)
    assert made.returncode == 0, made.stderr
    py, exe = str(venv / "bin" / "python"), str(venv / "bin" / "adjudicator")
    installed = _run([py, "-m", "pip", "install", "-q", str(tmp_path / "dist" / wheels[0])], tmp_path, env)
    assert installed.returncode == 0, installed.stderr
    t_install = time.monotonic() - t0

    elsewhere = tmp_path / "elsewhere"        # no checkout here, none on the path
    elsewhere.mkdir()
    env.update(ADJUDICATOR_CACHE=str(tmp_path / "cache"), ADJUDICATOR_DATA_DIR=str(tmp_path / "data"),
               PATH=str(venv / "bin") + os.pathsep + env.get("PATH", ""))
    where = _run([py, "-c", "import adjudicator, sys; from adjudicator.lookup import laws; "
                            "print(adjudicator.__file__); print(laws.cases_dir())"], elsewhere, env)
    assert where.returncode == 0, where.stderr
    package, cases = where.stdout.split("\n")[:2]
    assert package.startswith(str(venv)) and cases.startswith(str(venv)), where.stdout
    assert not package.startswith(ROOT) and os.path.isdir(os.path.join(cases, "whist", "american-1893"))

    # the quiz: a question drawn, answered, graded and recorded; its progress shown
    quiz = _run([exe, "quiz", "-n", "1", "--seed", "3"], elsewhere, env, stdin="a\n")
    assert quiz.returncode == 0, quiz.stdout + quiz.stderr
    assert "Question 1 of 1" in quiz.stdout and ("Right: " in quiz.stdout or "Wrong. The answer: " in quiz.stdout), quiz.stdout
    assert "no case files" not in quiz.stdout + quiz.stderr
    stats = _run([exe, "quiz", "stats"], elsewhere, env)
    assert stats.returncode == 0 and "1 answer" in stats.stdout, stats.stdout + stats.stderr

    # law: the cases exercising the law, named as in a checkout
    law = _run([exe, "law", "american-1893", "24"], elsewhere, env)
    assert law.returncode == 0, law.stderr
    assert "Cases exercising it (" in law.stdout and "cases/whist/american-1893/" in law.stdout, law.stdout
    assert "not available" not in law.stdout

    # docs/api.md's examples, with CASES the installed package's cases
    doc = _run([py, "-c", "import doctest, sys; from adjudicator.lookup import laws; "
                          f"f, t = doctest.testfile({os.path.join(ROOT, 'docs', 'api.md')!r}, module_relative=False, "
                          "globs={'CASES': laws.cases_dir()}, optionflags=doctest.NORMALIZE_WHITESPACE); "
                          "print(f, t); sys.exit(1 if f or t < 20 else 0)"], elsewhere, env)
    assert doc.returncode == 0, doc.stdout[-3000:] + doc.stderr[-2000:]

    # the web page's quiz and law pages, served by the installed command
    port = _free_port()
    server = subprocess.Popen([exe, "serve", "--port", str(port)], cwd=elsewhere, env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        page = _get(f"http://127.0.0.1:{port}/quiz?seed=3", deadline)
        assert 'action="/quiz"' in page and "no case files" not in page, page[-2000:]
        page = _get(f"http://127.0.0.1:{port}/law/american-1893/24", deadline)
        assert "cases/whist/american-1893/" in page, page[-2000:]
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"\nwheel built and installed in {t_install:.1f} s; whole test {time.monotonic() - t0:.1f} s")
