import type { ActuatorCommand } from '../body/instrument.js';
import { labelValue, type ExecutorMetrics } from '../metrics/metrics.js';
import { counterSeries, type DeltaSeries } from '../metrics/series.js';

/** What the running attempt is told of each actuator command: the pulse its TTFA and stuck watchdogs read. */
export interface PulseReceiver {
  /** `issuer` is the lease of the body view that issued the command (undefined: the raw body). */
  pulse(command: string, issuer: unknown, detail: string | undefined): void;
}

/**
 * The body's actuator commands, counted and delivered to the running attempt (the `target` the step sets
 * while an attempt runs): the pulse reaches the step through this one interface, never through the executor.
 */
export class ActuatorPulse {
  target: PulseReceiver | undefined;
  readonly #labels = new Set<string>();
  readonly #series = new Map<string, DeltaSeries>();

  constructor(private readonly metrics: ExecutorMetrics) {}

  /** The bounded `command` label of a command name. */
  label(name: string): string {
    return labelValue(name, this.#labels, 64);
  }

  /** Every actuator command is counted; the running attempt decides whether it counts for it. */
  onCommand(command: ActuatorCommand): void {
    const name = typeof command?.command === 'string' ? command.command : 'unknown';
    this.#seriesOf(name).inc();
    this.target?.pulse(name, command.issuer, typeof command.detail === 'string' ? command.detail : undefined);
  }

  /** The counter series of a command name, made on its first use (the label is bounded once, not per command). */
  #seriesOf(name: string): DeltaSeries {
    let series = this.#series.get(name);
    if (!series) {
      const command = this.label(name);
      series = counterSeries(this.metrics.actuatorCommands, command, { command });
      // Names past the label cap all fold into `other`; only the first 256 names are remembered.
      if (this.#series.size < 256) this.#series.set(name, series);
    }
    return series;
  }
}
