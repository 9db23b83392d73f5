CREATE TABLE "recordings" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_id" integer NOT NULL,
	"topic_id" integer,
	"mime" text NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	"chunks" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'uploading' NOT NULL,
	"storage_key" text NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "recordings_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_topic_id_syllabus_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."syllabus_topics"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recordings" ADD CONSTRAINT "recordings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "recordings_training_idx" ON "recordings" USING btree ("training_id");--> statement-breakpoint
CREATE INDEX "recordings_topic_idx" ON "recordings" USING btree ("topic_id");