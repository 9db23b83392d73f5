CREATE TABLE "lab_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"owner_user_id" integer,
	"organization_id" integer,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"password_hash" text NOT NULL,
	"authorized_at" timestamp with time zone,
	"idle_stop_seconds" integer DEFAULT 1800,
	"cap_hours_month" integer,
	"cap_paise_month" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lab_accounts_owner_user_id_unique" UNIQUE("owner_user_id"),
	CONSTRAINT "lab_accounts_organization_id_unique" UNIQUE("organization_id")
);
--> statement-breakpoint
ALTER TABLE "vm_usages" ADD COLUMN "accrued_micropaise" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "vm_usages" ADD COLUMN "rate_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vms" ADD COLUMN "username" text;--> statement-breakpoint
ALTER TABLE "vms" ADD COLUMN "password_enc" text;--> statement-breakpoint
ALTER TABLE "vms" ADD COLUMN "last_activity_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "vms" ADD COLUMN "connections" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_accounts" ADD CONSTRAINT "lab_accounts_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_accounts" ADD CONSTRAINT "lab_accounts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vm_usages_open_run_idx" ON "vm_usages" USING btree ("vm_id") WHERE "vm_usages"."status" = 2;--> statement-breakpoint
CREATE INDEX "vms_assigned_idx" ON "vms" USING btree ("assigned_user_id","id");