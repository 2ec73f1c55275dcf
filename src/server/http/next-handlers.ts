import { dispatch } from "@/server/http/dispatch";
import { routes } from "@/server/http/routes";
import { getRuntime } from "@/server/runtime";

// What every route file under src/app/api/v1 exports: the request, whatever its path and method, answered from
// the route declarations (src/server/http/routes), the one list of endpoints. HEAD is Next.js's: it calls GET.
const answer = (request: Request) => dispatch(getRuntime, routes, request);
export { answer as GET, answer as POST, answer as PUT, answer as PATCH, answer as DELETE, answer as OPTIONS };
