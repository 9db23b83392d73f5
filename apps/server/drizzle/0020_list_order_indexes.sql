DROP INDEX "users_organization_idx";--> statement-breakpoint
DROP INDEX "users_provider_idx";--> statement-breakpoint
CREATE INDEX "trainings_owner_start_idx" ON "trainings" USING btree ("owner_user_id","start_date","id");--> statement-breakpoint
CREATE INDEX "trainings_org_start_idx" ON "trainings" USING btree ("organization_id","start_date","id");--> statement-breakpoint
CREATE INDEX "users_organization_idx" ON "users" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "users_provider_idx" ON "users" USING btree ("provider_id","id");