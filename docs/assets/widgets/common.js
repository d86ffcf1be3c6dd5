/* The explorable figures' runtime (posenc_site.widgets): what every widget script uses.
 * Loaded by the page's inline loader before the first widget's script; a classic script, so
 * the pages work when opened from disk. */
(function () {
  "use strict";
  if (window.posencWidgets) return;
  const SVG = "http://www.w3.org/2000/svg";
  let nextId = 0;

  function apply(node, attrs) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null) continue;
      if (key === "text") node.textContent = value;
      else node.setAttribute(key, String(value));
    }
    return node;
  }

  function el(tag, attrs, parent) {
    const node = apply(document.createElement(tag), attrs);
    if (parent) parent.appendChild(node);
    return node;
  }

  function svgEl(tag, attrs, parent) {
    const node = apply(document.createElementNS(SVG, tag), attrs);
    if (parent) parent.appendChild(node);
    return node;
  }

  function format(value, digits) {
    const text = Number(value).toFixed(digits);
    return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
  }

  function number(node, value, digits, key) {
    node.textContent = format(value, digits);
    node.dataset.value = String(value);
    node.dataset.key = key;
    return node;
  }

  function uniqueId(parent, name) {
    const root = parent.closest(".pe-widget");
    return `${root ? root.id : "widget"}-${name}-${nextId++}`;
  }

  function control(parent, label, id) {
    const box = el("div", { class: "pe-widget__control" }, parent);
    el("label", { for: id, text: label }, box);
    return box;
  }

  function slider(parent, options) {
    const format_ = options.format || String;
    const id = uniqueId(parent, options.name);
    const box = control(parent, options.label, id);
    const input = el("input", {
      type: "range", id: id, min: options.min, max: options.max,
      step: options.step === undefined ? 1 : options.step,
    }, box);
    input.value = String(options.value);
    input.dataset.control = options.name;
    // The value as shown; the input states it to screen readers, so the output is not read.
    const output = el("output", { for: id, "aria-hidden": "true" }, box);
    function show() {
      const value = Number(input.value);
      output.textContent = format_(value);
      input.setAttribute("aria-valuetext", format_(value));
      return value;
    }
    show();
    input.addEventListener("input", function () {
      const value = show();
      if (options.onInput) options.onInput(value);
    });
    return input;
  }

  function live(parent) {
    return el("p", { class: "pe-visually-hidden", "aria-live": "polite" }, parent);
  }

  function mountOne(root, mount) {
    const json = JSON.parse(root.querySelector("script.pe-widget__data").textContent);
    const body = el("div", { class: "pe-widget__body" }, root);
    try {
      mount(body, json.data, json.strings);
    } catch (error) {
      body.remove();
      root.dataset.error = "true";
      el("p", { class: "pe-widget__note", role: "alert", text: root.dataset.failed }, root);
      throw error;
    } finally {
      const waiting = root.querySelector(".pe-widget__waiting");
      if (waiting) waiting.remove();
    }
    root.dataset.ready = "true";
  }

  function register(name, mount) {
    let failure = null;
    for (const root of document.querySelectorAll(`.pe-widget[data-widget="${name}"]`)) {
      if (root.dataset.ready || root.dataset.error) continue;
      try {
        mountOne(root, mount);
      } catch (error) {
        failure = failure || error;
      }
    }
    if (failure) throw failure; // to the console, once every widget of the name is tried
  }

  window.posencWidgets = { register, el, svgEl, slider, number, format, live };
})();
