// Cave fields sampled every 4 blocks (aligned to world coordinates) and interpolated, as vanilla does with its
// noise cells: a sixty-fourth of the noise evaluations, the same result whichever chunk asks.
import { caveFields, carvedBy, MIN_Y } from './shape.js';

const STEP = 4;
const CELLS = 16 / STEP + 1;

/** A chunk's cave grid up to `top`; `carved(x, y, z, mouth)` takes chunk-local x, z and world y (`mouth`: widened near an entrance). */
export function caveGrid(seed: number, cx: number, cz: number, top: number): (x: number, y: number, z: number, mouth: boolean) => boolean {
  const layers = Math.ceil((top - MIN_Y) / STEP) + 2;
  const fields = new Float64Array(layers * CELLS * CELLS * 3);
  for (let j = 0; j < layers; j++) {
    for (let k = 0; k < CELLS; k++) {
      for (let i = 0; i < CELLS; i++) {
        const [a, b, c] = caveFields(seed, cx * 16 + i * STEP, MIN_Y + j * STEP, cz * 16 + k * STEP);
        const o = ((j * CELLS + k) * CELLS + i) * 3;
        fields[o] = a;
        fields[o + 1] = b;
        fields[o + 2] = c;
      }
    }
  }
  const values = [0, 0, 0];
  return (x, y, z, mouth) => {
    const gx = x / STEP;
    const gy = (y - MIN_Y) / STEP;
    const gz = z / STEP;
    const i = Math.min(Math.floor(gx), CELLS - 2);
    const j = Math.floor(gy);
    const k = Math.min(Math.floor(gz), CELLS - 2);
    const tx = gx - i;
    const ty = gy - j;
    const tz = gz - k;
    for (let f = 0; f < 3; f++) {
      let sum = 0;
      for (let c = 0; c < 8; c++) {
        const dx = c & 1;
        const dy = (c >> 1) & 1;
        const dz = c >> 2;
        const weight = (dx ? tx : 1 - tx) * (dy ? ty : 1 - ty) * (dz ? tz : 1 - tz);
        sum += weight * fields[(((j + dy) * CELLS + k + dz) * CELLS + i + dx) * 3 + f]!;
      }
      values[f] = sum;
    }
    return carvedBy(values[0]!, values[1]!, values[2]!, y, mouth);
  };
}
