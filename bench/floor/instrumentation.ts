// The floor app starts nothing: without this file Next.js would find the real app's src/instrumentation.ts
// (the floor's build runs from the same repository) and open and migrate the app's database at start-up.
export function register() {}
