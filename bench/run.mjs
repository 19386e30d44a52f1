// Runs every bench/*.bench.ts (or those whose name contains an argument) one after another.
// Each bench measures its own baseline in the same run and prints ratios against it.
import { readdirSync } from 'node:fs'
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'

const dir = import.meta.dirname
const filters = process.argv.slice(2)
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()

if (benches.length === 0) {
  console.error(`no benchmark matches ${filters.join(', ') || '(none in bench/)'}`)
  process.exit(1)
}
let failed = 0
for (const bench of benches) {
  console.log(`\n=== ${bench} ===`)
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(dir, bench)], {
    stdio: 'inherit',
    env: { ...process.env, TSX_TSCONFIG_PATH: join(dir, '..', 'tsconfig.node.json') }
  })
  if (result.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
