from adjudicator.cli import entry

entry()
