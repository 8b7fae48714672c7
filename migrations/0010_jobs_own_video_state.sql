ALTER TABLE `jobs` ADD `resumed` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `videos` DROP COLUMN `ffmpeg_pid`;