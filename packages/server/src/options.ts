import { ConfigError } from '@sinew/executor-contracts';
import { z } from 'zod';
import { HOST_ENTRY } from './http/hosts.js';

/** HTTP and stream limits, validated when the server starts; every default is safe for one bot on loopback. */
export const ServerLimitsSchema = z
  .object({
    /** Largest request body accepted (413 above). */
    maxBodyBytes: z.number().int().positive().max(16 * 1024 * 1024).default(64 * 1024),
    /** Time to receive the request headers (slowloris); the socket is closed past it. */
    headersTimeoutMs: z.number().int().min(100).max(600_000).default(5_000),
    /** Time to receive the whole request. */
    requestTimeoutMs: z.number().int().min(100).max(600_000).default(10_000),
    /** An HTTP socket silent this long is closed (keep-alive included). */
    idleTimeoutMs: z.number().int().min(100).max(600_000).default(15_000),
    /** Open TCP connections at once (HTTP and WebSocket); more are closed as soon as they are accepted. */
    maxConnections: z.number().int().positive().max(100_000).default(64),
    /**
     * Slots of `maxConnections` kept for requests whose headers carry the valid token (default a quarter):
     * once anonymous sockets hold the rest, a new socket keeps a slot only by showing the token.
     */
    reservedConnections: z.number().int().min(0).max(100_000).optional(),
    /**
     * A reserve socket without the token is closed after this long (silent, slow or not reading; an anonymous
     * request there gets one answer first); under pressure, an anonymous socket without headers this long yields its slot.
     */
    reserveGraceMs: z.number().int().min(50).max(600_000).default(1_000),
    /** WebSocket clients of `/api/events` at once (503 above). */
    maxStreamClients: z.number().int().positive().max(10_000).default(16),
    /** Events are batched this long before they are sent (one frame per client per batch); 0 = the next event-loop turn (at most one flush per millisecond while events keep coming). */
    flushIntervalMs: z.number().int().min(0).max(1_000).default(10),
    /** Events kept for `?since=<seq>` resumes. */
    ringSize: z.number().int().positive().max(100_000).default(1024),
    /** Events queued per slow client before the oldest is dropped (and counted); ≥ ringSize so a full replay fits. */
    clientQueue: z.number().int().positive().max(100_000).default(1024),
    /** Bytes handed to a client's socket and not yet flushed before further events wait in its queue. */
    clientHighWaterBytes: z.number().int().positive().max(64 * 1024 * 1024).default(256 * 1024),
    /** Ended plans whose whole outcome `GET /api/plans/:planId/outcome` serves (`executionComplete` carries a summary); the oldest leaves first. */
    outcomesKept: z.number().int().positive().max(10_000).default(32),
    /**
     * Step outcomes kept across those plans at most: older plans leave first past it (the latest plan stays, however
     * long), so 32 plans of 5,000 steps do not hold ~50 MB.
     */
    outcomeStepsKept: z.number().int().positive().max(1_000_000).default(10_000),
    /** `botEvent` and `beliefEvent` are sampled at most this often. */
    botEventIntervalMs: z.number().int().min(50).max(60_000).default(500),
    /** Ping period; a client that missed a pong by the next ping is dropped. */
    heartbeatMs: z.number().int().min(100).max(600_000).default(30_000),
  })
  .strict()
  .transform(({ reservedConnections, ...limits }) => ({ ...limits, reservedConnections: reservedConnections ?? Math.floor(limits.maxConnections / 4) }))
  .refine((limits) => limits.reservedConnections < limits.maxConnections, {
    path: ['reservedConnections'],
    message: 'reservedConnections must be below maxConnections (anonymous requests need a share too)',
  });
export type ServerLimits = z.output<typeof ServerLimitsSchema>;
export type ServerLimitsInput = z.input<typeof ServerLimitsSchema>;

/** Token characters are those a WebSocket subprotocol may carry, so browsers can present it too. */
export const TOKEN_PATTERN = /^[A-Za-z0-9._~+-]{16,512}$/;

export const ServerAddressSchema = z
  .object({
    port: z.number().int().min(0).max(65_535),
    host: z.string().min(1).default('127.0.0.1'),
    token: z.string().regex(TOKEN_PATTERN, 'a token is 16-512 characters of A-Z a-z 0-9 . _ ~ + -').optional(),
    /** Host names besides the bound address that requests may name (`bot.lan` at any port, `bot.lan:8443` at that one). */
    allowedHosts: z.array(z.string().regex(HOST_ENTRY, 'a host name or address with an optional :port (no scheme, no path), e.g. bot.lan or bot.lan:8443')).max(64).default([]),
    /** A file the event stream is appended to, one envelope per line (`npx sinew-inspect <file>` replays it). */
    record: z.string().min(1, 'record names a file, e.g. .sinew/run.events.jsonl').max(4096).optional(),
  })
  .strict();

/** Every option `serveSinew` knows: a misspelled one is refused, not ignored. */
export const SERVER_OPTION_KEYS = ['executor', 'bot', 'belief', 'router', 'cognition', 'observe', 'provenance', 'trees', 'port', 'host', 'token', 'allowedHosts', 'limits', 'record', 'fleet'] as const;

/**
 * A bad `serveSinew` or `sinew-inspect` option: a {@link ConfigError} (code `invalid_config`) naming the
 * field — `issues[0].code` is `unrecognized_keys` for a misspelled option and `insecure_bind` for a
 * non-loopback host without a token.
 */
export class ServerOptionsError extends ConfigError {
  override name = 'ServerOptionsError';
}
