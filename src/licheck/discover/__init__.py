"""The models a code base names, and which of them the manifests declare."""
