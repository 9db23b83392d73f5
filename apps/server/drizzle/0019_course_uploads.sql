CREATE TABLE "course_uploads" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_user_id" integer NOT NULL,
	"key" text NOT NULL,
	"size" bigint NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "course_uploads" ADD CONSTRAINT "course_uploads_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_uploads_owner_idx" ON "course_uploads" USING btree ("owner_user_id");--> statement-breakpoint
CREATE INDEX "course_uploads_expires_idx" ON "course_uploads" USING btree ("expires_at");