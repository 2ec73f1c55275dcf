// The system Chromium the end-to-end tests drive, when there is one (Debian's here: no browser downloads on this
// network). Chromium's headless shell first: it is the same engine (Blink, V8) built without the desktop browser
// around it, what Playwright itself runs for headless tests, and it took about a fifth less CPU and wall time
// over the whole end-to-end run than the full browser in its headless mode (docs/testing.md, "Timings").
// CHROMIUM_PATH overrides; undefined when none is installed (Playwright then uses its own download).
import { existsSync } from "node:fs";

const SYSTEM_CHROMIUM_CANDIDATES = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser"];

/** @returns {string | undefined} */
export function systemChromium() {
  return [process.env.CHROMIUM_PATH, ...SYSTEM_CHROMIUM_CANDIDATES].find((candidate) => candidate && existsSync(candidate));
}
