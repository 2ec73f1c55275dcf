import type { Metadata } from "next";

export const metadata: Metadata = { title: "Invoice not found", robots: { index: false, follow: false } };

/** Unknown, malformed and foreign ids alike: a plain page that says nothing about what exists. */
export default function CheckoutNotFound() {
  return (
    <main className="checkout">
      <h1>Invoice not found</h1>
      <p>Check the link you were given, or ask the shop for a new one.</p>
    </main>
  );
}
