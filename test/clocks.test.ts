/**
 * The clocks that make a test wait are configuration: the contract's and the
 * docs' values are the defaults a deployment runs with, and the test servers
 * run short ones (test/helpers/child-server.ts). The end-to-end tests of the
 * real values: the settle in mcp-notifications.test.ts, the relay's in the
 * chaos tests (chaos-redis.test.ts, whose figures docs/reliability.md gives).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../app/config.js';
import { TEST_CLOCKS, testServerEnv } from './helpers/child-server.js';

describe('clocks', () => {
  it("default to the contract's settle (about 3 s) and the relay figures of docs/deploy.md", () => {
    expect(loadConfig({}).clocks).toEqual({
      settleMs: 3_000,
      settleMaxWaitMs: 10_000,
      heartbeatMs: 500,
      catchUpIntervalMs: 500,
      handOverMs: 5_000,
    });
  });

  it('are short on a test server unless a test asks for the default', () => {
    const short = loadConfig(testServerEnv('/tmp/x')).clocks;
    expect(short.settleMs).toBe(Number(TEST_CLOCKS.NOTIFICATION_SETTLE_MS));
    expect(short.settleMs).toBeLessThan(1_000);
    const real = loadConfig(testServerEnv('/tmp/x', { NOTIFICATION_SETTLE_MS: undefined })).clocks;
    expect(real.settleMs).toBe(3_000);
  });

  it('refuse a zero or negative settle and heartbeat', () => {
    for (const name of ['NOTIFICATION_SETTLE_MS', 'RELAY_HEARTBEAT_MS', 'CATCH_UP_INTERVAL_MS'])
      expect(() => loadConfig({ [name]: '0' })).toThrow(name);
  });
});
