import { isIP } from 'node:net';

/** A host name, an IPv4 address or a bracketed IPv6 address, with an optional port: what a Host header carries. */
export const HOST_ENTRY = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?)(:[0-9]{1,5})?$/i;

/** The names every loopback server answers to (a page of another origin cannot be any of them). */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const WILDCARDS = new Set(['0.0.0.0', '[::]']);

interface HostPort {
  readonly name: string;
  readonly port: number | undefined;
}

/** `Name:port` → `{ name: 'name', port }`, lower case, without a trailing dot; undefined when it is not a host. */
function parseHost(value: string): HostPort | undefined {
  if (!HOST_ENTRY.test(value)) return undefined;
  const match = /^(.*?)(?::([0-9]+))?$/.exec(value.toLowerCase())!;
  const port = match[2] === undefined ? undefined : Number(match[2]);
  if (port !== undefined && port > 65_535) return undefined;
  return { name: match[1]!.replace(/\.$/, ''), port };
}

/** The bind address as a Host header would name it (IPv6 in brackets). */
function hostName(host: string): string {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return isIP(bare) === 6 ? `[${bare}]` : bare;
}

/**
 * Decides whether a request was addressed to this server (DNS rebinding defence): the Host is the bound
 * address or a loopback name at the bound port, or a configured name (`bot.lan` at any port, `bot.lan:8443`
 * only at that port). A WebSocket's Origin, when a browser sends one, must name an allowed host the same way.
 */
export class HostCheck {
  readonly #bound: ReadonlySet<string>;
  readonly #allowed: readonly HostPort[];

  constructor(
    host: string,
    private readonly port: number,
    allowedHosts: readonly string[],
  ) {
    const bound = hostName(host);
    this.#bound = new Set(WILDCARDS.has(bound) ? LOOPBACK_NAMES : [...LOOPBACK_NAMES, bound]);
    this.#allowed = allowedHosts.map((entry) => parseHost(entry)!);
  }

  /** True when a Host header names this server. */
  hostAllowed(header: string | undefined): boolean {
    const target = parseHost(header ?? '');
    if (!target) return false;
    const port = target.port ?? 80;
    if (this.#bound.has(target.name) && port === this.port) return true;
    return this.#allowed.some((entry) => entry.name === target.name && (entry.port === undefined || entry.port === port));
  }

  /** True when no Origin was sent (not a browser) or it is an http(s) origin of an allowed host. */
  originAllowed(header: string | undefined): boolean {
    if (header === undefined) return true;
    let origin: URL;
    try {
      origin = new URL(header);
    } catch {
      return false;
    }
    if (origin.protocol !== 'http:' && origin.protocol !== 'https:') return false;
    const port = origin.port || (origin.protocol === 'https:' ? '443' : '80');
    return this.hostAllowed(`${origin.hostname}:${port}`);
  }
}
