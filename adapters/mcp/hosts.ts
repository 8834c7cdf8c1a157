/**
 * The Host check of /mcp against DNS rebinding (the MCP transport's security
 * warning): a web page on a name the attacker controls, made to resolve to
 * this server, sends requests whose Host is that name. They are refused
 * unless the name is this server's: the host of PUBLIC_URL, a name listed in
 * ALLOWED_HOSTS, `localhost`, or an IP address (which no rebinding produces).
 * The Origin is not what decides: a rebound page is same-origin with itself,
 * and MCP clients on other origins are welcome as REST clients are (CORS).
 */
import { isIP } from 'node:net';

export type AllowedHosts = { names: ReadonlySet<string>; any: boolean };

/** The allowed names: PUBLIC_URL's host and the listed ones (`*` allows any). */
export function allowedHosts(publicUrl: string | undefined, listed: readonly string[]): AllowedHosts {
  const names = new Set(listed.map((name) => name.toLowerCase()));
  if (publicUrl) names.add(new URL(publicUrl).hostname.toLowerCase());
  return { names, any: names.has('*') };
}

/** The hostname of a Host header (`[::1]:3000` → `::1`, `Example.com:80` → `example.com`). */
function hostnameOf(host: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(host);
  if (bracketed) return bracketed[1];
  return host.replace(/:\d+$/, '').toLowerCase();
}

export function hostAllowed(host: string | undefined, allowed: AllowedHosts): boolean {
  if (allowed.any) return true;
  if (!host) return false;
  const name = hostnameOf(host);
  if (isIP(name) !== 0) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  return allowed.names.has(name) || allowed.names.has(name.replace(/\.$/, ''));
}
