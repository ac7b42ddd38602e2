-- The plan belongs to the workspace: every subscription and invoice moves to its account's own
-- workspace, whose id is the account's (migration 0021), so the ids stay as they are.
ALTER TABLE "subscriptions" DROP CONSTRAINT "subscriptions_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "subscriptions" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" DROP CONSTRAINT "invoices_user_id_users_id_fk";--> statement-breakpoint
DROP INDEX "invoices_user_idx";--> statement-breakpoint
ALTER TABLE "invoices" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invoices_workspace_idx" ON "invoices" USING btree ("workspace_id","created_at");--> statement-breakpoint
-- A subscriber's units of a billing period were counted under the account; they are the workspace's now.
UPDATE "quota_usage" SET "subject" = 'workspace:' || substr("subject", 6) WHERE "subject" LIKE 'user:%' AND "period" LIKE 'month:%';--> statement-breakpoint
-- An upload in flight returns its unit to where it is counted now.
UPDATE "uploads" SET "quota_charges" = (
  SELECT jsonb_agg(
    CASE WHEN c.charge->>'subject' LIKE 'user:%' AND c.charge->>'period' LIKE 'month:%'
      THEN jsonb_set(c.charge, '{subject}', to_jsonb('workspace:' || substr(c.charge->>'subject', 6)))
      ELSE c.charge END
    ORDER BY c.n)
  FROM jsonb_array_elements("uploads"."quota_charges") WITH ORDINALITY AS c(charge, n)
) WHERE EXISTS (
  SELECT 1 FROM jsonb_array_elements("uploads"."quota_charges") AS c(charge)
  WHERE c.charge->>'subject' LIKE 'user:%' AND c.charge->>'period' LIKE 'month:%'
);
