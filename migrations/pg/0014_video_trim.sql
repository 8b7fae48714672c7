ALTER TABLE "videos" ADD COLUMN "trim_start_ms" bigint;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "trim_end_ms" bigint;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "source_duration_ms" bigint;