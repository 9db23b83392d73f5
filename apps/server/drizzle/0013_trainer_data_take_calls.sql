CREATE TABLE "skills" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"category_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "take_call_requirements" (
	"id" serial PRIMARY KEY NOT NULL,
	"take_call_trainer_id" integer NOT NULL,
	"requirement" text NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"position" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "take_call_trainers" (
	"id" serial PRIMARY KEY NOT NULL,
	"take_call_id" integer NOT NULL,
	"trainer_id" integer NOT NULL,
	"status" integer DEFAULT 0 NOT NULL,
	"propose_date1" timestamp with time zone,
	"propose_date2" timestamp with time zone,
	"propose_date3" timestamp with time zone,
	"remark" text,
	"is_assing" integer DEFAULT 0 NOT NULL,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "take_calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"training_id" integer NOT NULL,
	"title" text NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"end" timestamp with time zone NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "take_calls_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "trainer_bank_details" (
	"id" serial PRIMARY KEY NOT NULL,
	"trainer_id" integer NOT NULL,
	"bank_name" text NOT NULL,
	"bank_address" text,
	"bank_account_name" text NOT NULL,
	"account_number" text NOT NULL,
	"account_last4" text NOT NULL,
	"account_type" text NOT NULL,
	"ifsc_code" text NOT NULL,
	"micr_code" text,
	"iban_code" text,
	"bsr_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trainer_certificates" (
	"id" serial PRIMARY KEY NOT NULL,
	"trainer_id" integer NOT NULL,
	"skill_id" integer NOT NULL,
	"certificate_name" text NOT NULL,
	"image_key" text NOT NULL,
	"thumb_key" text NOT NULL,
	"verify_link" text,
	"certify_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trainer_profiles" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"email2" text,
	"email3" text,
	"mobile_no2" text,
	"mobile_no3" text,
	"base_location" text,
	"address" text,
	"dob" date,
	"aadhar_no" text,
	"pan_no" text,
	"gstin_no" text,
	"state_code" text,
	"msme_reg_no" text,
	"type_of_enterprise" text,
	"category_of_service" text,
	"services_rendered" text,
	"vat_no" text,
	"experience_over_all" integer,
	"profile_pic_key" text,
	"profile_pic_thumb_key" text,
	"address_proof_key" text,
	"address_proof_thumb_key" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trainer_references" (
	"id" serial PRIMARY KEY NOT NULL,
	"trainer_id" integer NOT NULL,
	"skill_id" integer NOT NULL,
	"company_name" text NOT NULL,
	"company_description" text NOT NULL,
	"training_conducted_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trainer_skills" (
	"id" serial PRIMARY KEY NOT NULL,
	"trainer_id" integer NOT NULL,
	"skill_id" integer NOT NULL,
	"experience" integer NOT NULL,
	"type" text NOT NULL,
	"rate_per_hours" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "skills" ADD CONSTRAINT "skills_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "take_call_requirements" ADD CONSTRAINT "take_call_requirements_take_call_trainer_id_take_call_trainers_id_fk" FOREIGN KEY ("take_call_trainer_id") REFERENCES "public"."take_call_trainers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "take_call_trainers" ADD CONSTRAINT "take_call_trainers_take_call_id_take_calls_id_fk" FOREIGN KEY ("take_call_id") REFERENCES "public"."take_calls"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "take_call_trainers" ADD CONSTRAINT "take_call_trainers_trainer_id_users_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "take_calls" ADD CONSTRAINT "take_calls_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "take_calls" ADD CONSTRAINT "take_calls_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainer_bank_details" ADD CONSTRAINT "trainer_bank_details_trainer_id_users_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainer_certificates" ADD CONSTRAINT "trainer_certificates_trainer_id_users_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainer_certificates" ADD CONSTRAINT "trainer_certificates_skill_id_skills_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainer_profiles" ADD CONSTRAINT "trainer_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainer_references" ADD CONSTRAINT "trainer_references_trainer_id_users_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainer_references" ADD CONSTRAINT "trainer_references_skill_id_skills_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainer_skills" ADD CONSTRAINT "trainer_skills_trainer_id_users_id_fk" FOREIGN KEY ("trainer_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trainer_skills" ADD CONSTRAINT "trainer_skills_skill_id_skills_id_fk" FOREIGN KEY ("skill_id") REFERENCES "public"."skills"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "skills_category_name_unique" ON "skills" USING btree ("category_id",lower("name"));--> statement-breakpoint
CREATE INDEX "take_call_requirements_detail_idx" ON "take_call_requirements" USING btree ("take_call_trainer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "take_call_trainers_unique" ON "take_call_trainers" USING btree ("take_call_id","trainer_id");--> statement-breakpoint
CREATE INDEX "take_call_trainers_trainer_idx" ON "take_call_trainers" USING btree ("trainer_id");--> statement-breakpoint
CREATE INDEX "take_calls_training_idx" ON "take_calls" USING btree ("training_id");--> statement-breakpoint
CREATE INDEX "trainer_bank_details_trainer_idx" ON "trainer_bank_details" USING btree ("trainer_id");--> statement-breakpoint
CREATE INDEX "trainer_certificates_trainer_idx" ON "trainer_certificates" USING btree ("trainer_id");--> statement-breakpoint
CREATE INDEX "trainer_references_trainer_idx" ON "trainer_references" USING btree ("trainer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "trainer_skills_trainer_skill_unique" ON "trainer_skills" USING btree ("trainer_id","skill_id");--> statement-breakpoint
CREATE INDEX "trainer_skills_skill_idx" ON "trainer_skills" USING btree ("skill_id");