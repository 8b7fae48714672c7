/**
 * `classroom worker` from a source checkout (`npx bun run worker`, kept as an alias): the same as
 * `bun src/main.ts worker`. Any number of workers may run, on any hosts, against the same database and storage.
 */
process.argv.splice(2, process.argv.length - 2, 'worker');
await import('./main');
