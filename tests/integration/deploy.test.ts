/**
 * deploy/chime.service (docs/operations.md "Running on a VPS (systemd)") is checked by systemd itself where
 * systemd-analyze exists; elsewhere the test says it was skipped.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/chime-process.ts';

const UNIT = path.join(ROOT, 'deploy', 'chime.service');
const hasSystemdAnalyze = spawnSync('systemd-analyze', ['--version'], { stdio: 'ignore' }).status === 0;
const dir = mkdtempSync(path.join(tmpdir(), 'chime-deploy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** systemd-analyze verify on a copy whose ExecStart names this machine's npm (the unit says /usr/bin/npm). */
function verify(text: string): { status: number | null; output: string } {
  const npm = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
  const file = path.join(dir, 'chime.service');
  writeFileSync(file, text.replace('ExecStart=/usr/bin/npm', `ExecStart=${npm}`));
  const result = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('deploy/chime.service', () => {
  it.skipIf(!hasSystemdAnalyze)('passes systemd-analyze verify', () => {
    const result = verify(readFileSync(UNIT, 'utf8'));
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  });

  it.skipIf(!hasSystemdAnalyze)('the check sees a mistake (an option systemd does not know)', () => {
    const result = verify(readFileSync(UNIT, 'utf8').replace('NoNewPrivileges=true', 'NoNewPrivilege=true'));
    expect(result.output).toMatch(/Unknown key( name)? 'NoNewPrivilege'/);
  });

  it('has the hardening the README recommends and runs npm start from /opt/chime', () => {
    const unit = readFileSync(UNIT, 'utf8');
    for (const line of ['NoNewPrivileges=true', 'ProtectSystem=strict', 'ReadWritePaths=/opt/chime/data /opt/chime/dist /opt/chime/web/dist', 'PrivateTmp=true', 'ExecStart=/usr/bin/npm start', 'KillSignal=SIGTERM']) {
      expect(unit.split('\n')).toContain(line);
    }
  });
});
