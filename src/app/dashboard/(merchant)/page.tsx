import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { Overview } from "@/components/overview/overview";

export const metadata: Metadata = { title: "Overview" };

export default async function OverviewPage() {
  await guardPage("/dashboard");
  return <Overview />;
}
