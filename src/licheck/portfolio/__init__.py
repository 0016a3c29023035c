"""Many manifests: evaluated on worker processes, the report streamed in order."""
