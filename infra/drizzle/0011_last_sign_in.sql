ALTER TABLE "users" ADD COLUMN "last_signed_in_at" timestamp with time zone;--> statement-breakpoint
-- Accounts from before sign-ins were noted, welcomed back when they show one: an account from
-- before confirmation was signed in at sign-up, a confirmed address was (nearly always) confirmed
-- by a signed-in session, and uploads come to an account only through one.
UPDATE "users" SET "last_signed_in_at" = "updated_at"
WHERE "created_before_verification" OR "email_verified_at" IS NOT NULL OR EXISTS (SELECT 1 FROM "uploads" WHERE "uploads"."user_id" = "users"."id");
