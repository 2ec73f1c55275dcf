import type { AnyRoute } from "@/server/http/route";

/** The SDK's package name, as the samples import it (sdk/package.json). */
export const SDK_PACKAGE = "@merchant-payments/sdk";

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

/**
 * The operation's call with the SDK and with curl, for the reference's `x-codeSamples` (shown by Scalar beside
 * its own generated clients). Built from the route declaration and its body example, so they cannot drift.
 */
export function codeSamplesOf(route: AnyRoute): CodeSample[] {
  return [
    { lang: "typescript", label: "SDK (TypeScript)", source: sdkSample(route) },
    { lang: "shell", label: "curl", source: curlSample(route) },
  ];
}

const pathParams = (route: AnyRoute) => [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);

function sdkSample(route: AnyRoute): string {
  const options: string[] = [];
  const params = pathParams(route);
  if (params.length) options.push(`params: { path: { ${params.map((name) => `${name}: "…"`).join(", ")} } }`);
  if (route.bodyExample !== undefined) options.push(`body: ${indent(JSON.stringify(route.bodyExample, null, 2))}`);
  if (route.streamedBody) options.push(`body: ${JSON.stringify(route.streamedBody.example)}, bodySerializer: (body) => body, headers: { "content-type": "${route.streamedBody.mediaType}" }`);
  const streamed = Object.values(route.responses).some((response) => response.mediaType);
  if (streamed) options.push(`parseAs: "stream"`);
  const args = options.length ? `, { ${options.join(", ")} }` : "";
  const keyLine = route.auth === "api_key" ? "{ apiKey: process.env.MPS_API_KEY, baseUrl: process.env.MPS_API_URL }" : "{ baseUrl: process.env.MPS_API_URL }";
  return [
    `import { createClient } from "${SDK_PACKAGE}";`,
    "",
    `const mps = createClient(${keyLine});`,
    `const { data, error } = await mps.${route.method}("${route.path}"${args});`,
  ].join("\n");
}

function curlSample(route: AnyRoute): string {
  const url = `"$MPS_API_URL/api/v1${route.path.replace(/\{(\w+)\}/g, "…")}"`;
  const lines = [`curl ${route.method === "GET" ? "" : `-X ${route.method} `}${url}`];
  if (route.auth === "api_key") lines.push(`-H "Authorization: Bearer $MPS_API_KEY"`);
  if (route.bodyExample !== undefined) lines.push(`-H "Content-Type: application/json"`, `-d '${JSON.stringify(route.bodyExample).replace(/'/g, "'\\''")}'`);
  if (route.streamedBody) lines.push(`-H "Content-Type: ${route.streamedBody.mediaType}"`, `--data-binary @file`);
  if (Object.values(route.responses).some((response) => response.mediaType)) lines.push("-N");
  return lines.join(" \\\n  ");
}

const indent = (text: string) => text.replace(/\n/g, "\n  ");
