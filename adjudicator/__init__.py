"""adjudicator: settles disputes at the card table under the classic codes of law."""
__version__ = "0.1.0"
