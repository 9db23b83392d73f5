CREATE TABLE "instance_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_mails" (
	"job_id" integer NOT NULL,
	"mail_key" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_mails_job_id_mail_key_pk" PRIMARY KEY("job_id","mail_key")
);
--> statement-breakpoint
ALTER TABLE "job_mails" ADD CONSTRAINT "job_mails_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;