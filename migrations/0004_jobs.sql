CREATE TABLE `jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`payload` text NOT NULL,
	`subject_id` text,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`max_attempts` integer DEFAULT 3 NOT NULL,
	`run_after` integer NOT NULL,
	`lease_owner` text,
	`lease_until` integer,
	`heartbeat_at` integer,
	`last_error` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`finished_at` integer
);
--> statement-breakpoint
CREATE INDEX `jobs_ready` ON `jobs` (`state`,`run_after`);--> statement-breakpoint
CREATE INDEX `jobs_subject` ON `jobs` (`subject_id`);--> statement-breakpoint
-- Videos that were waiting or being processed when this version was installed get their job row.
INSERT INTO `jobs` (`id`, `type`, `payload`, `subject_id`, `state`, `attempts`, `run_after`)
  SELECT 'migrated-' || `id`, 'transcode', json_object('videoId', `id`), `id`, 'queued', `attempts`, 0
  FROM `videos` WHERE `status` IN ('queued', 'processing');--> statement-breakpoint
UPDATE `videos` SET `status` = 'queued' WHERE `status` = 'processing';--> statement-breakpoint
ALTER TABLE `videos` DROP COLUMN `lease_until`;