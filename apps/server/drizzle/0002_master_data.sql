CREATE TABLE "categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "categories_slug_unique" UNIQUE("slug")
);
--> statement-breakpoint
CREATE TABLE "certification_masters" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"overview" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"level" text NOT NULL,
	"certification_type_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"role_id" integer,
	"exam_id" integer,
	"certification_role_id" integer,
	"exam_link" text,
	"product_link" text,
	"duration" text,
	"certification_description" text,
	"certification_prerequisites" text,
	"certification_details" text,
	"remark" text,
	"cost_doller" numeric(14, 2) DEFAULT 0 NOT NULL,
	"cost_inr" numeric(14, 2) DEFAULT 0 NOT NULL,
	"recommended_experience" numeric(6, 2) DEFAULT 0 NOT NULL,
	"is_set" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" serial PRIMARY KEY NOT NULL,
	"service" text NOT NULL,
	"price" numeric(14, 2) NOT NULL,
	"valid_date" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "services_service_unique" UNIQUE("service")
);
--> statement-breakpoint
CREATE TABLE "training_courses" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"category_id" integer NOT NULL,
	"level" text NOT NULL,
	"duration" numeric(10, 2) NOT NULL,
	"duration_type" text NOT NULL,
	"price" numeric(14, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_modules" (
	"id" serial PRIMARY KEY NOT NULL,
	"course_id" integer NOT NULL,
	"name" text NOT NULL,
	"price" numeric(14, 2) NOT NULL,
	"duration" numeric(10, 2) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "training_topics" (
	"id" serial PRIMARY KEY NOT NULL,
	"course_id" integer NOT NULL,
	"module_id" integer NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vm_prices" (
	"id" serial PRIMARY KEY NOT NULL,
	"memory" integer NOT NULL,
	"virtual_cpu" integer NOT NULL,
	"linux" numeric(12, 4) NOT NULL,
	"windows" numeric(12, 4) NOT NULL,
	"cl_linux_price" numeric(12, 4) NOT NULL,
	"cl_windows_price" numeric(12, 4) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vm_prices_memory_unique" UNIQUE("memory")
);
--> statement-breakpoint
CREATE TABLE "vm_storage_prices" (
	"id" integer PRIMARY KEY NOT NULL,
	"storage_price" numeric(12, 4) NOT NULL,
	"cl_storage_price" numeric(12, 4) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certifications" ADD CONSTRAINT "certifications_certification_type_id_certification_masters_id_fk" FOREIGN KEY ("certification_type_id") REFERENCES "public"."certification_masters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certifications" ADD CONSTRAINT "certifications_product_id_certification_masters_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."certification_masters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certifications" ADD CONSTRAINT "certifications_role_id_certification_masters_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."certification_masters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certifications" ADD CONSTRAINT "certifications_exam_id_certification_masters_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."certification_masters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certifications" ADD CONSTRAINT "certifications_certification_role_id_certification_masters_id_fk" FOREIGN KEY ("certification_role_id") REFERENCES "public"."certification_masters"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_courses" ADD CONSTRAINT "training_courses_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_modules" ADD CONSTRAINT "training_modules_course_id_training_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."training_courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_topics" ADD CONSTRAINT "training_topics_course_id_training_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."training_courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "training_topics" ADD CONSTRAINT "training_topics_module_id_training_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."training_modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "categories_name_unique" ON "categories" USING btree (lower("name"));--> statement-breakpoint
CREATE UNIQUE INDEX "certification_masters_type_name_unique" ON "certification_masters" USING btree ("type",lower("name"));--> statement-breakpoint
CREATE INDEX "certifications_type_idx" ON "certifications" USING btree ("certification_type_id");--> statement-breakpoint
CREATE INDEX "certifications_name_idx" ON "certifications" USING btree ("name");--> statement-breakpoint
CREATE INDEX "training_courses_category_idx" ON "training_courses" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "training_modules_course_idx" ON "training_modules" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "training_topics_module_idx" ON "training_topics" USING btree ("module_id");--> statement-breakpoint
CREATE INDEX "training_topics_course_idx" ON "training_topics" USING btree ("course_id");