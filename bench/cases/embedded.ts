import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { compare, ratio } from "../lib/compare";
import { config } from "../lib/config";
import { baseUrl, registerMerchant, routeExists, type BenchContext } from "../lib/context";
import { startNext } from "../lib/env";
import { apiSpecs } from "./full-stack";

/**
 * Case 6: the same confirm / get requests on the embedded database (PGlite, the zero-configuration
 * default) beside the PostgreSQL server, interleaved, each in its own `next start`.
 */
export async function caseEmbedded(ctx: BenchContext) {
  const { report } = ctx;
  report.section("6. Embedded database (PGlite) beside the PostgreSQL server: confirm and get");
  if (!(await routeExists(ctx.next, "POST", "/api/v1/payment/confirm", ctx.merchant.apiKey))) {
    report.text("Skipped: the payment routes are not in this build yet.");
    return;
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), "bench-pglite-"));
  const embedded = await startNext({
    name: "next-pglite",
    port: ctx.nextPort(),
    logFile: path.join(ctx.logDir, "next-pglite.log"),
    env: { DATABASE_URL: undefined, DATA_DIR: dataDir },
  });
  try {
    const merchant = await registerMerchant(embedded, "embedded", "http://127.0.0.1:9/bench");
    // A payment to read back, made through the API (the embedded database has no second client).
    const response = await fetch(`${baseUrl(embedded)}/api/v1/payment/confirm`, {
      method: "POST",
      headers: { authorization: `Bearer ${merchant.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ externalId: "embedded-seed", amount: "19.99", currency: "USD" }),
    });
    const { id: paymentId } = (await response.json()) as { id: string };
    const onServer = apiSpecs(ctx.next, ctx.merchant, ctx.paymentId);
    const onEmbedded = apiSpecs(embedded, merchant, paymentId);
    report.text(`${config.connections} connections, ${config.duration} s per run, ${config.reps} interleaved rounds.`);
    report.text("");
    const groups = ["server", "postgres"];
    const [serverGet, embeddedGet] = await compare("embedded GET", [
      { name: "GET /payment/{id} — PostgreSQL server", spec: onServer.get, targets: ctx.targets(ctx.next) },
      { name: "GET /payment/{id} — PGlite", spec: onEmbedded.get, targets: { servers: { server: embedded.pid } } },
    ]);
    const [serverConfirm, embeddedConfirm] = await compare("embedded POST", [
      { name: "POST /payment/confirm — PostgreSQL server", spec: onServer.confirm, targets: ctx.targets(ctx.next) },
      { name: "POST /payment/confirm — PGlite", spec: onEmbedded.confirm, targets: { servers: { server: embedded.pid } } },
    ]);
    report.variants([serverGet!, embeddedGet!, serverConfirm!, embeddedConfirm!], groups);
    report.text("With PGlite the database runs inside the Next.js process, so its CPU is in the server column.");
    report.ratio("GET: PGlite / server", ratio(embeddedGet!, serverGet!));
    report.ratio("confirm: PGlite / server", ratio(embeddedConfirm!, serverConfirm!));
    report.data.embedded = { serverGet, embeddedGet, serverConfirm, embeddedConfirm };
  } finally {
    await embedded.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
