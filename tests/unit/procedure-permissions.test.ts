import { describe, expect, it } from "vitest";
import { PERMISSIONS } from "@/server/auth/permissions";
import type { ProcedureMeta } from "@/server/trpc/init";
import { appRouter } from "@/server/trpc/router";

/**
 * Every tRPC procedure declares the permission it needs (trpc/init.ts: `merchantProcedure("…")`,
 * `staffProcedure("staff.…")`, `selfProcedure`), so the permission table decides every dashboard call. The few
 * open to anyone are named here: adding one is a decision to make in review.
 */
const PUBLIC = ["health.ready", "health.replicaLag", "health.session", "account.me", "account.permissions", "access.procedures"];

const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Partial<ProcedureMeta> } }>);

describe("procedure permissions", () => {
  it("every procedure of the app router declares a permission of the table (or is one of the few public ones)", () => {
    expect(procedures.length).toBeGreaterThan(90);
    for (const [path, procedure] of procedures) {
      const declared = procedure._def.meta?.permission;
      expect(declared, `${path} declares no permission`).toBeDefined();
      if (declared === "public") {
        expect(PUBLIC, `${path} is public: build it with merchantProcedure("…") or add it to PUBLIC on purpose`).toContain(path);
        continue;
      }
      expect(declared!.length, path).toBeGreaterThan(0);
      for (const permission of declared!) expect(PERMISSIONS, path).toContain(permission);
    }
  });

  it("staff procedures declare staff permissions and merchant procedures merchant ones", () => {
    for (const [path, procedure] of procedures) {
      const declared = procedure._def.meta?.permission;
      if (!declared || declared === "public" || declared.length !== 1) continue;
      const staffPath = /(^staff\.|\.staff\.|\.staff[A-Z])/.test(path);
      expect(declared[0]!.startsWith("staff."), path).toBe(staffPath);
    }
  });
});
