import { ExecuteBodySchema } from '../control.js';
import { ApiError, readJson, sendJson, validate } from './reply.js';
import type { Route } from './routes.js';

/** What `POST /api/fleet/plans` queues plans on: a fleet queue (`createFleetQueue` of @sinew/fleet fits). */
export interface FleetProducer {
  /** Queues a plan for whichever bot of the fleet is free; resolves once the queue acknowledged it. */
  submit(plan: ReturnType<typeof ExecuteBodySchema.parse>): Promise<{ readonly planId: string; readonly jobId: string; readonly queue: string }>;
}

/** `POST /api/fleet/plans`: a plan (unknown keys refused at every level) queued for the fleet; 202 with its job id. */
export const FLEET_PLANS_ROUTE: Route<unknown> = {
  method: 'POST',
  path: '/api/fleet/plans',
  needsToken: true,
  async handle(deps, request) {
    if (!deps.fleet) throw new ApiError(501, 'no_fleet', 'serveSinew was given no fleet (a createFleetQueue() of @sinew/fleet): there is no queue to hand plans to');
    const plan = validate(ExecuteBodySchema, await readJson(request.raw, deps.maxBodyBytes));
    sendJson(request.response, 202, await deps.fleet.submit(plan));
  },
};
