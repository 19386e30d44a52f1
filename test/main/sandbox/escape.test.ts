// The sandbox on its own, with the command classifier out of the picture: every command here
// would be refused or asked about by the classifier, and runs anyway, straight through the
// process manager with a sandbox plan. What it must not do, it must not be able to do.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Sandbox, sweepLeftoverStubs } from '../../../src/main/presenter/sandbox'
import { useTempDirs } from '../helpers/tempDir'
import {
  isAlive,
  makeWorld,
  managerFor,
  onLinux,
  pidsOf,
  run,
  SECRET_ENV_VALUE,
  SECRET_KEY_TEXT,
  startHost,
  useVisibleTempDirs
} from './harness'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'
import { until } from '../../helpers/until'

const tempDir = useTempDirs()
const visibleTempDir = useVisibleTempDirs()

describe.skipIf(!onLinux || withoutBwrap)(
  'sandbox escapes (Linux; bwrap is Linux-only, macOS and Windows skip)',
  NEEDS_BWRAP,
  () => {
    it('finds a working bubblewrap (CI requires it: there a missing bwrap fails here)', async () => {
      expect(await new Sandbox().status()).toEqual({ kind: 'bwrap', available: true, socketGuard: 'seccomp' })
    })

    it('cannot write outside a writable workspace', async () => {
      const world = makeWorld(tempDir())
      const visible = visibleTempDir()
      const hostTmp = join(world.root, 'host-tmp.txt')
      const command = [
        `echo x > ${visible}/escaped.txt`,
        `echo x > ${world.home}/escaped.txt`,
        `echo x > ${hostTmp}`,
        `echo x > /usr/escaped-${process.pid}.txt`,
        'echo ok > inside.txt'
      ].join('; ')
      const result = await run(managerFor(world), world, command, {
        workspaceDir: world.project,
        writableWorkspace: true
      })
      expect(result.output).toMatch(/Read-only file system/)
      expect(existsSync(join(visible, 'escaped.txt'))).toBe(false)
      expect(existsSync(join(world.home, 'escaped.txt'))).toBe(false)
      expect(existsSync(hostTmp)).toBe(false)
      expect(existsSync(`/usr/escaped-${process.pid}.txt`)).toBe(false)
      expect(readFileSync(join(world.project, 'inside.txt'), 'utf8')).toBe('ok\n')
    })

    it('cannot write anywhere, workspace included, when the plan is read-only', async () => {
      const world = makeWorld(tempDir())
      const result = await run(managerFor(world), world, 'echo x > inside.txt; echo x >> readme.txt', {
        workspaceDir: world.project,
        writableWorkspace: false
      })
      expect(result.exitCode).not.toBe(0)
      expect(existsSync(join(world.project, 'inside.txt'))).toBe(false)
      expect(readFileSync(join(world.project, 'readme.txt'), 'utf8')).toBe('hello from the project\n')
    })

    it('cannot change existing protected entries of a writable workspace', async () => {
      const world = makeWorld(tempDir())
      const ws = world.project
      mkdirSync(join(ws, '.git', 'hooks'), { recursive: true })
      writeFileSync(join(ws, '.git', 'config'), '[core]\n')
      mkdirSync(join(ws, '.vscode'))
      writeFileSync(join(ws, '.vscode', 'tasks.json'), '{}')
      writeFileSync(join(ws, '.envrc'), 'export A=1\n')
      const command = [
        'echo "[core] fsmonitor = evil" >> .git/config',
        'echo evil > .git/hooks/pre-commit',
        'echo evil > .vscode/tasks.json',
        'echo evil > .envrc',
        'mv .envrc moved',
        'rm -rf .git .vscode',
        'echo ok > normal.txt'
      ].join('; ')
      await run(managerFor(world), world, command, { workspaceDir: ws, writableWorkspace: true })
      expect(readFileSync(join(ws, '.git', 'config'), 'utf8')).toBe('[core]\n')
      expect(existsSync(join(ws, '.git', 'hooks', 'pre-commit'))).toBe(false)
      expect(readFileSync(join(ws, '.vscode', 'tasks.json'), 'utf8')).toBe('{}')
      expect(readFileSync(join(ws, '.envrc'), 'utf8')).toBe('export A=1\n')
      expect(existsSync(join(ws, 'moved'))).toBe(false)
      expect(readFileSync(join(ws, 'normal.txt'), 'utf8')).toBe('ok\n')
    })

    it('cannot create protected entries that do not exist yet, and leaves no stub behind', async () => {
      const world = makeWorld(tempDir())
      const ws = world.project
      const command = [
        'mkdir -p .git; echo "[core]" > .git/config',
        'git init -q .',
        'mkdir -p .vscode; echo evil > .vscode/tasks.json',
        'echo evil > .envrc',
        'mkdir -p .deepchat/skills',
        'echo ok > normal.txt'
      ].join('; ')
      const result = await run(managerFor(world), world, command, {
        workspaceDir: ws,
        writableWorkspace: true
      })
      expect(result.output).toMatch(/\.git/)
      expect(readdirSync(ws).sort()).toEqual(['normal.txt', 'readme.txt'])
    })

    it('keeps a missing protected entry uncreatable until the last sandboxed command using it exits', async () => {
      const world = makeWorld(tempDir())
      const manager = managerFor(world)
      const plan = { workspaceDir: world.project, writableWorkspace: true }
      const long = await manager.start({
        sessionId: 'test',
        command: 'sleep 30',
        cwd: world.project,
        logDir: world.logDir,
        keepStdin: false,
        sandbox: plan
      })
      await run(manager, world, 'true', plan)
      // The long command still relies on the stub: removing it now would let that command create .envrc.
      expect(existsSync(join(world.project, '.envrc'))).toBe(true)
      await manager.kill('test', long.processId)
      expect(existsSync(join(world.project, '.envrc'))).toBe(false)
    })

    it("cannot read the user's home: a fake ~/.ssh/id_rsa stays hidden", async () => {
      const world = makeWorld(tempDir())
      const command = `cat ~/.ssh/id_rsa; cat ${world.home}/.ssh/id_rsa; cat ${world.home}/.netrc; ls -A ~`
      const result = await run(managerFor(world), world, command, {
        workspaceDir: world.project,
        writableWorkspace: false
      })
      expect(result.output).not.toContain(SECRET_KEY_TEXT)
      expect(result.output.trim().split('\n').at(-1)).toBe('project')
    })

    it('cannot read the data folder, the secrets file or secret folders even when the workspace is home', async () => {
      const world = makeWorld(tempDir())
      const data = world.appData.dataDir
      const manager = managerFor(world)
      for (const writableWorkspace of [false, true]) {
        const plan = { workspaceDir: world.home, writableWorkspace }
        const read = await run(
          manager,
          world,
          `cat ${data}/secrets.json ${data}/deepchat.db .ssh/id_rsa .netrc`,
          plan
        )
        expect(read.output).not.toContain(SECRET_KEY_TEXT)
        const list = await run(manager, world, `ls -A ${data} .ssh`, plan)
        expect(list.output.split('\n').filter((line) => line && !line.endsWith(':'))).toEqual([])
        await run(manager, world, `echo x > ${data}/planted; echo x > .ssh/authorized_keys`, plan)
      }
      // The same listing on the host shows the files: the check above can fail.
      expect((await run(manager, world, `ls -A ${data}`, undefined)).output).toMatch(/secrets\.json/)
      expect(existsSync(join(data, 'planted'))).toBe(false)
      expect(existsSync(join(world.home, '.ssh', 'authorized_keys'))).toBe(false)
    })

    it('shows the scratch workspace inside the data folder, and nothing else of the data folder', async () => {
      // The data folder under /var/tmp is visible in the sandbox unless masked: the mask is what is tested.
      const world = makeWorld(tempDir(), { dataDir: join(visibleTempDir(), 'DeepChat') })
      const scratch = join(world.appData.scratchRoot, 'chat-1')
      mkdirSync(scratch)
      const data = world.appData.dataDir
      const manager = managerFor(world)
      const plan = { workspaceDir: scratch, writableWorkspace: true }
      const write = await run(manager, world, 'echo note > note.txt && cat note.txt', plan)
      expect(write.output).toBe('note\n')
      expect(readFileSync(join(scratch, 'note.txt'), 'utf8')).toBe('note\n')
      expect(
        (await run(manager, world, `cat ${data}/secrets.json ${data}/deepchat.db`, plan)).output
      ).not.toContain(SECRET_KEY_TEXT)
      expect((await run(manager, world, `ls -A ${data}`, plan)).output).toBe('scratch\n')
      expect((await run(manager, world, `ls -A ${data}/scratch`, plan)).output).toBe('chat-1\n')
      await run(manager, world, `echo x > ${data}/planted`, plan)
      expect(existsSync(join(data, 'planted'))).toBe(false)
    })

    it('shows nothing of the data folder to a workspace inside it that is not a scratch folder', async () => {
      const world = makeWorld(tempDir(), { dataDir: join(visibleTempDir(), 'DeepChat') })
      const data = world.appData.dataDir
      const manager = managerFor(world)
      for (const workspaceDir of [data, join(data, 'scratch')]) {
        const result = await run(
          manager,
          world,
          `cat ${data}/deepchat.db ${data}/secrets.json`,
          { workspaceDir, writableWorkspace: true },
          '/'
        )
        expect(result.output).toMatch(/deepchat\.db: No such file or directory/)
        expect(result.output).not.toContain(SECRET_KEY_TEXT)
      }
    })

    it("does not pass the parent's secret variables, CDPATH or the real HOME", async () => {
      const world = makeWorld(tempDir())
      const manager = managerFor(world, { GITHUB_TOKEN: SECRET_ENV_VALUE })
      const inside = await run(manager, world, 'env', {
        workspaceDir: world.project,
        writableWorkspace: false
      })
      expect(inside.output).not.toContain(SECRET_ENV_VALUE)
      expect(inside.output).not.toMatch(/^CDPATH=/m)
      expect(inside.output).toMatch(new RegExp(`^HOME=${world.home}$`, 'm'))
      // Run on the host (approved) it gets only the allowlist too; a name the user allowed passes.
      const onHost = await run(manager, world, 'env', undefined)
      expect(onHost.output).not.toContain(SECRET_ENV_VALUE)
      const allowing = managerFor(world, { GITHUB_TOKEN: SECRET_ENV_VALUE }, ['GITHUB_TOKEN'])
      const allowed = await run(allowing, world, 'env', {
        workspaceDir: world.project,
        writableWorkspace: false
      })
      expect(allowed.output).toContain(`GITHUB_TOKEN=${SECRET_ENV_VALUE}`)
    })

    describe('network', () => {
      let server: Server | undefined
      afterEach(() => server?.close())

      it('cannot connect to a listener on 127.0.0.1', async () => {
        let connections = 0
        server = createServer((socket) => {
          connections++
          socket.end()
        })
        await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
        const port = (server.address() as { port: number }).port
        const world = makeWorld(tempDir())
        const probe = `node -e "require('net').connect(${port}, '127.0.0.1').on('connect', () => { console.log('CONNECTED'); process.exit(0) }).on('error', (e) => { console.log('REFUSED', e.code); process.exit(3) })"`
        const manager = managerFor(world)
        const inside = await run(manager, world, probe, {
          workspaceDir: world.project,
          writableWorkspace: true
        })
        expect(inside.output).toMatch(/REFUSED/)
        expect(connections).toBe(0)
        const onHost = await run(manager, world, probe, undefined)
        expect(onHost.output).toMatch(/CONNECTED/)
        expect(connections).toBe(1)
      })
    })

    it('does not outlive a host that is killed', async () => {
      const world = makeWorld(tempDir())
      const marker = ['sleep', `${4000 + (process.pid % 1000)}.25`]
      const { host, sandboxed } = await startHost({
        command: marker.join(' '),
        cwd: world.project,
        logDir: world.logDir,
        home: world.home,
        sandboxWorkspace: world.project
      })
      expect(sandboxed).toBe(true)
      await until(() => pidsOf(marker).length === 1, { what: 'the sandboxed sleep runs' })
      const [sleepPid] = pidsOf(marker)
      try {
        host.kill('SIGKILL')
        await until(() => !isAlive(sleepPid), { what: 'the sandboxed sleep is gone' })
      } finally {
        if (isAlive(sleepPid)) process.kill(sleepPid, 'SIGKILL')
      }
    })

    it('leaves no stub behind when the host is killed mid-command: the next start sweeps it', async () => {
      const world = makeWorld(tempDir())
      const journal = join(world.root, 'data', 'sandbox-stubs.json')
      const marker = ['sleep', `${5000 + (process.pid % 1000)}.75`]
      const envrc = join(world.project, '.envrc')
      expect(existsSync(envrc)).toBe(false)
      const { host } = await startHost({
        command: marker.join(' '),
        cwd: world.project,
        logDir: world.logDir,
        home: world.home,
        sandboxWorkspace: world.project,
        writable: true,
        stubJournal: journal
      })
      await until(() => pidsOf(marker).length === 1, { what: 'the sandboxed sleep runs' })
      const [sleepPid] = pidsOf(marker)
      try {
        host.kill('SIGKILL')
        await until(() => !isAlive(sleepPid), { what: 'the sandboxed sleep is gone' })
      } finally {
        if (isAlive(sleepPid)) process.kill(sleepPid, 'SIGKILL')
      }
      // The killed host could not clean up: the empty stub is still on the host.
      expect(statSync(envrc).size).toBe(0)
      writeFileSync(join(world.project, '.idea'), 'the user made this meanwhile')
      const removed = sweepLeftoverStubs(journal)
      expect(removed).toContain(envrc)
      expect(existsSync(envrc)).toBe(false)
      expect(readFileSync(join(world.project, '.idea'), 'utf8')).toBe('the user made this meanwhile')
      expect(existsSync(journal)).toBe(false)
    })
  }
)
