"""The configuration: found from the working folder up, read, and checked."""
