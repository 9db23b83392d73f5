DROP INDEX "take_calls_start_idx";--> statement-breakpoint
ALTER TABLE "take_calls" ADD COLUMN "owner_user_id" integer;--> statement-breakpoint
ALTER TABLE "take_calls" ADD COLUMN "organization_id" integer;--> statement-breakpoint
CREATE INDEX "take_calls_owner_start_idx" ON "take_calls" USING btree ("owner_user_id","start","id");--> statement-breakpoint
CREATE INDEX "take_calls_org_start_idx" ON "take_calls" USING btree ("organization_id","start","id");--> statement-breakpoint
UPDATE "take_calls" tc SET "owner_user_id" = t."owner_user_id", "organization_id" = t."organization_id"
  FROM "trainings" t WHERE t."id" = tc."training_id";--> statement-breakpoint
CREATE OR REPLACE FUNCTION take_calls_tenant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- every insert, whichever code sends it, carries its training's tenant
  SELECT t.owner_user_id, t.organization_id INTO NEW.owner_user_id, NEW.organization_id
    FROM trainings t WHERE t.id = NEW.training_id;
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER take_calls_tenant BEFORE INSERT OR UPDATE OF training_id ON "take_calls"
  FOR EACH ROW EXECUTE FUNCTION take_calls_tenant();
