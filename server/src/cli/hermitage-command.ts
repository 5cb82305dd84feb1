export function runCommand(): Promise<number> { return Promise.resolve(2); }
