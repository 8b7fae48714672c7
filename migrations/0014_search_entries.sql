CREATE TABLE `search_entries` (
	`id` integer PRIMARY KEY NOT NULL,
	`course_id` text NOT NULL,
	`lecture_id` text NOT NULL,
	`kind` text NOT NULL,
	`caption_id` text,
	`comment_id` text,
	`seconds` real,
	`text` text NOT NULL,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`caption_id`) REFERENCES `captions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `search_entries_lecture` ON `search_entries` (`lecture_id`,`kind`);--> statement-breakpoint
CREATE INDEX `search_entries_caption` ON `search_entries` (`caption_id`);--> statement-breakpoint
CREATE INDEX `search_entries_comment` ON `search_entries` (`comment_id`);