DROP INDEX "payments_user_idx";--> statement-breakpoint
DROP INDEX "payments_owner_idx";--> statement-breakpoint
DROP INDEX "payments_org_idx";--> statement-breakpoint
DROP INDEX "courses_owner_idx";--> statement-breakpoint
DROP INDEX "courses_org_idx";--> statement-breakpoint
DROP INDEX "vms_owner_idx";--> statement-breakpoint
DROP INDEX "vms_org_idx";--> statement-breakpoint
CREATE INDEX "questions_bank_id_idx" ON "questions" USING btree ("bank","id");--> statement-breakpoint
CREATE INDEX "take_calls_start_idx" ON "take_calls" USING btree ("start","id");--> statement-breakpoint
CREATE INDEX "payments_user_idx" ON "payments" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_owner_idx" ON "payments" USING btree ("owner_user_id","purpose","created_at","id");--> statement-breakpoint
CREATE INDEX "payments_org_idx" ON "payments" USING btree ("organization_id","purpose","created_at","id");--> statement-breakpoint
CREATE INDEX "courses_owner_idx" ON "courses" USING btree ("owner_user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "courses_org_idx" ON "courses" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "vms_owner_idx" ON "vms" USING btree ("owner_user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "vms_org_idx" ON "vms" USING btree ("organization_id","created_at","id");