"""Rule files to the compiled library: layers, org policies, lookups, verify, coverage."""
