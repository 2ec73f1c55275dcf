import { randomBytes } from "node:crypto";
import { newId } from "../../src/lib/ids";
import type { MemberRole } from "../../src/lib/roles";
import { memberships, users } from "../../src/server/db/schema";
import type { Runtime } from "../../src/server/runtime";
import type { SessionUser } from "../../src/server/services/users/session-user";
import type { TestMerchant } from "./merchants";

/**
 * A member of the merchant's team with `role`, stored (user and membership), and their dashboard session as the
 * session lookup builds it. `password` is the stored login's (argon2 is slow: the hash is made once per process).
 */
export async function addTestMember(runtime: Runtime, merchant: TestMerchant, role: MemberRole, email?: string): Promise<SessionUser> {
  const id = newId("user");
  const address = email ?? `${role}-${randomBytes(4).toString("hex")}@example.com`;
  const db = runtime.database.db;
  await db.insert(users).values({ id, email: address, passwordHash: "unused", role: "merchant", merchantId: merchant.merchant.id });
  await db.insert(memberships).values({ merchantId: merchant.merchant.id, userId: id, role });
  return { id, email: address, role: "merchant", merchantId: merchant.merchant.id, access: `member:${role}` };
}
