CREATE TABLE "course_coverage" (
	"course_id" text NOT NULL,
	"user_id" text NOT NULL,
	"parts" integer DEFAULT 0 NOT NULL,
	"started" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"last_at" bigint NOT NULL,
	CONSTRAINT "course_coverage_course_id_user_id_pk" PRIMARY KEY("course_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "course_coverage" ADD CONSTRAINT "course_coverage_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "course_coverage" ADD CONSTRAINT "course_coverage_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;