CREATE TABLE "lab_schedule_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"schedule_id" integer NOT NULL,
	"topic_id" integer NOT NULL,
	"vm_id" integer NOT NULL,
	"action" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"outcome" text
);
--> statement-breakpoint
CREATE TABLE "lab_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_id" integer NOT NULL,
	"vm_id" integer,
	"lead_minutes" integer,
	"grace_minutes" integer DEFAULT 15 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lab_accounts" ADD COLUMN "schedule_lead_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "lab_schedule_events" ADD CONSTRAINT "lab_schedule_events_schedule_id_lab_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."lab_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_schedule_events" ADD CONSTRAINT "lab_schedule_events_topic_id_syllabus_topics_id_fk" FOREIGN KEY ("topic_id") REFERENCES "public"."syllabus_topics"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_schedule_events" ADD CONSTRAINT "lab_schedule_events_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_schedules" ADD CONSTRAINT "lab_schedules_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_schedules" ADD CONSTRAINT "lab_schedules_vm_id_vms_id_fk" FOREIGN KEY ("vm_id") REFERENCES "public"."vms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lab_schedules" ADD CONSTRAINT "lab_schedules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lab_schedule_events_once" ON "lab_schedule_events" USING btree ("schedule_id","topic_id","vm_id","action");--> statement-breakpoint
CREATE INDEX "lab_schedule_events_vm_idx" ON "lab_schedule_events" USING btree ("vm_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lab_schedules_training_vm_unique" ON "lab_schedules" USING btree ("training_id",coalesce("vm_id", 0));