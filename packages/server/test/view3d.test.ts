import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ViewerState } from '../src/viewer/control.js';
import { cameraFor, hazardBoxes, overlaysFor, trackPoints } from '../src/viewer/overlays.js';
import { loadViewerPeer } from '../src/viewer/peer.js';
import { View3d } from '../src/viewer/view3d.js';

describe('the 3D view without its optional peer', () => {
  it('says which package to install when prismarine-viewer cannot be resolved from where the server is installed', () => {
    const lonely = join(mkdtempSync(join(tmpdir(), 'sinew-no-peer-')), 'index.js');
    writeFileSync(lonely, '');
    const result = loadViewerPeer(lonely);
    expect(result).toEqual({ ok: false, message: expect.stringContaining('npm install prismarine-viewer@^1.33.0') });
  });

  it('loads the installed peer and maps the testkit version 1.20.4 to its 1.20.1 textures', () => {
    const result = loadViewerPeer();
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.peer.textureVersion('1.20.4')).toBe('1.20.1');
    expect(result.peer.textureVersion('1.7.10')).toBeNull();
  });

  it('answers a request for the view with 501 and that message, and serves nothing of the peer', () => {
    const view = new View3d({ bot: undefined, viewer: new ViewerState(), maxClients: 4, load: () => ({ ok: false, message: 'install prismarine-viewer' }) });
    expect(() => view.session()).toThrow(expect.objectContaining({ status: 501, code: 'viewer_unavailable', message: 'install prismarine-viewer' }));
    expect(() => view.assertReady()).toThrow(expect.objectContaining({ status: 501 }));
    view.close();
  });
});

describe('the 3D view: camera and overlays', () => {
  const bot = { x: 10.5, y: 5, z: -3.5 };

  it('places the camera at the eyes, behind the bot (opposite its look) or straight above it', () => {
    expect(cameraFor('first_person', bot, { yaw: 1, pitch: 0.2 })).toEqual({ pos: bot, yaw: 1, pitch: 0.2 });
    // yaw 0 looks north (-z): the third-person camera stands south of the bot (+z).
    const behind = cameraFor('third_person', bot, { yaw: 0, pitch: 0 });
    expect(behind.pos.z).toBeCloseTo(bot.z + 5);
    expect(behind.pos.x).toBeCloseTo(bot.x);
    expect(behind.pitch).toBeLessThan(0);
    expect(cameraFor('top_down', bot, { yaw: 2, pitch: 0 })).toEqual({ pos: { x: 10.5, y: 23, z: -3.5 }, yaw: 0, pitch: -Math.PI / 2 });
  });

  it('draws the target, the block being dug, the goal and its path, tracks by hostility and hazard boxes by level', () => {
    const control = { ...new ViewerState().control, target: { x: 1, y: 2, z: 3 } };
    const shapes = overlaysFor({
      control,
      digging: { x: 4, y: 5, z: 6 },
      goal: { x: 9, y: 5, z: 9 },
      path: [{ x: 7, y: 5, z: 7 }, { x: 8, y: 5, z: 8 }],
      tracks: trackPoints([{ position: { x: 1, y: 5, z: 1 }, hostile: true }, { position: { x: 2, y: 5, z: 2 } }, { position: { x: 'bad' } }]),
      hazards: hazardBoxes({ cellBlocks: 4, regions: [{ cell: { x: 1, y: 0, z: -1 }, level: 4 }, { cell: { x: 'no' } }] }),
    });
    expect(shapes.map((s) => s.id)).toEqual(['target', 'digging', 'goal', 'path', 'tracks-hostile', 'tracks', 'hazard-0']);
    expect(shapes[1]).toMatchObject({ type: 'boxgrid', start: { x: 3.98, y: 4.98, z: 5.98 }, end: { x: 5.02, y: 6.02, z: 7.02 }, color: '#ff2020' });
    expect(shapes[3]).toMatchObject({ type: 'line', points: [{ x: 7.5, y: 5.1, z: 7.5 }, { x: 8.5, y: 5.1, z: 8.5 }] });
    expect(shapes[4]).toMatchObject({ type: 'points', points: [{ x: 1, y: 6, z: 1 }], color: 0xff3030 });
    expect(shapes[6]).toMatchObject({ type: 'boxgrid', start: { x: 4, y: 0, z: -4 }, end: { x: 8, y: 4, z: 0 }, color: '#ff0000' });
    expect(overlaysFor({ control: new ViewerState().control, digging: null, goal: null, path: [], tracks: [], hazards: hazardBoxes(null) })).toEqual([]);
  });
});
