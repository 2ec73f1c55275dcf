/**
 * One value per process under `name`, made by `create` the first time it is asked for. Next.js bundles each route,
 * page and server action apart, each with its own copy of the modules it imports: state that must be one per
 * process (caches and counters that a request through one bundle fills and another reads) is kept on globalThis,
 * under a registered symbol, rather than in a module's own variable.
 */
export function processWide<T>(name: string, create: () => T): T {
  const key = Symbol.for(`merchant-payments.${name}`);
  const registry = globalThis as typeof globalThis & Record<symbol, unknown>;
  return (registry[key] ??= create()) as T;
}
