CREATE TABLE "assessment_answers" (
	"id" serial PRIMARY KEY NOT NULL,
	"attempt_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"answer" integer NOT NULL,
	"is_correct" integer,
	"answered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assessment_attempts" (
	"id" serial PRIMARY KEY NOT NULL,
	"assessment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"question_ids" integer[] DEFAULT '{}'::int[] NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deadline_at" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone,
	"score" integer,
	"total" integer NOT NULL,
	"retake_allowed" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assessment_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"assessment_id" integer NOT NULL,
	"question_id" integer NOT NULL,
	"position" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assessments" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_id" integer NOT NULL,
	"type" integer NOT NULL,
	"mode" text NOT NULL,
	"seconds" integer NOT NULL,
	"language_identified" text,
	"beginner_question" integer DEFAULT 0 NOT NULL,
	"intermediate_question" integer DEFAULT 0 NOT NULL,
	"advanced_question" integer DEFAULT 0 NOT NULL,
	"bank" text NOT NULL,
	"seed" text NOT NULL,
	"show_answers" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"bank" text NOT NULL,
	"owner_user_id" integer,
	"organization_id" integer,
	"language_identified" text NOT NULL,
	"question_category" text NOT NULL,
	"question_type" text NOT NULL,
	"question" text NOT NULL,
	"option1" text NOT NULL,
	"option2" text NOT NULL,
	"option3" text NOT NULL,
	"option4" text NOT NULL,
	"correct_option" integer NOT NULL,
	"level" text NOT NULL,
	"dedupe_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certificate_settings" ADD COLUMN "min_post_score_percent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "assessment_answers" ADD CONSTRAINT "assessment_answers_attempt_id_assessment_attempts_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "public"."assessment_attempts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_answers" ADD CONSTRAINT "assessment_answers_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_attempts" ADD CONSTRAINT "assessment_attempts_assessment_id_assessments_id_fk" FOREIGN KEY ("assessment_id") REFERENCES "public"."assessments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_attempts" ADD CONSTRAINT "assessment_attempts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD CONSTRAINT "assessment_questions_assessment_id_assessments_id_fk" FOREIGN KEY ("assessment_id") REFERENCES "public"."assessments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessment_questions" ADD CONSTRAINT "assessment_questions_question_id_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."questions"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessments" ADD CONSTRAINT "assessments_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assessments" ADD CONSTRAINT "assessments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "questions" ADD CONSTRAINT "questions_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_answers_unique" ON "assessment_answers" USING btree ("attempt_id","question_id");--> statement-breakpoint
CREATE INDEX "assessment_answers_question_idx" ON "assessment_answers" USING btree ("question_id");--> statement-breakpoint
CREATE INDEX "assessment_attempts_learner_idx" ON "assessment_attempts" USING btree ("assessment_id","user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "assessment_questions_unique" ON "assessment_questions" USING btree ("assessment_id","question_id");--> statement-breakpoint
CREATE INDEX "assessment_questions_question_idx" ON "assessment_questions" USING btree ("question_id");--> statement-breakpoint
CREATE UNIQUE INDEX "assessments_training_type_unique" ON "assessments" USING btree ("training_id","type");--> statement-breakpoint
CREATE UNIQUE INDEX "questions_bank_dedupe_unique" ON "questions" USING btree ("bank","dedupe_key");--> statement-breakpoint
CREATE INDEX "questions_bank_language_level_idx" ON "questions" USING btree ("bank","language_identified","level");