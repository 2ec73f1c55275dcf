-- The delivery outbox is a queue: every claim and every record updates a row, and each update leaves a dead
-- entry in the partial "due" and "lease" indexes until VACUUM removes it. The worker's claim walks the due
-- index from its oldest entry, so until then every claim steps over the dead entries of everything delivered
-- since the last vacuum (BENCHMARKS.md, case 5: commit → first attempt p50 61 ms on a vacuumed table, 558 ms
-- right after 30,000 deliveries). PostgreSQL's default waits for 20 % of the table to be dead; vacuum this
-- table after a fixed number of dead rows instead, so the walk stays short however large the history grows.
ALTER TABLE "webhook_deliveries" SET (
  autovacuum_vacuum_scale_factor = 0,
  autovacuum_vacuum_threshold = 2000,
  autovacuum_analyze_scale_factor = 0.02
);
