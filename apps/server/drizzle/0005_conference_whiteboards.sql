CREATE TABLE "whiteboards" (
	"id" serial PRIMARY KEY NOT NULL,
	"training_id" integer NOT NULL,
	"scene" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "whiteboards_training_id_unique" UNIQUE("training_id")
);
--> statement-breakpoint
ALTER TABLE "whiteboards" ADD CONSTRAINT "whiteboards_training_id_trainings_id_fk" FOREIGN KEY ("training_id") REFERENCES "public"."trainings"("id") ON DELETE cascade ON UPDATE no action;