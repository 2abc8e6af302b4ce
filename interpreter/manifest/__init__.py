"""The manifest: records grouped into tools by method and path template (DESIGN.md §4)."""
