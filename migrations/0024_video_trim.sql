ALTER TABLE `videos` ADD `trim_start_ms` integer;--> statement-breakpoint
ALTER TABLE `videos` ADD `trim_end_ms` integer;--> statement-breakpoint
ALTER TABLE `videos` ADD `source_duration_ms` integer;