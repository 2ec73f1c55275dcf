import { Inline, Paragraphs } from "./inline";
import { constraints, SchemaView, typeLabel, type SchemaNode } from "./schema";
import styles from "../docs.module.css";

export interface MediaType {
  schema?: SchemaNode;
  example?: unknown;
  examples?: Record<string, { summary?: string; value?: unknown }>;
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: SchemaNode;
}

export interface OperationObject {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { description?: string; content?: Record<string, MediaType> }>;
}

export type Components = Record<string, SchemaNode>;

/** Follows a top-level `$ref`, so a body or response that is a named schema still shows its fields. */
export function resolved(schema: SchemaNode | undefined, components: Components): SchemaNode | undefined {
  const name = schema?.$ref?.split("/").at(-1);
  return name ? components[name] : schema;
}

export function Example({ value, label = "Example" }: { value: unknown; label?: string }) {
  return (
    <details className={styles.example}>
      <summary>{label}</summary>
      <pre>
        <code>{JSON.stringify(value, null, 2)}</code>
      </pre>
    </details>
  );
}

function ParameterTable({ parameters, components }: { parameters: Parameter[]; components: Components }) {
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">In</th>
          <th scope="col">Type</th>
          <th scope="col">Description</th>
        </tr>
      </thead>
      <tbody>
        {parameters.map((parameter) => {
          const schema = resolved(parameter.schema, components) ?? {};
          return (
            <tr key={`${parameter.in}:${parameter.name}`}>
              <td>
                <code>{parameter.name}</code>
                {parameter.required ? <span className={styles.required}> required</span> : null}
              </td>
              <td>{parameter.in}</td>
              <td>
                {typeLabel(schema)}
                {constraints(schema).length > 0 ? <span className={styles.constraints}> · {constraints(schema).join(" · ")}</span> : null}
              </td>
              <td>
                <Inline text={parameter.description ?? schema.description ?? ""} />
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

function ErrorTable({ responses }: { responses: [string, { description?: string; content?: Record<string, MediaType> }][] }) {
  return (
    <table className={styles.table}>
      <thead>
        <tr>
          <th scope="col">Status</th>
          <th scope="col">Codes</th>
        </tr>
      </thead>
      <tbody>
        {responses.map(([status, response]) => {
          const examples = Object.values(response.content ?? {})[0]?.examples ?? {};
          return (
            <tr key={status}>
              <td>{status}</td>
              <td>
                {Object.keys(examples).map((code, i) => (
                  <span key={code}>
                    {i > 0 ? ", " : null}
                    <a href={`/docs/errors#${code}`}>
                      <code>{code}</code>
                    </a>
                  </span>
                ))}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function Operation({ method, path, operation, components }: { method: string; path: string; operation: OperationObject; components: Components }) {
  const needsKey = (operation.security ?? []).length > 0;
  const body = operation.requestBody?.content?.["application/json"];
  const responses = Object.entries(operation.responses ?? {});
  const successes = responses.filter(([status]) => status.startsWith("2"));
  const failures = responses.filter(([status]) => /^[45]/.test(status));
  return (
    <section id={operation.operationId} className={styles.operation} aria-labelledby={`${operation.operationId}-title`}>
      <h3 id={`${operation.operationId}-title`} className={styles.operationTitle}>
        <span className={`${styles.method} ${styles[`method_${method}`] ?? ""}`}>{method.toUpperCase()}</span>{" "}
        <code>/api/v1{path}</code>
      </h3>
      <p className={styles.summary}>{operation.summary}</p>
      {operation.description ? <Paragraphs text={operation.description} /> : null}
      <p className={styles.auth}>{needsKey ? "Requires an API key: Authorization: Bearer sk_live_…" : "No authentication."}</p>
      {operation.parameters?.length ? (
        <>
          <h4>Parameters</h4>
          <ParameterTable parameters={operation.parameters} components={components} />
        </>
      ) : null}
      {body ? (
        <>
          <h4>Request body (application/json)</h4>
          <SchemaView schema={resolved(body.schema, components) ?? {}} />
          {body.example !== undefined ? <Example value={body.example} /> : null}
        </>
      ) : null}
      <h4>Responses</h4>
      {successes.map(([status, response]) => {
        const content = response.content?.["application/json"];
        return (
          <div key={status} className={styles.response}>
            <p>
              <strong>{status}</strong> {response.description}
              {content?.schema ? <> — {typeLabel(content.schema)}</> : null}
            </p>
            {content?.schema ? <SchemaView schema={resolved(content.schema, components) ?? {}} /> : null}
            {content?.example !== undefined ? <Example value={content.example} /> : null}
          </div>
        );
      })}
      {failures.length > 0 ? <ErrorTable responses={failures} /> : null}
    </section>
  );
}
