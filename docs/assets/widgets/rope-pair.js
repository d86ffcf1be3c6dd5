// The rope-pair figure (lesson Rotary position embedding): pair i of a query at position m + s
// and of a key at n + s, each turned by its position times theta_i as posenc.rotary.apply_rotary
// turns it, and their score, which depends on the offset n - m only.
(function () {
  "use strict";
  const W = window.posencWidgets;
  const TAU = 2 * Math.PI;
  const FG = "var(--md-default-fg-color)";
  const LIGHT = "var(--md-default-fg-color--light)";
  // q and the strip in the accent colour, which keeps 3:1 against both themes' backgrounds;
  // k and all text in the text colour.
  const Q_COLOUR = "var(--md-accent-fg-color)";
  // The circle figure, in viewBox units: its centre, the radius of the longer vector, the
  // radii of the two angle arcs.
  const CX = 180;
  const CY = 130;
  const RADIUS = 100;
  const ARC = { q: 24, k: 38 };
  // The strip of scores against the offset: its plotting box.
  const BOX = { left: 44, right: 346, top: 14, bottom: 108 };

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? values[key] : whole));
  }

  function keyed(el, key, value) {
    el.dataset.key = key;
    el.dataset.value = String(value);
  }

  // (x, y) turned by angle, as apply_rotary turns the pair (x[2i], x[2i + 1]).
  function rotate(pair, angle, out) {
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    out[0] = pair[0] * cos - pair[1] * sin;
    out[1] = pair[0] * sin + pair[1] * cos;
    return out;
  }

  function wrap(angle) {
    return ((angle % TAU) + TAU) % TAU;
  }

  function point(radius, angle) {
    return [CX + radius * Math.cos(angle), CY - radius * Math.sin(angle)];
  }

  // An arc of the given radius from angle `from`, counterclockwise by `turn` in [0, 2 pi).
  function arcPath(radius, from, turn) {
    const start = point(radius, from);
    const end = point(radius, from + turn);
    const large = turn > Math.PI ? 1 : 0;
    return "M" + start.join(" ") + (turn > 0 ? "A" + radius + " " + radius + " 0 " + large +
      " 0 " + end.join(" ") : "");
  }

  function vector(svg, colour, dashed) {
    const group = W.svgEl("g", { style: "stroke:" + colour + ";fill:" + colour }, svg);
    const line = W.svgEl("line", { "stroke-width": dashed ? 1.5 : 2.5 }, group);
    if (dashed) line.setAttribute("stroke-dasharray", "5 4");
    const head = dashed ? null : W.svgEl("polygon", { "stroke-width": 0 }, group);
    return { group: group, line: line, head: head };
  }

  // Draws `v` (a vector in the figure's units) from the centre, with a head if it has one.
  function drawVector(drawn, v, scale) {
    const length = Math.hypot(v[0], v[1]) * scale;
    const ux = length > 0 ? (v[0] * scale) / length : 1;
    const uy = length > 0 ? (-v[1] * scale) / length : 0;
    const tipX = CX + ux * length;
    const tipY = CY + uy * length;
    const back = drawn.head ? Math.min(6, length) : 0;
    drawn.line.setAttribute("x1", CX);
    drawn.line.setAttribute("y1", CY);
    drawn.line.setAttribute("x2", tipX - ux * back);
    drawn.line.setAttribute("y2", tipY - uy * back);
    if (drawn.head) {
      const bx = tipX - ux * 10;
      const by = tipY - uy * 10;
      drawn.head.setAttribute("points", [tipX, tipY, bx - uy * 4.5, by + ux * 4.5,
        bx + uy * 4.5, by - ux * 4.5].join(" "));
    }
    return [tipX + ux * 15, tipY + uy * 15];
  }

  function text(svg, attrs, style) {
    return W.svgEl("text", Object.assign({ style: "fill:" + (style || FG) + ";font-size:13px" },
      attrs), svg);
  }

  // One labelled number (or a pair of them, in parentheses) of the numbers list.
  function numberItem(list, label, count) {
    const item = W.el("span", { class: "pe-widget__number" }, list);
    W.el("span", { class: "pe-widget__key", text: label + " " }, item);
    if (count > 1) item.append("(");
    const spans = [];
    for (let index = 0; index < count; index += 1) {
      if (index > 0) item.append(", ");
      spans.push(W.el("span", {}, item));
    }
    if (count > 1) item.append(")");
    return spans;
  }

  function mount(body, data, strings) {
    const d = data.head_dim;
    const q = data.q;
    const k = data.k;
    const maxPosition = data.max_position;
    const state = Object.assign({}, data.start);
    const normQ = Math.hypot(q[0], q[1]);
    const normK = Math.hypot(k[0], k[1]);
    const scale = RADIUS / Math.max(normQ, normK);
    const phaseQ = Math.atan2(q[1], q[0]);
    const phaseK = Math.atan2(k[1], k[0]);
    const maxScore = normQ * normK;
    const rq = [0, 0];
    const rk = [0, 0];
    const turned = [0, 0];

    const controls = W.el("div", { class: "pe-widget__controls" }, body);
    const inputs = {};
    const sliders = [
      ["i", strings.pair, d / 2 - 1],
      ["m", strings.query_position, maxPosition],
      ["n", strings.key_position, maxPosition],
      ["s", strings.shift, data.max_shift],
    ];
    sliders.forEach(([name, label, max]) => {
      inputs[name] = W.slider(controls, {
        name: name, label: label, min: 0, max: max, step: 1, value: state[name],
        format: (value) => W.format(Number(value), 0),
        onInput: () => {
          state[name] = Number(inputs[name].value);
          update();
        },
      });
    });

    // The circle and its numbers side by side where there is room, one above the other on a phone.
    const row = W.el("div", { style: "display:flex;flex-wrap:wrap;align-items:center;gap:0 1rem" },
      body);
    const circle = W.svgEl("svg", { class: "pe-widget__figure", viewBox: "0 0 360 260",
      role: "img", style: "flex:1 1 15rem;max-width:20rem;min-width:0" }, row);
    const axes = { style: "stroke:" + LIGHT, "stroke-width": 1 };
    W.svgEl("line", Object.assign({ x1: CX - 130, y1: CY, x2: CX + 130, y2: CY }, axes), circle);
    W.svgEl("line", Object.assign({ x1: CX, y1: CY - 125, x2: CX, y2: CY + 125 }, axes), circle);
    [["q", normQ], ["k", normK]].forEach(([name, norm]) => {
      keyed(W.svgEl("circle", { cx: CX, cy: CY, r: norm * scale, fill: "none",
        style: "stroke:" + LIGHT, "stroke-width": 1 }, circle), "norm." + name, norm);
    });
    const arcs = {};
    [["q", Q_COLOUR], ["k", FG]].forEach(([name, colour]) => {
      arcs[name] = W.svgEl("path", { fill: "none", style: "stroke:" + colour,
        "stroke-width": 1.5 }, circle);
    });
    const startQ = vector(circle, Q_COLOUR, true);
    const startK = vector(circle, FG, true);
    drawVector(startQ, q, scale);
    drawVector(startK, k, scale);
    keyed(startQ.group, "phase.q", phaseQ);
    keyed(startK.group, "phase.k", phaseK);
    const arrowQ = vector(circle, Q_COLOUR, false);
    const arrowK = vector(circle, FG, false);
    const tipQ = text(circle, { "text-anchor": "middle", "dominant-baseline": "middle" });
    const tipK = text(circle, { "text-anchor": "middle", "dominant-baseline": "middle" });
    tipQ.textContent = strings.tip_q;
    tipK.textContent = strings.tip_k;

    const list = W.el("div", { class: "pe-widget__numbers",
      style: "flex:0 1 auto;min-width:0;flex-flow:column nowrap;align-items:flex-start" }, row);
    const shown = {
      theta: numberItem(list, strings.theta, 1),
      angleQ: numberItem(list, strings.angle_q, 1),
      angleK: numberItem(list, strings.angle_k, 1),
      offset: numberItem(list, strings.offset, 1),
      diff: numberItem(list, strings.angle_diff, 1),
      rq: numberItem(list, strings.rotated_q, 2),
      rk: numberItem(list, strings.rotated_k, 2),
      score: numberItem(list, strings.score, 1),
    };
    W.el("p", { class: "pe-widget__note", text: strings.circle_note }, body);

    const strip = W.svgEl("svg", { class: "pe-widget__figure", viewBox: "0 0 360 150",
      role: "img", style: "max-width:20rem" }, body);
    const midY = (BOX.top + BOX.bottom) / 2;
    const half = (BOX.bottom - BOX.top) / 2;
    const x = (offset) => BOX.left + ((offset + maxPosition) / (2 * maxPosition)) *
      (BOX.right - BOX.left);
    W.svgEl("line", Object.assign({ x1: BOX.left, y1: midY, x2: BOX.right, y2: midY }, axes),
      strip);
    W.svgEl("line", Object.assign({ x1: x(0), y1: BOX.top, x2: x(0), y2: BOX.bottom }, axes),
      strip);
    const end = { "text-anchor": "end", "dominant-baseline": "middle" };
    W.number(text(strip, Object.assign({ x: BOX.left - 5, y: BOX.top }, end)), maxScore, 2,
      "tick.score.max");
    W.number(text(strip, Object.assign({ x: BOX.left - 5, y: BOX.bottom }, end)), -maxScore, 2,
      "tick.score.min");
    [[-maxPosition, "min"], [0, "zero"], [maxPosition, "max"]].forEach(([value, name]) => {
      W.number(text(strip, { x: x(value), y: BOX.bottom + 17, "text-anchor": "middle" }), value,
        0, "tick.offset." + name);
    });
    text(strip, { x: (BOX.left + BOX.right) / 2, y: BOX.bottom + 36, "text-anchor": "middle" })
      .textContent = strings.axis_offset;
    const dots = [];
    for (let offset = -maxPosition; offset <= maxPosition; offset += 1) {
      dots.push(W.svgEl("circle", { cx: x(offset), r: 1.8, style: "fill:" + Q_COLOUR }, strip));
    }
    W.el("p", { class: "pe-widget__note", text: strings.strip_caption }, body);
    const live = W.live(body);
    let current = null;

    function update() {
      const theta = Math.pow(data.base, -(2 * state.i) / d);
      const angleQ = (state.m + state.s) * theta;
      const angleK = (state.n + state.s) * theta;
      const offset = state.n - state.m;
      rotate(q, angleQ, rq);
      rotate(k, angleK, rk);
      const score = rq[0] * rk[0] + rq[1] * rk[1];

      W.number(shown.theta[0], theta, 6, "theta");
      W.number(shown.angleQ[0], angleQ, 4, "angle.q");
      W.number(shown.angleK[0], angleK, 4, "angle.k");
      W.number(shown.offset[0], offset, 0, "offset");
      W.number(shown.diff[0], offset * theta, 4, "angle.diff");
      W.number(shown.rq[0], rq[0], 4, "rq[0]");
      W.number(shown.rq[1], rq[1], 4, "rq[1]");
      W.number(shown.rk[0], rk[0], 4, "rk[0]");
      W.number(shown.rk[1], rk[1], 4, "rk[1]");
      W.number(shown.score[0], score, 4, "score");

      const turnQ = wrap(angleQ);
      const turnK = wrap(angleK);
      arcs.q.setAttribute("d", arcPath(ARC.q, phaseQ, turnQ));
      arcs.k.setAttribute("d", arcPath(ARC.k, phaseK, turnK));
      keyed(arcs.q, "arc.q", turnQ);
      keyed(arcs.k, "arc.k", turnK);
      const labelQ = drawVector(arrowQ, rq, scale);
      const labelK = drawVector(arrowK, rk, scale);
      keyed(arrowQ.group, "arrow.q", angleQ);
      keyed(arrowK.group, "arrow.k", angleK);
      tipQ.setAttribute("x", labelQ[0]);
      tipQ.setAttribute("y", labelQ[1]);
      tipK.setAttribute("x", labelK[0]);
      tipK.setAttribute("y", labelK[1]);

      // The score at each offset: q at position 0, k at the offset (only the offset counts).
      for (let index = 0; index < dots.length; index += 1) {
        const delta = index - maxPosition;
        rotate(k, delta * theta, turned);
        const value = q[0] * turned[0] + q[1] * turned[1];
        dots[index].setAttribute("cy", midY - (value / maxScore) * half);
        keyed(dots[index], "strip[" + delta + "]", value);
      }
      if (current) {
        current.setAttribute("r", 1.8);
        current.style.fill = Q_COLOUR;
      }
      current = dots[offset + maxPosition];
      current.setAttribute("r", 4.5);
      current.style.fill = FG;
      strip.appendChild(current); // drawn last, on top of its neighbours

      const words = {
        i: W.format(state.i, 0), s: W.format(state.s, 0), offset: W.format(offset, 0),
        score: W.format(score, 4), angle_q: W.format(angleQ, 4), angle_k: W.format(angleK, 4),
        min: W.format(-maxPosition, 0), max: W.format(maxPosition, 0),
      };
      circle.setAttribute("aria-label", fill(strings.figure_label, words));
      strip.setAttribute("aria-label", fill(strings.strip_label, words));
      live.textContent = fill(strings.live, words);
    }

    update();
  }

  W.register("rope-pair", mount);
})();
