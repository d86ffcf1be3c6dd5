// Lighthouse on several pages in one Chromium:
//   node lighthouse-runs.mjs OUT_DIR CATEGORIES URL...
//
// Lighthouse's Node API (its docs: "Using programmatically"), with the defaults of its command
// line: the mobile form factor and simulated throttling. The command line starts Node, loads
// Lighthouse and launches a browser for every page; here that happens once. The JSON report of
// the n-th URL, scored in the comma-separated CATEGORIES, is written to OUT_DIR/n.json.
// CHROME_PATH names the browser, CHROME_FLAGS its flags (space separated).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

const [outDir, categories, ...urls] = process.argv.slice(2);
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: (process.env.CHROME_FLAGS ?? "").split(" ").filter(Boolean),
});
try {
  for (const [n, url] of urls.entries()) {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: categories.split(","),
      // The full-page screenshot only illustrates the report; no audit scores it.
      disableFullPageScreenshot: true,
    });
    writeFileSync(join(outDir, `${n}.json`), result.report);
  }
} finally {
  chrome.kill();
}
