CREATE TABLE "sso_domains" (
	"domain" text PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_login_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"is_previous" integer DEFAULT 1 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"organization_id" integer,
	"protocol" text,
	"name_id" text,
	"name_id_format" text,
	"session_index" text,
	"id_token_enc" text
);
--> statement-breakpoint
CREATE TABLE "sso_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"request_key" text NOT NULL,
	"organization_id" integer NOT NULL,
	"protocol" text NOT NULL,
	"value" text DEFAULT '' NOT NULL,
	"nonce" text,
	"code_verifier" text,
	"is_previous" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sso_requests_request_key_unique" UNIQUE("request_key")
);
--> statement-breakpoint
CREATE TABLE "sso_seen_assertions" (
	"assertion_key" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sso_sessions" (
	"session_id" integer PRIMARY KEY NOT NULL,
	"organization_id" integer,
	"protocol" text,
	"name_id" text,
	"name_id_format" text,
	"session_index" text,
	"id_token_enc" text
);
--> statement-breakpoint
CREATE TABLE "sso_settings" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"protocol" text NOT NULL,
	"enabled" integer DEFAULT 1 NOT NULL,
	"saml_metadata_url" text,
	"saml_idp_entity_id" text,
	"saml_sso_url" text,
	"saml_slo_url" text,
	"saml_idp_cert" text,
	"oidc_issuer" text,
	"oidc_client_id" text,
	"oidc_client_secret_enc" text,
	"group_attribute" text DEFAULT 'groups' NOT NULL,
	"subadmin_group" text,
	"password_login_disabled" integer DEFAULT 0 NOT NULL,
	"sp_private_key_enc" text NOT NULL,
	"sp_cert" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sso_domains" ADD CONSTRAINT "sso_domains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_login_codes" ADD CONSTRAINT "sso_login_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_sessions" ADD CONSTRAINT "sso_sessions_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_settings" ADD CONSTRAINT "sso_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_domains_organization_idx" ON "sso_domains" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "sso_requests_expires_idx" ON "sso_requests" USING btree ("expires_at");