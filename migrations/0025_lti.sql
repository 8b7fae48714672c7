CREATE TABLE `lti_contexts` (
	`id` text PRIMARY KEY NOT NULL,
	`platform_id` text NOT NULL,
	`context_id` text NOT NULL,
	`course_id` text NOT NULL,
	`title` text,
	`memberships_url` text,
	`lineitems_url` text,
	`ags_scopes` text DEFAULT '[]' NOT NULL,
	`last_roster_sync_at` integer,
	FOREIGN KEY (`platform_id`) REFERENCES `lti_platforms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_contexts_platform_context` ON `lti_contexts` (`platform_id`,`context_id`);--> statement-breakpoint
CREATE INDEX `lti_contexts_course` ON `lti_contexts` (`course_id`);--> statement-breakpoint
CREATE TABLE `lti_nonces` (
	`nonce` text NOT NULL,
	`platform_id` text NOT NULL,
	`expires_at` integer NOT NULL,
	PRIMARY KEY(`nonce`, `platform_id`),
	FOREIGN KEY (`platform_id`) REFERENCES `lti_platforms`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lti_nonces_expires` ON `lti_nonces` (`expires_at`);--> statement-breakpoint
CREATE TABLE `lti_platforms` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`issuer` text NOT NULL,
	`client_id` text NOT NULL,
	`auth_login_url` text NOT NULL,
	`auth_token_url` text NOT NULL,
	`jwks_url` text NOT NULL,
	`deployment_ids` text DEFAULT '[]' NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_platforms_issuer_client` ON `lti_platforms` (`issuer`,`client_id`);--> statement-breakpoint
CREATE TABLE `lti_resource_links` (
	`id` text PRIMARY KEY NOT NULL,
	`platform_id` text NOT NULL,
	`resource_link_id` text NOT NULL,
	`course_id` text NOT NULL,
	`lecture_id` text,
	`lineitem_url` text,
	`score_source` text DEFAULT 'watched' NOT NULL,
	FOREIGN KEY (`platform_id`) REFERENCES `lti_platforms`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`course_id`) REFERENCES `courses`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`lecture_id`) REFERENCES `lectures`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE UNIQUE INDEX `lti_resource_links_platform_link` ON `lti_resource_links` (`platform_id`,`resource_link_id`);--> statement-breakpoint
CREATE INDEX `lti_resource_links_course` ON `lti_resource_links` (`course_id`);--> statement-breakpoint
CREATE INDEX `lti_resource_links_lecture` ON `lti_resource_links` (`lecture_id`);--> statement-breakpoint
CREATE TABLE `lti_scores_sent` (
	`resource_link_row_id` text NOT NULL,
	`user_id` text NOT NULL,
	`score_given` real NOT NULL,
	`sent_at` integer NOT NULL,
	PRIMARY KEY(`resource_link_row_id`, `user_id`),
	FOREIGN KEY (`resource_link_row_id`) REFERENCES `lti_resource_links`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `lti_scores_sent_user` ON `lti_scores_sent` (`user_id`);--> statement-breakpoint
CREATE TABLE `lti_tool_keys` (
	`kid` text PRIMARY KEY NOT NULL,
	`private_jwk` text NOT NULL,
	`public_jwk` text NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
