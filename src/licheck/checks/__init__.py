"""Meaning checks a manifest's shape cannot express, each problem located."""
