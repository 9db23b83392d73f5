CREATE TABLE "syllabus_topics" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_id" integer NOT NULL,
	"session_topic" text NOT NULL,
	"start_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"started_at" timestamp with time zone,
	"ended_at" timestamp with time zone,
	"no_of_min" integer DEFAULT 0 NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"recording_url" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "topic_ratings" (
	"id" serial PRIMARY KEY NOT NULL,
	"topic_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"rating" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_attendances" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_id" integer NOT NULL,
	"training_user_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"topic_id" integer,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"left_at" timestamp with time zone,
	"minutes" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_trainers" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_id" integer NOT NULL,
	"trainer_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"send_email_certificate" integer DEFAULT 0 NOT NULL,
	"is_download_certificate" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trainings" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"link" text NOT NULL,
	"name" text NOT NULL,
	"start_date" timestamp with time zone NOT NULL,
	"end_date" timestamp with time zone NOT NULL,
	"total_training_day" integer NOT NULL,
	"number_of_participants" integer NOT NULL,
	"description" text,
	"requirements" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_public" integer DEFAULT 0 NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"is_download_certificate" integer DEFAULT 0 NOT NULL,
	"owner_user_id" integer,
	"organization_id" integer,
	"created_by" integer,
	"pre_assessment" integer DEFAULT 0 NOT NULL,
	"post_assessment" integer DEFAULT 0 NOT NULL,
	"cost" numeric(14, 2) DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trainings_slug_unique" UNIQUE("slug"),
	CONSTRAINT "trainings_link_unique" UNIQUE("link")
);
--> statement-breakpoint
ALTER TABLE "syllabus_topics" ADD CONSTRAINT "syllabus_topics_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topic_ratings" ADD CONSTRAINT "topic_ratings_topic_id_syllabus_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."syllabus_topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "topic_ratings" ADD CONSTRAINT "topic_ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_attendances" ADD CONSTRAINT "training_attendances_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_attendances" ADD CONSTRAINT "training_attendances_training_user_id_training_users_id_fk" FOREIGN KEY ("training_user_id") REFERENCES "public"."training_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_attendances" ADD CONSTRAINT "training_attendances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_attendances" ADD CONSTRAINT "training_attendances_topic_id_syllabus_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."syllabus_topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_trainers" ADD CONSTRAINT "training_trainers_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_trainers" ADD CONSTRAINT "training_trainers_trainer_id_users_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_users" ADD CONSTRAINT "training_users_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_users" ADD CONSTRAINT "training_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainings" ADD CONSTRAINT "trainings_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "syllabus_topics_training_idx" ON "syllabus_topics" USING btree ("training_id");--> statement-breakpoint
CREATE UNIQUE INDEX "topic_ratings_topic_user_unique" ON "topic_ratings" USING btree ("topic_id","user_id");--> statement-breakpoint
CREATE INDEX "training_attendances_tu_idx" ON "training_attendances" USING btree ("training_user_id");--> statement-breakpoint
CREATE INDEX "training_attendances_training_idx" ON "training_attendances" USING btree ("training_id");--> statement-breakpoint
CREATE INDEX "training_attendances_topic_idx" ON "training_attendances" USING btree ("topic_id");--> statement-breakpoint
CREATE UNIQUE INDEX "training_attendances_open_unique" ON "training_attendances" USING btree ("training_user_id",coalesce("topic_id", 0)) WHERE "training_attendances"."left_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "training_trainers_unique" ON "training_trainers" USING btree ("training_id","trainer_id");--> statement-breakpoint
CREATE INDEX "training_trainers_trainer_idx" ON "training_trainers" USING btree ("trainer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "training_users_training_user_unique" ON "training_users" USING btree ("training_id","user_id");--> statement-breakpoint
CREATE INDEX "training_users_user_idx" ON "training_users" USING btree ("user_id","training_id");--> statement-breakpoint
CREATE INDEX "trainings_owner_end_idx" ON "trainings" USING btree ("owner_user_id","end_date");--> statement-breakpoint
CREATE INDEX "trainings_org_end_idx" ON "trainings" USING btree ("organization_id","end_date");