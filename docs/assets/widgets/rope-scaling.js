// The scale factor θ / θ′ of every pair under PI, NTK-aware, YaRN and the Llama 3 rule, as
// posenc.rope_scaling computes them, for the scale factor s the reader chooses.
(function () {
  "use strict";
  const W = window.posencWidgets;
  const METHODS = ["pi", "ntk", "yarn", "llama3"];
  // Colour, dash and marker per method: the marker shapes tell the lines apart without colour.
  const LOOK = {
    pi: ["var(--md-default-fg-color)", "", "M-2.6 0a2.6 2.6 0 1 0 5.2 0a2.6 2.6 0 1 0-5.2 0"],
    ntk: ["var(--md-primary-fg-color)", "6 3", "M-2.3-2.3h4.6v4.6h-4.6z"],
    yarn: ["var(--md-accent-fg-color)", "2 2", "M0-3.2L2.9 2H-2.9z"],
    llama3: ["var(--md-default-fg-color--light)", "8 3 2 3", "M0-3.3L3.3 0L0 3.3L-3.3 0z"],
  };
  const WIDTH = 360, HEIGHT = 240, LEFT = 46, RIGHT = 348, TOP = 12, BOTTOM = 196;

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
  }

  // theta, and YaRN's ramp, which do not depend on s (posenc.rope_scaling.yarn_frequencies).
  function fixed(data) {
    const dim = data.head_dim, n = dim / 2, base = data.base;
    const theta = new Float64Array(n), ramp = new Float64Array(n);
    for (let i = 0; i < n; i++) theta[i] = Math.pow(base, -(2 * i) / dim);
    const pairIndex = (turns) =>
      (dim * Math.log(data.length / (turns * 2 * Math.PI))) / (2 * Math.log(base));
    let low = pairIndex(data.beta_fast), high = pairIndex(data.beta_slow);
    if (data.truncate) {
      low = Math.floor(low);
      high = Math.ceil(high);
    }
    low = Math.max(low, 0);
    high = Math.min(high, dim - 1);
    if (low === high) high += 0.001;
    for (let i = 0; i < n; i++) ramp[i] = Math.min(Math.max((i - low) / (high - low), 0), 1);
    return { dim, n, base, theta, ramp };
  }

  // θ / θ′ of every pair for each method at scale factor s, written into out.
  function scales(data, f, s, out) {
    const ntkBase = f.base * Math.pow(s, f.dim / (f.dim - 2));
    const L = data.length, lowF = data.low_freq_factor, highF = data.high_freq_factor;
    for (let i = 0; i < f.n; i++) {
      const theta = f.theta[i], r = f.ramp[i];
      out.pi[i] = theta / (theta / s);
      out.ntk[i] = theta / Math.pow(ntkBase, -(2 * i) / f.dim);
      out.yarn[i] = theta / ((theta / s) * r + theta * (1 - r));
      const wavelength = (2 * Math.PI) / theta;
      const smooth = (L / wavelength - lowF) / (highF - lowF);
      const blended = ((1 - smooth) * theta) / s + smooth * theta;
      const scaled =
        wavelength > L / lowF ? theta / s : wavelength < L / highF ? theta : blended;
      out.llama3[i] = theta / scaled;
    }
  }

  function mount(body, data, strings) {
    const f = fixed(data);
    const range = data.factor;
    const out = {};
    METHODS.forEach((m) => (out[m] = new Float64Array(f.n)));
    const top = Math.log2(range.max);
    const x = (i) => LEFT + ((RIGHT - LEFT) * i) / (f.n - 1);
    const y = (v) => BOTTOM - ((BOTTOM - TOP) * Math.log2(v)) / top;

    const controls = W.el("div", { class: "pe-widget__controls" }, body);
    const svg = W.svgEl("svg", {
      class: "pe-widget__figure", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img",
      "font-size": 14, fill: "currentColor",
    }, body);
    const label = (text, attrs) => W.svgEl("text", Object.assign({ text }, attrs), svg);
    const grid = "var(--md-default-fg-color--lightest)";
    // Ticks: the powers of 2 up to the largest s, and every quarter of the pairs.
    for (let k = 0; k <= Math.floor(top); k++) {
      const at = y(Math.pow(2, k)).toFixed(2);
      W.svgEl("line", { x1: LEFT, x2: RIGHT, y1: at, y2: at, stroke: grid }, svg);
      const tick = label("", { x: LEFT - 6, y: at, dy: "0.35em", "text-anchor": "end" });
      W.number(tick, Math.pow(2, k), 0, `tick.y[${k}]`);
    }
    [0, 1, 2, 3, 4].forEach((k) => {
      const i = k < 4 ? Math.round((k * f.n) / 4) : f.n - 1;
      const tick = label("", { x: x(i).toFixed(2), y: BOTTOM + 17, "text-anchor": "middle" });
      W.number(tick, i, 0, `tick.x[${k}]`);
    });
    W.svgEl("path", {
      d: `M${LEFT} ${TOP}V${BOTTOM}H${RIGHT}`, fill: "none", stroke: "currentColor",
    }, svg);
    label(strings.x_label, { x: (LEFT + RIGHT) / 2, y: HEIGHT - 6, "text-anchor": "middle" });
    label(strings.y_label, {
      x: 0, y: 0, "text-anchor": "middle",
      transform: `translate(13 ${(TOP + BOTTOM) / 2}) rotate(-90)`,
    });

    const lines = {}, marks = {};
    METHODS.forEach((m) => {
      const [colour, dash, shape] = LOOK[m];
      const group = W.svgEl("g", { stroke: colour, fill: "none", "stroke-width": 1.3 }, svg);
      lines[m] = W.svgEl("polyline", { "stroke-dasharray": dash }, group);
      marks[m] = [];
      for (let i = 0; i < f.n; i++) {
        marks[m].push(W.svgEl("path", { d: shape, "data-key": `scale.${m}[${i}]` }, group));
      }
    });

    // The sentence under the figure, its two lengths in <span>s set by W.number.
    const note = W.el("p", { class: "pe-widget__note" }, body), spans = {};
    strings.lengths.split(/\{(\w+)\}/).forEach((part, k) => {
      if (k % 2) spans[part] = W.el("span", {}, note);
      else note.append(part);
    });
    W.number(spans.trained, data.length, 0, "length.trained");

    // A table in a wrapper: .pe-widget__numbers is a flex row, which a <table> must not be.
    // The cells are made compact here, as Material pads a lesson's tables for reading.
    const table = W.el("table", {}, W.el("div", { class: "pe-widget__numbers" }, body));
    const compact = "padding:0.3em;min-width:0;white-space:nowrap";
    const cell = (tag, attrs, row) => W.el(tag, Object.assign({ style: compact }, attrs), row);
    W.el("caption", { text: strings.table }, table);
    const head = W.el("tr", {}, W.el("thead", {}, table));
    cell("th", { scope: "col", text: strings.method }, head);
    data.pairs.forEach((i) => cell("th", { scope: "col", text: fill(strings.pair, { i }) }, head));
    const rows = W.el("tbody", {}, table), cells = {};
    METHODS.forEach((m) => {
      const [colour, dash, shape] = LOOK[m];
      const row = W.el("tr", {}, rows);
      const name = cell("th", { scope: "row" }, row);
      const sample = W.svgEl("svg", {
        viewBox: "0 0 22 12", width: 22, height: 12, "aria-hidden": "true",
        stroke: colour, fill: "none", "stroke-width": 1.3,
      }, name);
      W.svgEl("path", { d: "M0 6H22", "stroke-dasharray": dash }, sample);
      W.svgEl("path", { d: shape, transform: "translate(11 6)" }, sample);
      name.append(" " + strings[m]);
      cells[m] = data.pairs.map(() => cell("td", {}, row));
    });
    const live = W.live(body);

    function update() {
      const s = Number(input.value);
      const shown = W.format(s, 1);
      scales(data, f, s, out);
      METHODS.forEach((m) => {
        const values = out[m], points = [];
        for (let i = 0; i < f.n; i++) {
          const px = x(i).toFixed(2), py = y(values[i]).toFixed(2);
          points.push(px + "," + py);
          marks[m][i].setAttribute("transform", `translate(${px} ${py})`);
          marks[m][i].dataset.value = String(values[i]);
        }
        lines[m].setAttribute("points", points.join(" "));
        data.pairs.forEach((i, k) => W.number(cells[m][k], values[i], 3, `scale.${m}[${i}]`));
      });
      W.number(spans.read, s * data.length, 0, "length.read");
      svg.setAttribute("aria-label", fill(strings.figure, { n: f.n, s: shown }));
      const middle = data.pairs[Math.floor(data.pairs.length / 2)], said = { s: shown, i: middle };
      METHODS.forEach((m) => (said[m] = W.format(out[m][middle], 3)));
      live.textContent = fill(strings.live, said);
    }

    const input = W.slider(controls, {
      name: "factor", label: strings.factor, min: range.min, max: range.max,
      step: range.step, value: range.value, format: (v) => W.format(Number(v), 1),
      onInput: update,
    });
    update();
  }

  W.register("rope-scaling", mount);
})();
