import { dispatch } from "@/server/http/dispatch";
import { routes } from "@/server/http/routes";
import { getRuntime } from "@/server/runtime";

// Every /api/v1 request, whatever its path and method, is answered from the route declarations
// (src/server/http/routes): they are the one list of endpoints. HEAD is Next.js's: it calls GET.
const answer = (request: Request) => dispatch(getRuntime, routes, request);
export { answer as GET, answer as POST, answer as PUT, answer as PATCH, answer as DELETE, answer as OPTIONS };
