import { z } from 'zod';

const BlockPositionSchema = z.strictObject({ x: z.number().int().min(-30_000_000).max(30_000_000), y: z.number().int().min(-2048).max(4096), z: z.number().int().min(-30_000_000).max(30_000_000) });

/** The 3D view's camera: the bot's eyes, behind and above it, or straight down. */
export const VIEWER_CAMERAS = ['first_person', 'third_person', 'top_down'] as const;

/**
 * `POST /api/viewer/control`: what the world views show. `follow` centres them on the bot, `fixed` on
 * `center`; `camera` places the 3D view's camera; `target` is the block drawn as the step's target (null
 * clears it); `radius` is the map's half-size in blocks (the 3D view loads the chunk columns it covers).
 */
export const ViewerControlSchema = z
  .strictObject({
    mode: z.enum(['follow', 'fixed']).optional(),
    camera: z.enum(VIEWER_CAMERAS).optional(),
    center: BlockPositionSchema.nullable().optional(),
    target: BlockPositionSchema.nullable().optional(),
    radius: z.number().int().min(2).max(32).optional(),
  })
  .refine((control) => control.mode !== 'fixed' || control.center != null, { path: ['center'], message: "mode 'fixed' needs a center { x, y, z }" });

/** A block position on the map. */
export type BlockPosition = z.infer<typeof BlockPositionSchema>;

/** What the world view shows now (`GET /api/viewer/control`). */
export interface ViewerControl {
  readonly mode: 'follow' | 'fixed';
  readonly camera: (typeof VIEWER_CAMERAS)[number];
  readonly center: BlockPosition | null;
  readonly target: BlockPosition | null;
  readonly radius: number;
}

/** The view's settings, changed only through a validated control request. */
export class ViewerState {
  #control: ViewerControl = { mode: 'follow', camera: 'third_person', center: null, target: null, radius: 12 };

  get control(): ViewerControl {
    return this.#control;
  }

  /** Applies a validated request: given fields replace, omitted ones stay; a `fixed` view left without a center is refused. */
  apply(change: z.output<typeof ViewerControlSchema>): { ok: true; control: ViewerControl } | { ok: false; message: string } {
    const next = { ...this.#control, ...Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined)) } as ViewerControl;
    if (next.mode === 'fixed' && next.center === null) return { ok: false, message: "center: mode 'fixed' needs a center { x, y, z }" };
    this.#control = next;
    return { ok: true, control: next };
  }
}
