#!/usr/bin/env node
// The README's two commands on a "fresh machine": a clone of this repository's HEAD, `npm install`,
// then `npm test` with no system Chromium and no bubblewrap to be found. Passes when the tests pass
// and the run prints the one "bubblewrap not installed" line. Takes as long as `npm test`; run it
// by hand: `node scripts/fresh-machine-check.mjs [--keep]`.
//
// Hiding: PATH is rebuilt from links to every program on it except bwrap and chromium, and the
// browser lookup is told to skip system browsers (DEEPCHAT_E2E_NPM_CHROMIUM=1). As root with
// unshare, the run also goes into a private mount namespace where /usr/bin/bwrap and the system
// chromium are covered by /dev/null, so nothing can reach them by full path either.
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

const repo = join(import.meta.dirname, '..')
const keep = process.argv.includes('--keep')
const work = mkdtempSync(join(tmpdir(), 'deepchat-fresh-'))
// Some tests run a probe as an unprivileged user, who must be able to reach the copy.
chmodSync(work, 0o755)
const copy = join(work, 'repo')
const HIDDEN = new Set(['bwrap', 'chromium', 'chromium-browser', 'google-chrome'])
const SYSTEM_PATHS = ['/usr/bin/bwrap', '/usr/bin/chromium', '/usr/lib/chromium/chromium']

function step(title, command, args, options = {}) {
  console.log(`\n== ${title}: ${command} ${args.join(' ')}`)
  const started = Date.now()
  const result = spawnSync(command, args, { stdio: options.capture ? 'pipe' : 'inherit', ...options })
  const seconds = Math.round((Date.now() - started) / 1000)
  console.log(`== ${title}: exit ${result.status} in ${seconds} s`)
  return { ...result, seconds }
}

/** A folder of links to every program on PATH but the hidden ones. */
function filteredPath() {
  const bin = join(work, 'bin')
  mkdirSync(bin)
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir || !existsSync(dir)) continue
    for (const name of readdirSync(dir)) {
      if (HIDDEN.has(name) || existsSync(join(bin, name))) continue
      symlinkSync(join(dir, name), join(bin, name))
    }
  }
  return bin
}

const clone = step('clone', 'git', ['clone', '--quiet', repo, copy])
if (clone.status !== 0) process.exit(1)
const install = step('npm install', 'npm', ['install', '--no-audit', '--no-fund'], { cwd: copy })
if (install.status !== 0) process.exit(1)

const env = { ...process.env, PATH: filteredPath(), DEEPCHAT_E2E_NPM_CHROMIUM: '1' }
delete env.CHROMIUM_PATH
delete env.DEEPCHAT_REQUIRE_BWRAP
const canMask = process.getuid?.() === 0 && spawnSync('unshare', ['--help'], { stdio: 'ignore' }).status === 0
const script = join(work, 'npm-test.sh')
writeFileSync(
  script,
  [
    'set -e',
    ...(canMask ? SYSTEM_PATHS.map((p) => `[ -e ${p} ] && mount --bind /dev/null ${p} || true`) : []),
    'if command -v bwrap >/dev/null; then echo "bwrap is still on PATH" >&2; exit 3; fi',
    'npm test 2>&1 | tee ../npm-test.log',
    'exit ${PIPESTATUS[0]}'
  ].join('\n')
)
const test = canMask
  ? step('npm test (masked)', 'unshare', ['-m', '--propagation', 'private', 'bash', script], {
      cwd: copy,
      env
    })
  : step('npm test', 'bash', [script], { cwd: copy, env })

const log = existsSync(join(work, 'npm-test.log')) ? readFileSync(join(work, 'npm-test.log'), 'utf8') : ''
const sandboxLines = log
  .split('\n')
  .filter((l) => /^bubblewrap not installed: \d+ sandbox tests not run; apt install bubblewrap$/.test(l))
const usedNpmChromium = /e2e: npm Chromium/.test(log)
console.log(`\nnpm install ${install.seconds} s, npm test ${test.seconds} s (exit ${test.status})`)
console.log(`sandbox line printed ${sandboxLines.length} time(s): ${sandboxLines[0] ?? '(none)'}`)
console.log(`e2e used the npm-installed Chromium: ${usedNpmChromium}`)
if (!keep) rmSync(work, { recursive: true, force: true })
else console.log(`kept ${work}`)
const ok = test.status === 0 && sandboxLines.length === 1 && usedNpmChromium
console.log(ok ? 'fresh-machine check passed' : 'fresh-machine check FAILED')
process.exit(ok ? 0 : 1)
