"""The site's figures against the libraries that could replace our code: svgo, constrained layout.

Run from the repository root: ``python benchmarks/figures.py --svgo DIR``, where ``DIR`` holds
svgo in ``DIR/node_modules`` (``npm install --prefix DIR svgo@4.1.0``; the site's build does not
need Node.js, so the repository does not install it). Without ``--svgo`` svgo's column is left
out. It needs the site's packages (``python -m pip install -e ./website``).

Every figure of the lessons, in both languages, is made by running the lesson's figure block
with `posenc_site.figures.to_html` replaced by a function that keeps the figure. Then:

- **SVG optimiser**: what matplotlib writes of each figure (its labels as they are, the ink
  already ``currentColor``) cleaned by `posenc_site.figures.svg_clean.clean` and by svgo's
  ``optimize`` (``preset-default`` and ``prefixIds``, as several figures share a page): bytes,
  gzipped bytes (level 9), and the best time of ``--rounds`` calls each, svgo's inside one Node.js
  process (its start and import once, given apart), the two in turn figure by figure.
- **Layout**: each figure laid out and written as SVG by its own engine (`posenc._layout.RowLayout`)
  and by matplotlib's constrained layout, in turn, best of ``--rounds``; and what each layout
  does with the figure: a legend over the axes' data, the title's distance from the figure's
  centre, text beyond the figure's edges, the figure's height. ``--png DIR`` writes both
  layouts of every English figure as PNG, to look at.

Compare ratios, not seconds: the machine may be shared.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import html
import io
import json
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure
from matplotlib.layout_engine import ConstrainedLayoutEngine

import posenc_site.figures
from posenc.plotting import INK
from posenc_site.execute.blocks import page_blocks
from posenc_site.figures import svg, svg_clean

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

# svgo in a Node.js process: one JSON line in ({"svg", "prefix"}), one out ({"svg", "seconds"}).
_SVGO = """
const {createRequire} = require("node:module");
const readline = require("node:readline");
const {optimize} = createRequire(process.argv[1] + "/")("svgo");
const lines = readline.createInterface({input: process.stdin});
process.stdout.write("ready\\n");
lines.on("line", (line) => {
  const {svg, prefix} = JSON.parse(line);
  const config = {plugins: ["preset-default", {name: "prefixIds", params: {prefix, delim: "-"}}]};
  const start = process.hrtime.bigint();
  const out = optimize(svg, config).data;
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  process.stdout.write(JSON.stringify({svg: out, seconds}) + "\\n");
});
"""


class _Svgo:
    """svgo's ``optimize`` in one Node.js process, started once."""

    def __init__(self, folder: Path) -> None:
        start = time.perf_counter()
        self.process = subprocess.Popen(
            ["node", "-e", _SVGO, str(folder.resolve())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.stdin, self.stdout = self.process.stdin, self.process.stdout
        if self.stdout.readline() != "ready\n":
            sys.exit(f"svgo did not start from {folder}/node_modules")
        print(f"svgo: Node.js started and svgo imported in {time.perf_counter() - start:.3f} s")

    def optimise(self, svg_text: str, prefix: str) -> tuple[str, float]:
        """The optimised SVG and the seconds ``optimize`` took, timed inside Node.js."""
        self.stdin.write(json.dumps({"svg": svg_text, "prefix": prefix}) + "\n")
        self.stdin.flush()
        answer = json.loads(self.stdout.readline())
        return answer["svg"], answer["seconds"]

    def close(self) -> None:
        """End the process."""
        self.stdin.close()
        self.process.wait()


@dataclass
class SiteFigure:
    """A figure of a lesson: its page, its number on the page, the Figure."""

    page: str
    number: int
    figure: Figure

    @property
    def name(self) -> str:
        """``page#n``, the page relative to ``docs/``."""
        return f"{self.page}#{self.number}"


def site_figures() -> list[SiteFigure]:
    """Every figure of the lessons, both languages, by running each figure block."""
    made: list[Figure] = []

    def keep(figure: Figure, **_: Any) -> str:
        made.append(figure)
        return ""

    figures = []
    real = posenc_site.figures.to_html
    posenc_site.figures.to_html = keep  # type: ignore[assignment]
    try:
        for path in sorted((DOCS / "lessons").glob("*.md")):
            number = 0
            for block in page_blocks(path, [DOCS, ROOT / "src"]):
                if block.language != "python" or "to_html(" not in block.source:
                    continue
                with contextlib.redirect_stdout(io.StringIO()):
                    exec(compile(block.source, f"{path}:{block.line}", "exec"), {})
                number += 1
                page = path.relative_to(DOCS).as_posix()
                figures.append(SiteFigure(page, number, made.pop()))
    finally:
        posenc_site.figures.to_html = real
    return figures


def drawn(figure: Figure) -> str:
    """What matplotlib writes of ``figure`` as SVG, laid out by its own engine."""
    with svg.style():
        return svg._draw(figure)


def kilobytes(text: str) -> tuple[float, float]:
    """Size of ``text`` in kB (1000 bytes), raw and gzipped."""
    data = text.encode()
    return len(data) / 1000, len(gzip.compress(data, compresslevel=9)) / 1000


def optimisers(figures: list[SiteFigure], svgo_dir: Path | None, rounds: int) -> None:
    """Bytes and times of our cleaning and of svgo, figure by figure."""
    raws = [drawn(f.figure).replace(INK, "currentColor") for f in figures]
    ours = {f.name: float("inf") for f in figures}
    theirs = {f.name: float("inf") for f in figures}
    cleaned: dict[str, str] = {}
    optimised: dict[str, str] = {}
    node = _Svgo(svgo_dir) if svgo_dir is not None else None
    try:
        for _ in range(rounds):
            for f, raw in zip(figures, raws, strict=True):
                start = time.perf_counter()
                cleaned[f.name] = svg_clean.clean(raw, ink=INK, id_prefix="f-")
                ours[f.name] = min(ours[f.name], time.perf_counter() - start)
                if node is not None:
                    optimised[f.name], seconds = node.optimise(raw, prefix="f")
                    theirs[f.name] = min(theirs[f.name], seconds)
    finally:
        if node is not None:
            node.close()
    outputs = {"matplotlib": dict(zip([f.name for f in figures], raws, strict=True))}
    outputs["ours"] = cleaned
    times = {"ours": ours}
    if node is not None:
        outputs["svgo"], times["svgo"] = optimised, theirs
    print()
    print("SVG optimiser: kB raw/gzipped, elements, ms (best of rounds)")
    print(f"{'figure':36}" + "".join(f" {kind:>24}" for kind in outputs))
    totals = {kind: [0.0, 0.0, 0, 0.0] for kind in outputs}
    for f in figures:
        line = f"{f.name:36}"
        for kind, texts in outputs.items():
            size, packed = kilobytes(texts[f.name])
            elements = _elements(texts[f.name])
            took = times[kind][f.name] if kind in times else 0.0
            for n, value in enumerate((size, packed, elements, took)):
                totals[kind][n] += value
            ms = f"{took * 1000:5.1f}" if kind in times else ""
            line += f" {size:5.1f}/{packed:4.1f} {elements:4d} {ms:>5}"
        print(line)
    line = f"{'all ' + str(len(figures)):36}"
    for kind in outputs:
        size, packed, elements, took = totals[kind]
        ms = f"{took * 1000:5.0f}" if kind in times else ""
        line += f" {size:5.0f}/{packed:4.0f} {elements:4.0f} {ms:>5}"
    print(line)
    if node is not None:
        (size, packed, elements, took), ours_total = totals["svgo"], totals["ours"]
        print(
            f"svgo / ours: {size / ours_total[0]:.2f} raw, {packed / ours_total[1]:.2f} gzipped, "
            f"{elements / ours_total[2]:.2f} elements, {took / ours_total[3]:.2f} time"
        )
        kept = sum(
            [html.unescape(t) for t in _texts(optimised[f.name])]
            == [html.unescape(t) for t in _texts(cleaned[f.name])]
            for f in figures
        )
        print(f"svgo kept every text of {kept} of {len(figures)} figures")


def _texts(svg_text: str) -> list[str]:
    return re.findall(r">([^<>]+)</t(?:ext|span)>", svg_text)


def _elements(svg_text: str) -> int:
    """Elements a browser lays out and keeps: every start tag."""
    return len(re.findall(r"<[a-zA-Z]", svg_text))


def _layout_facts(figure: Figure) -> dict[str, float]:
    """What a layout did with ``figure``: legend over data, title off centre, text outside."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    with svg.style():
        FigureCanvasAgg(figure)
        figure.set_dpi(72)
        figure.draw_without_rendering()
        renderer = figure._get_renderer()  # type: ignore[attr-defined]
        whole = figure.bbox
        legend_over = 0.0
        for axes in figure.axes:
            legend = axes.get_legend()
            if legend is not None:
                box, data = legend.get_window_extent(renderer), axes.get_window_extent(renderer)
                across = min(box.x1, data.x1) - max(box.x0, data.x0)
                down = min(box.y1, data.y1) - max(box.y0, data.y0)
                legend_over += max(across, 0) * max(down, 0) / (data.width * data.height)
        titles = [a.title for a in figure.axes if a.title.get_text()]
        suptitle = getattr(figure, "_suptitle", None)
        title = suptitle if suptitle is not None else (titles[0] if titles else None)
        off_centre = 0.0
        if title is not None:
            box = title.get_window_extent(renderer)
            off_centre = abs((box.x0 + box.x1) / 2 - whole.width / 2)
        drawn_box = figure.get_tightbbox(renderer)  # in inches
        edges = figure.bbox_inches
        outside = 72 * max(
            0.0,
            edges.x0 - drawn_box.x0,
            drawn_box.x1 - edges.x1,
            edges.y0 - drawn_box.y0,
            drawn_box.y1 - edges.y1,
        )
        return {
            "legend": legend_over,
            "title": off_centre,
            "outside": outside,
            "height": figure.get_size_inches()[1] * 72,
        }


def layouts(own_made: list[SiteFigure], rounds: int, png: Path | None) -> None:
    """Times and facts of the figures' own layout and of constrained layout.

    Constrained layout gets figures of its own, made anew, so that nothing the other layout
    set (a title moved over the figure's centre) carries over.
    """
    made = {"own": own_made, "constrained": site_figures()}
    for f in made["constrained"]:
        f.figure.set_layout_engine(ConstrainedLayoutEngine())
    times: dict[str, dict[str, float]] = {kind: {} for kind in made}
    for _ in range(rounds):
        for n in range(len(own_made)):
            for kind, figures in made.items():
                f = figures[n]
                start = time.perf_counter()
                drawn(f.figure)
                took = time.perf_counter() - start
                times[kind][f.name] = min(times[kind].get(f.name, took), took)
    print()
    print("Layout: ms to lay out and write the SVG (best of rounds), own / constrained; legend:")
    print("share of the axes' data area a legend covers; title: pt from the figure's centre;")
    print("outside: pt of text beyond the figure's edge; height: pt")
    print(f"{'figure':36} {'ms':>13} {'legend':>11} {'title':>11} {'outside':>11} {'height':>11}")
    for n, f in enumerate(own_made):
        facts = []
        for kind, figures in made.items():
            facts.append(_layout_facts(figures[n].figure))
            if png is not None and not f.page.endswith(".tr.md"):
                name = f.name.replace("/", "-").replace("#", "-").replace(".md", "")
                with svg.style():
                    figures[n].figure.savefig(
                        png / f"{name}-{kind}.png", dpi=100, facecolor="white"
                    )
        cells = "".join(
            f" {facts[0][key]:5.1f}/{facts[1][key]:5.1f}" for key in ("title", "outside", "height")
        )
        ms = f"{times['own'][f.name] * 1000:6.1f}/{times['constrained'][f.name] * 1000:6.1f}"
        legend = f"{facts[0]['legend']:4.0%}/{facts[1]['legend']:4.0%}"
        print(f"{f.name:36} {ms:>13} {legend:>11}{cells}")
    own, constrained = (sum(times[kind].values()) for kind in made)
    print(f"{'all ' + str(len(own_made)):36} {own * 1000:6.0f}/{constrained * 1000:6.0f}")
    print(f"constrained / own time: {constrained / own:.2f}")


def main() -> None:
    """Parse the arguments, make the figures and print both comparisons."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svgo", type=Path, help="folder whose node_modules holds svgo")
    parser.add_argument("--rounds", type=int, default=5, help="calls of each, the best kept")
    parser.add_argument("--png", type=Path, help="write both layouts of each figure here")
    parser.add_argument("--skip-layout", action="store_true", help="the optimisers only")
    args = parser.parse_args()
    if args.svgo is not None and shutil.which("node") is None:
        sys.exit("--svgo needs Node.js (node) on the PATH")
    if args.png is not None:
        args.png.mkdir(parents=True, exist_ok=True)
    figures = site_figures()
    print(f"{len(figures)} figures in {len({f.page for f in figures})} pages")
    optimisers(figures, args.svgo, args.rounds)
    if not args.skip_layout:
        layouts(figures, args.rounds, args.png)


if __name__ == "__main__":
    main()
