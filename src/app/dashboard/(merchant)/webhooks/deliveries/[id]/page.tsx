import { guardPage } from "@/server/auth/page-guard";
import type { Metadata } from "next";
import { DeliveryDetail } from "@/components/webhooks/delivery-detail";

export const metadata: Metadata = { title: "Webhook delivery" };

export default async function DeliveryPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  await guardPage(`/dashboard/webhooks/deliveries/${id}`);
  return <DeliveryDetail id={id} />;
}
