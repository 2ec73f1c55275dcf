import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import {
  QUICKSTART_API_URL,
  QUICKSTART_EMAIL,
  QUICKSTART_PROJECT,
  QUICKSTART_RECEIVER_PORT,
  quickstartSteps,
} from "../../src/app/docs/quickstart/steps";

// Walks /docs/quickstart as a reader would, running each step's command or file exactly as the page shows it
// (the page renders the same steps): against a server of its own started on a clean data folder, with the SDK
// packed from this checkout into a folder outside it, as a reader's own project is. The only changes are the ones
// a reader makes: their own e-mail address, free ports for the service and the receiver, where their folder is,
// and the values earlier steps printed. The service is started with `npm start` (the production build the
// end-to-end run made) where a reader runs `npm run dev`: the same app, without compiling each page on first use.

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A shell command in its own process group, its output collected; `stop` ends the group. */
function start(command: string, cwd: string, env: Record<string, string>) {
  const child = spawn("bash", ["-c", command], { cwd, env: { ...process.env, ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  return {
    output: () => output,
    exited,
    stop: () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
    },
  };
}

const step = (id: string) => quickstartSteps.find((candidate) => candidate.id === id)!;

test("the quickstart works as written, from a clean data folder: start, register, listen, install the SDK, receive and verify, pay", async () => {
  test.setTimeout(240_000);
  const [apiPort, receiverPort] = [await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  const email = `quickstart-${Date.now()}@example.com`;
  const root = process.cwd();
  const scratch = mkdtempSync(path.join(tmpdir(), "quickstart-"));
  const project = path.join(scratch, "my-shop");
  // The receiver's port first: the values put in after it (a port, a path, an e-mail address) may hold "4000".
  const adapt = (text: string) =>
    text
      .replaceAll(String(QUICKSTART_RECEIVER_PORT), String(receiverPort))
      .replaceAll(QUICKSTART_EMAIL, email)
      .replaceAll(QUICKSTART_API_URL, apiUrl)
      .replaceAll(QUICKSTART_PROJECT, project);
  // What a reader's shell holds: nothing of the test runner's service (the first step exports MPS_API_URL).
  const env: Record<string, string> = { DATA_DIR: path.join(scratch, "data"), DATABASE_URL: "", MPS_API_URL: "", MPS_API_KEY: "", WEBHOOK_SECRET: "" };
  const running: { stop: () => void; exited: Promise<unknown> }[] = [];
  const codeOf = (id: string) => step(id).code;
  expect(quickstartSteps.map((candidate) => candidate.id)).toEqual(["register", "listen", "sdk", "receive", "pay"]);

  try {
    // 0. The service, on a data folder that does not exist yet.
    const service = start("npm start", root, { ...env, PORT: String(apiPort), LOG_LEVEL: "warn" });
    running.push(service);
    await expect
      .poll(async () => (await fetch(`${apiUrl}/api/v1/health/ready`).catch(() => null))?.status, { timeout: 60_000, message: service.output() })
      .toBe(200);

    // 1. MPS_API_URL exported, then register with curl; the reader copies the key from the answer.
    const register = codeOf("register");
    expect(register.source).toContain(`export MPS_API_URL=${QUICKSTART_API_URL}`);
    const registered = start(adapt(register.source), scratch, env);
    expect(await registered.exited, registered.output()).toBe(0);
    const answer = JSON.parse(registered.output());
    expect(answer.apiKey).toMatch(/^sk_live_/);
    env.MPS_API_URL = apiUrl;
    env.MPS_API_KEY = answer.apiKey;

    // 2. npm run listen, from the checkout; the reader copies the secret it prints.
    const listen = start(adapt(codeOf("listen").source), root, env);
    running.push(listen);
    await expect.poll(() => /Signing secret: (whsec_\S+)/.exec(listen.output())?.[1], { timeout: 30_000 }).toBeTruthy();
    env.WEBHOOK_SECRET = /Signing secret: (whsec_\S+)/.exec(listen.output())![1]!;

    // 3. The SDK packed from the checkout and installed in the reader's own folder (outside the checkout).
    const sdk = start(adapt(codeOf("sdk").source), root, env);
    expect(await sdk.exited, sdk.output()).toBe(0);
    expect(sdk.output()).toMatch(/added \d+ packages?/);

    // 4. The receiver, saved as its file in that folder and started as shown.
    const receive = codeOf("receive");
    if (receive.lang !== "ts") throw new Error("the receiver step is a file");
    writeFileSync(path.join(project, receive.file), adapt(receive.source));
    const receiver = start(adapt(receive.run), project, env);
    running.push(receiver);
    await expect.poll(() => receiver.output(), { timeout: 30_000 }).toContain(`receiving on port ${receiverPort}`);

    // 5. The first payment.
    const pay = codeOf("pay");
    if (pay.lang !== "ts") throw new Error("the payment step is a file");
    writeFileSync(path.join(project, pay.file), adapt(pay.source));
    const paid = start(adapt(pay.run), project, env);
    expect(await paid.exited, paid.output()).toBe(0);
    expect(paid.output()).toContain("payment confirmed");

    // The outcome the page promises: every event verified by the receiver, invoice.paid among them.
    for (const type of ["invoice.created", "payment.confirmed", "invoice.payment_received", "invoice.paid"]) {
      await expect.poll(() => receiver.output(), { timeout: 30_000 }).toContain(`verified ${type} evt_`);
    }
    expect(listen.output()).toMatch(/invoice\.paid\s+evt_\S+\s+→ 204/);
  } finally {
    for (const process of running.reverse()) process.stop();
    // The service closes its database before its folder goes.
    await Promise.race([Promise.all(running.map((process) => process.exited)), new Promise((resolve) => setTimeout(resolve, 15_000))]);
    rmSync(scratch, { recursive: true, force: true });
  }
});
