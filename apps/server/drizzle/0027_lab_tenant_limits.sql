ALTER TABLE "lab_accounts" ADD COLUMN "max_running_labs" integer;--> statement-breakpoint
ALTER TABLE "lab_accounts" ADD COLUMN "max_running_ram_gb" integer;