import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { QUICKSTART_EMAIL, QUICKSTART_RECEIVER_PORT, quickstartSteps } from "../../src/app/docs/quickstart/steps";

// Walks /docs/quickstart as a reader would, running each step's command or file exactly as the page shows it
// (the page renders the same steps), against the server under test. The only changes are the ones a reader
// makes: their own e-mail address, a free port for the receiver, and the values earlier steps printed.

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

test("the quickstart works as written: register, listen, receive and verify, pay", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const port = await freePort();
  const email = `quickstart-${Date.now()}@example.com`;
  const adapt = (text: string) => text.replaceAll(QUICKSTART_EMAIL, email).replaceAll(String(QUICKSTART_RECEIVER_PORT), String(port));
  const root = process.cwd();
  const workspace = path.join(root, "test-results", "quickstart");
  mkdirSync(workspace, { recursive: true });
  const env: Record<string, string> = { MPS_API_URL: baseURL! };
  const running: { stop: () => void }[] = [];
  const codeOf = (id: string) => step(id).code;

  try {
    // 1. Register with curl; the reader copies the key from the answer.
    const register = codeOf("register");
    const registered = start(adapt(register.source), workspace, env);
    expect(await registered.exited, registered.output()).toBe(0);
    const answer = JSON.parse(registered.output());
    expect(answer.apiKey).toMatch(/^sk_live_/);
    env.MPS_API_KEY = answer.apiKey;

    // 2. npm run listen, from the checkout; the reader copies the secret it prints.
    const listen = start(adapt(codeOf("listen").source), root, env);
    running.push(listen);
    await expect.poll(() => /Signing secret: (whsec_\S+)/.exec(listen.output())?.[1], { timeout: 30_000 }).toBeTruthy();
    env.WEBHOOK_SECRET = /Signing secret: (whsec_\S+)/.exec(listen.output())![1]!;

    // 3. The receiver, saved as its file and started as shown.
    const receive = codeOf("receive");
    if (receive.lang !== "ts") throw new Error("the receiver step is a file");
    writeFileSync(path.join(workspace, receive.file), adapt(receive.source));
    const receiver = start(adapt(receive.run), workspace, env);
    running.push(receiver);
    await expect.poll(() => receiver.output(), { timeout: 30_000 }).toContain(`receiving on port ${port}`);

    // 4. The first payment.
    const pay = codeOf("pay");
    if (pay.lang !== "ts") throw new Error("the payment step is a file");
    writeFileSync(path.join(workspace, pay.file), adapt(pay.source));
    const paid = start(adapt(pay.run), workspace, env);
    expect(await paid.exited, paid.output()).toBe(0);
    expect(paid.output()).toContain("payment confirmed");

    // The outcome the page promises: every event verified by the receiver, invoice.paid among them.
    for (const type of ["invoice.created", "payment.confirmed", "invoice.payment_received", "invoice.paid"]) {
      await expect.poll(() => receiver.output(), { timeout: 30_000 }).toContain(`verified ${type} evt_`);
    }
    expect(listen.output()).toMatch(/invoice\.paid\s+evt_\S+\s+→ 204/);
  } finally {
    for (const process of running) process.stop();
  }
});
