ALTER TABLE "courses" ADD COLUMN "purchase_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "courses_catalogue_idx" ON "courses" USING btree ("is_public","is_paid","purchase_count","created_at");--> statement-breakpoint
UPDATE "courses" SET "purchase_count" = p.n FROM (SELECT "course_id", count(*)::int AS n FROM "course_enrolments" WHERE "source" = 'purchase' GROUP BY "course_id") p WHERE p."course_id" = "courses"."id";
