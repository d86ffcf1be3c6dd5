// Figures full screen. Each figure of the page (figure.pe-figure: an inline SVG, maybe a
// caption) has an "Enlarge figure" button; the button, or a tap on the drawing, shows a copy
// of the figure in a modal <dialog> that fills the screen. Without this script the figures
// show as they are (the buttons are hidden: the theme's noscript rule). The words come from this script's tag, in the page's language
// (posenc_site.publish.page_assets, from the "lightbox" strings of strings/<code>.yml).
//
// Why the browser's <dialog> and not GLightbox 3.3.1, the lightbox Material documents
// (measured in Chromium 156 on the first lesson, a figure's SVG as an inline slide): it
// showed the SVG, but left the focus on the page's button behind it, let Tab go on to a link
// of the page, and did not give the focus back after Esc; its dialog had no name (axe:
// aria-dialog-name) and an English "Close" built in; 17.9 KB gzipped (JS 15.3, CSS 2.6).
// showModal() moves the focus in, makes the page behind inert (mouse, keyboard, screen
// readers) and closes on Esc; this file adds the rest. It is loaded with the page, not on the
// first tap: a loader would cost the same one request, and a figure opens with no request,
// from disk or after the connection is lost.
(function () {
  "use strict";

  const tag = document.currentScript;
  const words = {
    enlarge: (tag && tag.dataset.enlarge) || "Enlarge figure",
    close: (tag && tag.dataset.close) || "Close",
  };
  const SVG = "http://www.w3.org/2000/svg";
  // Four corners (enlarge) and a cross (close), 24 × 24.
  const ENLARGE = "M3 3h7v2H5v5H3zm11 0h7v7h-2V5h-5zM3 14h2v5h5v2H3zm16 0h2v7h-7v-2h5z";
  const CLOSE =
    "M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 17.6 13.4 12 19 6.4 17.6 5 12 10.6z";

  function icon(path) {
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("focusable", "false");
    const shape = document.createElementNS(SVG, "path");
    shape.setAttribute("d", path);
    svg.append(shape);
    return svg;
  }

  // A deep copy of `node` whose ids do not clash with the page's: each id, and every
  // reference to it (url(#id), href="#id", aria-labelledby...), gets a suffix. Matplotlib's
  // SVG names its title and clip paths; two elements with one id would break both.
  function copy(node) {
    const clone = node.cloneNode(true);
    const elements = [clone, ...clone.querySelectorAll("*")];
    const renamed = new Map();
    for (const element of elements) {
      if (element.id) {
        renamed.set(element.id, element.id + "-enlarged");
        element.id += "-enlarged";
      }
    }
    const rename = (match, id) => (renamed.has(id) ? "#" + renamed.get(id) : match);
    for (const element of elements) {
      for (const attribute of Array.from(element.attributes)) {
        let value = attribute.value;
        if (/^aria-(labelledby|describedby)$/.test(attribute.name)) {
          value = value.split(/\s+/).map((id) => renamed.get(id) || id).join(" ");
        } else if (value.includes("#")) {
          value = value.replace(/#([^\s"'()#]+)/g, rename);
        }
        if (value !== attribute.value) attribute.value = value;
      }
    }
    return clone;
  }

  let dialog = null;
  let opener = null;

  function lightbox() {
    if (dialog) return dialog;
    dialog = document.createElement("dialog");
    dialog.className = "pe-lightbox";
    const close = document.createElement("button");
    close.type = "button";
    close.className = "pe-lightbox__close";
    close.setAttribute("aria-label", words.close);
    close.title = words.close;
    close.append(icon(CLOSE));
    close.addEventListener("click", () => dialog.close());
    const body = document.createElement("div");
    body.className = "pe-lightbox__body";
    // On a phone the figure is wider than the screen and scrolls: a keyboard scrolls it too.
    body.tabIndex = 0;
    const caption = document.createElement("div");
    caption.className = "pe-lightbox__caption";
    caption.id = "pe-lightbox-caption";
    // The close button first: showModal() gives it the focus.
    dialog.append(close, body, caption);
    // Keys stay in the dialog: Material's shortcuts (n, p, /, s...) act on the page behind it.
    // Tab, Enter and Esc keep their defaults.
    dialog.addEventListener("keydown", (event) => event.stopPropagation());
    // A click beside the figure closes it, as a tap outside a picture does elsewhere.
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog || event.target === body) dialog.close();
    });
    dialog.addEventListener("close", () => {
      body.replaceChildren();
      caption.replaceChildren();
      if (opener && opener.isConnected) opener.focus();
      opener = null;
    });
    document.body.append(dialog);
    return dialog;
  }

  function open(figure, picture, button) {
    const box = lightbox();
    const body = box.querySelector(".pe-lightbox__body");
    const caption = box.querySelector(".pe-lightbox__caption");
    const svg = copy(picture);
    svg.classList.remove("pe-figure__zoomable");
    body.replaceChildren(svg);
    const figcaption = figure.querySelector(":scope > figcaption");
    if (figcaption) caption.append(...copy(figcaption).childNodes);
    caption.hidden = !figcaption;
    // The dialog is named by the figure's caption, or else by the SVG's own title.
    const title = svg.querySelector("title");
    const name = figcaption ? caption.id : title && title.id;
    if (name) box.setAttribute("aria-labelledby", name);
    else box.removeAttribute("aria-labelledby");
    opener = button;
    box.showModal();
  }

  // The buttons are in the page as built (posenc_site.publish.page_assets): adding one per
  // figure here changed the page after its first paint, and the style and layout of the whole
  // lesson that followed was the longest task of its load (some 160 ms of a phone's time on
  // the longest lessons, measured by Lighthouse). One listener serves every figure.
  document.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const trigger = target && target.closest(".pe-figure__enlarge, .pe-figure__zoomable");
    const figure = trigger && trigger.closest("figure.pe-figure");
    const picture = figure && figure.querySelector(":scope > svg");
    if (!picture) return;
    open(figure, picture, figure.querySelector(":scope > .pe-figure__enlarge"));
  });
})();
