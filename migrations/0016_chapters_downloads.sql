CREATE TABLE `downloads` (
	`id` text PRIMARY KEY NOT NULL,
	`video_id` text NOT NULL,
	`rung` integer NOT NULL,
	`status` text NOT NULL,
	`progress` real DEFAULT 0 NOT NULL,
	`bytes` integer,
	`error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`finished_at` integer,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `downloads_video_rung` ON `downloads` (`video_id`,`rung`);--> statement-breakpoint
ALTER TABLE `courses` ADD `downloads_allowed` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `lectures` ADD `description` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `lectures` ADD `chapters` text;