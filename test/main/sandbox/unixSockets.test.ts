// Unix sockets outside the sandbox are out of reach: connect() needs no write access to the mount,
// so a read-only `/` would show every daemon's socket. The seccomp filter refuses the sockets
// themselves (and datagram pairs that could sendto() a path), while pipes and IPC keep working.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { homedir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { Sandbox } from '../../../src/main/presenter/sandbox'
import { useTempDirs } from '../helpers/tempDir'
import { NEEDS_BWRAP, withoutBwrap } from '../../setup/bwrap'
import { makeWorld, managerFor, onLinux, run, useVisibleTempDirs } from './harness'

const tempDir = useTempDirs()
const visibleTempDir = useVisibleTempDirs()

/** Listeners on the host that count every connection they get. */
function useListeners(): (path: string) => Promise<{ path: string; connections: () => number }> {
  const servers: Server[] = []
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))))
  })
  return async (path) => {
    let connections = 0
    const server = createServer((socket) => {
      connections++
      socket.end('HELLO FROM THE HOST\n')
    })
    servers.push(server)
    await new Promise<void>((resolve, reject) => server.listen(path, resolve).on('error', reject))
    return { path, connections: () => connections }
  }
}
const listen = useListeners()

/** A folder in the real home of the user running the tests (visible to the sandbox, unlike its fake home). */
function useRealHomeDirs(): () => string {
  const dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = mkdtempSync(join(homedir(), '.deepchat-socket-test-'))
    dirs.push(dir)
    return dir
  }
}
const realHomeDir = useRealHomeDirs()

const CONNECT_ALL = `
const net = require('net')
const targets = JSON.parse(process.argv[2])
let left = targets.length
for (const target of targets)
  net.connect(target)
    .on('connect', () => { console.log('CONNECTED', JSON.stringify(target)); if (!--left) process.exit(0) })
    .on('error', (e) => { console.log('REFUSED', e.code); if (!--left) process.exit(0) })
`

describe.skipIf(!onLinux || withoutBwrap)(
  'unix sockets from the sandbox (Linux; bwrap with seccomp)',
  NEEDS_BWRAP,
  () => {
    it('says the seccomp filter guards sockets', async () => {
      expect(await new Sandbox().status()).toMatchObject({ kind: 'bwrap', socketGuard: 'seccomp' })
    })

    it('cannot connect to a listener under /var/tmp, in the real home, in the workspace or in the abstract namespace', async () => {
      const world = makeWorld(tempDir())
      const listeners = [
        await listen(join(visibleTempDir(), 'daemon.sock')),
        await listen(join(realHomeDir(), 'agent.sock')),
        await listen(join(world.project, 'dev.sock')),
        await listen(`\0deepchat-test-${process.pid}`)
      ]
      const targets = JSON.stringify(listeners.map((l) => l.path))
      writeFileSync(join(world.project, 'connect.js'), CONNECT_ALL)
      const plan = { workspaceDir: world.project, writableWorkspace: true }
      const result = await run(managerFor(world), world, `node connect.js '${targets}'`, plan)
      expect(result.output).not.toContain('CONNECTED')
      expect(result.output).not.toContain('HELLO FROM THE HOST')
      expect(result.output.match(/REFUSED EACCES/g)).toHaveLength(listeners.length)
      for (const listener of listeners) expect(listener.connections()).toBe(0)
    })

    it('cannot reach a socket path through python, a datagram pair or io_uring either', async () => {
      const world = makeWorld(tempDir())
      const listener = await listen(join(visibleTempDir(), 'daemon.sock'))
      const script = [
        'import socket, ctypes',
        'def attempt(name, fn):',
        '    try:',
        '        fn(); print(name, "ALLOWED")',
        '    except OSError as e:',
        '        print(name, "REFUSED", e.errno)',
        `attempt("stream", lambda: socket.socket(socket.AF_UNIX).connect(${JSON.stringify(listener.path)}))`,
        'attempt("dgram-pair", lambda: socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM))',
        'attempt("vsock", lambda: socket.socket(40, socket.SOCK_STREAM))',
        'libc = ctypes.CDLL(None, use_errno=True)',
        'params = ctypes.create_string_buffer(120)',
        'r = libc.syscall(425, 8, params)',
        'print("io_uring", "ALLOWED" if r >= 0 else "REFUSED")'
      ].join('\n')
      writeFileSync(join(world.project, 'reach.py'), script)
      const plan = { workspaceDir: world.project, writableWorkspace: false }
      const result = await run(managerFor(world), world, 'python3 reach.py', plan)
      expect(result.output).toBe(
        'stream REFUSED 13\ndgram-pair REFUSED 13\nvsock REFUSED 13\nio_uring REFUSED\n'
      )
      expect(listener.connections()).toBe(0)
    })

    it("keeps pipes and IPC working: node's fork and spawn, python's subprocess and multiprocessing pipes", async () => {
      const world = makeWorld(tempDir())
      writeFileSync(
        join(world.project, 'ipc.js'),
        [
          "const { fork, execFileSync } = require('child_process')",
          "if (process.argv[2] === 'child') process.on('message', (m) => { process.send(m * 2); process.exit(0) })",
          'else {',
          "  const child = fork(__filename, ['child'])",
          "  child.on('message', (m) => console.log('fork IPC', m))",
          '  child.send(21)',
          "  console.log(execFileSync('git', ['--version']).toString().startsWith('git version') ? 'spawn ok' : 'spawn bad')",
          '}'
        ].join('\n')
      )
      writeFileSync(
        join(world.project, 'ipc.py'),
        [
          'import subprocess, multiprocessing',
          'print(subprocess.run(["echo", "subprocess ok"], capture_output=True, text=True).stdout.strip())',
          'a, b = multiprocessing.Pipe()',
          'a.send("pipe ok"); print(b.recv())'
        ].join('\n')
      )
      const plan = { workspaceDir: world.project, writableWorkspace: false }
      const result = await run(managerFor(world), world, 'node ipc.js && python3 ipc.py', plan)
      expect(result.exitCode, result.output).toBe(0)
      expect(result.output.split('\n').filter(Boolean).sort()).toEqual(
        ['fork IPC 42', 'pipe ok', 'spawn ok', 'subprocess ok'].sort()
      )
    })
  }
)
