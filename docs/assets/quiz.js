// Quiz behaviour for the forms written by posenc_site.quiz. Without this script the questions
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

  function checkBlanks(form) {
    const inputs = Array.from(form.querySelectorAll(".pe-quiz__blank"));
    if (inputs.some((input) => input.value.trim() === "")) return ["empty"];
    let allRight = true;
    inputs.forEach((input) => {
      const accepted = input.dataset.answers.split("\u001f").map(normalise);
      const right = accepted.includes(normalise(input.value));
      input.setAttribute("aria-invalid", right ? "false" : "true");
      allRight = allRight && right;
    });
    return [allRight ? "right" : "wrong"];
  }

  function checkMatch(form) {
    const selects = Array.from(form.querySelectorAll("select"));
    if (selects.some((select) => select.value === "")) return ["empty"];
    let allRight = true;
    selects.forEach((select) => {
      const right = select.value === select.dataset.correct;
      select.setAttribute("aria-invalid", right ? "false" : "true");
      allRight = allRight && right;
    });
    return [allRight ? "right" : "wrong"];
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
        say(form, empty[form.dataset.kind] || messages.msgEmpty, "empty");
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
