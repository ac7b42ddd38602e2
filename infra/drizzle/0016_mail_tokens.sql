CREATE TABLE "mail_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_tokens" ADD CONSTRAINT "mail_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_tokens_user_purpose_idx" ON "mail_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
-- Links mailed before the upgrade keep working: the live ones (unused, unexpired) move over as
-- they are; a reset link's address was not kept and is not needed.
INSERT INTO "mail_tokens" ("token_hash", "purpose", "user_id", "email", "expires_at", "created_at")
SELECT "token_hash", 'password-reset', "user_id", NULL, "expires_at", "created_at" FROM "password_reset_tokens"
WHERE "used_at" IS NULL AND "expires_at" > now();--> statement-breakpoint
INSERT INTO "mail_tokens" ("token_hash", "purpose", "user_id", "email", "expires_at", "created_at")
SELECT "token_hash", 'email-verification', "user_id", "email", "expires_at", "created_at" FROM "email_verification_tokens"
WHERE "used_at" IS NULL AND "expires_at" > now()
ON CONFLICT ("token_hash") DO NOTHING;--> statement-breakpoint
DROP TABLE "email_verification_tokens" CASCADE;--> statement-breakpoint
DROP TABLE "password_reset_tokens" CASCADE;
