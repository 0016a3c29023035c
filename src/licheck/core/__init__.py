"""Value types and errors every layer shares: verdicts, diagnostics, units, territory, the memo."""
