// Lighthouse on several pages in one Chromium:
//   node lighthouse-runs.mjs OUT_DIR PAGES
//
// PAGES is a JSON list of {"url": ..., "flags": {...}}: each page with the flags of Lighthouse's
// Node API it is run with (its docs: "Using programmatically"), such as onlyCategories. Otherwise
// Lighthouse keeps the defaults of its command line: the mobile form factor and simulated
// throttling. The command line starts Node, loads Lighthouse and launches a browser for every
// page; here that happens once. The JSON report of the n-th page is written to OUT_DIR/n.json.
// CHROME_PATH names the browser, CHROME_FLAGS its flags (space separated).
//
// One change to the defaults: the CPU slowdown is calibrated for each page, from the page's own
// load. Simulated throttling multiplies the time each main-thread task took here by
// `throttling.cpuSlowdownMultiplier` (4: "a typical run in the high-end desktop bracket" made a
// mid-tier phone, docs/throttling.md, "Calibrating the CPU slowdown"). A task's time here
// includes every moment another process held the processor, so a busy machine made the page look
// slower. The documentation's remedy is a lower multiplier on a slower machine, calibrated from
// `benchmarkIndex`; but that benchmark runs for one second before the page loads, and the load
// of a shared machine changes from one second to the next: the same lesson scored 96 after an
// index of 637 and 76 after one of 1,151. Chrome's trace gives each task, beside its wall time
// (`dur`), its thread time (`tdur`, "thread clock duration" in the Trace Event Format): the time
// the main thread was on the processor. So the multiplier is scaled by the share of the wall
// time the page's top-level main-thread tasks spent on the processor: 4 × 0.5 where they were
// held up for half of it. The page's simulated tasks then take, together, four times the
// processor time they used, whatever else ran.
//
// That takes Lighthouse's navigation() in its two halves, as core/index.js composes them:
// gathering (core/gather/navigation-runner.js), then auditing (core/runner.js) with the
// calibrated settings. Simulated throttling reads the multiplier only when auditing (gathering
// loads the page unthrottled), so the gathered artifacts stand.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import { MainThreadTasks } from "lighthouse/core/computed/main-thread-tasks.js";
import { navigationGather } from "lighthouse/core/gather/navigation-runner.js";
import { Runner } from "lighthouse/core/runner.js";

const [outDir, pages] = process.argv.slice(2);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: (process.env.CHROME_FLAGS ?? "").split(" ").filter(Boolean),
});

/** The share of the wall time of the page's top-level main-thread tasks spent on the processor. */
async function processorShare(trace, context) {
  let wall = 0;
  let thread = 0;
  for (const task of await MainThreadTasks.request(trace, context)) {
    if (task.parent || task.event.tdur === undefined) continue;
    wall += task.duration;
    thread += task.event.tdur / 1000; // µs, as trace events count; durations are in ms
  }
  return wall > 0 ? Math.min(1, thread / wall) : 1;
}

try {
  for (const [n, { url, flags }] of JSON.parse(pages).entries()) {
    const { artifacts, runnerOptions } = await navigationGather(undefined, url, {
      flags: {
        port: chrome.port,
        output: "json",
        logLevel: "error",
        // The full-page screenshot only illustrates the report; no audit scores it.
        disableFullPageScreenshot: true,
        ...flags,
      },
    });
    const { resolvedConfig } = runnerOptions;
    const { settings } = resolvedConfig;
    const computedCache = new Map(); // nothing computed with the default multiplier is kept
    if (!artifacts.PageLoadError) {
      const share = await processorShare(artifacts.Trace, { computedCache, settings });
      const cpuSlowdownMultiplier = settings.throttling.cpuSlowdownMultiplier * share;
      // The audits refuse artifacts gathered with other settings: both carry the new one.
      settings.throttling = { ...settings.throttling, cpuSlowdownMultiplier };
      artifacts.settings = settings;
    }
    const result = await Runner.audit(artifacts, { resolvedConfig, computedCache });
    writeFileSync(join(outDir, `${n}.json`), result.report);
  }
} finally {
  chrome.kill();
}
