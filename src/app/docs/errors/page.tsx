import type { Metadata } from "next";
import Link from "next/link";
import { readErrorCatalogue } from "@/server/openapi/error-catalogue";
import { Paragraphs } from "../_components/inline";
import styles from "../docs.module.css";

export const metadata: Metadata = { title: "Error codes" };

/**
 * docs/errors.md as a page: every problem's `type` links here (`/docs/errors#<code>`), so each code has an
 * anchor of its own name.
 */
export default async function ErrorsPage() {
  const entries = await readErrorCatalogue();
  return (
    <main className={styles.single}>
      <p>
        <Link href="/docs">← API reference</Link>
      </p>
      <h1>Error codes</h1>
      <p>
        Every error is an RFC 9457 problem (<code>application/problem+json</code>) with a stable <code>code</code>.
        Branch on the code; <code>detail</code> is for humans. Quote the <code>requestId</code> when you contact
        support.
      </p>
      <table className={styles.table}>
        <thead>
          <tr>
            <th scope="col">Code</th>
            <th scope="col">Status</th>
            <th scope="col">What it means and what to do</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.code} id={entry.code}>
              <th scope="row">
                <code>{entry.code}</code>
              </th>
              <td>{entry.status}</td>
              <td>
                <strong>{entry.title}.</strong>
                <Paragraphs text={entry.advice} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}
