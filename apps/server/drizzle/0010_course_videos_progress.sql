CREATE TABLE "course_topic_progress" (
	"id" serial PRIMARY KEY NOT NULL,
	"topic_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"seconds_watched" integer DEFAULT 0 NOT NULL,
	"last_position" integer DEFAULT 0 NOT NULL,
	"is_complete" integer DEFAULT 0 NOT NULL,
	"last_report_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "course_topics" ADD COLUMN "video_key" text;--> statement-breakpoint
ALTER TABLE "course_topics" ADD COLUMN "video_bytes" integer;--> statement-breakpoint
ALTER TABLE "course_topics" ADD COLUMN "video_status" text DEFAULT 'processing' NOT NULL;--> statement-breakpoint
ALTER TABLE "course_topics" ADD COLUMN "video_error" text;--> statement-breakpoint
ALTER TABLE "course_topics" ADD COLUMN "duration_seconds" integer;--> statement-breakpoint
ALTER TABLE "course_topics" ADD COLUMN "poster_key" text;--> statement-breakpoint
ALTER TABLE "course_topics" ADD COLUMN "hls_prefix" text;--> statement-breakpoint
ALTER TABLE "course_topics" ADD COLUMN "renditions" integer[];--> statement-breakpoint
ALTER TABLE "course_topics" ADD COLUMN "media_files" text[];--> statement-breakpoint
ALTER TABLE "course_topic_progress" ADD CONSTRAINT "course_topic_progress_topic_id_course_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."course_topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_topic_progress" ADD CONSTRAINT "course_topic_progress_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "course_topic_progress_topic_user_idx" ON "course_topic_progress" USING btree ("topic_id","user_id");--> statement-breakpoint
CREATE INDEX "course_topic_progress_user_idx" ON "course_topic_progress" USING btree ("user_id");