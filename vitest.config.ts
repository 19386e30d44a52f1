import { resolve } from 'node:path'
import { defineConfig } from 'vitest/config'
import vue from '@vitejs/plugin-vue'

const root = import.meta.dirname
const alias = { '@shared': resolve(root, 'src/shared'), '@renderer': resolve(root, 'src/renderer/src') }

// Files whose assertions measure time (a flush within 800 ms, a stop within 2 s): they run after
// the rest, one at a time, so the other worker's load cannot make them fail.
const timingMain = [
  'test/main/providers/faults.test.ts',
  'test/main/loop/streaming.test.ts',
  'test/main/loop/stop.test.ts'
]
const timingE2e = ['test/e2e/chat-controls.e2e.test.ts', 'test/e2e/longReply.e2e.test.ts']
// Renderer files that check what shows before a lazily loaded module (markdown-it, a highlight
// grammar) arrives: they need a module graph of their own, where it has not been loaded yet.
const freshRenderer = ['test/renderer/chat/lazyMarkdown.test.ts', 'test/renderer/chat/streamLogic.test.ts']

// The login shell the back end reads PATH from (mcpPresenter/shellEnv.ts) is a plain one: the
// machine's own runs its owner's dotfiles (pyenv's init here: ~1 s of CPU and seconds of waiting
// at every host start and harness that starts a child). Commands still run in the user's SHELL;
// the tests of the reading itself clear this and use their own SHELL.
const testEnv = { DEEPCHAT_TEST_LOGIN_SHELL: '/bin/sh' }

const e2e = {
  environment: 'node' as const,
  // One Chromium per worker for the whole run (each file gets its own contexts).
  globalSetup: ['test/e2e/helpers/globalSetup.ts'],
  // The files share each worker's module graph (playwright-core, the route contracts): importing
  // it anew per file cost seconds each; every file starts its own host and contexts anyway.
  isolate: false,
  // A page under a loaded machine takes seconds to reload or to answer: a poll's default 1 s made
  // waits for what does happen fail (CI at load 14).
  expect: { poll: { timeout: 10_000 } },
  testTimeout: 60_000,
  hookTimeout: 60_000
}

export default defineConfig({
  test: {
    // Two workers on a 2-core machine (vitest's default there is one): the tests mostly wait on
    // child processes, servers and the browser, so two keep both cores busy.
    maxWorkers: 2,
    reporters: ['default', './test/setup/requirementsReporter.ts'],
    projects: [
      {
        resolve: { alias },
        define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
        test: {
          name: 'main',
          env: testEnv,
          environment: 'node',
          include: ['test/main/**/*.test.ts'],
          // Files that mock modules need a fresh module graph each.
          exclude: ['test/main/electron/**', ...timingMain],
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
          env: testEnv,
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
          env: testEnv,
          environment: 'happy-dom',
          include: ['test/renderer/**/*.test.ts'],
          exclude: freshRenderer,
          // Shared module graph per worker: two dozen files import the whole back end (the real
          // bridge), and importing it per file took more CPU than all renderer tests together.
          isolate: false,
          // Some of these start real MCP servers; beside a second worker the default 5 s was short.
          testTimeout: 15_000
        }
      },
      {
        plugins: [vue()],
        resolve: { alias },
        define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
        test: {
          name: 'renderer-fresh',
          env: testEnv,
          environment: 'happy-dom',
          include: freshRenderer,
          testTimeout: 15_000
        }
      },
      {
        resolve: { alias },
        define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
        test: {
          name: 'main-timing',
          env: testEnv,
          environment: 'node',
          include: timingMain,
          isolate: false,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          testTimeout: 30_000,
          hookTimeout: 30_000
        }
      },
      {
        resolve: { alias },
        test: {
          // Needs `npm run build` first (npm test does it). The browser: a system Chromium, else
          // the one npm installed (test/e2e/helpers/browser.ts).
          name: 'e2e',
          env: testEnv,
          include: ['test/e2e/**/*.e2e.test.ts'],
          exclude: timingE2e,
          ...e2e
        }
      },
      {
        resolve: { alias },
        test: {
          name: 'e2e-timing',
          env: testEnv,
          include: timingE2e,
          fileParallelism: false,
          sequence: { groupOrder: 2 },
          ...e2e
        }
      }
    ]
  }
})
