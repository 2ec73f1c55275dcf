import Link from "next/link";

/** An unknown dashboard URL, inside the dashboard's own frame (navigation stays), instead of Next.js's bare page. */
export default function DashboardNotFound() {
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Page not found</h1>
          <p>There is no dashboard page at this address. It may have moved, or the link may be mistyped.</p>
        </div>
      </div>
      <p>
        <Link className="btn btn-primary" href="/dashboard">
          Go to the dashboard
        </Link>
      </p>
    </>
  );
}
