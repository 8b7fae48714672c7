CREATE TABLE `workers` (
	`owner` text PRIMARY KEY NOT NULL,
	`beat_at` integer NOT NULL
);
