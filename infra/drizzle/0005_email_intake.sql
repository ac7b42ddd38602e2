CREATE TABLE "intake_addresses" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "intake_addresses_token_unique" UNIQUE("token")
);
--> statement-breakpoint
CREATE TABLE "intake_messages" (
	"user_id" uuid NOT NULL,
	"message_key" text NOT NULL,
	"uploads" integer DEFAULT 0 NOT NULL,
	"refusals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "intake_messages_user_id_message_key_pk" PRIMARY KEY("user_id","message_key")
);
--> statement-breakpoint
ALTER TABLE "intake_addresses" ADD CONSTRAINT "intake_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_messages" ADD CONSTRAINT "intake_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;