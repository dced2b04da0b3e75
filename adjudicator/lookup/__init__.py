"""The laws as a reader looks them up: their texts, references and topics, the full-text search,
and the incident format's reference. Reads the core's tables; never rules on an incident."""
