CREATE TABLE "receipt_edits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"receipt_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"changes" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "engine" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "duplicate_of" uuid;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "duplicate_reason" text;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "duplicate_kept" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "original_deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "receipt_edits" ADD CONSTRAINT "receipt_edits_receipt_id_receipts_id_fk" FOREIGN KEY ("receipt_id") REFERENCES "public"."receipts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receipt_edits_receipt_idx" ON "receipt_edits" USING btree ("receipt_id","created_at");--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_duplicate_of_uploads_id_fk" FOREIGN KEY ("duplicate_of") REFERENCES "public"."uploads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "receipts_date_total_idx" ON "receipts" USING btree ("date","total");--> statement-breakpoint
CREATE INDEX "uploads_user_sha256_idx" ON "uploads" USING btree ("user_id","sha256");--> statement-breakpoint
CREATE INDEX "uploads_anon_sha256_idx" ON "uploads" USING btree ("anon_id","sha256");--> statement-breakpoint
CREATE INDEX "uploads_duplicate_of_idx" ON "uploads" USING btree ("duplicate_of");--> statement-breakpoint
CREATE INDEX "uploads_originals_due_idx" ON "uploads" USING btree ("created_at") WHERE "uploads"."original_deleted_at" IS NULL;