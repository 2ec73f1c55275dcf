import type { Metadata } from "next";
import { Suspense } from "react";
import { DeliveryLog } from "@/components/webhooks/delivery-log";
import { EndpointCard } from "@/components/webhooks/endpoint-card";
import { EndpointsCard } from "@/components/webhooks/endpoints-card";
import { SecretCard } from "@/components/webhooks/secret-card";
import { TestCard } from "@/components/webhooks/test-card";

export const metadata: Metadata = { title: "Webhooks" };

export default function WebhooksPage() {
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Webhooks</h1>
          <p>Signed events for every payment change, retried for about three days.</p>
        </div>
      </div>
      <EndpointCard />
      <SecretCard />
      <TestCard />
      <EndpointsCard />
      {/* The log reads its filters from the URL. */}
      <Suspense>
        <DeliveryLog />
      </Suspense>
    </>
  );
}
