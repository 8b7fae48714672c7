CREATE TABLE "slides" (
	"id" text PRIMARY KEY NOT NULL,
	"video_id" text NOT NULL,
	"seconds" double precision NOT NULL,
	"frame_seconds" double precision NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"title" text,
	"hidden" boolean DEFAULT false NOT NULL,
	"created_at" bigint DEFAULT (floor(extract(epoch from clock_timestamp()) * 1000))::bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "priority" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "search_entries" ADD COLUMN "slide_id" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "slides_state" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "slides_off" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "slides" ADD CONSTRAINT "slides_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "slides_video" ON "slides" USING btree ("video_id","seconds");--> statement-breakpoint
ALTER TABLE "search_entries" ADD CONSTRAINT "search_entries_slide_id_slides_id_fk" FOREIGN KEY ("slide_id") REFERENCES "public"."slides"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_entries_slide" ON "search_entries" USING btree ("slide_id");