import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { BACKGROUND_JOBS } from "../../src/server/background/jobs";
import { startScheduler, type BackgroundJob } from "../../src/server/background/scheduler";
import { createLogger } from "../../src/server/log";
import type { Runtime } from "../../src/server/runtime";

/** The parts of a runtime the scheduler uses: its logger (lines kept as objects) and its closers. */
function fakeRuntime() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  const closers: (() => Promise<void>)[] = [];
  const runtime = {
    log: createLogger("info", sink),
    onClose: (closer: () => Promise<void>) => closers.push(closer),
    close: async () => {
      for (const close of closers.reverse()) await close();
    },
  } as unknown as Runtime;
  return { runtime, lines };
}

const waitFor = async (condition: () => boolean, ms = 2_000) => {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > ms) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
};

describe("the background jobs' scheduler", () => {
  it("runs full batches back to back, then waits for the next run", async () => {
    const { runtime, lines } = fakeRuntime();
    const counts = [3, 3, 1, 0, 0];
    const calls: number[] = [];
    const job: BackgroundJob = { name: "test-job", everyMs: 200, batchSize: 3, done: "rows handled", run: async () => (calls.push(Date.now()), counts.shift() ?? 0) };
    startScheduler(runtime, [job]);
    await waitFor(() => calls.length >= 5);
    await runtime.close();
    // The first run is three batches (two full ones, then a short one) with no wait between them; each later run starts a full interval after.
    expect(calls[2]! - calls[0]!).toBeLessThan(100);
    expect(calls[3]! - calls[2]!).toBeGreaterThanOrEqual(195);
    const done = lines.filter((line) => line.msg === "rows handled");
    expect(done.map((line) => [line.component, line.count])).toEqual([["test-job", 3], ["test-job", 3], ["test-job", 1]]);
  });

  it("logs a failed run with the job's name and tries again at the next run", async () => {
    const { runtime, lines } = fakeRuntime();
    let calls = 0;
    const job: BackgroundJob = {
      name: "flaky-job",
      everyMs: 10,
      batchSize: 10,
      done: "done",
      run: async () => {
        calls++;
        if (calls === 1) throw new Error("database unavailable");
        return 0;
      },
    };
    startScheduler(runtime, [job]);
    await waitFor(() => calls >= 2);
    await runtime.close();
    const failed = lines.filter((line) => line.level === 50);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ component: "flaky-job", msg: "flaky-job failed; retrying at its next run", err: { message: "database unavailable" } });
  });

  it("stops with the runtime: the batch in progress finishes, no other starts", async () => {
    const { runtime } = fakeRuntime();
    let finish: () => void = () => {};
    let started = 0;
    let finished = 0;
    const job: BackgroundJob = {
      name: "slow-job",
      everyMs: 1,
      batchSize: 1,
      done: "done",
      run: () =>
        new Promise<number>((resolve) => {
          started++;
          finish = () => {
            finished++;
            resolve(1);
          };
        }),
    };
    startScheduler(runtime, [job]);
    await waitFor(() => started === 1);
    const closing = runtime.close();
    let closed = false;
    void closing.then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toBe(false);
    finish();
    await closing;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect({ started, finished }).toEqual({ started: 1, finished: 1 });
  });

  it("lists each job once, by a name of its own", () => {
    const names = BACKGROUND_JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(["invoice-expiry", "event-retention", "idempotency-key-purge"]));
  });
});
