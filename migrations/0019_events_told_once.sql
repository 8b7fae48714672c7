ALTER TABLE `lectures` ADD `students_told_at` integer;
--> statement-breakpoint
-- "Told once" was a `notify` job with the fixed id notify-lecture-<id>: those lectures stay told.
UPDATE `lectures` SET `students_told_at` = (SELECT `created_at` FROM `jobs` WHERE `jobs`.`id` = 'notify-lecture-' || `lectures`.`id`)
  WHERE EXISTS (SELECT 1 FROM `jobs` WHERE `jobs`.`id` = 'notify-lecture-' || `lectures`.`id`);
--> statement-breakpoint
-- Titles and comments are indexed by listeners now, as every other kind is (src/wiring.ts); the FTS5 triggers stay.
DROP TRIGGER IF EXISTS `search_lecture_after_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_lecture_after_rename`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_comment_after_insert`;
--> statement-breakpoint
DROP TRIGGER IF EXISTS `search_comment_after_edit`;
