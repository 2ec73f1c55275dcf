import { EXAMPLE_CURSOR, EXAMPLE_IDS, EXAMPLE_TIME } from "@/server/openapi/examples";
import { listMerchantAuditLog } from "@/server/services/audit/list-merchant";
import { auditEntryListSchema, listMerchantAuditInput, type AuditEntry } from "@/server/services/audit/schemas";
import { defineRoute } from "../route";

const exampleEntry: AuditEntry = {
  id: "aud_01jd7ze3f4g5h6j7k8m9n0p1q2",
  actorType: "user",
  actorId: "usr_01jd7z8x0m4e5t6y7v8w9a0b1e",
  action: "api_key.rolled",
  targetType: "api_key",
  targetId: EXAMPLE_IDS.apiKey,
  requestId: EXAMPLE_IDS.request,
  ip: "203.0.113.7",
  userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  details: { expiresInHours: 24 },
  createdAt: EXAMPLE_TIME,
  seq: 42,
  hash: "5f2c8a8e0d1b7c3e9a4f6b2d8c0e1f3a5b7c9d0e2f4a6b8c0d1e3f5a7b9c1d3e",
};

// GET /api/v1/audit-log – the merchant's audit log, for export
export const listAuditLogRoute = defineRoute({
  operationId: "listAuditLog",
  method: "GET",
  path: "/audit-log",
  summary: "List audit log entries",
  description:
    "Every change made to your account by your team, your API keys or support staff, newest first, cursor-paginated: " +
    "who (`actorType`, `actorId`), from where (`ip`, `userAgent`), what (`action`, `targetType`, `targetId`) and what " +
    "changed (`details`). Filters: `actor` (an id, or a kind: `user`, `api_key`, `staff`, `system`), `action` (exact, " +
    "or a prefix such as `api_key.*`), `since` (inclusive), `until` (exclusive). Both modes' changes; a live key only " +
    "(a test key is 403). Each entry's `seq` and `hash` are its link in your log's hash chain " +
    "(docs/team-and-security.md, \"Audit log\").",
  tags: ["Audit log"],
  auth: "api_key",
  // No restricted key's resource grants it (auth/permissions.ts): sk_ keys only.
  permission: "audit_log.read",
  query: listMerchantAuditInput,
  responses: {
    200: { description: "A page of audit log entries.", schema: auditEntryListSchema, example: { data: [exampleEntry], hasMore: true, nextCursor: EXAMPLE_CURSOR } },
  },
  errors: ["invalid_cursor", "forbidden"],
  handler: async ({ ctx, query }) => ({ status: 200, body: await listMerchantAuditLog({ ctx, input: query }) }),
});

export const auditLogRoutes = [listAuditLogRoute];
