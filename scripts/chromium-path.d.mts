// Types for scripts/chromium-path.mjs (plain JavaScript: scripts/e2e.mjs runs it before anything is compiled).
export declare function systemChromium(): string | undefined;
