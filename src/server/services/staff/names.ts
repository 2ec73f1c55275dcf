import { inArray } from "drizzle-orm";
import { z } from "zod";
import { merchants, users } from "@/server/db/schema";
import { requireStaff, type ServiceContext } from "../context";
import { validateInput } from "../validate";

const ids = z.array(z.string().min(1).max(64)).max(200).default([]);
export const staffNamesInput = z.strictObject({ merchantIds: ids, userIds: ids });

export interface StaffNames {
  merchants: Record<string, { name: string; email: string }>;
  users: Record<string, { email: string; name: string | null }>;
}

/**
 * Who the ids on a staff page are (merchant names and emails, users' emails), so the console shows people
 * rather than `mer_…` and `usr_…`. Only for ids the page already shows from an audited read (a search, the
 * audit log), so the lookup itself is not audit-logged. Unknown ids are left out.
 */
export async function lookUpStaffNames({ ctx, input }: { ctx: ServiceContext; input: z.input<typeof staffNamesInput> }): Promise<StaffNames> {
  requireStaff(ctx);
  const query = validateInput(staffNamesInput, input);
  const merchantIds = [...new Set(query.merchantIds)];
  const userIds = [...new Set(query.userIds)];
  const [merchantRows, userRows] = await Promise.all([
    merchantIds.length
      ? ctx.db.select({ id: merchants.id, name: merchants.name, email: merchants.email }).from(merchants).where(inArray(merchants.id, merchantIds))
      : [],
    userIds.length ? ctx.db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(inArray(users.id, userIds)) : [],
  ]);
  return {
    merchants: Object.fromEntries(merchantRows.map(({ id, ...rest }) => [id, rest])),
    users: Object.fromEntries(userRows.map(({ id, ...rest }) => [id, rest])),
  };
}
