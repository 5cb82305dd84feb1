// A small command-line parser: flags with values, boolean switches, positional arguments, usage errors as values.

export interface ParsedArgs {
  positional: string[];
  values: Map<string, string[]>;
  switches: Set<string>;
}

export type ArgsResult = { ok: true; args: ParsedArgs } | { ok: false; error: string };

/** `valued` flags take the next argument (or `--flag=value`); `switches` take none (`-h` counts as `--help`). */
export function parseArgs(argv: readonly string[], valued: readonly string[], switches: readonly string[]): ArgsResult {
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
