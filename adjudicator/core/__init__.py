"""The engine: an incident read and checked, turned into facts, ruled by the law programs, and the
ruling read back (with its sentences). Nothing here imports a face (the command, the web page) or
the study and interview features; adjudicator.api is the one door the faces use."""
