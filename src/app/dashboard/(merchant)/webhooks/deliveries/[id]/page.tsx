import type { Metadata } from "next";
import { DeliveryDetail } from "@/components/webhooks/delivery-detail";

export const metadata: Metadata = { title: "Webhook delivery" };

export default async function DeliveryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <DeliveryDetail id={id} />;
}
