import type { Metadata } from "next";
import Link from "next/link";
import { Inline } from "../_components/inline";
import styles from "../docs.module.css";
import { quickstartSteps } from "./steps";

export const metadata: Metadata = { title: "Quickstart" };

/** Register → first payment → first webhook verified; the same steps e2e/api/quickstart.spec.ts runs. */
export default function QuickstartPage() {
  return (
    <main className={styles.single}>
      <p>
        <Link href="/docs">← API reference</Link>
      </p>
      <h1>Quickstart</h1>
      <p>From nothing to a verified webhook for a paid invoice in five steps, with curl, the SDK and <code>npm run listen</code>.</p>
      {quickstartSteps.map((step) => (
        <section key={step.id} id={step.id} className={styles.step} aria-labelledby={`${step.id}-title`}>
          <h2 id={`${step.id}-title`}>{step.title}</h2>
          <p>
            <Inline text={step.intro} />
          </p>
          {step.code.lang === "ts" ? <p className={styles.fileName}>{step.code.file}</p> : null}
          <pre className={styles.code} tabIndex={0}>
            <code data-step={step.id}>{step.code.source}</code>
          </pre>
          {step.code.lang === "ts" ? (
            <pre className={styles.code} tabIndex={0}>
              <code data-run={step.id}>{step.code.run}</code>
            </pre>
          ) : null}
          <p>
            <Inline text={step.outcome} />
          </p>
        </section>
      ))}
      <p>
        Next: every operation, with SDK and curl samples and try-it, in the <Link href="/docs">API reference</Link>; what each
        error code means in the <Link href="/docs/errors">error catalogue</Link>; signatures, retries and the receiver
        checklist in the webhooks guide.
      </p>
    </main>
  );
}
