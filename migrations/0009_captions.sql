CREATE TABLE `captions` (
	`id` text PRIMARY KEY NOT NULL,
	`lecture_id` text NOT NULL,
	`language` text NOT NULL,
	`label` text NOT NULL,
	`vtt` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `captions_lecture_language` ON `captions` (`lecture_id`,`language`);