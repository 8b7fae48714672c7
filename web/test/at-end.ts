/** Work for the end of the whole component-test run (the preload runs it in its global afterAll). */
const tasks: (() => Promise<void> | void)[] = [];

/** Runs `task` once every test file of the run has finished: for what several files share, such as the server. */
export function atEnd(task: () => Promise<void> | void) {
  tasks.push(task);
}

export async function runAtEnd() {
  for (const task of tasks.splice(0).reverse()) await task();
}
