import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'

const root = import.meta.dirname

// `npm run test:electron` only (scripts/test-electron.mjs): the built app in a real Electron.
// Not one of vitest.config.ts's projects, so `npm test` never runs it.
export default defineConfig({
  resolve: {
    alias: { '@shared': resolve(root, 'src/shared'), '@renderer': resolve(root, 'src/renderer/src') }
  },
  test: {
    name: 'electron',
    environment: 'node',
    include: ['test/electron/**/*.electron.test.ts'],
    testTimeout: 90_000,
    hookTimeout: 90_000,
    fileParallelism: false
  }
})
