import { createBlackboard, type Blackboard, type Logger, type StepInfo } from '@sinew/executor-contracts';
import { leasedView, type ActuatorLease, type ActuatorSource } from '../body/instrument.js';
import { sleepOn, type Clock } from '../clock/clock.js';
import type { TraceEntry } from '../provenance/provenance.js';
import type { StepScope } from './attempt-result.js';
import type { ExecutorRunContext } from './types.js';

/** What a runner's context reaches of its attempt: the lease of its body view, its signal and its activity. */
export interface AttemptHandle extends ActuatorLease {
  signal(): AbortSignal;
  onActivity(kind: TraceEntry['kind'], name: string, detail?: string): void;
}

/** The RunContext of one attempt (methods on the prototype: no closures per attempt). */
export class AttemptContext<Body extends ActuatorSource> implements ExecutorRunContext<Body> {
  #body: Body | undefined;
  constructor(
    private readonly attempt: AttemptHandle,
    private readonly source: Body,
    private readonly scope: StepScope,
    readonly step: StepInfo,
    readonly log: Logger,
    readonly clock: Clock,
  ) {}
  /** This attempt's view of the body, made on first use: its commands count for this attempt only. */
  get body(): Body {
    return (this.#body ??= leasedView(this.source, this.attempt));
  }
  get signal(): AbortSignal {
    return this.attempt.signal();
  }
  get blackboard(): Blackboard {
    return (this.scope.blackboard ??= createBlackboard());
  }
  progress(note?: string): void {
    this.attempt.onActivity('progress', typeof note === 'string' ? note : 'progress');
  }
  transition(nodePath: string, state: string): void {
    this.attempt.onActivity('transition', String(nodePath), String(state));
  }
  now(): number {
    return this.clock.now();
  }
  sleep(ms: number): Promise<void> {
    return sleepOn(this.clock, ms, this.signal);
  }
}
