CREATE TABLE "lecture_questions" (
	"id" text PRIMARY KEY NOT NULL,
	"lecture_id" text NOT NULL,
	"at" double precision NOT NULL,
	"kind" text NOT NULL,
	"prompt" text NOT NULL,
	"choices" text DEFAULT '[]' NOT NULL,
	"answer_key" text,
	"marked" boolean DEFAULT false NOT NULL,
	"feedback" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL,
	"updated_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_answers" (
	"question_id" text NOT NULL,
	"user_id" text NOT NULL,
	"lecture_id" text NOT NULL,
	"answer" text NOT NULL,
	"correct" boolean,
	"tries" integer DEFAULT 1 NOT NULL,
	"version" integer DEFAULT 0 NOT NULL,
	"answered_at" bigint NOT NULL,
	"offline" boolean DEFAULT false NOT NULL,
	CONSTRAINT "question_answers_question_id_user_id_pk" PRIMARY KEY("question_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "no_skip" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "lecture_questions" ADD CONSTRAINT "lecture_questions_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_answers" ADD CONSTRAINT "question_answers_question_id_lecture_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."lecture_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_answers" ADD CONSTRAINT "question_answers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_answers" ADD CONSTRAINT "question_answers_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lecture_questions_lecture" ON "lecture_questions" USING btree ("lecture_id","at");--> statement-breakpoint
CREATE INDEX "question_answers_lecture_user" ON "question_answers" USING btree ("lecture_id","user_id");--> statement-breakpoint
CREATE INDEX "question_answers_user" ON "question_answers" USING btree ("user_id");