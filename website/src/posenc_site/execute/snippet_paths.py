"""Snippet folders (pymdownx.snippets' ``base_path``) relative to mkdocs.yml, not the shell.

The paths in mkdocs.yml are relative; made absolute, a build works from any working directory.
"""

from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig


def make_absolute(config: MkDocsConfig) -> list[Path]:
    """Rewrite the snippet folders of ``config`` as absolute paths; return them."""
    root = Path(config.config_file_path).parent
    snippets = config.mdx_configs.get("pymdownx.snippets", {})
    paths = [root / path for path in snippets.get("base_path", ["."])]
    snippets["base_path"] = [str(path) for path in paths]
    return paths
