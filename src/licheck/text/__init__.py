"""Strings in, strings out: escaping per target, near-matches, white space, readable fallbacks."""
