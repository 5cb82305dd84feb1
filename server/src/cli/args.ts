// A small command-line parser: flags with values, boolean switches, positional arguments, usage errors as values.

export interface ParsedArgs {
  positional: string[];
  values: Map<string, string[]>;
  switches: Set<string>;
}

export type ArgsResult = { ok: true; args: ParsedArgs } | { ok: false; error: string };

/** Two spellings of one flag. */
const ALIASES: Readonly<Record<string, string>> = { '-o': '--output', '--output': '-o' };

/**
 * `valued` flags take the next argument (or `--flag=value`); `switches` take none (`-h` counts as `--help`).
 * A valued flag may be given once unless it is `repeatable`: `--claim SER --claim RC` kept only the
 * last and exited 0, so a script's mistake passed silently. `-o` and `--output` count as one flag.
 */
export function parseArgs(argv: readonly string[], valued: readonly string[], switches: readonly string[], repeatable: readonly string[] = []): ArgsResult {
  const args: ParsedArgs = { positional: [], values: new Map(), switches: new Set() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('-') || a === '-') {
      args.positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    // `-h` is `--help` for every command that has it: one alias here, not a second switch per command.
    const name = a === '-h' && switches.includes('--help') ? '--help' : eq >= 0 ? a.slice(0, eq) : a;
    if (switches.includes(name)) {
      if (eq >= 0) return { ok: false, error: `${name} takes no value` };
      args.switches.add(name);
    } else if (valued.includes(name)) {
      const value = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (value === undefined) return { ok: false, error: `${name} needs a value` };
      const list = args.values.get(name) ?? [];
      const alias = ALIASES[name];
      if (!repeatable.includes(name) && (list.length > 0 || (alias !== undefined && args.values.has(alias)))) {
        return { ok: false, error: `${name}${alias !== undefined && args.values.has(alias) ? ` (or ${alias})` : ''} given more than once` };
      }
      list.push(value);
      args.values.set(name, list);
    } else {
      return { ok: false, error: `unknown option ${name}` };
    }
  }
  return { ok: true, args };
}

export function lastValue(args: ParsedArgs, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = args.values.get(n);
    if (v && v.length > 0) return v[v.length - 1];
  }
  return undefined;
}

/**
 * A number as written in decimal (`12`, `0.5`, `1e6`), or NaN. `Number()` also took `0x10`, `' 5'`,
 * `'0b11'` and the empty string (as 0), so a typo such as `--txns ''` passed as a value.
 */
export function numberArg(text: string): number {
  return /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
}
