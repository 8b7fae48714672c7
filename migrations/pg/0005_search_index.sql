-- Search (src/search): PostgreSQL's full-text index over search_entries.text, a GIN index on its tsvector
-- (English stemming, like SQLite's porter tokenizer). Queries name the same expression so the index serves them.
CREATE INDEX "search_entries_fts" ON "search_entries" USING gin (to_tsvector('english', "text"));
--> statement-breakpoint
-- Titles and comments are indexed by the database itself on every write path (routes, administrator, restore);
-- captions are cut into timed cues by the server (src/search/index.ts). Rows go with their lecture, caption or
-- comment (ON DELETE CASCADE).
CREATE FUNCTION "search_index_lecture"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "search_entries" ("course_id", "lecture_id", "kind", "text") VALUES (NEW.course_id, NEW.id, 'title', NEW.name_of_topic);
  ELSIF NEW.name_of_topic IS DISTINCT FROM OLD.name_of_topic THEN
    UPDATE "search_entries" SET "text" = NEW.name_of_topic WHERE "lecture_id" = NEW.id AND "kind" = 'title';
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "search_lecture_after_write" AFTER INSERT OR UPDATE OF "name_of_topic" ON "lectures"
  FOR EACH ROW EXECUTE FUNCTION "search_index_lecture"();
--> statement-breakpoint
CREATE FUNCTION "search_index_comment"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "search_entries" ("course_id", "lecture_id", "kind", "comment_id", "text")
      SELECT "course_id", NEW.lecture_id, 'comment', NEW.id, NEW.text FROM "lectures" WHERE "id" = NEW.lecture_id;
  ELSIF NEW.text IS DISTINCT FROM OLD.text THEN
    UPDATE "search_entries" SET "text" = NEW.text WHERE "comment_id" = NEW.id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "search_comment_after_write" AFTER INSERT OR UPDATE OF "text" ON "comments"
  FOR EACH ROW EXECUTE FUNCTION "search_index_comment"();
--> statement-breakpoint
-- What exists already (captions are cut into cues by the server at its next start: indexMissingCaptions).
INSERT INTO "search_entries" ("course_id", "lecture_id", "kind", "text")
  SELECT "course_id", "id", 'title', "name_of_topic" FROM "lectures";
--> statement-breakpoint
INSERT INTO "search_entries" ("course_id", "lecture_id", "kind", "comment_id", "text")
  SELECT "lectures"."course_id", "comments"."lecture_id", 'comment', "comments"."id", "comments"."text"
  FROM "comments" JOIN "lectures" ON "lectures"."id" = "comments"."lecture_id";
