CREATE TABLE "assessment_time_extensions" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"extra_percent" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "course_topics" ADD COLUMN "captions_key" text;--> statement-breakpoint
ALTER TABLE "assessment_time_extensions" ADD CONSTRAINT "assessment_time_extensions_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_time_extensions" ADD CONSTRAINT "assessment_time_extensions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_time_extensions_learner_unique" ON "assessment_time_extensions" USING btree ("training_id","user_id");