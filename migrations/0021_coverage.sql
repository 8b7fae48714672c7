CREATE TABLE `lecture_part_totals` (
	`lecture_id` text PRIMARY KEY NOT NULL,
	`plays` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `watch_coverage` (
	`user_id` text NOT NULL,
	`lecture_id` text NOT NULL,
	`plays` text NOT NULL,
	`partial` text NOT NULL,
	`played_parts` integer DEFAULT 0 NOT NULL,
	`watched_seconds` real DEFAULT 0 NOT NULL,
	`first_at` integer NOT NULL,
	`last_at` integer NOT NULL,
	`offline_at` integer,
	`last_report` text DEFAULT '' NOT NULL,
	`completed_at` integer,
	`late` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`user_id`, `lecture_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `watch_coverage_lecture` ON `watch_coverage` (`lecture_id`);--> statement-breakpoint
ALTER TABLE `lectures` ADD `due_at` integer;--> statement-breakpoint
ALTER TABLE `lectures` ADD `reminded_at` integer;