/// <reference lib="dom" />
import { byId } from './dom.js';

type Data = Record<string, unknown>;

interface WorldMap {
  center: { x: number; y: number; z: number };
  radius: number;
  names: string[];
  cells: number[];
  heights: number[];
  bot: { x: number; y: number; z: number; yaw: number } | null;
  target: { x: number; y: number; z: number } | null;
  digging: { x: number; y: number; z: number } | null;
  goal: { x: number; y: number; z: number } | null;
  tracks: { cls: string; hostile: boolean; x: number; z: number }[];
}

/** Colours of the blocks a bot meets most; any other block gets a stable colour from its name. */
const PALETTE: Readonly<Record<string, string>> = {
  grass_block: '#5d9b3a', dirt: '#8a5a32', coarse_dirt: '#7a5030', stone: '#8c8c8c', cobblestone: '#777777', bedrock: '#333333',
  sand: '#dccf94', gravel: '#8f8681', water: '#3465c9', lava: '#e8661a', oak_log: '#6e5332', oak_leaves: '#2f6b1f',
  oak_planks: '#b38f55', crafting_table: '#a0673a', furnace: '#5e5e5e', coal_ore: '#4d4d4d', iron_ore: '#c7a586', snow: '#f2f6f7',
};

function colorOf(name: string): string {
  const known = PALETTE[name];
  if (known) return known;
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) | 0;
  return `hsl(${Math.abs(hash) % 360} 45% 50%)`;
}

/**
 * The world around the bot, top-down: each column's top block (shaded by height against the bot's),
 * the bot and its heading, the target block and the belief tracks. Polled from `/api/viewer/map`.
 */
export class WorldView {
  constructor(private readonly canvas: HTMLCanvasElement) {}

  async refresh(): Promise<void> {
    const status = byId('world-status');
    const response = await fetch('/api/viewer/map', { cache: 'no-store' });
    const body = (await response.json()) as Data;
    if (!response.ok) {
      status.textContent = String((body.error as Data | undefined)?.message ?? response.status);
      return;
    }
    const map = body as unknown as WorldMap;
    this.draw(map);
    const where = (label: string, p: { x: number; y: number; z: number } | null) => (p ? ` · ${label} ${p.x}, ${p.y}, ${p.z}` : '');
    status.textContent = `${2 * map.radius + 1}×${2 * map.radius + 1} blocks around ${map.center.x}, ${map.center.y}, ${map.center.z}${where('target', map.target)}${where('digging', map.digging)}${where('walking to', map.goal)}`;
    this.canvas.dataset.drawn = String(Number(this.canvas.dataset.drawn ?? 0) + 1);
  }

  draw(map: WorldMap): void {
    const context = this.canvas.getContext('2d')!;
    const side = 2 * map.radius + 1;
    const cell = Math.floor(this.canvas.width / side);
    context.fillStyle = '#101418';
    context.fillRect(0, 0, this.canvas.width, this.canvas.height);
    map.cells.forEach((index, i) => {
      if (index < 0) return;
      const [x, z] = [i % side, Math.floor(i / side)];
      context.fillStyle = colorOf(map.names[index] ?? '');
      context.fillRect(x * cell, z * cell, cell, cell);
      // Higher than the bot's feet: lighter; lower: darker (a dug block shows as a darker cell).
      const rise = (map.heights[i] ?? 0) - map.center.y + 1;
      context.fillStyle = rise >= 0 ? `rgba(255,255,255,${Math.min(0.45, rise * 0.15)})` : `rgba(0,0,0,${Math.min(0.6, -rise * 0.15)})`;
      context.fillRect(x * cell, z * cell, cell, cell);
    });
    const at = (wx: number, wz: number) => [(wx - map.center.x + map.radius) * cell, (wz - map.center.z + map.radius) * cell] as const;
    for (const track of map.tracks) {
      const [x, y] = at(track.x, track.z);
      context.fillStyle = track.hostile ? '#ff3030' : '#ffd84d';
      context.beginPath();
      context.arc(x, y, cell * 0.35, 0, Math.PI * 2);
      context.fill();
    }
    if (map.target) {
      const [x, y] = at(map.target.x, map.target.z);
      context.strokeStyle = '#ff2fd0';
      context.lineWidth = Math.max(2, cell / 6);
      context.strokeRect(x + 1, y + 1, cell - 2, cell - 2);
    }
    if (map.digging) {
      const [x, y] = at(map.digging.x, map.digging.z);
      context.fillStyle = 'rgba(255,140,0,0.55)';
      context.fillRect(x, y, cell, cell);
    }
    if (map.goal) {
      const [x, y] = at(map.goal.x + 0.5, map.goal.z + 0.5);
      context.strokeStyle = '#35e0ff';
      context.lineWidth = 2;
      context.beginPath();
      context.moveTo(x - cell / 3, y - cell / 3);
      context.lineTo(x + cell / 3, y + cell / 3);
      context.moveTo(x + cell / 3, y - cell / 3);
      context.lineTo(x - cell / 3, y + cell / 3);
      context.stroke();
    }
    if (map.bot) {
      const [x, y] = at(map.bot.x, map.bot.z);
      context.fillStyle = '#ffffff';
      context.beginPath();
      context.arc(x, y, cell * 0.4, 0, Math.PI * 2);
      context.fill();
      // mineflayer yaw: 0 faces -z (north), growing counter-clockwise seen from above.
      context.strokeStyle = '#ffffff';
      context.lineWidth = 2;
      context.beginPath();
      context.moveTo(x, y);
      context.lineTo(x - Math.sin(map.bot.yaw) * cell * 1.2, y - Math.cos(map.bot.yaw) * cell * 1.2);
      context.stroke();
    }
  }
}

/** The views' control form: radius, 3D camera and target posted to `/api/viewer/control` with the bearer token. */
export function wireWorldControls(token: () => string, after: () => void): void {
  const out = byId('world-control-result');
  const send = async (body: Data): Promise<void> => {
    const response = await fetch('/api/viewer/control', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token()}` }, body: JSON.stringify(body) });
    const answer = (await response.json()) as Data;
    out.dataset.status = String(response.status);
    out.textContent = response.ok ? 'ok' : `${response.status} ${String((answer.error as Data | undefined)?.message ?? '')}`;
    after();
  };
  const number = (id: string) => Number(byId<HTMLInputElement>(id).value);
  byId<HTMLFormElement>('world-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const target = ['world-x', 'world-y', 'world-z'].every((id) => byId<HTMLInputElement>(id).value.trim() !== '') ? { x: number('world-x'), y: number('world-y'), z: number('world-z') } : null;
    void send({ radius: number('world-radius'), camera: byId<HTMLSelectElement>('world-camera').value, target });
  });
}
