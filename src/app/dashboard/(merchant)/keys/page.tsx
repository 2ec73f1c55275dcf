import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { ApiKeysCard } from "@/components/keys/api-keys-card";
import { PublishedKeysCard } from "@/components/keys/published-keys-card";

export const metadata: Metadata = { title: "Keys" };

export default async function KeysPage() {
  const user = await guardPage("/dashboard/keys");
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Keys</h1>
          <p>Secret API keys for your servers, and the public keys you publish.</p>
        </div>
      </div>
      <ApiKeysCard />
      <PublishedKeysCard merchantId={user?.merchantId ?? ""} />
    </>
  );
}
