// The site's script, one file for every page (one request; posenc_site.publish.page_assets
// links it and writes the words of the page's language on its tag). Three parts, each starting
// only where its markup is: the quizzes, the figures full screen, and the reader's progress.
// Without this script every page still reads: each quiz answer sits in a <details>, the
// figures show as they are, and no progress is kept.
(function () {
  "use strict";

  const tag = document.currentScript;
  const words = (name, fallback) => (tag && tag.dataset[name]) || fallback;

  function whenParsed(start) {
    if (document.readyState === "loading") {
      document.addEventListener("DOMContentLoaded", start);
    } else {
      start();
    }
  }

  // ---------------------------------------------------------------------------------------
  // Quizzes: the forms written by posenc_site.transforms.quiz (form.pe-quiz). A check says
  // "right", "wrong" or "empty" and fires "pe:quiz-checked" on the form (the progress part
  // stores the answer); `restore` puts a stored answer back and checks it again.
  const quiz = (function () {
    function normalise(text) {
      return text.replace(/\s+/g, "");
    }

    function reveal(form) {
      const answer = form.querySelector(".pe-quiz__answer");
      answer.hidden = false;
      answer.open = true;
      if (form.dataset.kind === "complete") {
        const solution = form.closest(".pe-quizzes").nextElementSibling;
        if (solution && solution.tagName === "DETAILS") {
          solution.open = true;
        }
      }
    }

    function say(form, text, state) {
      const feedback = form.querySelector(".pe-quiz__feedback");
      feedback.textContent = text;
      feedback.dataset.state = state;
    }

    // Each check returns "empty", "right" or "wrong", plus an optional explanation.
    function checkChoice(form) {
      const options = form.querySelector(".pe-quiz__options");
      const right = options.dataset.correct.split(",").sort().join(",");
      const chosen = Array.from(options.querySelectorAll("input:checked"), (input) => input.value);
      if (chosen.length === 0) return ["empty"];
      if (chosen.sort().join(",") === right) return ["right"];
      const why = chosen
        .map((value) => form.querySelector('.pe-quiz__answer li[data-option="' + value + '"]'))
        .filter(Boolean)
        .map((item) => item.textContent)
        .join(" ");
      return ["wrong", why];
    }

    // The name a reader knows a field by: "Blank 2" for a blank, the term for a matched item.
    function nameOf(field) {
      if (field.getAttribute("aria-label")) return field.getAttribute("aria-label");
      const term = field.closest("label").querySelector("span");
      return term ? term.textContent.trim() : "";
    }

    // Blanks and matches: each field right or wrong; the result names the empty or wrong ones,
    // so that the verdict does not rest on the colour of a border alone.
    function checkFields(fields, isRight, isEmpty, form) {
      const names = (list) => list.map(nameOf).join(", ");
      const empty = fields.filter(isEmpty);
      if (empty.length > 0) {
        return ["empty", form.dataset.msgEmptyItems.replace("{items}", names(empty))];
      }
      const wrong = fields.filter((field) => {
        const right = isRight(field);
        field.setAttribute("aria-invalid", right ? "false" : "true");
        return !right;
      });
      if (wrong.length === 0) return ["right"];
      return ["wrong", form.dataset.msgWrongItems.replace("{items}", names(wrong))];
    }

    const blanksOf = (form) => Array.from(form.querySelectorAll(".pe-quiz__blank"));
    const selectsOf = (form) => Array.from(form.querySelectorAll("select"));

    function checkBlanks(form) {
      return checkFields(
        blanksOf(form),
        (input) =>
          input.dataset.answers.split("\u001f").map(normalise).includes(normalise(input.value)),
        (input) => input.value.trim() === "",
        form,
      );
    }

    function checkMatch(form) {
      return checkFields(
        selectsOf(form),
        (select) => select.value === select.dataset.correct,
        (select) => select.value === "",
        form,
      );
    }

    const checks = {
      choice: checkChoice,
      blank: checkBlanks,
      complete: checkBlanks,
      match: checkMatch,
    };

    // Checks the form's answer and shows the verdict; returns "empty", "right" or "wrong".
    function check(form) {
      const [result, why] = checks[form.dataset.kind](form);
      const messages = form.dataset;
      if (result === "empty") {
        const empty = {
          blank: messages.msgEmptyBlank,
          complete: messages.msgEmptyBlank,
          match: messages.msgEmptyMatch,
        };
        const lead = empty[form.dataset.kind] || messages.msgEmpty;
        say(form, lead + (why ? " " + why : ""), "empty");
      } else if (result === "right") {
        const extra = form.dataset.kind === "complete" ? " " + messages.msgSeeSolution : "";
        say(form, messages.msgCorrect + extra, "right");
        reveal(form);
      } else {
        say(form, messages.msgWrong + (why ? " " + why : ""), "wrong");
      }
      return result;
    }

    // What the form needs to be filled in again: the chosen options' values (choice), or the
    // text of each blank, or the value of each select, in page order.
    function answerOf(form) {
      if (form.dataset.kind === "choice") {
        const chosen = form.querySelectorAll(".pe-quiz__options input:checked");
        return Array.from(chosen, (input) => input.value);
      }
      const fields = form.dataset.kind === "match" ? selectsOf(form) : blanksOf(form);
      return fields.map((field) => field.value);
    }

    // Puts `answer` (from answerOf, stored earlier) into the form and checks it, without
    // moving the focus or the page. False, and the form left as it was, when the answer does
    // not fit the form.
    function restore(form, answer) {
      const texts = Array.isArray(answer) && answer.every((value) => typeof value === "string");
      if (!texts || !checks[form.dataset.kind]) return false;
      if (form.dataset.kind === "choice") {
        const inputs = Array.from(form.querySelectorAll(".pe-quiz__options input"));
        const values = inputs.map((input) => input.value);
        if (!answer.every((value) => values.includes(value))) return false;
        if (answer.length > 1 && inputs.some((input) => input.type === "radio")) return false;
        inputs.forEach((input) => (input.checked = answer.includes(input.value)));
      } else {
        const fields = form.dataset.kind === "match" ? selectsOf(form) : blanksOf(form);
        if (fields.length !== answer.length) return false;
        const offered = (field, value) =>
          field.tagName !== "SELECT" || Array.from(field.options, (o) => o.value).includes(value);
        if (!fields.every((field, k) => offered(field, answer[k]))) return false;
        fields.forEach((field, k) => (field.value = answer[k]));
      }
      check(form);
      return true;
    }

    function setUp(form) {
      const answer = form.querySelector(".pe-quiz__answer");
      answer.hidden = true;
      form.querySelector(".pe-quiz__actions").hidden = false;
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        const result = check(form);
        // The verdict below the buttons: on a phone it was off-screen. There the blank typed
        // in last lets go of the focus too, so that the on-screen keyboard closes.
        const typed = document.activeElement;
        const touch = window.matchMedia("(pointer: coarse)").matches;
        if (touch && form.contains(typed) && typed.type === "text") typed.blur();
        form.querySelector(".pe-quiz__feedback").scrollIntoView({ block: "nearest" });
        const checked = new CustomEvent("pe:quiz-checked", { bubbles: true, detail: { result } });
        form.dispatchEvent(checked);
      });
      form.querySelector('[data-action="show"]').addEventListener("click", () => {
        say(form, "", ""); // an earlier "try again" no longer applies
        reveal(form);
      });
      // A changed answer makes the old verdict stale: clear it until the next check.
      const clear = (event) => {
        say(form, "", "");
        event.target.removeAttribute("aria-invalid");
      };
      form.addEventListener("input", clear);
      form.addEventListener("change", clear);
    }

    return { setUp, answerOf, restore };
  })();

  // ---------------------------------------------------------------------------------------
  // Figures full screen. Each figure of the page (figure.pe-figure: an inline SVG, maybe a
  // caption) has an "Enlarge figure" button; the button, or a tap on the drawing, shows a copy
  // of the figure in a modal <dialog> that fills the screen. Without this script the figures
  // show as they are (the buttons are hidden: the theme's noscript rule). The words come from
  // this script's tag, in the page's language (the "lightbox" strings of strings/<code>.yml).
  //
  // Why the browser's <dialog> and not GLightbox 3.3.1, the lightbox Material documents
  // (measured in Chromium 156 on the first lesson, a figure's SVG as an inline slide): it
  // showed the SVG, but left the focus on the page's button behind it, let Tab go on to a link
  // of the page, and did not give the focus back after Esc; its dialog had no name (axe:
  // aria-dialog-name) and an English "Close" built in; 17.9 KB gzipped (JS 15.3, CSS 2.6).
  // showModal() moves the focus in, makes the page behind inert (mouse, keyboard, screen
  // readers) and closes on Esc; this part adds the rest. It is loaded with the page, not on
  // the first tap: a loader would cost the same one request, and a figure opens with no
  // request, from disk or after the connection is lost.
  const lightbox = (function () {
    const SVG = "http://www.w3.org/2000/svg";
    // Four corners (enlarge) and a cross (close), 24 × 24.
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

    function box() {
      if (dialog) return dialog;
      const close = words("close", "Close");
      dialog = document.createElement("dialog");
      dialog.className = "pe-lightbox";
      const button = document.createElement("button");
      button.type = "button";
      button.className = "pe-lightbox__close";
      button.setAttribute("aria-label", close);
      button.title = close;
      button.append(icon(CLOSE));
      button.addEventListener("click", () => dialog.close());
      const body = document.createElement("div");
      body.className = "pe-lightbox__body";
      // On a phone the figure is wider than the screen and scrolls: a keyboard scrolls it too.
      body.tabIndex = 0;
      const caption = document.createElement("div");
      caption.className = "pe-lightbox__caption";
      caption.id = "pe-lightbox-caption";
      // The close button first: showModal() gives it the focus.
      dialog.append(button, body, caption);
      // Keys stay in the dialog: Material's shortcuts (n, p, /, s...) act on the page behind
      // it. Tab, Enter and Esc keep their defaults.
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
      const shown = box();
      const body = shown.querySelector(".pe-lightbox__body");
      const caption = shown.querySelector(".pe-lightbox__caption");
      const svg = copy(picture);
      svg.classList.remove("pe-figure__zoomable");
      body.replaceChildren(svg);
      const figcaption = figure.querySelector(":scope > figcaption");
      if (figcaption) caption.append(...copy(figcaption).childNodes);
      caption.hidden = !figcaption;
      // The dialog is named by the figure's caption, or else by the SVG's own title.
      const title = svg.querySelector("title");
      const name = figcaption ? caption.id : title && title.id;
      if (name) shown.setAttribute("aria-labelledby", name);
      else shown.removeAttribute("aria-labelledby");
      opener = button;
      shown.showModal();
    }

    // The buttons are in the page as built (posenc_site.publish.page_assets): adding one per
    // figure here changed the page after its first paint, and the style and layout of the
    // whole lesson that followed was the longest task of its load (some 160 ms of a phone's
    // time on the longest lessons, measured by Lighthouse). One listener serves every figure.
    function onClick(event) {
      const target = event.target instanceof Element ? event.target : null;
      const trigger = target && target.closest(".pe-figure__enlarge, .pe-figure__zoomable");
      const figure = trigger && trigger.closest("figure.pe-figure");
      const picture = figure && figure.querySelector(":scope > svg");
      if (!picture) return;
      open(figure, picture, figure.querySelector(":scope > .pe-figure__enlarge"));
    }

    return { onClick };
  })();

  // ---------------------------------------------------------------------------------------
  // Progress, kept in this browser only (localStorage; nothing is sent anywhere), one key per
  // language: the answers checked on each lesson, whether the reader marked it done, and the
  // lesson and section read last. Shown as ticks in the nav, on each lesson (its answers put
  // back and checked, its "done" button) and on the home page ("continue", "forget").
  //
  // The stored value carries a format version. A later site reads what an earlier one
  // stored: `MIGRATIONS` turns each older version into the next on reading. A value this
  // script cannot read (not JSON, the wrong shape, a version newer than it knows) is set
  // aside: neither used nor overwritten, and the page goes on without progress (the home page
  // offers to forget it). A stored answer whose form is gone, or whose form's fingerprint
  // changed (its question changed: posenc_site.transforms.quiz.fingerprint), is dropped
  // alone. Every access to the storage may throw (storage disabled, full): then the page
  // works as without progress, with one warning in the console.
  const progress = (function () {
    const VERSION = 1;
    // Version n -> a function from the stored value of version n to one of version n + 1.
    // tests/browser/data/ holds a value of each version as the site stored it.
    const MIGRATIONS = {};
    const DONE = "pe-progress-done";

    let warned = false;
    function warn(message, error) {
      if (warned) return;
      warned = true;
      console.warn("posenc: " + message + " (" + (error && error.name ? error.name : error) + ")");
    }

    const isObject = (value) =>
      typeof value === "object" && value !== null && !Array.isArray(value);
    const isText = (value) => typeof value === "string";

    function isLesson(entry) {
      if (!isObject(entry) || typeof entry.done !== "boolean" || !isObject(entry.quizzes)) {
        return false;
      }
      return Object.values(entry.quizzes).every(
        (saved) =>
          isObject(saved) &&
          isText(saved.fp) &&
          Array.isArray(saved.answer) &&
          typeof saved.right === "boolean",
      );
    }

    // Whether `data` has the shape of the current version.
    function isCurrent(data) {
      const last = data.last;
      const lastFits =
        last === null ||
        (isObject(last) && isText(last.path) && isText(last.title) && isText(last.section));
      return isObject(data.lessons) && Object.values(data.lessons).every(isLesson) && lastFits;
    }

    const empty = () => ({ version: VERSION, lessons: {}, last: null });

    // The stored value read: {state: "ok", data}, {state: "aside", raw} when it cannot be
    // read, or {state: "off"} when there is no storage.
    function parse(raw) {
      if (raw === null) return { state: "ok", data: empty() };
      let data;
      try {
        data = JSON.parse(raw);
      } catch (error) {
        return { state: "aside", raw };
      }
      if (!isObject(data) || !Number.isInteger(data.version) || data.version > VERSION) {
        return { state: "aside", raw };
      }
      try {
        while (data.version < VERSION) {
          data = MIGRATIONS[data.version](data); // no migration from it: set aside below
        }
      } catch (error) {
        return { state: "aside", raw };
      }
      return isCurrent(data) ? { state: "ok", data } : { state: "aside", raw };
    }

    function storage() {
      return window.localStorage; // throws where storage is disabled
    }

    function read(key) {
      let raw;
      try {
        raw = storage().getItem(key);
      } catch (error) {
        warn("progress is not kept: this browser's storage is not available", error);
        return { state: "off" };
      }
      const found = parse(raw);
      if (found.state === "aside") {
        warn("the progress stored in this browser cannot be read", "kept as it is");
      }
      return found;
    }

    function write(key, data) {
      try {
        storage().setItem(key, JSON.stringify(data));
        return true;
      } catch (error) {
        warn("progress could not be stored", error);
        return false;
      }
    }

    // Reads the stored progress, lets `change` change it, and stores it again if it did; the
    // value is read anew each time: another tab of the site may have stored since. Returns
    // what is stored then, or null if it could not be read or stored.
    function update(key, change) {
      const found = read(key);
      if (found.state !== "ok") return null;
      if (change(found.data) !== false && !write(key, found.data)) return null;
      return found.data;
    }

    // Where the pages of this language are (Material's configuration on each page), and the
    // path of a link's page under it: "lessons/rotary/". Null for a link elsewhere.
    function rootOf() {
      const config = document.getElementById("__config");
      if (!config) return null;
      try {
        const base = JSON.parse(config.textContent).base;
        return new URL(base.endsWith("/") ? base : base + "/", location.href);
      } catch (error) {
        return null;
      }
    }

    function pathOf(root, href) {
      const url = new URL(href, location.href);
      if (url.origin !== root.origin || !url.pathname.startsWith(root.pathname)) return null;
      return url.pathname.slice(root.pathname.length).replace(/index\.html$/, "");
    }

    // The links of Material's nav to pages of the site, not to sections of this page.
    function navLinks(root) {
      const links = document.querySelectorAll(".md-nav--primary a.md-nav__link[href]");
      return Array.from(links)
        .filter((link) => !link.getAttribute("href").includes("#"))
        .map((link) => ({ link, path: pathOf(root, link.href) }))
        .filter((item) => item.path !== null);
    }

    function tick(link, done) {
      const shown = link.querySelector("." + DONE);
      if (done && !shown) {
        const mark = document.createElement("span");
        mark.className = DONE;
        mark.setAttribute("role", "img");
        mark.setAttribute("aria-label", words("done", "done"));
        mark.textContent = "✓";
        // Before the icon the drawer's label of the page shown ends with.
        link.insertBefore(mark, link.querySelector(":scope > .md-nav__icon"));
      } else if (!done && shown) {
        shown.remove();
      }
    }

    function showTicks(root, data) {
      for (const { link, path } of navLinks(root)) {
        const lesson = data.lessons[path];
        const done = Boolean(lesson && lesson.done);
        tick(link, done);
        // The page shown: on a narrow screen Material's drawer shows, in place of its link,
        // the label that opens its table of contents.
        const label = link.previousElementSibling;
        if (label && label.matches('label.md-nav__link[for="__toc"]')) tick(label, done);
      }
    }

    function lessonOf(data, path) {
      if (!isObject(data.lessons[path])) data.lessons[path] = { done: false, quizzes: {} };
      return data.lessons[path];
    }

    // A lesson page: its stored answers put back (those that still fit), its answers stored
    // at each check, its "done" button, and the section read last noted when the reader
    // leaves.
    function startLesson(key, root, path, data, box) {
      const saved = data.lessons[path];
      if (saved) {
        const dropped = Object.entries(saved.quizzes).filter(([id, stored]) => {
          const form = document.getElementById(id);
          const fits =
            form && form.matches("form.pe-quiz") && form.dataset.fingerprint === stored.fp;
          return !(fits && quiz.restore(form, stored.answer));
        });
        if (dropped.length > 0) {
          update(key, (fresh) => {
            const lesson = fresh.lessons[path];
            if (!lesson) return false;
            dropped.forEach(([id]) => delete lesson.quizzes[id]);
          });
        }
      }

      document.addEventListener("pe:quiz-checked", (event) => {
        const form = event.target;
        if (event.detail.result === "empty" || !form.id) return;
        update(key, (fresh) => {
          lessonOf(fresh, path).quizzes[form.id] = {
            fp: form.dataset.fingerprint || "",
            answer: quiz.answerOf(form),
            right: event.detail.result === "right",
          };
        });
      });

      // Pressed, the button is Material's primary one (the theme keeps its colours in both
      // palettes).
      const button = box.querySelector("button");
      const press = (done) => {
        button.setAttribute("aria-pressed", String(done));
        button.classList.toggle("md-button--primary", done);
      };
      press(Boolean(saved && saved.done));
      box.hidden = false;
      button.addEventListener("click", () => {
        const done = button.getAttribute("aria-pressed") !== "true";
        press(done);
        const fresh = update(key, (stored) => {
          lessonOf(stored, path).done = done;
        });
        if (fresh) showTicks(root, fresh);
      });

      // The section read last: the last h2 above the upper third of the screen when the
      // reader leaves the page or its tab (measured then, not while scrolling).
      const noteLast = () => {
        const third = window.innerHeight / 3;
        const passed = Array.from(document.querySelectorAll(".md-content h2[id]")).filter(
          (heading) => heading.getBoundingClientRect().top <= third,
        );
        const heading = passed.length > 0 ? passed[passed.length - 1].id : "";
        const h1 = document.querySelector(".md-content h1");
        const text = h1 ? h1.cloneNode(true) : null;
        if (text) text.querySelectorAll(".headerlink").forEach((link) => link.remove());
        const title = text ? text.textContent.trim() : document.title;
        update(key, (fresh) => {
          fresh.last = { path, title, section: heading };
        });
      };
      document.addEventListener("visibilitychange", () => {
        if (document.visibilityState === "hidden") noteLast();
      });
      window.addEventListener("pagehide", noteLast);
    }

    // The home page's box: "continue" with a link to the section read last (if its lesson is
    // still in the nav), and "forget my progress", which removes this language's key; its
    // "undo" stores the removed value again.
    function startHome(key, root, found, box) {
      const data = found.state === "ok" ? found.data : null;
      const worked = (lesson) => lesson.done || Object.keys(lesson.quizzes).length > 0;
      const hasProgress =
        data !== null && (data.last !== null || Object.values(data.lessons).some(worked));
      if (found.state === "aside") {
        box.querySelector(".pe-progress__unreadable").hidden = false;
      } else if (!hasProgress) {
        return;
      }
      const last = data && data.last;
      const known = last && navLinks(root).find((item) => item.path === last.path);
      if (known) {
        const link = box.querySelector(".pe-progress__continue a");
        const url = new URL(last.path, root);
        if (last.section) url.hash = last.section;
        link.href = url.href;
        const title = known.link.querySelector(".md-ellipsis");
        link.textContent = title ? title.textContent.trim() : last.title;
        box.querySelector(".pe-progress__continue").hidden = false;
      }
      const forget = box.querySelector(".pe-progress__forget");
      const undo = box.querySelector(".pe-progress__undo");
      const status = box.querySelector(".pe-progress__status");
      const shown = box.querySelector(".pe-progress__shown");
      let removed = null;
      forget.addEventListener("click", () => {
        try {
          removed = storage().getItem(key);
          storage().removeItem(key);
        } catch (error) {
          warn("progress could not be forgotten", error);
          return;
        }
        shown.hidden = true;
        status.textContent = box.dataset.forgotten;
        undo.hidden = false;
        undo.focus();
        showTicks(root, empty());
      });
      undo.addEventListener("click", () => {
        try {
          if (removed !== null) storage().setItem(key, removed);
        } catch (error) {
          warn("progress could not be stored", error);
          return;
        }
        const back = parse(removed);
        if (back.state === "ok") showTicks(root, back.data);
        status.textContent = "";
        undo.hidden = true;
        shown.hidden = false;
        forget.focus();
      });
      box.hidden = false;
    }

    function start() {
      const root = rootOf();
      const language = document.documentElement.lang;
      if (!root || !language) return;
      const key = "posenc.progress." + language;
      const found = read(key);
      const home = document.querySelector(".pe-progress");
      if (home) startHome(key, root, found, home);
      if (found.state !== "ok") return;
      showTicks(root, found.data);
      const done = document.querySelector(".pe-done");
      const path = pathOf(root, location.href);
      if (done && path !== null) startLesson(key, root, path, found.data, done);
    }

    return { start };
  })();

  whenParsed(() => {
    document.querySelectorAll("form.pe-quiz").forEach(quiz.setUp);
    if (document.querySelector("figure.pe-figure")) {
      document.addEventListener("click", lightbox.onClick);
    }
    progress.start();
  });
})();
