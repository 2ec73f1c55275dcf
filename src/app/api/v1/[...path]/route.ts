// Paths no route declares (404 problem+json to every method); each declared path has a generated file of its own
// (scripts/routes/generate.ts). Both answer through the same dispatch.
export { GET, POST, PUT, PATCH, DELETE, OPTIONS } from "@/server/http/next-handlers";
