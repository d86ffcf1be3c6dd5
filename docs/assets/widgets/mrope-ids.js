/* Explorable figure: M-RoPE's (time, height, width) position ids of text tokens, an image of
 * chosen size and more text tokens (lesson images-and-video; posenc.mrope_position_ids). */
(function () {
  "use strict";
  const W = window.posencWidgets;

  // Layout in viewBox units: 340 wide, so that 13-unit text stays above 11 px on a phone.
  const VIEW_W = 340;
  const FONT = 13;
  const LEFT = 22; // the column of the t, h, w legend
  const CELL_W = 36;
  const CELL_H = 47;
  const GAP = 4;
  const LINE = 14; // baseline pitch of a cell's three ids
  const HEADING = 20;
  const SKIP = 14;
  const AXES = ["t", "h", "w"];

  // Qwen2-VL's rule, as posenc.mrope_position_ids: text counts on with the same id on the three
  // axes; an image of h x w tokens that starts at s gives its token at row r, column c the ids
  // (s, s + r, s + c); every segment starts one after the largest id used before it.
  function positionIds(before, height, width, after, out) {
    let k = 0;
    let largest = -1;
    function put(t, h, w) {
      out.t[k] = t;
      out.h[k] = h;
      out.w[k] = w;
      k += 1;
      largest = Math.max(largest, t, h, w);
    }
    function text(count) {
      const start = largest + 1;
      for (let i = 0; i < count; i += 1) put(start + i, start + i, start + i);
    }
    text(before);
    const start = largest + 1;
    for (let r = 0; r < height; r += 1) {
      for (let c = 0; c < width; c += 1) put(start, start + r, start + c);
    }
    const imageMax = largest;
    text(after);
    return { n: k, start: start, max: imageMax, next: imageMax + 1, largest: largest };
  }

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return name in values ? String(values[name]) : whole;
    });
  }

  function mount(body, data, strings) {
    const size = Math.max(
      data.before.max + data.height.max * data.width.max + data.after.max,
      data.example.ids[0].length
    );
    const out = { t: new Int32Array(size), h: new Int32Array(size), w: new Int32Array(size) };

    // The script's rule must give posenc's ids on the lesson's example before it shows any.
    const [exBefore, [, exHeight, exWidth], exAfter] = data.example.segments;
    const ex = positionIds(exBefore, exHeight, exWidth, exAfter, out);
    AXES.forEach(function (axis, row) {
      const ids = data.example.ids[row];
      if (ids.length !== ex.n || ids.some((id, k) => id !== out[axis][k])) {
        throw new Error("mrope-ids: the script's position ids differ from posenc's");
      }
    });

    const state = {};
    const controls = W.el("div", { class: "pe-widget__controls" }, body);
    ["before", "height", "width", "after"].forEach(function (name) {
      state[name] = data[name].value;
      W.slider(controls, {
        name: name, label: strings[name], min: data[name].min, max: data[name].max, step: 1,
        value: data[name].value, format: String,
        onInput: function (value) { state[name] = value; draw(); },
      });
    });
    W.el("p", { class: "pe-widget__note", text: strings.key }, body);

    const svg = W.svgEl("svg", {
      class: "pe-widget__figure", role: "img", width: VIEW_W,
      style: "max-width: 20rem; font-variant-numeric: tabular-nums",
    }, body);
    const cells = W.svgEl("g", { "font-size": FONT }, svg);

    const table = W.el("tbody", {}, W.el("table", { class: "pe-widget__numbers" }, body));
    const shown = {};
    ["start", "max", "next", "tokens", "rope_delta"].forEach(function (key) {
      const row = W.el("tr", {}, table);
      W.el("th", { scope: "row", style: "text-align: left", text: strings[key] }, row);
      shown[key] = W.el("td", { style: "padding-left: 0.8em; text-align: right; white-space: nowrap" }, row);
    });
    const live = W.live(body);

    const fg = "fill: var(--md-default-fg-color)";
    const faint = "fill: var(--md-default-fg-color--light)";

    function heading(text, y) {
      W.svgEl("text", { x: 0, y: y + FONT, style: fg, "font-weight": "bold", text: text }, cells);
      return y + HEADING;
    }

    function legend(y) {
      AXES.forEach(function (axis, a) {
        W.svgEl("text", {
          x: LEFT / 2 - 2, y: y + LINE * (a + 1), "text-anchor": "middle", style: faint,
          text: strings["axis_" + axis],
        }, cells);
      });
    }

    function cell(k, x, y, kind) {
      const frame = {
        text: "fill: none; stroke: var(--md-default-fg-color--light)",
        image: "fill: var(--md-primary-fg-color); fill-opacity: 0.14; " +
          "stroke: var(--md-primary-fg-color)",
        next: "fill: none; stroke: var(--md-accent-fg-color); stroke-width: 2.5",
      }[kind];
      W.svgEl("rect", { x: x, y: y, width: CELL_W, height: CELL_H, rx: 3, style: frame }, cells);
      const label = W.svgEl("text", { "text-anchor": "middle", style: fg }, cells);
      AXES.forEach(function (axis, a) {
        const line = W.svgEl("tspan", { x: x + CELL_W / 2, y: y + LINE * (a + 1) }, label);
        W.number(line, out[axis][k], 0, "id." + axis + "[" + k + "]");
      });
    }

    // Draws tokens first .. first + count - 1 from y, `columns` to a row; returns the new y.
    function block(title, y, first, count, columns, kindOf) {
      y = heading(title, y);
      if (count === 0) {
        W.svgEl("text", { x: LEFT, y: y + FONT, style: faint, text: strings.none }, cells);
        return y + HEADING;
      }
      const rows = Math.ceil(count / columns);
      for (let row = 0; row < rows; row += 1) legend(y + row * (CELL_H + GAP));
      for (let i = 0; i < count; i += 1) {
        const x = LEFT + (i % columns) * (CELL_W + GAP);
        cell(first + i, x, y + Math.floor(i / columns) * (CELL_H + GAP), kindOf(i));
      }
      return y + rows * (CELL_H + GAP) - GAP;
    }

    function draw() {
      const before = state.before;
      const height = state.height;
      const width = state.width;
      const after = state.after;
      const ids = positionIds(before, height, width, after, out);
      const textColumns = Math.floor((VIEW_W - LEFT + GAP) / (CELL_W + GAP));
      cells.textContent = "";
      let y = block(strings.text_before, 0, 0, before, textColumns, () => "text");
      y = block(strings.image, y + SKIP, before, height * width, width, () => "image");
      y = block(strings.text_after, y + SKIP, ids.n - after, after, textColumns,
        (i) => (i === 0 ? "next" : "text"));
      const viewH = Math.ceil(y + 3);
      svg.setAttribute("viewBox", "0 0 " + VIEW_W + " " + viewH);
      svg.setAttribute("height", viewH);
      svg.setAttribute("aria-label", fill(strings.figure, state));

      const values = {
        start: ids.start,
        max: ids.max,
        next: ids.next,
        tokens: before + height * width,
        rope_delta: ids.largest + 1 - ids.n,
      };
      for (const key in shown) W.number(shown[key], values[key], 0, key);
      live.textContent = fill(strings.live, values);
    }

    draw();
  }

  W.register("mrope-ids", mount);
})();
