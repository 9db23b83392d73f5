ALTER TABLE "course_topics" ADD COLUMN "caption_tracks" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "course_topics" ADD COLUMN "transcript" text;--> statement-breakpoint
UPDATE "course_topics" SET "caption_tracks" = jsonb_build_array(jsonb_build_object('language', 'en', 'label', 'English', 'key', "captions_key", 'bytes', 0, 'created_at', now())) WHERE "captions_key" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "course_topics" DROP COLUMN "captions_key";
