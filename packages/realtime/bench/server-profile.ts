/**
 * One client's CPU profile for the server SDK's HTTP path: `coalesce: false` triggers (one `POST /events`
 * each) against the sandbox in its own process, so the profile holds only this process's work.
 *
 *   pnpm --filter @x/realtime exec node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/server-profile.ts
 *
 * Env: BENCH_PROFILE_TRIGGERS (default 3000), BENCH_THROUGHPUT_WAVE (default 500). Prints CPU per trigger.
 */
import { intEnv } from '../../../bench.tools.js';
import type { SandboxReady } from './sandbox-child.js';
import { sandboxServer } from './servers.js';
import { startChild } from './shared.js';

const TRIGGERS = intEnv('BENCH_PROFILE_TRIGGERS', 3000);
const WAVE = intEnv('BENCH_THROUGHPUT_WAVE', 500);

const sandbox = await startChild<SandboxReady>('sandbox-child.ts', {
  BENCH_SANDBOX_OPTIONS: JSON.stringify({ httpRateLimit: false }),
});
try {
  const rt = sandbox.ready;
  const server = sandboxServer(rt, { rateLimit: false, coalesce: false });
  const run = async (count: number) => {
    for (let start = 0; start < count; start += WAVE) {
      const wave: Promise<unknown>[] = [];
      for (let i = start; i < Math.min(count, start + WAVE); i++)
        wave.push(server.trigger('bench-profile', 'bench', { i }));
      await Promise.all(wave);
    }
  };
  await run(WAVE);
  const cpu0 = process.cpuUsage();
  await run(TRIGGERS);
  const cpu = process.cpuUsage(cpu0);
  console.log(`${TRIGGERS} triggers, ${((cpu.user + cpu.system) / TRIGGERS).toFixed(0)} µs CPU per trigger`);
} finally {
  await sandbox.close();
}
