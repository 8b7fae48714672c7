CREATE TABLE "downloads" (
	"id" text PRIMARY KEY NOT NULL,
	"video_id" text NOT NULL,
	"rung" integer NOT NULL,
	"status" text NOT NULL,
	"progress" double precision DEFAULT 0 NOT NULL,
	"bytes" bigint,
	"error" text,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL,
	"finished_at" bigint
);
--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "downloads_allowed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "description" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "lectures" ADD COLUMN "chapters" text;--> statement-breakpoint
ALTER TABLE "downloads" ADD CONSTRAINT "downloads_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "downloads_video_rung" ON "downloads" USING btree ("video_id","rung");