/// <reference lib="dom" />
import { byId } from './dom.js';

/**
 * Opens the 3D view in its frame: `POST /api/viewer/session` with the bearer token gives this page the session
 * cookie the view's socket asks for; a 501 (the optional peer missing, no bot) is shown as the reason.
 */
export async function open3dView(token: string): Promise<void> {
  const status = byId('view3d-status');
  const frame = byId<HTMLIFrameElement>('view3d');
  const response = await fetch('/api/viewer/session', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  const answer = (await response.json()) as { page?: string; error?: { message?: string } };
  status.dataset.status = String(response.status);
  if (!response.ok || typeof answer.page !== 'string') {
    status.textContent = `${response.status} ${answer.error?.message ?? ''}`;
    return;
  }
  status.textContent = 'open';
  if (frame.getAttribute('src') !== answer.page) frame.src = answer.page;
}
