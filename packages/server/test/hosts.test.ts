import { describe, expect, it } from 'vitest';
import { HostCheck } from '../src/http/hosts.js';

describe('HostCheck: which Host and Origin headers name this server', () => {
  it('a wildcard bind answers only the loopback names and the configured ones', () => {
    const check = new HostCheck('0.0.0.0', 9464, ['10.0.0.7']);
    expect(check.hostAllowed('localhost:9464')).toBe(true);
    expect(check.hostAllowed('0.0.0.0:9464')).toBe(false);
    expect(check.hostAllowed('10.0.0.7:9464')).toBe(true);
    expect(check.hostAllowed('10.0.0.8:9464')).toBe(false);
  });

  it('an IPv6 bind is named in brackets; bare or odd Host values are refused, not parsed loosely', () => {
    const check = new HostCheck('::1', 80, []);
    expect(check.hostAllowed('[::1]')).toBe(true);
    expect(check.hostAllowed('[::1]:80')).toBe(true);
    expect(check.hostAllowed('localhost')).toBe(true);
    for (const odd of [undefined, '', '::1', '[::1]:99999', 'localhost:80@evil', 'localhost:80 ', 'user@localhost', 'localhost:80,evil.example', '*']) {
      expect(check.hostAllowed(odd), String(odd)).toBe(false);
    }
  });

  it('an Origin is the page a browser loaded: an http(s) origin of an allowed host, its default port implied', () => {
    const check = new HostCheck('127.0.0.1', 443, ['Bot.LAN']);
    expect(check.originAllowed(undefined)).toBe(true);
    expect(check.originAllowed('https://localhost')).toBe(true);
    expect(check.originAllowed('http://localhost')).toBe(false);
    expect(check.originAllowed('http://bot.lan:8080')).toBe(true);
    for (const odd of ['null', 'file://', 'chrome-extension://abc', 'https://localhost.evil.example', 'not a url']) expect(check.originAllowed(odd), odd).toBe(false);
  });
});
