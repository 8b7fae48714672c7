PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_notifications` (
	`id` text PRIMARY KEY NOT NULL,
	`key` text NOT NULL,
	`user_id` text NOT NULL,
	`course_id` text,
	`lecture_id` text,
	`comment_id` text,
	`about_user_id` text,
	`kind` text NOT NULL,
	`mail` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`mailed_at` integer,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`comment_id`) REFERENCES `comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`about_user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
INSERT INTO `__new_notifications`("id", "key", "user_id", "course_id", "lecture_id", "comment_id", "about_user_id", "kind", "mail", "created_at", "mailed_at") SELECT "id", "key", "user_id", "course_id", "lecture_id", "comment_id", "about_user_id", "kind", "mail", "created_at", "mailed_at" FROM `notifications`;--> statement-breakpoint
DROP TABLE `notifications`;--> statement-breakpoint
ALTER TABLE `__new_notifications` RENAME TO `notifications`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE UNIQUE INDEX `notifications_key` ON `notifications` (`key`);--> statement-breakpoint
CREATE INDEX `notifications_user_course` ON `notifications` (`user_id`,`course_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `notifications_mail` ON `notifications` (`mail`,`user_id`);--> statement-breakpoint
CREATE INDEX `notifications_about_user` ON `notifications` (`about_user_id`);