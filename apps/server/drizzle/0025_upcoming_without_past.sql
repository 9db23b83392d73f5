ALTER TABLE "trainings" ADD COLUMN "past" boolean DEFAULT false NOT NULL;--> statement-breakpoint
UPDATE "trainings" SET "past" = true WHERE "end_date" < now();--> statement-breakpoint
CREATE OR REPLACE FUNCTION trainings_mark_past() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- a written end date decides the mark at once: a past training moved into the future is unmarked
  NEW.past := NEW.end_date < now();
  RETURN NEW;
END;
$$;--> statement-breakpoint
CREATE TRIGGER trainings_mark_past BEFORE INSERT OR UPDATE OF end_date ON "trainings"
  FOR EACH ROW EXECUTE FUNCTION trainings_mark_past();--> statement-breakpoint
CREATE INDEX "trainings_owner_upcoming_idx" ON "trainings" USING btree ("owner_user_id","start_date","id","end_date") WHERE status in (0, 1) and not past;--> statement-breakpoint
CREATE INDEX "trainings_org_upcoming_idx" ON "trainings" USING btree ("organization_id","start_date","id","end_date") WHERE status in (0, 1) and not past;