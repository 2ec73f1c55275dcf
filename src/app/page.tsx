import Link from "next/link";

export default function HomePage() {
  return (
    <main className="home">
      <h1>Merchant Payments</h1>
      <p className="lead">
        Record and confirm payments from your servers, receive signed webhooks for every change, and reconcile
        them in the dashboard.
      </p>
      <ul className="home-links">
        <li>
          <Link href="/dashboard">Dashboard</Link> — sign in or create a merchant account
        </li>
        <li>
          <Link href="/docs">API reference</Link> — REST under <code>/api/v1</code>
        </li>
        <li>
          <a href="/api/v1/health/ready">Service status</a>
        </li>
      </ul>
    </main>
  );
}
