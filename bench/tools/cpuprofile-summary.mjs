#!/usr/bin/env node
// Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by module, and the
// inclusive time of frames whose name matches an optional pattern. Usage: node cpuprofile-summary.mjs FILE [pattern]
import { readFileSync } from "node:fs";

// SKIP_SECONDS=n leaves out the first n seconds (start-up) of the profile.
const [file, pattern] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, "utf8"));
const skipUs = Number(process.env.SKIP_SECONDS ?? 0) * 1e6;
if (skipUs > 0) {
  let t = 0;
  const keep = profile.samples.map((_, i) => (t += profile.timeDeltas[i]) >= skipUs);
  profile.samples = profile.samples.filter((_, i) => keep[i]);
  profile.startTime += skipUs;
}
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const selfTicks = new Map();
for (const sample of profile.samples) selfTicks.set(sample, (selfTicks.get(sample) ?? 0) + 1);
const total = profile.samples.length;
const interval = (profile.endTime - profile.startTime) / total;

const label = (node) => {
  const f = node.callFrame;
  const url = f.url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*?\/\.next\//, ".next/");
  return `${f.functionName || "(anon)"} ${url}:${f.lineNumber + 1}`;
};
const moduleOf = (node) => {
  const url = node.callFrame.url;
  if (!url) return node.callFrame.functionName.startsWith("(") ? node.callFrame.functionName : "(native)";
  const m = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(dist\/)?(?:compiled\/)?([^/]+\/)?([^/]+\/)?/);
  if (m) return `${m[1]}/${m[3] ?? ""}${m[4] ?? ""}`;
  if (url.startsWith("node:")) return url.split("/").slice(0, 2).join("/");
  return url.replace(/^.*\/\.next\//, ".next/").split("/").slice(0, 3).join("/");
};

const bySelf = new Map();
const byModule = new Map();
for (const [id, ticks] of selfTicks) {
  const node = byId.get(id);
  bySelf.set(label(node), (bySelf.get(label(node)) ?? 0) + ticks);
  byModule.set(moduleOf(node), (byModule.get(moduleOf(node)) ?? 0) + ticks);
}
const show = (title, map, n = 30) => {
  console.log(`\n${title}`);
  for (const [name, ticks] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`${((100 * ticks) / total).toFixed(1).padStart(5)}%  ${((ticks * interval) / 1000).toFixed(0).padStart(6)} ms  ${name}`);
  }
};
console.log(`${total} samples, ${(total * interval / 1e6).toFixed(1)} s`);
show("Self time by module", byModule, 25);
show("Self time by function", bySelf, 40);
if (pattern) {
  // Inclusive time: samples with a frame matching the pattern on their stack (counted once).
  const re = new RegExp(pattern);
  const inclusive = new Map();
  for (const [id, ticks] of selfTicks) {
    const seen = new Set();
    for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
      const name = label(byId.get(cur));
      if (re.test(name) && !seen.has(name)) {
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + ticks);
      }
    }
  }
  show(`Inclusive time of frames matching /${pattern}/`, inclusive, 40);
}
