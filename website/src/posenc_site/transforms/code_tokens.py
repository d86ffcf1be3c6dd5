"""Code blocks in fewer elements: names and spaces written as plain text, without a span.

Pygments writes each token of a code block in a ``<span>`` of its class. Material colours a
name (class ``n``) in the code's own text colour (``--md-code-hl-name-color`` is
``--md-code-fg-color`` in both palettes) and gives whitespace (class ``w``) no style: those
spans draw nothing the text around them would not, and a lesson had 538 of them, a sixth of
its elements, each styled and laid out on first paint. `PLAIN`, a Pygments filter, gives
those two kinds of token the type of plain text, which Pygments' HTML formatter writes
without a span; mkdocs.yml passes it to the lexers of the site's languages (the lexer option
``filters``, through pymdownx.highlight's ``extend_pygments_lang``).

Why our own: Pygments' own filters change keywords' case, mark or merge tokens; none changes
a token's type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pygments.filter import Filter
from pygments.token import Name, Text, Whitespace

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from pygments.lexer import Lexer
    from pygments.token import _TokenType


class PlainNames(Filter):
    """Names and whitespace as plain text; every other token as the lexer made it."""

    def filter(
        self, lexer: Lexer | None, stream: Iterable[tuple[_TokenType, str]]
    ) -> Iterator[tuple[_TokenType, str]]:
        """The tokens of ``stream``, names and whitespace as plain text."""
        for token_type, value in stream:
            # Exactly these types (token types are singletons): their subtypes, such as
            # Name.Function and Name.Builtin, have colours of their own.
            plain = token_type is Name or token_type is Whitespace
            yield (Text if plain else token_type), value


PLAIN = PlainNames()
