/**
 * `npx node --import tsx bench/tools/permission-cost.ts`: the CPU a restricted key's permission check adds to one REST
 * request, measured alone like the metrics' cost (BENCHMARKS.md, case 13): a million `checkRouteScope` calls over the
 * authenticated routes, with a secret key (no scopes), a restricted key granted every route's permission, and one
 * refused (the thrown problem's cost, paid by the refused request only). Also the one-off cost of turning a key's
 * scopes into its granted set, paid once per key per cache TTL (5 s), not per request.
 */
import { grantedPermissions, RESTRICTED_KEY_RESOURCES } from "../../src/lib/restricted-key-scopes";
import { routes } from "../../src/server/http/routes";
import { checkRouteScope } from "../../src/server/http/scope";
import type { Actor } from "../../src/server/services/context";

const CALLS = 1_000_000;
const authenticated = routes.filter((route) => route.auth === "api_key");
const everything = Object.fromEntries(RESTRICTED_KEY_RESOURCES.map((resource) => [resource, "write" as const]));
const secret: Actor = { type: "api_key", merchantId: "mer_bench", keyId: "key_secret", livemode: true };
const restricted: Actor = { ...secret, keyId: "key_restricted", restrictedTo: grantedPermissions(everything) };
const refused: Actor = { ...secret, keyId: "key_refused", restrictedTo: grantedPermissions({}) };

function nsPerCall(actor: Actor, calls = CALLS): number {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    try {
      checkRouteScope(authenticated[i % authenticated.length]!, actor);
    } catch {
      // the refusal: its problem is built and thrown
    }
  }
  const cpu = process.cpuUsage(before);
  return ((cpu.user + cpu.system) * 1000) / calls;
}

function grantNs(calls = 100_000): number {
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) grantedPermissions(everything);
  const cpu = process.cpuUsage(before);
  return ((cpu.user + cpu.system) * 1000) / calls;
}

for (const actor of [secret, restricted]) nsPerCall(actor); // warm-up
const secretNs = nsPerCall(secret);
const restrictedNs = nsPerCall(restricted);
nsPerCall(refused, 100_000); // warm-up
const refusedNs = nsPerCall(refused, 100_000);
grantNs(); // warm-up
console.log(
  JSON.stringify({
    calls: CALLS,
    secretKeyNsPerRequest: Math.round(secretNs),
    restrictedKeyNsPerRequest: Math.round(restrictedNs),
    refusedNsPerRequest: Math.round(refusedNs),
    grantNsPerKeyVerification: Math.round(grantNs()),
  }),
);
