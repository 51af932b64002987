import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

it('the README example runs end to end', async () => {
  const cwd = fileURLToPath(new URL('../..', import.meta.url));
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', 'examples/quickstart.ts'],
    { cwd, timeout: 60_000 },
  );
  expect(stdout).toMatch(/^note 3: note 3 \(request_id=req_\d+\)$/m);
  expect(stdout).toMatch(/^25 notes in 3 pages$/m);
  expect(stdout).toMatch(/^walked 25 notes$/m);
  expect(stdout).toMatch(/^NotFoundError: 404 not_found: No note 99\. \(request_id=req_\d+\)$/m);
  expect(stdout).toMatch(/^ValidationError: Invalid notes\.list params: per_page: must be at most 100$/m);
});
