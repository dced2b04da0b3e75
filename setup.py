"""The build's one step beyond pyproject.toml: a wheel ships each code's rules as the rule selection
reads them (adjudicator/core/rulecache.py), made here from the rule files built into it, so that a
code's first ruling after `pip install` does not read and keep them itself (0.6-0.8 s, 13x the
import floor: benchmarks/README.md). Made with the clingo the build installs (build-system
requires); an install whose clingo differs finds no file of its name and makes its own, once, in
the user's cache folder. Nothing else is made here: a build where this fails ships the package
without them, and says so."""
import os
import subprocess
import sys

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithKeptRules(build_py):
    def run(self):
        super().run()
        if self.editable_mode:          # (an editable install reads the source tree: its cache folder serves)
            return
        built = os.path.abspath(self.build_lib)       # (the package as built: run there, not from the sources)
        folder = os.path.join(built, "adjudicator", "kept")
        env = {**os.environ, "PYTHONPATH": built, "ADJUDICATOR_MALLOC": "system"}
        r = subprocess.run([sys.executable, "-m", "adjudicator.core.keep", folder], env=env, cwd=built,
                           capture_output=True, text=True)
        if r.returncode != 0:
            print(f"warning: the rules were not kept for the wheel (a first ruling will keep them):\n{r.stderr}",
                  file=sys.stderr)
        else:
            print(r.stdout.strip())


setup(cmdclass={"build_py": BuildWithKeptRules})
