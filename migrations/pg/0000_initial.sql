CREATE TABLE "captions" (
	"id" text PRIMARY KEY NOT NULL,
	"lecture_id" text NOT NULL,
	"language" text NOT NULL,
	"label" text NOT NULL,
	"vtt" text NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL,
	"updated_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" text PRIMARY KEY NOT NULL,
	"lecture_id" text NOT NULL,
	"user_id" text NOT NULL,
	"text" text NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "courses" (
	"id" text PRIMARY KEY NOT NULL,
	"course_name" text NOT NULL,
	"teacher_id" text NOT NULL,
	"semester" integer,
	"invite_code" text NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_codes" (
	"user_id" text PRIMARY KEY NOT NULL,
	"code_hash" text NOT NULL,
	"expires_at" bigint NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "enrollments" (
	"id" text PRIMARY KEY NOT NULL,
	"course_id" text NOT NULL,
	"student_id" text NOT NULL,
	"joined_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"payload" text NOT NULL,
	"subject_id" text,
	"state" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 3 NOT NULL,
	"interruptions" integer DEFAULT 0 NOT NULL,
	"resumed" boolean DEFAULT false NOT NULL,
	"run_after" bigint NOT NULL,
	"lease_owner" text,
	"lease_until" bigint,
	"heartbeat_at" bigint,
	"last_error" text,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL,
	"finished_at" bigint
);
--> statement-breakpoint
CREATE TABLE "known_devices" (
	"user_id" text NOT NULL,
	"device_hash" text NOT NULL,
	"last_seen_at" bigint NOT NULL,
	CONSTRAINT "known_devices_user_id_device_hash_pk" PRIMARY KEY("user_id","device_hash")
);
--> statement-breakpoint
CREATE TABLE "lectures" (
	"id" text PRIMARY KEY NOT NULL,
	"course_id" text NOT NULL,
	"name_of_topic" text NOT NULL,
	"video_id" text,
	"no_of_views" integer DEFAULT 0 NOT NULL,
	"no_of_likes" integer DEFAULT 0 NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "likes" (
	"lecture_id" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL,
	CONSTRAINT "likes_lecture_id_user_id_pk" PRIMARY KEY("lecture_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "notes" (
	"course_id" text NOT NULL,
	"user_id" text NOT NULL,
	"text" text NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "notes_course_id_user_id_pk" PRIMARY KEY("course_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "signups" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"username" text NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"code_hash" text NOT NULL,
	"code_expires_at" bigint NOT NULL,
	"failed_attempts" integer DEFAULT 0 NOT NULL,
	"sent_at" bigint NOT NULL,
	"client_key_hash" text,
	"expires_at" bigint NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"role" text NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"teacher_status" text,
	"disabled_at" bigint,
	"last_login_at" bigint,
	"email_verified_at" bigint,
	"avatar_version" integer DEFAULT 0 NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "videos" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"status" text NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"eta_seconds" integer,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"source_name" text NOT NULL,
	"source_bytes" bigint NOT NULL,
	"duration_ms" bigint NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"has_audio" boolean NOT NULL,
	"plan" text NOT NULL,
	"has_poster" boolean DEFAULT false NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL,
	"started_at" bigint,
	"first_playable_at" bigint,
	"finished_at" bigint
);
--> statement-breakpoint
CREATE TABLE "view_marks" (
	"lecture_id" text NOT NULL,
	"user_id" text NOT NULL,
	"counted_at" bigint NOT NULL,
	CONSTRAINT "view_marks_lecture_id_user_id_pk" PRIMARY KEY("lecture_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "watch_progress" (
	"user_id" text NOT NULL,
	"lecture_id" text NOT NULL,
	"position_seconds" double precision NOT NULL,
	"duration_seconds" double precision NOT NULL,
	"furthest_seconds" double precision NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "watch_progress_user_id_lecture_id_pk" PRIMARY KEY("user_id","lecture_id")
);
--> statement-breakpoint
CREATE TABLE "workers" (
	"owner" text PRIMARY KEY NOT NULL,
	"beat_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "captions" ADD CONSTRAINT "captions_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "courses" ADD CONSTRAINT "courses_teacher_id_users_id_fk" FOREIGN KEY ("teacher_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_codes" ADD CONSTRAINT "email_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "enrollments" ADD CONSTRAINT "enrollments_student_id_users_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "known_devices" ADD CONSTRAINT "known_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lectures" ADD CONSTRAINT "lectures_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lectures" ADD CONSTRAINT "lectures_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "likes" ADD CONSTRAINT "likes_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "likes" ADD CONSTRAINT "likes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_marks" ADD CONSTRAINT "view_marks_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "view_marks" ADD CONSTRAINT "view_marks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_progress" ADD CONSTRAINT "watch_progress_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_progress" ADD CONSTRAINT "watch_progress_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "captions_lecture_language" ON "captions" USING btree ("lecture_id","language");--> statement-breakpoint
CREATE INDEX "comments_lecture_created" ON "comments" USING btree ("lecture_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "courses_invite_code_unique" ON "courses" USING btree ("invite_code");--> statement-breakpoint
CREATE INDEX "courses_teacher" ON "courses" USING btree ("teacher_id");--> statement-breakpoint
CREATE INDEX "email_codes_expires" ON "email_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "enrollments_course_student_unique" ON "enrollments" USING btree ("course_id","student_id");--> statement-breakpoint
CREATE INDEX "enrollments_student" ON "enrollments" USING btree ("student_id");--> statement-breakpoint
CREATE INDEX "jobs_ready" ON "jobs" USING btree ("state","run_after");--> statement-breakpoint
CREATE INDEX "jobs_subject" ON "jobs" USING btree ("subject_id");--> statement-breakpoint
CREATE INDEX "lectures_course" ON "lectures" USING btree ("course_id","created_at");--> statement-breakpoint
CREATE INDEX "lectures_video" ON "lectures" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "signups_email" ON "signups" USING btree ("email","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_unique" ON "users" USING btree ("email");--> statement-breakpoint
CREATE INDEX "videos_status" ON "videos" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "videos_owner" ON "videos" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "watch_progress_user_updated" ON "watch_progress" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "watch_progress_lecture" ON "watch_progress" USING btree ("lecture_id");