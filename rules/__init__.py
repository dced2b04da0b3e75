"""The law encodings (ASP) and law texts, shipped inside the package as adjudicator.rules."""
