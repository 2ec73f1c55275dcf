import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

/*
 * The layer rules (eslint.layers.mjs) fire on deliberate violations: small files linted with the project's own
 * configuration as if they stood in the tree's layers. Each case also lints an allowed neighbour, so a rule that
 * flags everything fails here too.
 */

const root = path.resolve(import.meta.dirname, "../..");
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The rules that fire on `code` placed at `file` (relative to the repository). */
async function rulesFiredAt(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe("layers the linter enforces", { timeout: 60_000 }, () => {
  it("the webhook engine may not call a service verb; it may use the database", async () => {
    expect(await rulesFiredAt("src/server/webhooks/layer-fixture.ts", `import { confirmPayment } from "@/server/services/payments/confirm";\nexport const verb = confirmPayment;\n`)).toEqual([
      "boundaries/dependencies",
    ]);
    expect(await rulesFiredAt("src/server/webhooks/layer-fixture.ts", `import { webhookDeliveries } from "@/server/db/schema";\nexport const table = webhookDeliveries;\n`)).toEqual([]);
  });

  it("a layer may not import one above it", async () => {
    const cases: [string, string][] = [
      ["src/server/services/layer-fixture.ts", "@/server/http/route"],
      ["src/server/db/layer-fixture.ts", "@/server/webhooks/wake"],
      ["src/lib/layer-fixture.ts", "@/server/db/schema"],
      ["src/server/crypto/layer-fixture.ts", "@/server/runtime"],
      // Creating the runtime must not start background work (the entry points do).
      ["src/server/runtime.ts", "@/server/background/start"],
    ];
    for (const [file, imported] of cases) {
      expect(await rulesFiredAt(file, `import * as above from "${imported}";\nexport const used = above;\n`), `${file} importing ${imported}`).toEqual(["boundaries/dependencies"]);
    }
    expect(await rulesFiredAt("src/server/services/layer-fixture.ts", `import { newId } from "@/lib/ids";\nimport { notifyDeliveriesDue } from "@/server/webhooks/wake";\nexport const used = [newId, notifyDeliveriesDue];\n`)).toEqual([]);
  });

  it("REST and tRPC do not import each other, and no adapter reaches for the query builder", async () => {
    expect(await rulesFiredAt("src/server/http/layer-fixture.ts", `import { router } from "@/server/trpc/init";\nexport const used = router;\n`)).toEqual(["boundaries/dependencies"]);
    expect(await rulesFiredAt("src/server/trpc/layer-fixture.ts", `import { eq } from "drizzle-orm";\nexport const used = eq;\n`)).toEqual(["no-restricted-imports"]);
  });

  it("every file of src/ is in a layer: a new folder must be placed deliberately", async () => {
    expect(await rulesFiredAt("src/server/somewhere-new/layer-fixture.ts", "export const x = 1;\n")).toEqual(["boundaries/no-unknown-files"]);
  });

  it("hand-written statements live in src/server/db/sql/", async () => {
    const raw = `import { sql } from "drizzle-orm";\nimport type { Executor } from "@/server/db/types";\nexport const count = (db: Executor) => db.execute(sql\`select count(*) from payments\`);\n`;
    expect(await rulesFiredAt("src/server/services/layer-fixture.ts", raw)).toEqual(["no-restricted-syntax", "no-restricted-syntax"]);
    expect(await rulesFiredAt("src/server/db/sql/layer-fixture.ts", raw)).toEqual([]);
    // A fragment inside a drizzle query is not a statement.
    const fragment = `import { sql } from "drizzle-orm";\nexport const due = (at: string) => sql\`next_attempt_at <= \${at}::timestamptz\`;\n`;
    expect(await rulesFiredAt("src/server/services/layer-fixture.ts", fragment)).toEqual([]);
  });

  it("import cycles are refused anywhere in src/", async () => {
    // The outbox writer (services/events/emit.ts) importing the invoices' emitter, which imports it: a cycle through a
    // real file of the tree, found whether the import is relative or through the @/ alias.
    const emitter = "src/server/services/events/emit.ts";
    for (const imported of ["../invoices/emit", "@/server/services/invoices/emit"]) {
      expect(await rulesFiredAt(emitter, `import { emitInvoiceEvent } from "${imported}";\nexport const emit = emitInvoiceEvent;\n`), imported).toEqual(["import-x/no-cycle"]);
    }
    // Type-only imports are not followed (they vanish at build); one that crosses layers is a layer violation above.
    expect(await rulesFiredAt(emitter, `import type { emitInvoiceEvent } from "../invoices/emit";\nexport type Emit = typeof emitInvoiceEvent;\n`)).toEqual([]);
  });
});

describe("integration files leave the process as they found it", { timeout: 60_000 }, () => {
  // They share a process with the files before them (vitest.config.ts): a mock, a stub, a fake clock, a changed
  // environment or a listener on the process would reach the next file's tests.
  it("refuses vitest's mocks and stubs, writes to process.env and listeners on the process", async () => {
    const cases = [
      `import { vi } from "vitest";\nvi.mock("@/server/webhooks/wake");\n`,
      `import { vi } from "vitest";\nvi.useFakeTimers();\n`,
      `import { vi } from "vitest";\nvi.stubEnv("REDIS_URL", "redis://x");\n`,
      `process.env.REDIS_URL = "redis://x";\n`,
      `process.on("unhandledRejection", () => {});\n`,
    ];
    for (const code of cases) {
      for (const file of ["tests/integration/layer-fixture.test.ts", "tests/server-only/layer-fixture.test.ts", "tests/support/layer-fixture.ts"]) {
        expect((await rulesFiredAt(file, code)).length, `${file}: ${code}`).toBe(1);
      }
    }
    // Reading the environment, and the same calls in a unit file (each in a process of its own), are allowed.
    expect(await rulesFiredAt("tests/integration/layer-fixture.test.ts", `export const kind = process.env.TEST_DATABASE;\n`)).toEqual([]);
    expect(await rulesFiredAt("tests/unit/layer-fixture.test.ts", `import { vi } from "vitest";\nvi.useFakeTimers();\n`)).toEqual([]);
  });
});
