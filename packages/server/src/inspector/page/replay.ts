/// <reference lib="dom" />
import { byId } from './dom.js';
import { Player, SPEEDS, type PlayerState } from './player.js';
import { parseRecording, type Recording } from './recording.js';
import type { Envelope } from './stream.js';

/** What the replay panel drives: the views reset for a new recording, then each played event. */
export interface ReplayTarget {
  start(recording: Recording): void;
  apply(event: Envelope): void;
}

/**
 * The replay panel: opens a recorded run (the file `sinew-inspect` serves at `/api/recording`, or a file
 * picked in the page) and plays it at 1× or 10×, or one event at a time.
 */
export class ReplayPanel {
  #player: Player | undefined;
  /** Loads started (the served recording, each file picked): only the latest one opens — a served recording that
   * arrives after the user picked a file must not replace it. */
  #loads = 0;

  constructor(private readonly target: ReplayTarget) {
    byId<HTMLInputElement>('replay-file').addEventListener('change', (event) => {
      const file = (event.target as HTMLInputElement).files?.[0];
      if (!file) return;
      const load = ++this.#loads;
      void file.text().then(
        (text) => load === this.#loads && this.open(text, file.name),
        (error: unknown) => load === this.#loads && this.#status(`could not read ${file.name}: ${String(error)}`, 'error'),
      );
    });
    for (const speed of SPEEDS) byId(`replay-play-${speed}`).addEventListener('click', () => this.#player?.play(speed));
    byId('replay-pause').addEventListener('click', () => this.#player?.pause());
    byId('replay-step').addEventListener('click', () => this.#player?.step());
  }

  /** Loads the recording `sinew-inspect` serves. */
  async fetchServed(): Promise<void> {
    const load = ++this.#loads;
    try {
      const response = await fetch('/api/recording', { cache: 'no-store' });
      if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
      const text = await response.text();
      if (load === this.#loads) this.open(text, decodeURIComponent(response.headers.get('x-recording-name') ?? 'recording'));
    } catch (error) {
      if (load === this.#loads) this.#status(`could not load the recording: ${String(error)}`, 'error');
    }
  }

  /** Parses a recording and hands it to the views, paused at its start. */
  open(text: string, name: string): void {
    let recording: Recording;
    try {
      recording = parseRecording(text);
    } catch (error) {
      return this.#status(`${name}: ${String(error)}`, 'error');
    }
    this.#player?.pause();
    this.target.start(recording);
    this.#player = new Player(recording.events, (event) => this.target.apply(event), (state) => this.#position(state));
    const skipped = recording.skipped > 0 ? `, ${recording.skipped} lines skipped` : '';
    this.#status(`${name}: ${recording.kind}, ${recording.events.length} events${skipped}`, 'loaded');
  }

  #status(text: string, state: string): void {
    const status = byId('replay-status');
    status.textContent = text;
    status.dataset.state = state;
  }

  #position(state: PlayerState): void {
    const out = byId('replay-position');
    out.textContent = `${state.position} / ${state.total}${state.playing ? ` ▶ ${state.speed}×` : ''}`;
    out.dataset.position = String(state.position);
    out.dataset.total = String(state.total);
    out.dataset.playing = String(state.playing);
  }
}
