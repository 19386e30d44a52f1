import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'

const root = import.meta.dirname
const alias = { '@shared': resolve(root, 'src/shared'), '@renderer': resolve(root, 'src/renderer/src') }

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias },
        define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
        test: {
          name: 'main',
          environment: 'node',
          include: ['test/main/**/*.test.ts'],
          // Files that mock modules need a fresh module graph each.
          exclude: ['test/main/electron/**'],
          // Back-end test files share each worker's module graph: importing it anew per file cost
          // more time than the tests themselves, and nothing here depends on a fresh one.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 30_000
        }
      },
      {
        resolve: { alias },
        define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
        test: {
          name: 'main-mocked',
          environment: 'node',
          include: ['test/main/electron/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000
        }
      },
      {
        plugins: [vue()],
        resolve: { alias },
        define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['test/renderer/**/*.test.ts']
        }
      },
      {
        resolve: { alias },
        test: {
          // Needs `npm run build` first (npm test does it) and Debian chromium.
          name: 'e2e',
          environment: 'node',
          include: ['test/e2e/**/*.e2e.test.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000
        }
      }
    ]
  }
})
