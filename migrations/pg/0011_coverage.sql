CREATE TABLE "lecture_part_totals" (
	"lecture_id" text PRIMARY KEY NOT NULL,
	"plays" text NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "watch_coverage" (
	"user_id" text NOT NULL,
	"lecture_id" text NOT NULL,
	"plays" text NOT NULL,
	"partial" text NOT NULL,
	"played_parts" integer DEFAULT 0 NOT NULL,
	"watched_seconds" double precision DEFAULT 0 NOT NULL,
	"first_at" bigint NOT NULL,
	"last_at" bigint NOT NULL,
	"offline_at" bigint,
	"last_report" text DEFAULT '' NOT NULL,
	"completed_at" bigint,
	"late" boolean DEFAULT false NOT NULL,
	CONSTRAINT "watch_coverage_user_id_lecture_id_pk" PRIMARY KEY("user_id","lecture_id")
);
--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "due_at" bigint;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "reminded_at" bigint;--> statement-breakpoint
ALTER TABLE "lecture_part_totals" ADD CONSTRAINT "lecture_part_totals_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_coverage" ADD CONSTRAINT "watch_coverage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_coverage" ADD CONSTRAINT "watch_coverage_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "watch_coverage_lecture" ON "watch_coverage" USING btree ("lecture_id");