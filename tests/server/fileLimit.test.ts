import { execFileSync } from 'node:child_process';
import { openFileLimit, streamsForLimit } from '../../server/instance/fileLimit';

describe('the open-file limit (issue 36)', () => {
  it('is raised to the hard limit as the server starts, and read from /proc', () => {
    // A shell that lowered only its soft limit, as `ulimit -Sn 256` does, then starts the server.
    const script =
      "import { openFileLimit } from './server/instance/fileLimit.ts'; console.log(JSON.stringify(openFileLimit()))";
    const out = execFileSync(
      'prlimit',
      ['--nofile=256:2048', process.execPath, '--import', 'tsx', '--input-type=module', '-e', script],
      { encoding: 'utf8' },
    );
    expect(JSON.parse(out)).toEqual({ soft: 2048, hard: 2048 });
    expect(openFileLimit()).toEqual({ soft: expect.any(Number), hard: expect.any(Number) });
  });

  it("takes half the limit as the process's cap on streams when SSE_STREAMS_MAX is unset", () => {
    expect(streamsForLimit({ soft: 1024, hard: 4096 })).toBe(512);
    expect(streamsForLimit({ soft: Number.POSITIVE_INFINITY, hard: Number.POSITIVE_INFINITY })).toBe(4096);
    expect(streamsForLimit(null)).toBe(4096);
  });
});
