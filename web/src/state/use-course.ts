import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../api/client';
import { type Course, getCourse } from '../api/courses';

/** Loads one course; `error` is the server's message (a 404 for classes the user cannot see). */
export function useCourse(id: string | undefined) {
  const [course, setCourse] = useState<Course | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(async () => {
    if (!id) return;
    setError(null);
    try {
      setCourse(await getCourse(id));
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : 'Could not load this class.');
    }
  }, [id]);
  useEffect(() => {
    load();
  }, [load]);
  return { course, setCourse, error };
}
