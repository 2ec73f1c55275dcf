import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generateSdkSchema, SDK_SCHEMA_FILE } from "../../scripts/sdk/generate";

describe("the SDK's generated types", () => {
  it("match the route declarations (run `npm run sdk:generate` after changing a route)", async () => {
    const committed = readFileSync(SDK_SCHEMA_FILE, "utf8");
    // A plain equality: a diff of thousands of lines helps nobody, the command above fixes it.
    expect(committed === (await generateSdkSchema()), `${SDK_SCHEMA_FILE} is stale: run npm run sdk:generate`).toBe(true);
  });
});
