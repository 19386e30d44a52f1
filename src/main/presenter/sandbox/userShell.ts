import { existsSync } from 'node:fs'

/** How to run one command line in the user's shell. */
export function userShell(command: string, override?: string): { file: string; args: string[] } {
  if (process.platform === 'win32') {
    if (override) return { file: override, args: ['/d', '/s', '/c', command] }
    if (process.env.PSModulePath) {
      // Force UTF-8 so non-ASCII output is not mangled by the console code page.
      const preamble = '[Console]::OutputEncoding=[System.Text.Encoding]::UTF8;'
      return {
        file: 'powershell.exe',
        args: ['-NoProfile', '-NonInteractive', '-Command', preamble + command]
      }
    }
    return {
      file: process.env.ComSpec || 'cmd.exe',
      args: ['/d', '/s', '/c', `chcp 65001 > nul && ${command}`]
    }
  }
  const candidates = [override, process.env.SHELL, '/bin/bash', '/bin/zsh', '/bin/sh']
  const shell = candidates.find((c): c is string => !!c && existsSync(c)) ?? '/bin/sh'
  return { file: shell, args: ['-c', command] }
}
