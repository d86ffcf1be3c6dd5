/* Explorable figure: one row of the sinusoidal table (posenc.sinusoidal_encoding, interleaved
 * layout). Sliders pick d_model and the position; the row is drawn as bars and listed. */
(function () {
  "use strict";
  const W = window.posencWidgets;
  const WIDTH = 340, HEIGHT = 176;
  const LEFT = 30, RIGHT = 334, TOP = 30, BOTTOM = 146; // the plot area, viewBox units
  const MID = (TOP + BOTTOM) / 2, HALF = (BOTTOM - TOP) / 2;
  const DIGITS = 3, FONT = 13;
  const SIN = "pe-widget__series-1", COS = "pe-widget__series-2"; // even, odd columns

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (_, key) { return String(values[key]); });
  }

  // Row `pos` of the table for `dModel` columns: column 2i holds sin(pos / base^(2i/d)),
  // column 2i+1 the cosine of the same angle.
  function row(out, pos, dModel, base) {
    for (let i = 0; 2 * i < dModel; i++) {
      const angle = pos / Math.pow(base, (2 * i) / dModel);
      out[2 * i] = Math.sin(angle);
      if (2 * i + 1 < dModel) out[2 * i + 1] = Math.cos(angle);
    }
    return out;
  }

  function mount(body, data, strings) {
    const dRange = data.d_model;
    const state = { d: dRange.value, pos: data.position };
    let values = new Float64Array(dRange.max);

    const controls = W.el("div", { class: "pe-widget__controls" }, body);
    W.slider(controls, {
      name: "d_model", label: strings.d_model, min: dRange.min, max: dRange.max,
      step: dRange.step, value: state.d, format: String,
      onInput: function (value) { state.d = value; rebuild(true); },
    });
    W.slider(controls, {
      name: "position", label: strings.position, min: 0, max: data.positions - 1, step: 1,
      value: state.pos, format: String,
      onInput: function (value) { state.pos = value; update(true); },
    });

    const svg = W.svgEl("svg", {
      class: "pe-widget__figure", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
    }, body);
    const axes = W.svgEl("g", { fill: "currentColor", "font-size": FONT }, svg);
    W.svgEl("line", {
      x1: LEFT, x2: RIGHT, y1: MID, y2: MID, stroke: "currentColor", "stroke-width": 1,
    }, axes);
    for (const [y, value, key] of [[TOP, 1, "max"], [MID, 0, "zero"], [BOTTOM, -1, "min"]]) {
      const label = W.svgEl("text", { x: LEFT - 4, y: y + 4, "text-anchor": "end" }, axes);
      W.number(label, value, 0, `tick.value.${key}`);
      W.svgEl("line", {
        x1: LEFT - 2, x2: RIGHT, y1: y, y2: y, stroke: "currentColor",
        "stroke-opacity": 0.2, "stroke-width": 0.5,
      }, axes);
    }
    const legend = W.svgEl("g", { "font-size": FONT, fill: "currentColor" }, svg);
    W.svgEl("rect", { x: LEFT, y: 8, width: 10, height: 10, class: SIN }, legend);
    W.svgEl("text", { x: LEFT + 14, y: 18, text: strings.sin }, legend);
    W.svgEl("rect", { x: LEFT + 156, y: 8, width: 10, height: 10, class: COS }, legend);
    W.svgEl("text", { x: LEFT + 170, y: 18, text: strings.cos }, legend);
    const firstTick = W.svgEl("text", { x: LEFT, y: BOTTOM + 16 }, axes);
    const lastTick = W.svgEl("text", { x: RIGHT, y: BOTTOM + 16, "text-anchor": "end" }, axes);
    W.svgEl("text", {
      x: (LEFT + RIGHT) / 2, y: BOTTOM + 28, "text-anchor": "middle", text: strings.dimension,
    }, axes);
    const bars = W.svgEl("g", {}, svg);

    W.el("p", { class: "pe-widget__note", text: strings.numbers }, body);
    const list = W.el("div", { class: "pe-widget__numbers" }, body);
    const live = W.live(body);
    let rects = [], cells = [];

    function rebuild(announce) {
      bars.replaceChildren();
      list.replaceChildren();
      const step = (RIGHT - LEFT) / state.d;
      const gap = state.d <= 32 ? step * 0.2 : 0;
      rects = [];
      cells = [];
      for (let j = 0; j < state.d; j++) {
        rects.push(W.svgEl("rect", {
          x: LEFT + j * step + gap / 2, width: step - gap, class: j % 2 ? COS : SIN,
        }, bars));
        const item = W.el("span", { class: "pe-widget__number" }, list);
        const label = W.el("span", { class: "pe-widget__key" }, item);
        W.number(label, j, 0, `dim[${j}]`);
        item.appendChild(document.createTextNode(": "));
        cells.push(W.el("span", {}, item));
      }
      W.number(firstTick, 0, 0, "tick.dim.first");
      W.number(lastTick, state.d - 1, 0, "tick.dim.last");
      update(announce);
    }

    function update(announce) {
      values = row(values, state.pos, state.d, data.base);
      for (let j = 0; j < state.d; j++) {
        const value = values[j], key = `pe[${state.pos}][${j}]`;
        const rect = rects[j];
        rect.setAttribute("y", String(value >= 0 ? MID - value * HALF : MID));
        rect.setAttribute("height", String(Math.abs(value) * HALF));
        rect.dataset.key = key;
        rect.dataset.value = String(value);
        W.number(cells[j], value, DIGITS, key);
      }
      const words = {
        pos: state.pos, d: state.d, first: W.format(values[0], DIGITS),
        last: state.d - 1, lastValue: W.format(values[state.d - 1], DIGITS),
      };
      svg.setAttribute("aria-label", fill(strings.figure, words));
      if (announce) live.textContent = fill(strings.summary, words);
    }

    rebuild(false);
  }

  W.register("sinusoidal-table", mount);
})();
