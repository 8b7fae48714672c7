CREATE TABLE `known_devices` (
	`user_id` text NOT NULL,
	`device_hash` text NOT NULL,
	`last_seen_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `device_hash`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE TABLE `signups` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`username` text NOT NULL,
	`role` text NOT NULL,
	`password_hash` text NOT NULL,
	`code_hash` text NOT NULL,
	`code_expires_at` integer NOT NULL,
	`failed_attempts` integer DEFAULT 0 NOT NULL,
	`sent_at` integer NOT NULL,
	`client_key_hash` text,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `signups_email` ON `signups` (`email`,`created_at`);--> statement-breakpoint
-- Accounts never verified become sign-ups (a code is sent again at their next login) and stop being accounts.
INSERT INTO `signups` (`id`, `email`, `username`, `role`, `password_hash`, `code_hash`, `code_expires_at`, `sent_at`, `expires_at`)
  SELECT `id`, `email`, `username`, `role`, `password_hash`, '', 0, 0, (unixepoch('subsec') * 1000) + 86400000
  FROM `users` WHERE `email_verified_at` IS NULL;--> statement-breakpoint
DELETE FROM `users` WHERE `email_verified_at` IS NULL;--> statement-breakpoint
ALTER TABLE `users` DROP COLUMN `token_version`;