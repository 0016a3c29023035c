"""The what-if report's renderers: terminal, CSV, SVG, HTML."""
