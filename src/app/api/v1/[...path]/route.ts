import { notFoundRoute } from "@/server/http/next";

// Any /api/v1 path without a route of its own: a 404 in problem+json, whatever the method (OPTIONS too:
// otherwise Next.js answers it with a 204 for a path that does not exist).
const notFound = async () => notFoundRoute();
export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
