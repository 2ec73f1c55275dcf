import { describe, expect, it } from "vitest";
import { allScopes, grantedPermissions, storedScopes } from "../../src/lib/restricted-key-scopes";
import { PERMISSIONS, RESTRICTED_KEY_RESOURCES, SCOPE_LEVELS } from "../../src/server/auth/permissions";
import { openApiDocument, routes } from "../../src/server/http/routes";

const resourceOf = (permission: string) => permission.slice(0, permission.lastIndexOf("."));

describe("every REST route declares its permission (restricted keys: docs/team-and-security.md)", () => {
  const authenticated = routes.filter((route) => route.auth === "api_key");

  it("an api_key route names one permission of the table; a public route names none", () => {
    // Routes are cast to AnyRoute in routes/index.ts: the type requires `permission`, this checks the values too.
    const missing = authenticated.filter((route) => !(PERMISSIONS as readonly string[]).includes(route.permission ?? "")).map((route) => route.operationId);
    expect(missing, "add `permission` to these routes' declarations").toEqual([]);
    const publicWithOne = routes
      .filter((route) => route.auth === "none" && (route as { permission?: string }).permission !== undefined)
      .map((route) => route.operationId);
    expect(publicWithOne).toEqual([]);
  });

  it("a GET needs a `.read` permission (a read never needs write scope)", () => {
    const gets = authenticated.filter((route) => route.method === "GET" && !route.permission!.endsWith(".read"));
    expect(gets.map((route) => route.operationId)).toEqual([]);
  });

  // The audit log is no restricted key's resource (docs/team-and-security.md): only a secret key exports it.
  it("the routes no restricted key can reach are exactly the key routes and the audit log's export", () => {
    const unreachable = authenticated.filter((route) => !(RESTRICTED_KEY_RESOURCES as readonly string[]).includes(resourceOf(route.permission!)));
    expect(new Set(unreachable.map((route) => route.permission))).toEqual(new Set(["api_keys.write", "audit_log.read"]));
  });
});

describe("the OpenAPI document", () => {
  it("names each authenticated operation's permission in its description and `x-permission`", () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { "x-permission"?: string; description?: string }>>;
    for (const route of routes) {
      const operation = paths[route.path]![route.method.toLowerCase()]!;
      if (route.auth === "none") {
        expect(operation["x-permission"], route.operationId).toBeUndefined();
        continue;
      }
      expect(operation["x-permission"], route.operationId).toBe(route.permission);
      expect(operation.description, route.operationId).toContain(`Permission: \`${route.permission}\``);
    }
  });

  it("shows the key creation's scopes, one optional level per resource", () => {
    const document = openApiDocument() as unknown as { paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { properties: Record<string, { properties?: Record<string, { enum?: string[] }> }> } }> } }>> };
    const body = document.paths["/merchant/api-key"]!.post!.requestBody.content["application/json"]!.schema;
    const scopes = body.properties.scopes!.properties!;
    expect(Object.keys(scopes)).toEqual([...RESTRICTED_KEY_RESOURCES]);
    for (const level of Object.values(scopes)) expect(level.enum).toEqual([...SCOPE_LEVELS]);
  });
});

describe("restricted key scopes", () => {
  it("grant permissions of the table only: `<resource>.read`, and `.write` with `write`", () => {
    const everything = Object.fromEntries(RESTRICTED_KEY_RESOURCES.map((resource) => [resource, "write" as const]));
    const granted = [...grantedPermissions(storedScopes(everything))];
    expect(granted.filter((permission) => !(PERMISSIONS as readonly string[]).includes(permission))).toEqual([]);
    expect(granted).toHaveLength(RESTRICTED_KEY_RESOURCES.length * 2);
    expect(granted).not.toContain("api_keys.read");
    expect(granted).not.toContain("api_keys.write");
  });

  it("`write` implies `read`, `none` and a resource left out grant nothing", () => {
    expect([...grantedPermissions(storedScopes({ payments: "read", refunds: "write", invoices: "none" }))].sort()).toEqual(
      ["payments.read", "refunds.read", "refunds.write"],
    );
    expect(grantedPermissions({}).size).toBe(0);
  });

  it("are stored without `none`, and shown with every resource", () => {
    expect(storedScopes({ payments: "read", invoices: "none" })).toEqual({ payments: "read" });
    const shown = allScopes({ payments: "read" });
    expect(Object.keys(shown)).toEqual([...RESTRICTED_KEY_RESOURCES]);
    expect(shown.payments).toBe("read");
    expect(shown.refunds).toBe("none");
    expect(SCOPE_LEVELS).toContain(shown.refunds);
  });
});
