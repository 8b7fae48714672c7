import packageJson from '../../package.json';

/** The program's version (from package.json, built into the compiled binary). */
export const VERSION: string = packageJson.version;
