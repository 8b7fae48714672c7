CREATE TABLE `slides` (
	`id` text PRIMARY KEY NOT NULL,
	`video_id` text NOT NULL,
	`seconds` real NOT NULL,
	`frame_seconds` real NOT NULL,
	`text` text DEFAULT '' NOT NULL,
	`title` text,
	`hidden` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `slides_video` ON `slides` (`video_id`,`seconds`);--> statement-breakpoint
ALTER TABLE `jobs` ADD `priority` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `search_entries` ADD `slide_id` text REFERENCES slides(id) ON DELETE cascade;--> statement-breakpoint
CREATE INDEX `search_entries_slide` ON `search_entries` (`slide_id`);--> statement-breakpoint
ALTER TABLE `videos` ADD `slides_state` text;--> statement-breakpoint
ALTER TABLE `videos` ADD `slides_off` integer DEFAULT false NOT NULL;