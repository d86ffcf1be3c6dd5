"""What the MkDocs hooks know about the build under way, for code that runs inside it.

Fence formatters and executed code blocks are not told which build or page they are in; the
hooks (``posenc_site.hooks``) set these values before each page is converted.
"""

from dataclasses import dataclass
from pathlib import Path

import jinja2


@dataclass
class BuildContext:
    """The docs folder and theme of the build, and the language of the page being converted.

    ``jinja_env`` is the theme's Jinja environment; None outside a build.
    """

    docs_dir: Path = Path("docs")
    language: str = "en"
    jinja_env: jinja2.Environment | None = None


current = BuildContext()
