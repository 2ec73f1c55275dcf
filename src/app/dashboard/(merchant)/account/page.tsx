import type { Metadata } from "next";
import { AccountPage } from "@/components/account/account-page";
import { guardPage } from "@/server/auth/page-guard";

export const metadata: Metadata = { title: "Account" };

export default async function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  await guardPage("/dashboard/account");
  return <AccountPage searchParams={searchParams} />;
}
