"""Bytes on disk: hardened YAML/TOML with positions, strict JSON, safe writes, manifest files."""
