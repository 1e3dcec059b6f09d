import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Phase, STEP_PHASES, STEP_TRANSITIONS, StepPhaseError, transition, type StepPhaseName } from '../src/executor/step.js';

/** The edges of the README's phase diagram (`a --> b` lines of its mermaid block). */
function readmeEdges(): string[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf("## A step's phases"));
  const diagram = /```mermaid\n([\s\S]*?)```/.exec(section)?.[1];
  if (diagram === undefined) throw new Error("README: no mermaid diagram under \"A step's phases\"");
  return [...diagram.matchAll(/^\s*(\S+) --> (\S+)\s*$/gm)].map(([, from, to]) => `${from} → ${to}`);
}

const tableEdges = () => STEP_PHASES.flatMap((from) => STEP_TRANSITIONS[from].map((to) => `${from} → ${to}`));

describe('the step phase machine', () => {
  it('the README diagram has exactly the transition table’s edges, entered at queued and left from ended', () => {
    const edges = readmeEdges();
    expect(edges.filter((e) => !e.includes('[*]')).sort()).toEqual(tableEdges().sort());
    expect(edges.filter((e) => e.includes('[*]'))).toEqual(['[*] → queued', 'ended → [*]']);
  });

  it('each phase is numbered by its place in the enum', () => {
    expect(STEP_PHASES.map((name) => Phase[name])).toEqual(STEP_PHASES.map((_, index) => index));
  });

  it('the transition function takes every edge of the table and refuses every other change', () => {
    for (const from of STEP_PHASES) {
      for (const to of STEP_PHASES) {
        if (STEP_TRANSITIONS[from].includes(to)) expect(transition(Phase[from], Phase[to])).toBe(Phase[to]);
        else expect(() => transition(Phase[from], Phase[to])).toThrow(new StepPhaseError(from, to));
      }
    }
    expect(() => transition(Phase.ended, Phase.queued)).toThrow(/illegal step phase change ended → queued/);
  });

  it('every phase is reached from queued, and ended is reached from every phase', () => {
    const reach = (start: StepPhaseName, next: (p: StepPhaseName) => readonly StepPhaseName[]) => {
      const seen = new Set<StepPhaseName>([start]);
      for (const phase of seen) for (const to of next(phase)) seen.add(to);
      return seen;
    };
    expect([...reach('queued', (p) => STEP_TRANSITIONS[p])].sort()).toEqual([...STEP_PHASES].sort());
    const into = (p: StepPhaseName) => STEP_PHASES.filter((from) => STEP_TRANSITIONS[from].includes(p));
    expect([...reach('ended', into)].sort()).toEqual([...STEP_PHASES].sort());
  });
});
