// The `isocheck` settings: defaults, and lenient parsing of whatever a client sends.

import { LEVELS, parseLevel, type Level } from '../engine/levels/levels.ts';
import type { IsoCheckSettings } from '../protocol/shapes.ts';

export const DEFAULT_SETTINGS: Readonly<IsoCheckSettings> = { levels: [], checkOn: 'change', maxWitnessesPerLevel: 1, plumeInit: 'zero' };

/** Unknown or malformed values fall back to the defaults: a typo in settings.json must not stop checking. */
export function parseSettings(raw: unknown): IsoCheckSettings {
  const o = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const levels: Level[] = [];
  const rawLevels = typeof o.levels === 'string' ? o.levels.split(/[\s,]+/) : Array.isArray(o.levels) ? (o.levels as unknown[]) : [];
  for (const name of rawLevels) {
    const l = typeof name === 'string' ? parseLevel(name.trim()) : null;
    if (l && !levels.includes(l)) levels.push(l);
  }
  const checkOn = o.checkOn === 'save' ? 'save' : 'change';
  const n = Number(o.maxWitnessesPerLevel);
  const maxWitnessesPerLevel = Number.isInteger(n) && n >= 1 ? Math.min(n, 100) : DEFAULT_SETTINGS.maxWitnessesPerLevel;
  const plumeInit = o.plumeInit === 'none' ? 'none' : 'zero';
  return { levels: LEVELS.filter((l) => levels.includes(l)), checkOn, maxWitnessesPerLevel, plumeInit };
}

/** What decides an analysis's result (checkOn does not): models are cached per version and this key. */
export function analysisKey(s: IsoCheckSettings): string {
  return `${s.levels.join(',')}|${s.maxWitnessesPerLevel}|${s.plumeInit}`;
}
