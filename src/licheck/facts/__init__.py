"""Stated facts and their evidence, to what the engine may rely on."""
