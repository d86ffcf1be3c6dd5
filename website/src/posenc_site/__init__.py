"""Build machinery of the posenc site: MkDocs hooks and Markdown helpers (not part of posenc)."""
