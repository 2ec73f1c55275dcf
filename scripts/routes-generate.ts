/** `npm run routes:generate`: rewrites the REST API's route files from the route declarations. */
import { writeRouteFiles } from "./routes/generate";

const { written, removed } = writeRouteFiles();
console.log(`Wrote ${written} route files under src/app/api/v1${removed.length ? `; removed ${removed.join(", ")}` : ""}`);
process.exit(0);
