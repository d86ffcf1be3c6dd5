"""The figures of the lessons as page markup: a `matplotlib.figure.Figure` to an inline SVG.

`posenc.plotting` makes the Figures; a lesson's figure block prints ``to_html(figure, ...)``
(``python exec="on" html="true"``, a block whose source the page does not show). The SVG is
drawn with its labels as placeholders (`posenc_site.figures.svg`) and made small
(`posenc_site.figures.svg_clean`).
"""

from posenc_site.figures.markup import to_html

__all__ = ["to_html"]
