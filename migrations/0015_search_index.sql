-- Search (src/search): SQLite's full-text index over search_entries.text, an FTS5 table with external content
-- (the text lives once, in search_entries) kept in step by triggers. Porter stemming over unicode61 without
-- diacritics: "explaining" finds "explained", "cafe" finds "Café". The index rows point at search_entries.id, an
-- INTEGER PRIMARY KEY that VACUUM keeps.
CREATE VIRTUAL TABLE `search_fts` USING fts5(`text`, content='search_entries', content_rowid='id', tokenize='porter unicode61 remove_diacritics 2');
--> statement-breakpoint
CREATE TRIGGER `search_entries_after_insert` AFTER INSERT ON `search_entries` BEGIN
  INSERT INTO `search_fts` (rowid, `text`) VALUES (new.id, new.text);
END;
--> statement-breakpoint
CREATE TRIGGER `search_entries_after_delete` AFTER DELETE ON `search_entries` BEGIN
  INSERT INTO `search_fts` (`search_fts`, rowid, `text`) VALUES ('delete', old.id, old.text);
END;
--> statement-breakpoint
CREATE TRIGGER `search_entries_after_update` AFTER UPDATE ON `search_entries` BEGIN
  INSERT INTO `search_fts` (`search_fts`, rowid, `text`) VALUES ('delete', old.id, old.text);
  INSERT INTO `search_fts` (rowid, `text`) VALUES (new.id, new.text);
END;
--> statement-breakpoint
-- Titles and comments are indexed by the database itself on every write path (routes, administrator, restore);
-- captions are cut into timed cues by the server (src/search/index.ts). Rows go with their lecture, caption or
-- comment (ON DELETE CASCADE).
CREATE TRIGGER `search_lecture_after_insert` AFTER INSERT ON `lectures` BEGIN
  INSERT INTO `search_entries` (`course_id`, `lecture_id`, `kind`, `text`) VALUES (new.course_id, new.id, 'title', new.name_of_topic);
END;
--> statement-breakpoint
CREATE TRIGGER `search_lecture_after_rename` AFTER UPDATE OF `name_of_topic` ON `lectures` BEGIN
  UPDATE `search_entries` SET `text` = new.name_of_topic WHERE `lecture_id` = new.id AND `kind` = 'title';
END;
--> statement-breakpoint
CREATE TRIGGER `search_comment_after_insert` AFTER INSERT ON `comments` BEGIN
  INSERT INTO `search_entries` (`course_id`, `lecture_id`, `kind`, `comment_id`, `text`)
    SELECT `course_id`, new.lecture_id, 'comment', new.id, new.text FROM `lectures` WHERE `id` = new.lecture_id;
END;
--> statement-breakpoint
CREATE TRIGGER `search_comment_after_edit` AFTER UPDATE OF `text` ON `comments` BEGIN
  UPDATE `search_entries` SET `text` = new.text WHERE `comment_id` = new.id;
END;
--> statement-breakpoint
-- What exists already (captions are cut into cues by the server at its next start: indexMissingCaptions).
INSERT INTO `search_entries` (`course_id`, `lecture_id`, `kind`, `text`)
  SELECT `course_id`, `id`, 'title', `name_of_topic` FROM `lectures`;
--> statement-breakpoint
INSERT INTO `search_entries` (`course_id`, `lecture_id`, `kind`, `comment_id`, `text`)
  SELECT `lectures`.`course_id`, `comments`.`lecture_id`, 'comment', `comments`.`id`, `comments`.`text`
  FROM `comments` JOIN `lectures` ON `lectures`.`id` = `comments`.`lecture_id`;
