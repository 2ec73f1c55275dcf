import type { Runtime } from "@/server/runtime";

/**
 * A periodic job of the background work (jobs.ts lists them). Each run works in batches: it goes on while a batch
 * comes back full, so a backlog drains without waiting for the next run, and stops at the first short one.
 */
export interface BackgroundJob {
  /** Names the job in its log lines (`component`). */
  name: string;
  /** Time from the end of one run to the start of the next. */
  everyMs: number;
  /** Pause between two full batches of one run (none: straight on), so a backlog never holds the database for long. */
  pauseMs?: number;
  /** The most one batch handles: a batch that handled this many leaves more to do. */
  batchSize: number;
  /** What a batch did, logged with its count when it did anything ("invoices expired"). */
  done: string;
  /** One batch; resolves with how many rows it handled. */
  run(runtime: Runtime): Promise<number>;
}

export interface Scheduler {
  /** Finishes the batches in progress (none starts after), then resolves. */
  stop(): Promise<void>;
}

/**
 * Runs each job every `everyMs` until the runtime closes (or `stop`). A failed run is logged and the job tries again
 * at its next run. Any number of schedulers may run the same jobs against one database — web processes with the
 * inline worker and `npm run worker` processes alike: every job is written to be safe run concurrently.
 */
export function startScheduler(runtime: Runtime, jobs: readonly BackgroundJob[]): Scheduler {
  const running = jobs.map((job) => startJob(runtime, job));
  const scheduler: Scheduler = {
    async stop() {
      await Promise.all(running.map((job) => job.stop()));
    },
  };
  runtime.onClose(() => scheduler.stop());
  return scheduler;
}

function startJob(runtime: Runtime, job: BackgroundJob): Scheduler {
  const log = runtime.log.child({ component: job.name });
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  const runBatches = async () => {
    while (running) {
      const count = await job.run(runtime);
      if (count > 0) log.info({ count }, job.done);
      if (count < job.batchSize) return;
      if (job.pauseMs) await new Promise((resolve) => setTimeout(resolve, job.pauseMs));
    }
  };
  const tick = () => {
    current = runBatches()
      .catch((error: unknown) => log.error({ err: error }, `${job.name} failed; retrying at its next run`))
      .finally(() => {
        if (running) timer = setTimeout(tick, job.everyMs);
      });
  };
  tick();

  return {
    async stop() {
      running = false;
      clearTimeout(timer);
      await current;
    },
  };
}
