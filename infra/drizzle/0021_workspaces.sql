-- Every account gets its personal workspace, whose id is the account's own: what the account
-- owned (uploads, rules, categories, intake address, DATEV settings) moves in by keeping its id.
CREATE TABLE "workspaces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"personal_of" uuid,
	"datev_settings" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspaces_personal_of_unique" UNIQUE("personal_of")
);
--> statement-breakpoint
CREATE TABLE "workspace_members" (
	"workspace_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_members_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "workspaces" ADD CONSTRAINT "workspaces_personal_of_users_id_fk" FOREIGN KEY ("personal_of") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_members" ADD CONSTRAINT "workspace_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workspace_members_user_idx" ON "workspace_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workspace_members_one_owner_idx" ON "workspace_members" USING btree ("workspace_id") WHERE "workspace_members"."role" = 'owner';--> statement-breakpoint
INSERT INTO "workspaces" ("id", "name", "personal_of", "datev_settings", "created_at") SELECT "id", "username", "id", "datev_settings", "created_at" FROM "users";--> statement-breakpoint
INSERT INTO "workspace_members" ("workspace_id", "user_id", "role", "created_at") SELECT "id", "id", 'owner', "created_at" FROM "users";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "datev_settings";--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
UPDATE "uploads" SET "workspace_id" = "user_id" WHERE "user_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "uploads" DROP CONSTRAINT "uploads_user_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
DROP INDEX "uploads_user_sha256_idx";--> statement-breakpoint
CREATE INDEX "uploads_workspace_created_idx" ON "uploads" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "uploads_workspace_sha256_idx" ON "uploads" USING btree ("workspace_id","sha256");--> statement-breakpoint
ALTER TABLE "merchant_rules" DROP CONSTRAINT "merchant_rules_user_id_users_id_fk";--> statement-breakpoint
DROP INDEX "merchant_rules_user_kind_key_idx";--> statement-breakpoint
ALTER TABLE "merchant_rules" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER TABLE "merchant_rules" ADD CONSTRAINT "merchant_rules_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "merchant_rules_workspace_kind_key_idx" ON "merchant_rules" USING btree ("workspace_id","kind","match_key");--> statement-breakpoint
ALTER TABLE "user_categories" DROP CONSTRAINT "user_categories_user_id_users_id_fk";--> statement-breakpoint
DROP INDEX "user_categories_user_name_idx";--> statement-breakpoint
ALTER TABLE "user_categories" RENAME COLUMN "user_id" TO "workspace_id";--> statement-breakpoint
ALTER TABLE "user_categories" ADD CONSTRAINT "user_categories_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "user_categories_workspace_name_idx" ON "user_categories" USING btree ("workspace_id",lower("name"));--> statement-breakpoint
ALTER TABLE "intake_addresses" DROP CONSTRAINT "intake_addresses_pkey";--> statement-breakpoint
ALTER TABLE "intake_addresses" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
UPDATE "intake_addresses" SET "workspace_id" = "user_id";--> statement-breakpoint
ALTER TABLE "intake_addresses" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "intake_addresses" ADD CONSTRAINT "intake_addresses_user_id_workspace_id_pk" PRIMARY KEY("user_id","workspace_id");--> statement-breakpoint
ALTER TABLE "intake_addresses" ADD CONSTRAINT "intake_addresses_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;
