"""Telling an incident without writing YAML: the interview on an incomplete account (ask), the
opening from a game and a few words, and the step-by-step builder the web page uses."""
