"""What the tests share: the project, its pages, builds, tools and helpers (``import support``:
pyproject's pytest pythonpath puts tests/ on the path)."""
