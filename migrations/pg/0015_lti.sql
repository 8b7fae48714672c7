CREATE TABLE "lti_contexts" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"context_id" text NOT NULL,
	"course_id" text NOT NULL,
	"title" text,
	"memberships_url" text,
	"lineitems_url" text,
	"ags_scopes" text DEFAULT '[]' NOT NULL,
	"last_roster_sync_at" bigint
);
--> statement-breakpoint
CREATE TABLE "lti_nonces" (
	"nonce" text NOT NULL,
	"platform_id" text NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "lti_nonces_nonce_platform_id_pk" PRIMARY KEY("nonce","platform_id")
);
--> statement-breakpoint
CREATE TABLE "lti_platforms" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"auth_login_url" text NOT NULL,
	"auth_token_url" text NOT NULL,
	"jwks_url" text NOT NULL,
	"deployment_ids" text DEFAULT '[]' NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_resource_links" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"resource_link_id" text NOT NULL,
	"course_id" text NOT NULL,
	"lecture_id" text,
	"lineitem_url" text,
	"score_source" text DEFAULT 'watched' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_scores_sent" (
	"resource_link_row_id" text NOT NULL,
	"user_id" text NOT NULL,
	"score_given" double precision NOT NULL,
	"sent_at" bigint NOT NULL,
	CONSTRAINT "lti_scores_sent_resource_link_row_id_user_id_pk" PRIMARY KEY("resource_link_row_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lti_tool_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"private_jwk" text NOT NULL,
	"public_jwk" text NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "lti_contexts" ADD CONSTRAINT "lti_contexts_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_contexts" ADD CONSTRAINT "lti_contexts_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_nonces" ADD CONSTRAINT "lti_nonces_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_resource_links" ADD CONSTRAINT "lti_resource_links_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_resource_links" ADD CONSTRAINT "lti_resource_links_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_resource_links" ADD CONSTRAINT "lti_resource_links_lecture_id_lectures_id_fk" FOREIGN KEY ("lecture_id") REFERENCES "public"."lectures"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_scores_sent" ADD CONSTRAINT "lti_scores_sent_resource_link_row_id_lti_resource_links_id_fk" FOREIGN KEY ("resource_link_row_id") REFERENCES "public"."lti_resource_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_scores_sent" ADD CONSTRAINT "lti_scores_sent_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "lti_contexts_platform_context" ON "lti_contexts" USING btree ("platform_id","context_id");--> statement-breakpoint
CREATE INDEX "lti_contexts_course" ON "lti_contexts" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "lti_nonces_expires" ON "lti_nonces" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_platforms_issuer_client" ON "lti_platforms" USING btree ("issuer","client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_resource_links_platform_link" ON "lti_resource_links" USING btree ("platform_id","resource_link_id");--> statement-breakpoint
CREATE INDEX "lti_resource_links_course" ON "lti_resource_links" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "lti_resource_links_lecture" ON "lti_resource_links" USING btree ("lecture_id");--> statement-breakpoint
CREATE INDEX "lti_scores_sent_user" ON "lti_scores_sent" USING btree ("user_id");