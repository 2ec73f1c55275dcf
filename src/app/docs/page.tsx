import type { Metadata } from "next";
import Link from "next/link";
import { ScalarReference } from "./_components/scalar-reference";
import { referenceConfiguration, SCALAR_SCRIPT } from "./reference-configuration";
import styles from "./docs.module.css";

export const metadata: Metadata = { title: "API reference" };

/**
 * The API reference: Scalar renders the OpenAPI document `GET /api/v1/openapi.json` serves (generated from the
 * route declarations, so it cannot drift from the API), with search, SDK and curl samples and try-it.
 */
export default function DocsPage() {
  return (
    <div className={styles.referencePage}>
      <header className={styles.referenceHeader}>
        <Link href="/" className={styles.brand}>
          Merchant Payments
        </Link>
        <nav aria-label="Documentation">
          <Link href="/docs/quickstart">Quickstart</Link>
          <Link href="/docs/errors">Error codes</Link>
          <a href="/api/v1/openapi.json">OpenAPI JSON</a>
        </nav>
      </header>
      <noscript>
        <p className={styles.noscript}>
          The interactive reference needs JavaScript. The document itself is at <a href="/api/v1/openapi.json">/api/v1/openapi.json</a>.
        </p>
      </noscript>
      <ScalarReference configuration={referenceConfiguration()} script={SCALAR_SCRIPT} />
    </div>
  );
}
