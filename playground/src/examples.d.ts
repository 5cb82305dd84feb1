// The examples/ folder, embedded by the playground build (playground/build.ts).
declare module 'isocheck:examples' {
  const examples: Record<string, string>;
  export default examples;
}

// The analysis worker's bundle as text (started from a blob: URL).
declare module 'isocheck:worker-source' {
  const source: string;
  export default source;
}
