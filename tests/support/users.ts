import { randomBytes } from "node:crypto";
import { newId } from "../../src/lib/ids";
import type { Runtime } from "../../src/server/runtime";
import type { Actor } from "../../src/server/services/context";
import { createServiceContext } from "../../src/server/services/create-context";
import { createStaffUser } from "../../src/server/services/users/create-staff";

export function serviceContext(runtime: Runtime, actor: Actor) {
  return createServiceContext(runtime, actor, newId("request"));
}

/** A support-staff login, created the way `npm run staff:create` creates one. */
export async function createTestStaff(runtime: Runtime) {
  const suffix = randomBytes(4).toString("hex");
  const password = `staff password ${suffix}`;
  const user = await createStaffUser({
    ctx: serviceContext(runtime, { type: "system" }),
    input: { email: `support-${suffix}@example.com`, password },
  });
  return { user, password };
}

/** A fresh client address per test, so per-IP login limits of one test do not reach another. */
export function testIp(): string {
  const bytes = randomBytes(3);
  return `10.${bytes[0]}.${bytes[1]}.${bytes[2]}`;
}
