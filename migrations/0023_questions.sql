CREATE TABLE `lecture_questions` (
	`id` text PRIMARY KEY NOT NULL,
	`lecture_id` text NOT NULL,
	`at` real NOT NULL,
	`kind` text NOT NULL,
	`prompt` text NOT NULL,
	`choices` text DEFAULT '[]' NOT NULL,
	`answer_key` text,
	`marked` integer DEFAULT false NOT NULL,
	`feedback` integer DEFAULT true NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lecture_questions_lecture` ON `lecture_questions` (`lecture_id`,`at`);--> statement-breakpoint
CREATE TABLE `question_answers` (
	`question_id` text NOT NULL,
	`user_id` text NOT NULL,
	`lecture_id` text NOT NULL,
	`answer` text NOT NULL,
	`correct` integer,
	`tries` integer DEFAULT 1 NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`answered_at` integer NOT NULL,
	`offline` integer DEFAULT false NOT NULL,
	PRIMARY KEY(`question_id`, `user_id`),
	FOREIGN KEY (`question_id`) REFERENCES `lecture_questions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `question_answers_lecture_user` ON `question_answers` (`lecture_id`,`user_id`);--> statement-breakpoint
CREATE INDEX `question_answers_user` ON `question_answers` (`user_id`);--> statement-breakpoint
ALTER TABLE `lectures` ADD `no_skip` integer DEFAULT false NOT NULL;