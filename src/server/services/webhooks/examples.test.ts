import { describe, expect, it } from "vitest";
import { webhookExamples as examples } from "./examples";
import {
  deliveryDetailSchema,
  deliveryListSchema,
  deliverySchema,
  retryCountSchema,
  retryFailedDeliveriesInput,
  sendTestWebhookInput,
  testWebhookResultSchema,
  verifyWebhookInput,
  verifyWebhookResultSchema,
} from "./schemas";

describe("webhook documentation examples parse with the schemas they illustrate", () => {
  it.each([
    ["failed list", deliveryListSchema, examples.failedList],
    ["delivery detail", deliveryDetailSchema, examples.delivery],
    ["retried delivery", deliverySchema, examples.retried],
    ["bulk retry body", retryFailedDeliveriesInput, examples.bulkRetryBody],
    ["bulk retry result", retryCountSchema, examples.bulkRetryResult],
    ["test body", sendTestWebhookInput, examples.testBody],
    ["test result", testWebhookResultSchema, examples.testResult],
    ["verify body", verifyWebhookInput, examples.verifyBody],
    ["verify result", verifyWebhookResultSchema, examples.verifyResult],
  ] as const)("%s", (_name, schema, example) => {
    const result = schema.safeParse(example);
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });
});
