// ALiBi's slopes for a chosen number of heads, and the causal bias of one head
// (lesson alibi-t5). The formulas mirror posenc.alibi_slopes and posenc.alibi_bias.
(function () {
  "use strict";
  const W = window.posencWidgets;
  // viewBox width of both figures; 14-unit text is still 11 px in the 294 px a phone gives them
  const WIDTH = 360;
  const FONT = 14;
  const SLOPE_DIGITS = 4;
  const BIAS_DIGITS = 3;
  const SIZE = "max-width: 22rem"; // on a wide screen, text about the size of the page's
  const MOST = 0.7; // a cell's strongest shade: the text on it keeps a 4.5:1 contrast
  const PRIMARY = "var(--md-primary-fg-color)";
  const ACCENT = "var(--md-accent-fg-color)";
  const LIGHT = "var(--md-default-fg-color--light)";
  const FAINT = "var(--md-default-fg-color--lightest)";

  // posenc.alibi_slopes: for a power of two n, start ** (1..n) with start = 2 ** (-E / n);
  // otherwise the slopes of the largest power of two below n, then every other slope of
  // the next power of two.
  function slopes(n, exponent) {
    let closest = 1;
    while (closest * 2 <= n) closest *= 2;
    const start = Math.pow(2, -exponent / closest);
    const out = [];
    for (let k = 1; k <= closest; k++) out.push(Math.pow(start, k));
    if (closest < n) {
      const next = slopes(2 * closest, exponent);
      for (let k = 0; out.length < n; k += 2) out.push(next[k]);
    }
    return out;
  }

  // posenc.alibi_bias(n_heads, n)[head][i][j]: -slope * (i - j), keys after the query masked.
  function bias(slope, i, j) {
    return j > i ? -Infinity : slope * (j - i); // j - i, not -(i - j): no -0 on the diagonal
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (all, name) => String(values[name]));
  }

  function text(parent, x, y, content, attrs) {
    return W.svgEl("text", Object.assign({ x: x, y: y, text: content }, attrs), parent);
  }

  // The width of a number written in FONT units: digits are wider than a sign or a point.
  function width(label) {
    const digits = label.replace(/[^0-9]/g, "").length;
    return FONT * (0.58 * digits + 0.36 * (label.length - digits));
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function drawSlopes(svg, all, head, strings) {
    const left = 46;
    const plotWidth = WIDTH - left - 6;
    const slot = plotWidth / all.length;
    const written = slot >= 14; // each bar's value, written upwards above it
    const top = written ? 52 : 12;
    const plotHeight = 100;
    const bottom = top + plotHeight;
    svg.setAttribute("viewBox", "0 0 " + WIDTH + " " + (bottom + 38));
    const y = (value) => bottom - plotHeight * value;
    clear(svg);
    [0, 0.5, 1].forEach((tick) => {
      W.svgEl("line", { x1: left, x2: left + plotWidth, y1: y(tick), y2: y(tick),
        style: "stroke: " + FAINT }, svg);
      text(svg, left - 6, y(tick) + 4, String(tick),
        { "text-anchor": "end", style: "fill: " + LIGHT });
    });
    text(svg, 12, top + plotHeight / 2, strings.slope_axis, { "text-anchor": "middle",
      transform: "rotate(-90 12 " + (top + plotHeight / 2) + ")" });
    const centre = (k) => left + (k + 0.5) * slot;
    all.forEach((slope, k) => {
      const key = "slope[" + k + "]";
      const bar = W.svgEl("rect", { x: centre(k) - Math.max(slot * 0.35, 0.75), y: y(slope),
        width: Math.max(slot * 0.7, 1.5), height: plotHeight * slope,
        style: "fill: " + (k === head ? ACCENT : PRIMARY) }, svg);
      bar.dataset.key = key;
      bar.dataset.value = String(slope);
      if (written) {
        const label = text(svg, centre(k) + 4, y(slope) - 4, "",
          { transform: "rotate(-90 " + (centre(k) + 4) + " " + (y(slope) - 4) + ")" });
        W.number(label, slope, SLOPE_DIGITS, key);
      }
    });
    const last = all.length - 1;
    const ticks = slot >= 20 ? all.map((s, k) => k) : [0, head, last].filter(
      (k, n, list) => list.indexOf(k) === n && (k === head || Math.abs(k - head) * slot >= 26));
    ticks.forEach((k) => {
      text(svg, centre(k), bottom + 15, String(k), { "text-anchor": "middle",
        style: k === head ? "font-weight: 700" : "fill: " + LIGHT });
    });
    text(svg, left + plotWidth / 2, bottom + 34, strings.head_axis, { "text-anchor": "middle" });
  }

  function drawBias(svg, slope, n, shade, strings) {
    const left = 40;
    const top = 42;
    const cell = (WIDTH - left - 4) / n;
    const values = [];
    for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) values.push(bias(slope, i, j));
    const written = values.filter(isFinite)
      .every((v) => cell >= width(W.format(v, BIAS_DIGITS)) + 6);
    clear(svg);
    text(svg, left + (n * cell) / 2, 15, strings.key_axis, { "text-anchor": "middle" });
    const middle = top + (n * cell) / 2;
    text(svg, 12, middle, strings.query_axis, { "text-anchor": "middle",
      transform: "rotate(-90 12 " + middle + ")" });
    for (let k = 0; k < n; k++) {
      const at = (k + 0.5) * cell;
      const faint = "fill: " + LIGHT;
      text(svg, left + at, top - 7, String(k), { "text-anchor": "middle", style: faint });
      text(svg, left - 5, top + at + 5, String(k), { "text-anchor": "end", style: faint });
    }
    values.forEach((value, index) => {
      const i = Math.floor(index / n);
      const j = index % n;
      const key = "bias[" + i + "][" + j + "]";
      const strength = isFinite(value) ? -value / shade : 0; // 0 on the diagonal, 1 strongest
      const rect = W.svgEl("rect", { x: left + j * cell + 0.5, y: top + i * cell + 0.5,
        width: cell - 1, height: cell - 1, style: isFinite(value)
          ? "fill: " + PRIMARY + "; fill-opacity: " + (0.1 + (MOST - 0.1) * strength)
          : "fill: " + FAINT }, svg);
      rect.dataset.key = key;
      rect.dataset.value = String(value);
      if (written && isFinite(value)) {
        const label = text(svg, left + (j + 0.5) * cell, top + (i + 0.5) * cell + 5, "",
          { "text-anchor": "middle" });
        W.number(label, value, BIAS_DIGITS, key);
      }
    });
  }

  function mount(body, data, strings) {
    const controls = W.el("div", { class: "pe-widget__controls" }, body);
    const redraw = () => update();
    const heads = W.slider(controls, Object.assign({ name: "heads", label: strings.heads,
      step: 1, format: String, onInput: redraw }, data.heads));
    const head = W.slider(controls, { name: "head", label: strings.head, min: 0,
      max: data.heads.value - 1, step: 1, value: data.head, format: String, onInput: redraw });
    const length = W.slider(controls, Object.assign({ name: "length", label: strings.length,
      step: 1, format: String, onInput: redraw }, data.length));

    W.el("p", { class: "pe-widget__note", text: strings.slopes_title }, body);
    const slopeFigure = W.svgEl("svg", { class: "pe-widget__figure", role: "img",
      "font-size": FONT, fill: "currentColor", style: SIZE }, body);
    const slopeLine = W.el("p", { class: "pe-widget__note" }, body);
    const slopeName = W.el("span", {}, slopeLine);
    slopeLine.appendChild(document.createTextNode(" "));
    const slopeValue = W.el("strong", {}, slopeLine);

    const biasTitle = W.el("p", { class: "pe-widget__note" }, body);
    const biasFigure = W.svgEl("svg", { class: "pe-widget__figure", role: "img",
      viewBox: "0 0 " + WIDTH + " 362", "font-size": FONT, fill: "currentColor", style: SIZE },
      body);
    W.el("p", { class: "pe-widget__note", text: strings.note }, body);
    W.el("p", { class: "pe-widget__note", text: strings.distances }, body);
    const distances = W.el("div", { class: "pe-widget__numbers" }, body);
    const live = W.live(body);

    let syncing = false;
    function update() {
      if (syncing) return;
      const nHeads = Number(heads.value);
      if (Number(head.max) !== nHeads - 1) {
        head.max = String(nHeads - 1);
        if (Number(head.value) > nHeads - 1) head.value = String(nHeads - 1);
        syncing = true; // the event only refreshes the head's shown value; this call draws
        head.dispatchEvent(new Event("input", { bubbles: true }));
        syncing = false;
      }
      const h = Number(head.value);
      const n = Number(length.value);
      const all = slopes(nHeads, data.slope_exponent);
      const slope = all[h];
      const lowest = bias(slope, n - 1, 0);
      const shown = (value, digits) => W.format(value, digits);
      drawSlopes(slopeFigure, all, h, strings);
      slopeFigure.setAttribute("aria-label", fill(strings.slopes_alt,
        { last: nHeads - 1, head: h, slope: shown(slope, SLOPE_DIGITS) }));
      slopeName.textContent = fill(strings.slope_line, { head: h });
      W.number(slopeValue, slope, SLOPE_DIGITS, "slope[" + h + "]");
      biasTitle.textContent = fill(strings.bias_title, { head: h });
      // One colour scale for every head: the steepest one's farthest key is the darkest.
      drawBias(biasFigure, slope, n, Math.max(...all) * (n - 1), strings);
      biasFigure.setAttribute("aria-label", fill(strings.bias_alt, { head: h, n: n,
        slope: shown(slope, SLOPE_DIGITS), lowest: shown(lowest, BIAS_DIGITS) }));
      clear(distances);
      for (let d = 0; d < n; d++) {
        const item = W.el("span", {}, distances);
        W.el("span", { text: fill(strings.distance, { d: d }) + ": " }, item);
        W.number(W.el("span", {}, item), bias(slope, n - 1, n - 1 - d), BIAS_DIGITS,
          "bias[" + (n - 1) + "][" + (n - 1 - d) + "]");
      }
      live.textContent = fill(strings.live, { head: h, heads: nHeads,
        slope: shown(slope, SLOPE_DIGITS), far: n - 1, bias: shown(lowest, BIAS_DIGITS) });
    }

    update();
  }

  W.register("alibi", mount);
})();
