import type { Metadata } from "next";
import { EndpointCard } from "@/components/webhooks/endpoint-card";
import { FailedDeliveries } from "@/components/webhooks/failed-deliveries";
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
      <FailedDeliveries />
    </>
  );
}
