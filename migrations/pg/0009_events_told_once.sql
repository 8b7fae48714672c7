ALTER TABLE "lectures" ADD COLUMN "students_told_at" bigint;
--> statement-breakpoint
-- "Told once" was a `notify` job with the fixed id notify-lecture-<id>: those lectures stay told.
UPDATE "lectures" SET "students_told_at" = "jobs"."created_at" FROM "jobs" WHERE "jobs"."id" = 'notify-lecture-' || "lectures"."id";
--> statement-breakpoint
-- Titles and comments are indexed by listeners now, as every other kind is (src/wiring.ts).
DROP TRIGGER IF EXISTS "search_lecture_after_write" ON "lectures";
--> statement-breakpoint
DROP TRIGGER IF EXISTS "search_comment_after_write" ON "comments";
--> statement-breakpoint
DROP FUNCTION IF EXISTS "search_index_lecture"();
--> statement-breakpoint
DROP FUNCTION IF EXISTS "search_index_comment"();
