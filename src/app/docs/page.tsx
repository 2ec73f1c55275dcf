import type { Metadata } from "next";
import Link from "next/link";
import { openApiDocument } from "@/server/http/routes";
import { Inline, Paragraphs } from "./_components/inline";
import { Example, Operation, resolved, type Components, type OperationObject } from "./_components/operation";
import { SchemaView, type SchemaNode } from "./_components/schema";
import styles from "./docs.module.css";

export const metadata: Metadata = { title: "API reference" };

const METHODS = ["get", "post", "put", "patch", "delete"];

/**
 * The API reference, rendered from the same OpenAPI document `GET /api/v1/openapi.json` serves (itself
 * generated from the route declarations): the page cannot drift from the API.
 */
export default function DocsPage() {
  const document = openApiDocument();
  const components = (document.components?.schemas ?? {}) as Components;
  const operations = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, OperationObject & { tags?: string[] }>)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation })),
  );
  const tags = (document.tags ?? []).map((tag) => tag.name).filter((tag) => operations.some(({ operation }) => operation.tags?.includes(tag)));
  const webhooks = Object.entries(document.webhooks ?? {}).map(([name, item]) => ({ name, operation: (item as { post: OperationObject }).post }));

  return (
    <div className={styles.layout}>
      <nav className={styles.nav} aria-label="API reference">
        <p className={styles.navTitle}>
          <Link href="/">Merchant Payments</Link>
        </p>
        {tags.map((tag) => (
          <div key={tag}>
            <p className={styles.navGroup}>{tag}</p>
            <ul>
              {operations
                .filter(({ operation }) => operation.tags?.includes(tag))
                .map(({ path, method, operation }) => (
                  <li key={`${method} ${path}`}>
                    <a href={`#${operation.operationId}`}>
                      <span className={styles.navMethod}>{method.toUpperCase()}</span> {path}
                    </a>
                  </li>
                ))}
            </ul>
          </div>
        ))}
        <p className={styles.navGroup}>Webhook events</p>
        <ul>
          {webhooks.map(({ name }) => (
            <li key={name}>
              <a href={`#event-${name}`}>{name}</a>
            </li>
          ))}
        </ul>
        <p className={styles.navGroup}>More</p>
        <ul>
          <li>
            <a href="#schemas">Schemas</a>
          </li>
          <li>
            <Link href="/docs/errors">Error codes</Link>
          </li>
        </ul>
      </nav>

      <main className={styles.main}>
        <h1>{document.info.title}</h1>
        <p className={styles.version}>Version {document.info.version} · OpenAPI {document.openapi}</p>
        {document.info.description ? <Paragraphs text={document.info.description} /> : null}
        <p>
          Base URL: <code>/api/v1</code>. Machine-readable: <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
          Errors: <Link href="/docs/errors">error codes and what to do about each</Link>.
        </p>

        {tags.map((tag) => (
          <section key={tag} aria-labelledby={`tag-${tag}`}>
            <h2 id={`tag-${tag}`}>{tag}</h2>
            {operations
              .filter(({ operation }) => operation.tags?.includes(tag))
              .map(({ path, method, operation }) => (
                <Operation key={`${method} ${path}`} method={method} path={path} operation={operation} components={components} />
              ))}
          </section>
        ))}

        <section aria-labelledby="webhook-events">
          <h2 id="webhook-events">Webhook events</h2>
          <p>
            Each event is a signed <code>POST</code> to your webhook URL with the Standard Webhooks headers below. Verify
            the signature over the raw body before parsing it.
          </p>
          {webhooks.map(({ name, operation }) => {
            const body = operation.requestBody?.content?.["application/json"];
            return (
              <section key={name} id={`event-${name}`} className={styles.operation} aria-labelledby={`event-${name}-title`}>
                <h3 id={`event-${name}-title`}>
                  <code>{name}</code>
                </h3>
                <p className={styles.summary}>{operation.summary}</p>
                {operation.description ? <Paragraphs text={operation.description} /> : null}
                <h4>Headers</h4>
                <ul className={styles.fields}>
                  {(operation.parameters ?? []).map((header) => (
                    <li key={header.name}>
                      <code className={styles.fieldName}>{header.name}</code>
                      <div className={styles.description}>
                        <Inline text={header.schema?.description ?? header.description ?? ""} />
                      </div>
                    </li>
                  ))}
                </ul>
                <h4>Body</h4>
                <SchemaView schema={resolved(body?.schema, components) ?? {}} />
                {body?.example !== undefined ? <Example value={body.example} /> : null}
              </section>
            );
          })}
        </section>

        <section aria-labelledby="schemas">
          <h2 id="schemas">Schemas</h2>
          {Object.entries(components).map(([name, schema]) => (
            <section key={name} id={`schema-${name}`} className={styles.operation} aria-labelledby={`schema-${name}-title`}>
              <h3 id={`schema-${name}-title`}>{name}</h3>
              {(schema as SchemaNode).description ? <Paragraphs text={(schema as SchemaNode).description!} /> : null}
              <SchemaView schema={schema as SchemaNode} />
            </section>
          ))}
        </section>
      </main>
    </div>
  );
}
