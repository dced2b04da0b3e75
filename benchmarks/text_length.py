"""How long a ruling is to read: the text `adjudicator adjudicate` prints for every bundled case.

    python benchmarks/text_length.py [CASES_FOLDER]

Prints the median, the 90th percentile and the longest of: the whole text (lines), the verdict
(lines and words: what a player reads first, on a phone's first screen), and the details. Length
is measured, never tested: a ruling says what the law gives, however long that is.
"""
from __future__ import annotations

import os
import statistics
import sys

import adjudicator


def _quantiles(xs: list[int]) -> str:
    xs = sorted(xs)
    return f"median {statistics.median(xs):g}, p90 {xs[int(len(xs) * 0.9)]}, max {xs[-1]}"


def main() -> None:
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__))), "cases")
    files = adjudicator.find_cases([root])
    whole, verdict_lines, verdict_words, first_screen = [], [], [], 0
    for got in adjudicator.adjudicate_files(files):
        if isinstance(got, adjudicator.AdjudicatorError):
            continue
        text = got.text()
        lines = text.rstrip("\n").split("\n")
        whole.append(len(lines))
        head = text.split("\n\n", 1)[0].split("\n")
        verdict_lines.append(len(head))
        verdict_words.append(len(" ".join(head).split()))
        first_screen += len(head) <= 12          # (a phone shows some 12 lines of 80 columns' text at once)
    print(f"{len(whole)} rulings of the bundled cases")
    print(f"  whole text, lines:  {_quantiles(whole)}")
    print(f"  verdict, lines:     {_quantiles(verdict_lines)}")
    print(f"  verdict, words:     {_quantiles(verdict_words)}")
    print(f"  verdict within 12 lines: {first_screen} of {len(whole)}")


if __name__ == "__main__":
    main()
