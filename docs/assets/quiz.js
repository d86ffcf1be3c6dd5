// Quiz behaviour for the forms written by posenc_site.transforms.quiz. Without this script the questions
// still show, and each answer sits in a <details> the reader can open.
(function () {
  "use strict";

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
    if (empty.length > 0) return ["empty", form.dataset.msgEmptyItems.replace("{items}", names(empty))];
    const wrong = fields.filter((field) => {
      const right = isRight(field);
      field.setAttribute("aria-invalid", right ? "false" : "true");
      return !right;
    });
    if (wrong.length === 0) return ["right"];
    return ["wrong", form.dataset.msgWrongItems.replace("{items}", names(wrong))];
  }

  function checkBlanks(form) {
    return checkFields(
      Array.from(form.querySelectorAll(".pe-quiz__blank")),
      (input) => input.dataset.answers.split("\u001f").map(normalise).includes(normalise(input.value)),
      (input) => input.value.trim() === "",
      form,
    );
  }

  function checkMatch(form) {
    return checkFields(
      Array.from(form.querySelectorAll("select")),
      (select) => select.value === select.dataset.correct,
      (select) => select.value === "",
      form,
    );
  }

  const checks = { choice: checkChoice, blank: checkBlanks, complete: checkBlanks, match: checkMatch };

  function setUp(form) {
    const answer = form.querySelector(".pe-quiz__answer");
    answer.hidden = true;
    form.querySelector(".pe-quiz__actions").hidden = false;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const [result, why] = checks[form.dataset.kind](form);
      const messages = form.dataset;
      if (result === "empty") {
        const empty = { blank: messages.msgEmptyBlank, complete: messages.msgEmptyBlank, match: messages.msgEmptyMatch };
        say(form, (empty[form.dataset.kind] || messages.msgEmpty) + (why ? " " + why : ""), "empty");
      } else if (result === "right") {
        const extra = form.dataset.kind === "complete" ? " " + messages.msgSeeSolution : "";
        say(form, messages.msgCorrect + extra, "right");
        reveal(form);
      } else {
        say(form, messages.msgWrong + (why ? " " + why : ""), "wrong");
      }
    });
    form.querySelector('[data-action="show"]').addEventListener("click", () => {
      say(form, "", "");  // an earlier "try again" no longer applies
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

  function init() {
    document.querySelectorAll("form.pe-quiz").forEach(setUp);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
