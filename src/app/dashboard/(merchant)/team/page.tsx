import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { TeamCard } from "@/components/team/team-card";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage() {
  await guardPage("/dashboard/team");
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Team</h1>
          <p>Who works on this account, and what each role may do.</p>
        </div>
      </div>
      <TeamCard />
    </>
  );
}
