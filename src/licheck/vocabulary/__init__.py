"""The fact names licenses and manifests meet in: each fact's type, unit and closed vocabulary."""
