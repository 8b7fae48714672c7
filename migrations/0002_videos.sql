CREATE TABLE `lectures` (
	`id` text PRIMARY KEY NOT NULL,
	`course_id` text NOT NULL,
	`name_of_topic` text NOT NULL,
	`video_id` text,
	`no_of_views` integer DEFAULT 0 NOT NULL,
	`no_of_likes` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`video_id`) REFERENCES `videos`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `lectures_course` ON `lectures` (`course_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `lectures_video` ON `lectures` (`video_id`);--> statement-breakpoint
CREATE TABLE `videos` (
	`id` text PRIMARY KEY NOT NULL,
	`owner_id` text NOT NULL,
	`status` text NOT NULL,
	`progress` real DEFAULT 0 NOT NULL,
	`eta_seconds` integer,
	`attempts` integer DEFAULT 0 NOT NULL,
	`error` text,
	`lease_until` integer,
	`ffmpeg_pid` integer,
	`source_name` text NOT NULL,
	`source_bytes` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`width` integer NOT NULL,
	`height` integer NOT NULL,
	`has_audio` integer NOT NULL,
	`plan` text NOT NULL,
	`has_poster` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`started_at` integer,
	`first_playable_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `videos_status` ON `videos` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `videos_owner` ON `videos` (`owner_id`);