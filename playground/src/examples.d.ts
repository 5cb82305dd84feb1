// The examples/ folder, embedded by the playground build (playground/build.ts).
declare module 'isocheck:examples' {
  const examples: Record<string, string>;
  export default examples;
}
