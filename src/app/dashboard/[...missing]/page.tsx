import { notFound } from "next/navigation";

// Unknown URLs under /dashboard: Next.js shows the nearest not-found page only for a route that calls
// notFound(), so this catch-all does, and /dashboard/not-found.tsx answers inside the dashboard's frame.
export default function MissingDashboardPage() {
  notFound();
}
