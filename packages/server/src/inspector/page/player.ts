/// <reference lib="dom" />
import type { Envelope } from './stream.js';

/** Playback speeds the controls offer. */
export const SPEEDS = [1, 10] as const;

/** A quiet stretch of the recording is played as at most this long (at 1×): a bot idle overnight replays in seconds. */
const MAX_GAP_MS = 3_000;

/** Where playback stands, for the controls. */
export interface PlayerState {
  readonly position: number;
  readonly total: number;
  readonly playing: boolean;
  readonly speed: number;
}

/**
 * Plays recorded events into the inspector's views with the recorded gaps between them divided by the
 * speed (1× or 10×), or one event per `step()`.
 */
export class Player {
  #position = 0;
  #speed = 1;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly events: readonly Envelope[],
    private readonly apply: (event: Envelope) => void,
    private readonly onState: (state: PlayerState) => void,
  ) {
    this.#report();
  }

  play(speed: number): void {
    this.#speed = speed;
    this.pause();
    this.#schedule();
  }

  pause(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#report();
  }

  /** Plays the next event (pausing playback). */
  step(): void {
    this.pause();
    this.#next();
  }

  #schedule(): void {
    if (this.#position >= this.events.length) return this.pause();
    const previous = this.events[this.#position - 1];
    const gap = previous ? Math.min(MAX_GAP_MS, Math.max(0, this.events[this.#position]!.ts - previous.ts)) : 0;
    this.#timer = setTimeout(() => {
      this.#next();
      this.#schedule();
    }, gap / this.#speed);
    this.#report();
  }

  #next(): void {
    const event = this.events[this.#position];
    if (!event) return;
    this.#position += 1;
    this.apply(event);
    this.#report();
  }

  #report(): void {
    this.onState({ position: this.#position, total: this.events.length, playing: this.#timer !== undefined, speed: this.#speed });
  }
}
