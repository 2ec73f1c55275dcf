import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { VariantSummary } from "./compare";
import { fmtSpread, round, type Spread } from "./stats";

/** Collects the run's sections as Markdown (printed and saved) and the raw numbers as JSON. */
export class Report {
  private readonly lines: string[] = [];
  readonly data: Record<string, unknown> = {};
  /** Every target checked in the run, for the summary at the top. */
  readonly targets: { target: string; measured: string; met: boolean }[] = [];

  /** Records a target's verdict and prints the line under the case. */
  target(target: string, measured: string, met: boolean) {
    this.targets.push({ target, measured, met });
    this.text(`- ${target}: **${measured}** — ${met ? "met" : "MISSED"}`);
  }

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  section(title: string) {
    this.lines.push("", `## ${title}`, "");
    console.log(`\n== ${title}`);
  }

  text(line: string) {
    this.lines.push(line);
    console.log(line);
  }

  table(header: string[], rows: (string | number)[][]) {
    const out = [`| ${header.join(" | ")} |`, `|${header.map(() => "---").join("|")}|`, ...rows.map((row) => `| ${row.join(" | ")} |`)];
    for (const line of out) this.text(line);
    this.text("");
  }

  /** One table row per variant: req/s median (min–max), latency, errors, CPU µs per request by process. */
  variants(summaries: VariantSummary[], cpuGroups: string[]) {
    this.table(
      ["variant", "req/s median (min–max)", "p50 ms", "p99 ms", "non-2xx / errors / timeouts", ...cpuGroups.map((group) => `CPU µs/req ${group}`)],
      summaries.map((summary) => [
        summary.name,
        fmtSpread(summary.rps),
        summary.p50,
        summary.p99,
        `${summary.non2xx} / ${summary.errors} / ${summary.timeouts}`,
        ...cpuGroups.map((group) => (summary.runs.some((run) => group in run.cpu) ? round(summary.cpuUsPerRequest[group] ?? NaN) : "–")),
      ]),
    );
  }

  ratio(label: string, value: Spread, target?: number) {
    const verdict = target === undefined ? "" : value.median >= target ? ` — target ≥ ${target}: met` : ` — target ≥ ${target}: MISSED`;
    this.text(`- ${label}: **${fmtSpread(value, 2)}**${verdict}`);
  }

  save(name: string) {
    const summary = [
      "",
      "## Targets",
      "",
      "| target | measured (median, min–max) | |",
      "|---|---|---|",
      ...this.targets.map((t) => `| ${t.target} | ${t.measured} | ${t.met ? "met" : "**missed**"} |`),
      "",
    ];
    const [title, ...rest] = this.lines;
    const markdown = [title, ...summary, ...rest].join("\n") + "\n";
    this.data.targets = this.targets;
    writeFileSync(path.join(this.dir, `${name}.md`), markdown);
    writeFileSync(path.join(this.dir, `${name}.json`), JSON.stringify(this.data, null, 2));
    return markdown;
  }
}
