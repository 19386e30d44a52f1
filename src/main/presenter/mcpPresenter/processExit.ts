import { ChildProcess } from 'node:child_process'
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

export interface ProcessExit {
  code: number | null
  signal: NodeJS.Signals | null
}

/**
 * Records how a stdio server's process ends. The SDK reports only "closed" and keeps its child
 * process private, so `start` is wrapped to reach the child as soon as it is spawned.
 */
export function watchExit(transport: StdioClientTransport): () => ProcessExit | undefined {
  let exit: ProcessExit | undefined
  const start = transport.start.bind(transport)
  transport.start = async () => {
    await start()
    // Checked at run time: if a new SDK renames the field, exits are just not described.
    const child: unknown = Reflect.get(transport, '_process')
    if (child instanceof ChildProcess) child.once('exit', (code, signal) => (exit = { code, signal }))
  }
  return () => exit
}

/** `exited with code 3`, `was killed by SIGKILL`, or '' when unknown. */
export function describeExit(exit: ProcessExit | undefined): string {
  if (!exit) return ''
  if (exit.signal) return `was killed by ${exit.signal}`
  return exit.code === null ? '' : `exited with code ${exit.code}`
}
