/** `npm run sdk:generate`: rewrites the SDK's generated types from the route declarations. */
import { writeFileSync } from "node:fs";
import { generateSdkSchema, SDK_SCHEMA_FILE } from "./sdk/generate";

writeFileSync(SDK_SCHEMA_FILE, await generateSdkSchema());
console.log(`Wrote ${SDK_SCHEMA_FILE}`);
process.exit(0);
