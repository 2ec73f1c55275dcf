import { timestamp } from "drizzle-orm/pg-core";

/** Every timestamp is `timestamptz`, surfaced as a JS Date and serialised as ISO 8601 UTC. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const createdAt = () => timestamptz("created_at").notNull().defaultNow();
export const updatedAt = () => timestamptz("updated_at").notNull().defaultNow();
