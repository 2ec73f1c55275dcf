import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { Suspense } from "react";
import { DeliveryLog } from "@/components/webhooks/delivery-log";
import { EndpointCard } from "@/components/webhooks/endpoint-card";
import { EndpointsCard } from "@/components/webhooks/endpoints-card";
import { LiveSettingsNote } from "@/components/webhooks/live-settings-note";
import { SecretCard } from "@/components/webhooks/secret-card";
import { TestCard } from "@/components/webhooks/test-card";
import { dashboardLivemode } from "@/server/auth/dashboard-mode";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  await guardPage("/dashboard/webhooks");
  // The profile's webhook URL and its secret are the live default endpoint's: test mode shows test endpoints only
  // (docs/test-mode.md, "Webhooks").
  const livemode = await dashboardLivemode();
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Webhooks</h1>
          <p>Signed events for every payment change, retried for about three days.</p>
        </div>
      </div>
      {livemode ? (
        <>
          <EndpointCard />
          <SecretCard />
        </>
      ) : (
        <LiveSettingsNote />
      )}
      <TestCard />
      <EndpointsCard />
      {/* The log reads its filters from the URL. */}
      <Suspense>
        <DeliveryLog />
      </Suspense>
    </>
  );
}
